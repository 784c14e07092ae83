package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// A wait longer than the interval shows a heartbeat; a short one shows
// nothing, and nothing is written after stop returns.
func TestHeartbeat(t *testing.T) {
	var b bytes.Buffer
	stop := heartbeat(&b, "evaluating x", 10*time.Millisecond)
	time.Sleep(35 * time.Millisecond)
	stop()
	n := strings.Count(b.String(), "attest: still evaluating x (")
	if n < 1 {
		t.Errorf("no heartbeat in %q", b.String())
	}
	after := b.Len()
	time.Sleep(30 * time.Millisecond)
	if b.Len() != after {
		t.Error("a heartbeat after stop")
	}
	b.Reset()
	heartbeat(&b, "quick", time.Hour)()
	if b.Len() != 0 {
		t.Errorf("a short wait printed %q", b.String())
	}
}
