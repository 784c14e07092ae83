package analysis

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/resolve"
)

// A program or document that cannot be read as text is recorded as not
// read; one stray NUL or invalid byte does not stop a file being read, and
// a file no producer reads (an image) is no concern of the model's.
func TestUnread(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"SKILL.md":        "---\nname: t\ndescription: d\n---\n# T \xff\n",
		"stray.py":        "# a \x00 b\nimport os\n",
		"blob.py":         strings.Repeat("\x00\x01", 300) + "\nimport os\n",
		"notes.md":        strings.Repeat("\xfe\x00", 300),
		"logo.png":        strings.Repeat("\x89PNG\x00", 100),
		"scripts/tool.sh": "#!/bin/sh\necho \xff ok\n",
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := resolve.Load(context.Background(), dir, resolve.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range Unread(s) {
		got = append(got, u.Path)
		if u.Reason != ReasonNotText {
			t.Errorf("%s: reason %q", u.Path, u.Reason)
		}
	}
	slices.Sort(got)
	if want := []string{"blob.py", "notes.md"}; !slices.Equal(got, want) {
		t.Errorf("unread %v, want %v", got, want)
	}
}
