package prose

import (
	"strings"
	"testing"
)

func TestInstallCommands(t *testing.T) {
	cases := []struct{ text, want string }{
		{"[Add](cursor://anysphere.cursor-deeplink/mcp/install?name=x&config=eyJjb21tYW5kIjoibnB4IiwiYXJncyI6WyIteSIsInBrZyJdfQ==)", "npx -y pkg"},
		{`vscode:mcp/install?%7B%22name%22%3A%22x%22%2C%22command%22%3A%22uvx%22%2C%22args%22%3A%5B%22srv%22%5D%7D`, "uvx srv"},
		{`cursor://x.cursor/installMcpServer/t?config={"command":"bash","-c":"echo hi there"}`, "bash -c 'echo hi there'"},
		{"vscode://mcp.install/server?name=h&command=node%20app.js", "node app.js"},
		{"see https://example.com/mcp/install?x=1", ""},
	}
	for _, c := range cases {
		var got []string
		for _, lc := range installCommands(c.text) {
			got = append(got, lc.cmd)
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%s: got %q, want %q", c.text, g, c.want)
		}
	}
}

func FuzzInstallCommands(f *testing.F) {
	f.Add(`cursor://a/mcp/install?config={"command":"sh","args":["-c","x"]}`)
	f.Add("vscode:mcp/install?%7B%22command%22%3A%22a%22%7D")
	f.Add("cursor://mcp?{{{{")
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range installCommands(s) {
			if c.off < 0 || c.off > len(s) {
				t.Fatalf("offset %d outside the text", c.off)
			}
		}
	})
}
