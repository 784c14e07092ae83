package flow

import "testing"

func TestFormats(t *testing.T) {
	kw := map[string]string{"cmd": "curl", "shell": "sh"}
	cases := []struct {
		got  func() (string, bool)
		want string
		ok   bool
	}{
		{func() (string, bool) { return pyFormat("{0}{1} | {2}", []string{"cu", "rl x", "sh"}, nil) }, "curl x | sh", true},
		{func() (string, bool) { return pyFormat("{} {}", []string{"a"}, nil) }, "a ?", true},
		{func() (string, bool) { return pyFormat("{cmd!r:>8} {{x}}", nil, kw) }, "curl {x}", true},
		{func() (string, bool) { return pyFormat("no fields", nil, nil) }, "no fields", false},
		{func() (string, bool) { return pyFormat("{unclosed", nil, nil) }, "{unclosed", false},
		{func() (string, bool) { return pyPercent("%s%s -O %d", []string{"wg", "et"}, nil) }, "wget -O ?", true},
		{func() (string, bool) { return pyPercent("%(cmd)s | %(shell)s 100%%", nil, kw) }, "curl | sh 100%", true},
		{func() (string, bool) { return pyPercent("ratio 100%", nil, nil) }, "ratio 100%", false},
		{func() (string, bool) { return pyPercent("%(open", nil, kw) }, "%(open", false},
	}
	for i, c := range cases {
		got, ok := c.got()
		if got != c.want || ok != c.ok {
			t.Errorf("case %d: got %q %v, want %q %v", i, got, ok, c.want, c.ok)
		}
	}
}

func FuzzFormats(f *testing.F) {
	for _, s := range []string{"{0}{1}", "%(a)s %d %%", "{", "%(", "{a!r:>{b}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		kw := map[string]string{"a": "x"}
		if out, _ := pyFormat(s, []string{"p"}, kw); len(out) > 2*len(s)+8 {
			t.Fatalf("pyFormat grew %q to %q", s, out)
		}
		if out, _ := pyPercent(s, []string{"p"}, kw); len(out) > 2*len(s)+8 {
			t.Fatalf("pyPercent grew %q to %q", s, out)
		}
	})
}
