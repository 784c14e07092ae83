package vocab

import (
	"strings"
	"testing"
)

func TestDataParses(t *testing.T) {
	if err := Err(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(Digest(), "sha256:") {
		t.Fatalf("digest %q", Digest())
	}
	for _, f := range []string{"paths", "env", "hosts", "providers"} {
		if len(Entries(f)) == 0 {
			t.Errorf("%s: no entries", f)
		}
	}
}

// Every entry of the matcher-backed tables has a positive and a negative
// example, and each gives the classifier's answer the entry promises.
func TestExamples(t *testing.T) {
	classify := map[string]func(string) Labels{
		"paths": PathLabels,
		"env": func(s string) Labels {
			// A not-secret entry's positives must come out unclassified;
			// it is the absence of a label that it promises.
			if l := EnvLabel(s); l != "" {
				return Labels{l}
			}
			return Labels{"not-secret"}
		},
		"providers": func(s string) Labels {
			if p := SecretProvider(s); p.Name != "" {
				return Labels{p.Name}
			}
			return nil
		},
		"names": func(s string) Labels {
			if l := NameLabel(s); l != "" {
				return Labels{l}
			}
			return nil
		},
		// a host may carry several labels (an installer's host is a
		// registry too): each entry promises its own
		"hosts": HostLabels,
	}
	for file, f := range classify {
		for _, e := range Entries(file) {
			if len(e.Pos) == 0 || len(e.Neg) == 0 {
				t.Errorf("%s: needs at least one positive and one negative example", e)
			}
			for _, p := range e.Pos {
				if got := f(p); !got.Has(e.Label) {
					t.Errorf("%s: %q gives %v, want %s", e, p, got, e.Label)
				}
			}
			for _, n := range e.Neg {
				if got := f(n); got.Has(e.Label) {
					t.Errorf("%s: negative %q gives %s", e, n, e.Label)
				}
			}
		}
	}
}

func TestNormPath(t *testing.T) {
	for in, want := range map[string]string{
		`C:\Users\Bob\.ssh\id_rsa`:   "~/.ssh/id_rsa",
		"/home/alice/.aws/":          "~/.aws",
		"$HOME//.netrc":              "~/.netrc",
		"${HOME}/.bashrc":            "~/.bashrc",
		"/root":                      "~",
		"%APPDATA%\\Exodus":          "~/appdata/roaming/exodus",
		"./.env":                     ".env",
		"/Users/x/Library/Keychains": "~/library/keychains",
	} {
		if got := NormPath(in); got != want {
			t.Errorf("NormPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLiteralKey(t *testing.T) {
	for p, want := range map[string]string{"**/.ssh/**": ".ssh", "**/id_{rsa,dsa}{,.pub}": "id_", "*token*": "token", "**/*.{pem,key}": "."} {
		if got := literalKey(p); got != want {
			t.Errorf("literalKey(%q) = %q, want %q", p, got, want)
		}
	}
}

// A ledger's host is a host even bare: the scheme a with-scheme entry
// needs is implied.
func TestPeerLabel(t *testing.T) {
	for host, want := range map[string]string{
		"metadata": "metadata", "METADATA.": "metadata", "fd00:ec2::254": "metadata", "169.254.169.254": "metadata",
		"abc.webhook.site": "capture", "metadata.example.com": "", "example.com": "",
	} {
		if got := PeerLabel(host); got != want {
			t.Errorf("PeerLabel(%q) = %q, want %q", host, got, want)
		}
	}
	if got := HostLabel("metadata"); got != "" {
		t.Errorf("a bare word is labelled %q", got)
	}
}

// HostLabel names the first label that applies, HostLabels every one.
func TestHostLabels(t *testing.T) {
	if got := HostLabels("https://pypi.org/simple/"); !got.Has("installer") || !got.Has("registry") {
		t.Errorf("HostLabels(pypi.org) = %v", got)
	}
	if got := HostLabel("https://pypi.org/simple/"); got != "installer" {
		t.Errorf("HostLabel(pypi.org) = %q", got)
	}
	if got := HostLabels("https://example.com/"); len(got) != 0 {
		t.Errorf("HostLabels(example.com) = %v", got)
	}
}

// Every decoy the sandbox plants is a credential store by the
// vocabulary's own reading, and holds the canary.
func TestDecoys(t *testing.T) {
	ds := Decoys()
	if len(ds) < 4 {
		t.Fatalf("%d decoys", len(ds))
	}
	for _, d := range ds {
		if !PathLabels("~/" + d.Path).Has("credential-store") {
			t.Errorf("decoy %s is no credential store: %v", d.Path, PathLabels("~/"+d.Path))
		}
		if !strings.Contains(d.Content, "%s") || strings.Contains(d.Content, `\n`) || !strings.HasSuffix(d.Content, "\n") {
			t.Errorf("decoy %s: content %q", d.Path, d.Content)
		}
	}
}

func TestNetworked(t *testing.T) {
	for _, c := range []struct {
		lang, name string
		want       bool
	}{
		{"js", "fetch", true}, {"js", "axios.post", true}, {"python", "requests.get", true}, {"python", "urllib.request.urlopen", true},
		{"python", "session.post", true}, {"shell", "curl", true}, {"shell", "nc", true},
		{"js", "JSON.parse", false}, {"python", "json.loads", false}, {"python", "result.post", false}, {"shell", "cat", false},
	} {
		if got := Networked(c.lang, c.name); got != c.want {
			t.Errorf("Networked(%s, %s) = %v, want %v", c.lang, c.name, got, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("@section a\nlabel  pat  k=v flag\n    + yes\n    - no\n"))
	f.Add([]byte("  + orphan\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		es, err := Parse("fuzz", b)
		if err != nil {
			return
		}
		for _, e := range es {
			if e.Label == "" || e.Pattern == "" {
				t.Fatalf("entry with an empty field: %+v", e)
			}
		}
	})
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{"~/.ssh/id_rsa", "https://webhook.site/x", "GITHUB_TOKEN", "[::1]:80", "a://", "%appdata%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = PathLabels(s)
		_ = EnvLabel(s)
		_ = HostLabel(s)
		_ = PeerLabel(s)
	})
}

func TestPhrasesCompile(t *testing.T) {
	if err := PhrasesErr(); err != nil {
		t.Fatal(err)
	}
	if len(Phrases()) == 0 {
		t.Fatal("no phrase families")
	}
	for _, p := range Phrases() {
		if len(p.Pos) == 0 || len(p.Neg) == 0 {
			t.Errorf("%s: needs a positive and a negative example", p.Entry)
		}
		if len(p.Required) == 0 {
			t.Logf("%s: no required literal; the pattern runs on every sentence", p.Entry)
		}
	}
}

// The prefilter never drops a sentence its pattern matches: every match
// holds one of the required literals.
func FuzzRequired(f *testing.F) {
	for _, p := range Phrases() {
		for _, s := range p.Pos {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range Phrases() {
			if len(p.Required) == 0 || !p.Re().MatchString(s) {
				continue
			}
			ok := false
			for _, r := range p.Required {
				if strings.Contains(s, r) {
					ok = true
				}
			}
			if !ok {
				t.Fatalf("%s matches %q, which holds none of %q", p.Entry, s, p.Required)
			}
		}
	})
}
