package analysis

import (
	"slices"
	"strings"
	"testing"
)

// A program or document that cannot be read as text is recorded as not
// read; one stray NUL or invalid byte does not stop a file being read, and
// a file no producer reads (an image) is no concern of the model's.
func TestUnread(t *testing.T) {
	files := map[string]string{
		"SKILL.md":        "---\nname: t\ndescription: d\n---\n# T \xff\n",
		"stray.py":        "# a \x00 b\nimport os\n",
		"blob.py":         strings.Repeat("\x00\x01", 300) + "\nimport os\n",
		"notes.md":        strings.Repeat("\xfe\x00", 300),
		"logo.png":        strings.Repeat("\x89PNG\x00", 100),
		"scripts/tool.sh": "#!/bin/sh\necho \xff ok\n",
	}
	s := subject(t, files)
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

// The model lowers at most its budget of documents and of code per run, in
// scan order, and lists what it left as not read (which keeps the behaviour
// checks from pass), so a hostile artifact of many large files costs
// bounded time and memory. Under the budget everything is read.
func TestModelBudget(t *testing.T) {
	para := strings.Repeat("The tool formats the text the user gives it and returns it.\n", 20) + "\n"
	code := strings.Repeat("def f(x):\n    return x + 1\n\n", 64)
	defer func(c, d int) { maxCode, maxDocs = c, d }(maxCode, maxDocs)
	maxCode, maxDocs = 64<<10, 32<<10
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"under", map[string]string{"a.md": strings.Repeat(para, 10), "b.py": strings.Repeat(code, 10)}, nil},
		{"docs over", map[string]string{"a.md": strings.Repeat(para, (maxDocs/len(para))*3/4), "b.md": strings.Repeat(para, (maxDocs/len(para))/2), "c.md": para}, []string{"b.md"}},
		{"code over", map[string]string{"a.py": strings.Repeat(code, (maxCode/len(code))*3/4), "b.py": strings.Repeat(code, (maxCode/len(code))/2), "c.md": para}, []string{"b.py"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.files["SKILL.md"] = "---\nname: t\ndescription: d\n---\n# T\n"
			s := subject(t, c.files)
			var got []string
			for _, u := range Unread(s) {
				got = append(got, u.Path)
				if u.Reason != ReasonBudget {
					t.Errorf("%s: reason %q", u.Path, u.Reason)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("not read %v, want %v", got, c.want)
			}
		})
	}
}
