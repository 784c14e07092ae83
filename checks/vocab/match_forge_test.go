package vocab

import "testing"

// A forge URL in any of its spellings names one repository; anything
// else names none.
func TestForgeRepo(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/Owner/Tool":                          "github.com/owner/tool",
		"git+https://github.com/owner/tool.git":                  "github.com/owner/tool",
		"github.com/owner/tool.":                                 "github.com/owner/tool",
		"https://raw.githubusercontent.com/owner/tool/main/i.sh": "github.com/owner/tool",
		"https://codeload.github.com/owner/tool/tar.gz/v1":       "github.com/owner/tool",
		"https://gitlab.com/team/docs.git":                       "gitlab.com/team/docs",
		"https://github.com/owner":                               "",
		"https://github.com//tool":                               "",
		"https://example.com/owner/tool":                         "",
		"see github.com/owner/tool":                              "",
	} {
		got, _, ok := ForgeRepo(in)
		if got != want || ok != (want != "") {
			t.Errorf("ForgeRepo(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
