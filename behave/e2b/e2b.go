// Package e2b is the E2B cloud sandbox: a microVM created per run through
// E2B's platform API, the artifact and attest's agent uploaded through its
// envd file API, and commands run through envd's process service, a
// Connect-protocol RPC. The VM is created with internet access off; E2B
// offers no hook for attest's recording proxy, so the network ledger stays
// empty and says why, and files and processes are not traced.
package e2b

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/metahub-ai/attest/behave"
)

// Defaults of the E2B service (E2B_API_URL, E2B_SANDBOX_URL and
// E2B_DOMAIN override them, as E2B's own SDKs read them).
const (
	DefaultAPI      = "https://api.e2b.app"
	DefaultDomain   = "e2b.app"
	DefaultTemplate = "base"
	envdPort        = 49983
	// user runs the artifact; root only prepares the VM.
	user = "user"
)

// Sandbox is an E2B sandbox; one VM per Start or Run.
type Sandbox struct {
	Key, API, SandboxURL, Domain, Template string
	HTTP                                   *http.Client
}

// FromEnv reads E2B_API_KEY and the overrides.
func FromEnv() *Sandbox {
	s := &Sandbox{Key: os.Getenv("E2B_API_KEY"), API: os.Getenv("E2B_API_URL"), SandboxURL: os.Getenv("E2B_SANDBOX_URL"),
		Domain: os.Getenv("E2B_DOMAIN"), Template: os.Getenv("ATTEST_E2B_TEMPLATE")}
	if s.API == "" {
		s.API = DefaultAPI
	}
	if s.Domain == "" {
		s.Domain = DefaultDomain
	}
	if s.Template == "" {
		s.Template = DefaultTemplate
	}
	return s
}

// Name is the sandbox's name in reports.
func (s *Sandbox) Name() string { return "e2b" }

// NoProxy says the recording proxy cannot be bound into this sandbox.
func (s *Sandbox) NoProxy() bool { return true }

func (s *Sandbox) client() *http.Client {
	if s.HTTP != nil {
		return s.HTTP
	}
	return &http.Client{Timeout: 0}
}

// Version names the service and template; Probe shows they work.
func (s *Sandbox) Version(ctx context.Context) (string, error) {
	if s.Key == "" {
		return "", fmt.Errorf("%w: E2B_API_KEY is not set", behave.ErrUnavailable)
	}
	return "e2b " + s.API + " template " + s.Template, nil
}

// vm is one created sandbox.
type vm struct {
	s      *Sandbox
	id     string
	token  string
	envd   string
	domain string
}

type created struct {
	SandboxID       string `json:"sandboxID"`
	EnvdVersion     string `json:"envdVersion"`
	EnvdAccessToken string `json:"envdAccessToken"`
	Domain          string `json:"domain"`
}

func (s *Sandbox) create(ctx context.Context, ttl time.Duration) (*vm, string, error) {
	body, _ := json.Marshal(map[string]any{"templateID": s.Template, "timeout": int(ttl / time.Second),
		"secure": true, "allow_internet_access": false})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(s.API, "/")+"/sandboxes", bytes.NewReader(body))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("X-API-Key", s.Key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client().Do(req)
	if err != nil {
		return nil, "", fmt.Errorf("%w: E2B does not answer: %v", behave.ErrUnavailable, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, "", fmt.Errorf("%w: E2B refused the API key (HTTP %d)", behave.ErrUnavailable, resp.StatusCode)
	case resp.StatusCode/100 != 2:
		return nil, "", fmt.Errorf("creating an E2B sandbox: HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(data)))
	}
	var c created
	if err := json.Unmarshal(data, &c); err != nil || c.SandboxID == "" {
		return nil, "", fmt.Errorf("creating an E2B sandbox: an answer without a sandbox id")
	}
	v := &vm{s: s, id: c.SandboxID, token: c.EnvdAccessToken, domain: c.Domain}
	if v.domain == "" {
		v.domain = s.Domain
	}
	v.envd = s.SandboxURL
	if v.envd == "" {
		v.envd = fmt.Sprintf("https://%d-%s.%s", envdPort, v.id, v.domain)
	}
	return v, c.EnvdVersion, nil
}

func (v *vm) kill() {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, strings.TrimSuffix(v.s.API, "/")+"/sandboxes/"+url.PathEscape(v.id), nil)
	if err != nil {
		return
	}
	req.Header.Set("X-API-Key", v.s.Key)
	if resp, err := v.s.client().Do(req); err == nil {
		resp.Body.Close()
	}
}

func (v *vm) headers(h http.Header, as string) {
	if v.token != "" {
		h.Set("X-Access-Token", v.token)
	}
	h.Set("E2b-Sandbox-Id", v.id)
	h.Set("E2b-Sandbox-Port", strconv.Itoa(envdPort))
	h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(as+":")))
}

// upload writes one file in the VM, owned by as.
func (v *vm) upload(ctx context.Context, dst string, r io.Reader, as string) error {
	q := url.Values{"path": {dst}, "username": {as}}
	resp, err := v.post(ctx, "/files?"+q.Encode(), r, "application/octet-stream", as)
	if err != nil {
		return fmt.Errorf("uploading %s: %w", dst, err)
	}
	resp.Body.Close()
	return nil
}

// post sends one request to the VM's envd as the user as, and returns the
// answer when it is a success; the Connect header is harmless to the file
// API, which ignores it.
func (v *vm) post(ctx context.Context, pathQuery string, body io.Reader, contentType, as string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(v.envd, "/")+pathQuery, body)
	if err != nil {
		return nil, err
	}
	v.headers(req.Header, as)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Connect-Protocol-Version", "1")
	resp, err := v.s.client().Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		return nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(b)))
	}
	return resp, nil
}

// envelope frames one Connect streaming message.
func envelope(flags byte, msg []byte) []byte {
	out := make([]byte, 5+len(msg))
	out[0] = flags
	binary.BigEndian.PutUint32(out[1:5], uint32(len(msg)))
	copy(out[5:], msg)
	return out
}

// maxMessage bounds one streamed message.
const maxMessage = 16 << 20

// readEnvelope reads one Connect streaming message.
func readEnvelope(r io.Reader) (flags byte, msg []byte, err error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(head[1:])
	if n > maxMessage {
		return 0, nil, fmt.Errorf("a message of %d bytes", n)
	}
	msg = make([]byte, n)
	_, err = io.ReadFull(r, msg)
	return head[0], msg, err
}

type processEvent struct {
	Event struct {
		Start *struct {
			PID uint32 `json:"pid"`
		} `json:"start"`
		Data *struct {
			Stdout []byte `json:"stdout"`
			Stderr []byte `json:"stderr"`
		} `json:"data"`
		End *struct {
			ExitCode int32  `json:"exitCode"`
			Exited   bool   `json:"exited"`
			Status   string `json:"status"`
			Error    string `json:"error"`
		} `json:"end"`
	} `json:"event"`
}

// unary calls one Connect unary method of envd's process service.
func (v *vm) unary(ctx context.Context, method string, body any, as string) error {
	data, _ := json.Marshal(body)
	resp, err := v.post(ctx, "/process.Process/"+method, bytes.NewReader(data), "application/json", as)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	resp.Body.Close()
	return nil
}

// proc is a process started in the VM.
type proc struct {
	v    *vm
	pid  uint32
	as   string
	body io.ReadCloser
}

// start starts argv and returns once the VM said its pid.
func (v *vm) start(ctx context.Context, argv []string, env map[string]string, cwd, as string, stdin bool) (*proc, error) {
	msg, _ := json.Marshal(map[string]any{"process": map[string]any{"cmd": argv[0], "args": argv[1:], "envs": env, "cwd": cwd}, "stdin": stdin})
	resp, err := v.post(ctx, "/process.Process/Start", bytes.NewReader(envelope(0, msg)), "application/connect+json", as)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	p := &proc{v: v, as: as, body: resp.Body}
	ev, end, err := p.next()
	if err != nil || end || ev.Event.Start == nil {
		resp.Body.Close()
		return nil, fmt.Errorf("starting %s: no start event (%v)", argv[0], err)
	}
	p.pid = ev.Event.Start.PID
	return p, nil
}

// next reads the next event; end is the end of the stream.
func (p *proc) next() (processEvent, bool, error) {
	var ev processEvent
	for {
		flags, msg, err := readEnvelope(p.body)
		if err != nil {
			return ev, false, err
		}
		if flags&0x02 != 0 {
			var trailer struct {
				Error *struct{ Code, Message string } `json:"error"`
			}
			json.Unmarshal(msg, &trailer)
			if trailer.Error != nil {
				return ev, true, fmt.Errorf("%s: %s", trailer.Error.Code, trailer.Error.Message)
			}
			return ev, true, nil
		}
		ev = processEvent{}
		if err := json.Unmarshal(msg, &ev); err != nil {
			return ev, false, err
		}
		if ev.Event.Start == nil && ev.Event.Data == nil && ev.Event.End == nil {
			continue // keepalive
		}
		return ev, false, nil
	}
}

// run runs argv to its end and returns its exit code and output.
func (v *vm) run(ctx context.Context, argv []string, as string) (int, string, error) {
	p, err := v.start(ctx, argv, nil, "/", as, false)
	if err != nil {
		return 0, "", err
	}
	defer p.body.Close()
	var out bytes.Buffer
	for {
		ev, end, err := p.next()
		if err != nil {
			return 0, out.String(), err
		}
		if end {
			return 0, out.String(), errors.New("the stream ended without an end event")
		}
		if d := ev.Event.Data; d != nil && out.Len() < 64<<10 {
			out.Write(d.Stdout)
			out.Write(d.Stderr)
		}
		if e := ev.Event.End; e != nil {
			return int(e.ExitCode), out.String(), nil
		}
	}
}

// prepare creates a VM holding the artifact at /artifact and the binds at
// their paths, and /work and the home for the artifact's user.
func (s *Sandbox) prepare(ctx context.Context, sp behave.Spec, l behave.Limits) (*vm, error) {
	if s.Key == "" {
		return nil, fmt.Errorf("%w: E2B_API_KEY is not set", behave.ErrUnavailable)
	}
	v, _, err := s.create(ctx, l.Wall+time.Minute)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*vm, error) {
		v.kill()
		return nil, err
	}
	var execs []string
	root, err := os.OpenRoot(sp.Artifact)
	if err != nil {
		return fail(err)
	}
	defer root.Close()
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		f, err := root.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		if info, err := d.Info(); err == nil && info.Mode()&0o111 != 0 {
			execs = append(execs, "/artifact/"+p)
		}
		return v.upload(ctx, "/artifact/"+p, f, "root")
	})
	if err != nil {
		return fail(fmt.Errorf("uploading the artifact: %w", err))
	}
	for _, b := range sp.Binds {
		st, err := os.Stat(b.Host)
		if err != nil || !st.Mode().IsRegular() {
			continue // a socket directory: nothing to bind in a VM
		}
		f, err := os.Open(b.Host)
		if err != nil {
			return fail(err)
		}
		err = v.upload(ctx, b.Sandbox, f, "root")
		f.Close()
		if err != nil {
			return fail(err)
		}
		if st.Mode()&0o111 != 0 {
			execs = append(execs, b.Sandbox)
		}
	}
	script := "chmod -R a+rX,a-w /artifact && mkdir -p /work /home/" + user + " && (chown " + user + " /work 2>/dev/null || chmod 1777 /work)"
	for _, e := range execs {
		script += " && chmod 0755 " + shellQuote(e)
	}
	if code, out, err := v.run(ctx, []string{"/bin/sh", "-c", script}, "root"); err != nil || code != 0 {
		return fail(fmt.Errorf("preparing the sandbox: exit %d %v: %s", code, err, out))
	}
	return v, nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Start runs sp in a new VM with its standard input and output connected.
func (s *Sandbox) Start(ctx context.Context, sp behave.Spec) (*behave.Process, error) {
	return s.launch(ctx, sp, true)
}

// Run runs sp in a new VM and waits for it.
func (s *Sandbox) Run(ctx context.Context, sp behave.Spec) (*behave.Result, error) {
	p, err := s.launch(ctx, sp, false)
	if err != nil {
		return nil, err
	}
	return p.Wait()
}

func (s *Sandbox) launch(ctx context.Context, sp behave.Spec, piped bool) (*behave.Process, error) {
	l := sp.Limits
	if l == (behave.Limits{}) {
		l = behave.DefaultLimits
	}
	if len(sp.Argv) == 0 {
		return nil, errors.New("nothing to run")
	}
	v, err := s.prepare(ctx, sp, l)
	if err != nil {
		return nil, err
	}
	env := map[string]string{"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/home/" + user, "LANG": "C.UTF-8"}
	for _, kv := range sp.Env {
		if k, val, ok := strings.Cut(kv, "="); ok && !strings.HasSuffix(strings.ToLower(k), "_proxy") && k != "npm_config_proxy" && k != "npm_config_https_proxy" {
			env[k] = val
		}
	}
	argv := append([]string{"prlimit", "--nproc=" + strconv.Itoa(l.Processes), "--fsize=" + strconv.FormatInt(l.FileSize, 10),
		"--cpu=" + strconv.Itoa(int(max(1, l.CPU/time.Second))), "--as=" + strconv.FormatInt(l.Memory, 10), "--nofile=256", "--core=0", "--"}, sp.Argv...)
	runCtx, cancel := context.WithTimeout(context.Background(), l.Wall)
	p, err := v.start(runCtx, argv, env, "/work", user, true)
	if err != nil {
		cancel()
		v.kill()
		return nil, err
	}
	start := time.Now()
	outR, outW := io.Pipe()
	res := &behave.Result{}
	var stdout, stderr bytes.Buffer
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer outW.Close()
		for {
			ev, end, err := p.next()
			if err != nil || end {
				mu.Lock()
				if res.LimitHit == "" && runCtx.Err() != nil && ctx.Err() == nil {
					res.LimitHit = behave.HitWall
				}
				mu.Unlock()
				return
			}
			if d := ev.Event.Data; d != nil {
				mu.Lock()
				if int64(stderr.Len()) < l.Output {
					stderr.Write(d.Stderr)
				}
				over := false
				if !piped {
					if int64(stdout.Len()+len(d.Stdout)) > l.Output {
						over = true
						res.LimitHit = behave.HitOutput
					} else {
						stdout.Write(d.Stdout)
					}
				}
				mu.Unlock()
				if piped && len(d.Stdout) > 0 {
					outW.Write(d.Stdout)
				}
				if over {
					cancel()
				}
			}
			if e := ev.Event.End; e != nil {
				mu.Lock()
				res.ExitCode = int(e.ExitCode)
				mu.Unlock()
				return
			}
		}
	}()
	go func() {
		select {
		case <-ctx.Done():
			cancel()
		case <-runCtx.Done():
		case <-done:
		}
	}()
	in := &stdin{p: p}
	if !piped && sp.Stdin != nil {
		go func() { io.Copy(in, sp.Stdin); in.Close() }()
	}
	proc := behave.NewProcess(in, outR, func() (*behave.Result, error) {
		<-done
		cancel()
		p.body.Close()
		v.kill()
		mu.Lock()
		defer mu.Unlock()
		res.Duration = time.Since(start)
		res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
		if bytes.Contains(res.Stderr, []byte("No space left on device")) && res.LimitHit == "" {
			res.LimitHit = behave.HitDisk
		}
		return res, nil
	}, func() { cancel() })
	return proc, nil
}

// stdin sends what is written to the process's standard input.
type stdin struct {
	p      *proc
	closed bool
}

func (s *stdin) Write(b []byte) (int, error) {
	if s.closed {
		return 0, io.ErrClosedPipe
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := s.p.v.unary(ctx, "SendInput", map[string]any{"process": map[string]any{"pid": s.p.pid}, "input": map[string]any{"stdin": b}}, s.p.as)
	if err != nil {
		return 0, err
	}
	return len(b), nil
}

func (s *stdin) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return s.p.v.unary(ctx, "CloseStdin", map[string]any{"process": map[string]any{"pid": s.p.pid}}, s.p.as)
}

// Probe creates a VM, runs a command in it and removes it.
func (s *Sandbox) Probe(ctx context.Context) (string, error) {
	if _, err := s.Version(ctx); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "attest-probe-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	r, err := s.Run(ctx, behave.Spec{Artifact: dir, Argv: []string{"true"},
		Limits: behave.Limits{Wall: time.Minute, CPU: 5 * time.Second, Memory: 1 << 30, Processes: 64, FileSize: 1 << 20, Disk: 1 << 20, Output: 64 << 10}})
	if err != nil {
		return "", err
	}
	if r.ExitCode != 0 {
		return "", fmt.Errorf("%w: an E2B sandbox started but could not run a command: %s", behave.ErrUnavailable, strings.TrimSpace(string(r.Stderr)))
	}
	v, _ := s.Version(ctx)
	return v, nil
}
