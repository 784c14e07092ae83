package mcp

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestLockCompare(t *testing.T) {
	base := NewLock(Declared, []LockEntry{
		{Kind: "tool", Name: "add", DescriptionSHA256: "d1", SchemaSHA256: "s1"},
		{Kind: "tool", Name: "sub", DescriptionSHA256: "d2", SchemaSHA256: "s2"},
		{Kind: "tool", Name: "old", DescriptionSHA256: "d3"},
		{Kind: "prompt", Name: "review", DescriptionSHA256: "p1"},
	})
	data, _ := json.Marshal(base)
	lock, err := ParseLock(data)
	if err != nil {
		t.Fatal(err)
	}
	if ds, err := Compare(lock, base); err != nil || len(ds) != 0 {
		t.Fatalf("unchanged surface: %v %v", ds, err)
	}
	cur := NewLock(Declared, []LockEntry{
		{Kind: "tool", Name: "add", DescriptionSHA256: "d1-new", SchemaSHA256: "s1"},
		{Kind: "tool", Name: "sub", DescriptionSHA256: "d2-new", SchemaSHA256: "s2-new"},
		{Kind: "tool", Name: "mul", DescriptionSHA256: "d4"},
		{Kind: "prompt", Name: "review", DescriptionSHA256: "p1", SchemaSHA256: "ps"},
	})
	ds, err := Compare(lock, cur)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range ds {
		got[d.Kind+" "+d.Name] = d.Change
	}
	want := map[string]string{"tool add": "description changed", "tool sub": "redefined", "tool mul": "added", "tool old": "removed", "prompt review": "schema changed"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q (all: %v)", k, got[k], v, ds)
		}
	}
	if !NeedsReview(ds) {
		t.Error("drift needs review")
	}
	if NeedsReview([]Drift{{Kind: "tool", Name: "old", Change: "removed"}}) {
		t.Error("a removal alone needs no review")
	}
	if _, err := Compare(lock, NewLock(Observed, nil)); !errors.Is(err, ErrNotComparable) {
		t.Errorf("declared against observed: %v", err)
	}
}

func TestParseLockRejects(t *testing.T) {
	for src, want := range map[string]string{
		`{"lockVersion":2,"origin":"declared","entries":[]}`: "version 2",
		`{"lockVersion":1,"origin":"guessed","entries":[]}`:  "origin",
		`[`: "lock file",
		`{"lockVersion":1,"origin":"declared","entries":[` + strings.Repeat("[", 20) + `]}`: "deeper",
	} {
		if _, err := ParseLock([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}

func FuzzParseLock(f *testing.F) {
	f.Add([]byte(`{"lockVersion":1,"origin":"declared","entries":[{"kind":"tool","name":"a","descriptionSha256":"x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLock(data)
		if err != nil {
			return
		}
		if _, err := Compare(l, l); err != nil {
			t.Fatalf("a lock against itself: %v", err)
		}
	})
}
