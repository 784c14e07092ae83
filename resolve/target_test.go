package resolve

import (
	"errors"
	"regexp"
	"testing"
)

func TestParseRecognisesRemoteForms(t *testing.T) {
	expr := regexp.MustCompile(`^([a-z][a-z0-9+.-]*://|git@|npm:|pypi:|registry:|gh:|github:)`)
	for _, s := range []string{"https://github.com/a/b", "git+ssh://x", "git@github.com:a/b", "npm:left-pad", "pypi:x",
		"registry:x", "gh:a/b", "github:a/b", "./dir", "dir", "C://x", "://x", "a b://x", "1http://x", "dir/http://x", "file:///tmp/x"} {
		if got, want := looksRemote(s), expr.MatchString(s); got != want {
			t.Errorf("looksRemote(%q) = %v, the expression says %v", s, got, want)
		}
	}
	if _, err := Parse("https://example.test/a.git"); !errors.Is(err, ErrUnsupportedTarget) {
		t.Errorf("a URL target: %v, want ErrUnsupportedTarget", err)
	}
	if tg, err := Parse("file:///tmp/x"); err != nil || tg.Path != "/tmp/x" {
		t.Errorf("file:// target: %+v, %v", tg, err)
	}
}
