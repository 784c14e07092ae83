package harness

import (
	"testing"

	"github.com/metahub-ai/attest/behave"
)

func FuzzParseEvals(f *testing.F) {
	f.Add([]byte(`{"cases":[{"id":"a","prompt":"p","expect":"e"}]}`))
	f.Add([]byte(`{"cases":[{"id":"a","prompt":"p"},{"id":"a","prompt":"q"}]}`))
	f.Add([]byte(`{"cases":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := ParseEvals(data, "f.json")
		if err == nil && (len(cs) == 0 || len(cs) > maxEvalsCases) {
			t.Fatalf("accepted %d cases", len(cs))
		}
	})
}

func FuzzParseGrade(f *testing.F) {
	f.Add(`{"dimensions":{"followsDocumentation":9,"completesTask":8,"communicates":10}}`)
	f.Add(`prose {"refused":"x"} more`)
	f.Add(`{"dimensions":{"followsDocumentation":11,"completesTask":8,"communicates":10}}`)
	f.Fuzz(func(t *testing.T, s string) {
		g := parseGrade(s)
		if g.score != nil && (*g.score < 0 || *g.score > 1 || g.err != "") {
			t.Fatalf("%+v", g)
		}
		if g.score == nil && g.err == "" {
			t.Fatal("neither a grade nor an error")
		}
	})
}

func FuzzParseTranscript(f *testing.F) {
	t := &behave.Transcript{Schema: behave.TranscriptSchema, Kind: "skill", Case: "c", Turns: []behave.Turn{{Role: "user", Parts: []behave.TurnPart{{Type: "text", Text: "hi"}}}}}
	data, _, _ := t.Canonical()
	f.Add(data)
	f.Add([]byte(`{"schema":"x"}`))
	f.Fuzz(func(tt *testing.T, data []byte) {
		if tr, err := behave.ParseTranscript(data, ""); err == nil {
			again, _, err := tr.Canonical()
			if err != nil || string(again) != string(data) {
				tt.Fatal("accepted a transcript that is not its own canonical form")
			}
		}
	})
}
