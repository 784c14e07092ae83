package observed

import "testing"

// Merge labels unlabelled events, keeps labels, and stops at the bound.
func TestMerge(t *testing.T) {
	var l Ledger
	l.Merge(&Ledger{Method: "strace", Files: []FileEvent{{Path: "/a"}, {Path: "/b", Case: "other"}}}, "c1")
	if l.Method != "strace" || l.Files[0].Case != "c1" || l.Files[1].Case != "other" || l.Truncated {
		t.Fatalf("%+v", l)
	}
	big := make([]ProcEvent, MaxProcEvents+5)
	l.Merge(&Ledger{Processes: big}, "c2")
	if len(l.Processes) != MaxProcEvents || !l.Truncated {
		t.Fatalf("%d %v", len(l.Processes), l.Truncated)
	}
}
