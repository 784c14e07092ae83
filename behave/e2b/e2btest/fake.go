// Package e2btest is a local E2B for tests: the platform API (create and
// delete a sandbox), envd's file upload and its process service over the
// Connect protocol (Start as a server stream, SendInput, CloseStdin). Each
// "VM" is a directory, and its commands run under bubblewrap with that
// directory's tree bound at /artifact, /.attest, /work and /home, so the
// client's real code path runs real commands, sandboxed.
package e2btest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Fake is the local E2B.
type Fake struct {
	Key string
	URL string

	t       testing.TB
	mu      sync.Mutex
	next    int
	vms     map[string]*vm
	Created int
	Deleted int
}

type vm struct {
	dir, token string
	procs      map[uint32]*exec.Cmd
	stdins     map[uint32]io.WriteCloser
}

// Start serves the fake until the test ends.
func Start(t testing.TB, key string) *Fake {
	f := &Fake{Key: key, t: t, vms: map[string]*vm{}}
	srv := httptest.NewServer(f)
	f.URL = srv.URL
	t.Cleanup(func() {
		srv.Close()
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, v := range f.vms {
			for _, c := range v.procs {
				c.Process.Kill()
			}
			os.RemoveAll(v.dir)
		}
	})
	return f
}

func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/sandboxes":
		f.create(w, r)
	case r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/sandboxes/"):
		f.delete(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/files":
		f.upload(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/process.Process/Start":
		f.start(w, r)
	case r.Method == http.MethodPost && (r.URL.Path == "/process.Process/SendInput" || r.URL.Path == "/process.Process/CloseStdin"):
		f.input(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (f *Fake) create(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-API-Key") != f.Key {
		http.Error(w, `{"code":401,"message":"Invalid API key"}`, http.StatusUnauthorized)
		return
	}
	var req struct {
		TemplateID          string `json:"templateID"`
		AllowInternetAccess *bool  `json:"allow_internet_access"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.TemplateID == "" {
		http.Error(w, `{"code":400,"message":"templateID is required"}`, http.StatusBadRequest)
		return
	}
	if req.AllowInternetAccess == nil || *req.AllowInternetAccess {
		http.Error(w, `{"code":400,"message":"this fake only creates sandboxes without internet access"}`, http.StatusBadRequest)
		return
	}
	dir, err := os.MkdirTemp("", "e2b-fake-")
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	os.Chmod(dir, 0o755)
	for _, d := range []string{"artifact", ".attest", "work", "home"} {
		os.MkdirAll(filepath.Join(dir, d), 0o777)
		os.Chmod(filepath.Join(dir, d), 0o777)
	}
	f.mu.Lock()
	f.next++
	f.Created++
	id := fmt.Sprintf("fake%04d", f.next)
	f.vms[id] = &vm{dir: dir, token: "tok-" + id, procs: map[uint32]*exec.Cmd{}, stdins: map[uint32]io.WriteCloser{}}
	f.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(map[string]string{"templateID": req.TemplateID, "sandboxID": id, "clientID": "fake",
		"envdVersion": "0.2.0", "envdAccessToken": "tok-" + id, "domain": "fake.local"})
}

func (f *Fake) delete(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimPrefix(r.URL.Path, "/sandboxes/")
	f.mu.Lock()
	v, ok := f.vms[id]
	delete(f.vms, id)
	if ok {
		f.Deleted++
	}
	f.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	for _, c := range v.procs {
		c.Process.Kill()
	}
	os.RemoveAll(v.dir)
	w.WriteHeader(http.StatusNoContent)
}

// vmOf authenticates an envd request.
func (f *Fake) vmOf(r *http.Request) *vm {
	f.mu.Lock()
	defer f.mu.Unlock()
	v := f.vms[r.Header.Get("E2b-Sandbox-Id")]
	if v == nil || r.Header.Get("X-Access-Token") != v.token {
		return nil
	}
	return v
}

func (f *Fake) upload(w http.ResponseWriter, r *http.Request) {
	v := f.vmOf(r)
	if v == nil {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	p := path.Clean("/" + r.URL.Query().Get("path"))
	top := strings.SplitN(strings.TrimPrefix(p, "/"), "/", 2)[0]
	if top != "artifact" && top != ".attest" && top != "work" && top != "home" {
		http.Error(w, "this fake keeps files under /artifact, /.attest, /work and /home only", http.StatusBadRequest)
		return
	}
	dst := filepath.Join(v.dir, filepath.FromSlash(p))
	os.MkdirAll(filepath.Dir(dst), 0o755)
	out, err := os.Create(dst)
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	_, err = io.Copy(out, r.Body)
	out.Close()
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	json.NewEncoder(w).Encode([]map[string]string{{"name": path.Base(p), "type": "file", "path": p}})
}

func readEnvelope(r io.Reader) ([]byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	msg := make([]byte, binary.BigEndian.Uint32(head[1:]))
	_, err := io.ReadFull(r, msg)
	return msg, err
}

func writeEnvelope(w io.Writer, flags byte, v any) {
	msg, _ := json.Marshal(v)
	var head [5]byte
	head[0] = flags
	binary.BigEndian.PutUint32(head[1:], uint32(len(msg)))
	w.Write(head[:])
	w.Write(msg)
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

type flushWriter struct {
	mu    *sync.Mutex
	w     http.ResponseWriter
	field string
}

func (fw flushWriter) Write(b []byte) (int, error) {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	writeEnvelope(fw.w, 0, map[string]any{"event": map[string]any{"data": map[string][]byte{fw.field: b}}})
	return len(b), nil
}

func (f *Fake) start(w http.ResponseWriter, r *http.Request) {
	v := f.vmOf(r)
	if v == nil || r.Header.Get("Content-Type") != "application/connect+json" || r.Header.Get("Connect-Protocol-Version") != "1" {
		http.Error(w, "unauthorized or not a Connect streaming request", http.StatusUnauthorized)
		return
	}
	msg, err := readEnvelope(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req struct {
		Process struct {
			Cmd  string            `json:"cmd"`
			Args []string          `json:"args"`
			Envs map[string]string `json:"envs"`
			Cwd  string            `json:"cwd"`
		} `json:"process"`
		Stdin bool `json:"stdin"`
	}
	if err := json.Unmarshal(msg, &req); err != nil || req.Process.Cmd == "" {
		http.Error(w, "bad StartRequest", http.StatusBadRequest)
		return
	}
	argv := []string{"bwrap", "--unshare-all", "--die-with-parent", "--clearenv", "--ro-bind", "/usr", "/usr",
		"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"}
	for _, l := range []string{"bin", "sbin", "lib", "lib64"} {
		if t, err := os.Readlink("/" + l); err == nil {
			argv = append(argv, "--symlink", t, "/"+l)
		}
	}
	for _, d := range []string{"artifact", ".attest", "work", "home"} {
		argv = append(argv, "--bind", filepath.Join(v.dir, d), "/"+d)
	}
	cwd := req.Process.Cwd
	if cwd == "" {
		cwd = "/"
	}
	argv = append(argv, "--chdir", cwd)
	for k, val := range req.Process.Envs {
		argv = append(argv, "--setenv", k, val)
	}
	argv = append(append(argv, "--", req.Process.Cmd), req.Process.Args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	var mu sync.Mutex
	w.Header().Set("Content-Type", "application/connect+json")
	w.WriteHeader(http.StatusOK)
	cmd.Stdout = flushWriter{&mu, w, "stdout"}
	var stderr bytes.Buffer
	cmd.Stderr = io.MultiWriter(flushWriter{&mu, w, "stderr"}, &stderr)
	var in io.WriteCloser
	if req.Stdin {
		in, _ = cmd.StdinPipe()
	}
	if err := cmd.Start(); err != nil {
		writeEnvelope(w, 2, map[string]any{"error": map[string]string{"code": "internal", "message": err.Error()}})
		return
	}
	f.mu.Lock()
	f.next++
	pid := uint32(f.next)
	v.procs[pid] = cmd
	if in != nil {
		v.stdins[pid] = in
	}
	f.mu.Unlock()
	mu.Lock()
	writeEnvelope(w, 0, map[string]any{"event": map[string]any{"start": map[string]uint32{"pid": pid}}})
	mu.Unlock()
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	mu.Lock()
	writeEnvelope(w, 0, map[string]any{"event": map[string]any{"end": map[string]any{"exitCode": code, "exited": true, "status": fmt.Sprintf("exit status %d", code)}}})
	writeEnvelope(w, 2, map[string]any{})
	mu.Unlock()
}

func (f *Fake) input(w http.ResponseWriter, r *http.Request) {
	v := f.vmOf(r)
	if v == nil || r.Header.Get("Connect-Protocol-Version") != "1" {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	var req struct {
		Process struct {
			PID uint32 `json:"pid"`
		} `json:"process"`
		Input struct {
			Stdin []byte `json:"stdin"`
		} `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	in := v.stdins[req.Process.PID]
	f.mu.Unlock()
	if in == nil {
		http.Error(w, `{"code":"not_found","message":"no such process"}`, http.StatusNotFound)
		return
	}
	if strings.HasSuffix(r.URL.Path, "CloseStdin") {
		in.Close()
	} else if _, err := in.Write(req.Input.Stdin); err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, "{}")
}
