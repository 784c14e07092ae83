package remote

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metahub-ai/attest/resolve"
)

type entry struct {
	name, body, link string
	typ              byte
	size             int64 // header size when it differs from the body
}

func tgz(t *testing.T, entries ...entry) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Typeflag: typ, Mode: 0o644, Size: int64(len(e.body)), Linkname: e.link}
		if typ != tar.TypeReg {
			h.Size = 0
		}
		if e.size > 0 {
			h.Size = e.size
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			io.WriteString(tw, e.body)
		}
	}
	tw.Flush() // a lying header leaves the archive short; that is the point
	gz.Close()
	return buf.Bytes()
}

func sri(b []byte) string {
	s := sha512.Sum512(b)
	return "sha512-" + base64.StdEncoding.EncodeToString(s[:])
}

// fakeNPM serves a packument and tarballs the way registry.npmjs.org does.
func fakeNPM(t *testing.T, name string, versions map[string][]byte, integrity map[string]string) *httptest.Server {
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.EscapedPath() == "/"+strings.Replace(name, "/", "%2f", 1) || r.URL.Path == "/"+name {
			vs := map[string]any{}
			for v := range versions {
				in, ok := integrity[v]
				if !ok {
					in = sri(versions[v])
				}
				vs[v] = map[string]any{"dist": map[string]any{"tarball": srv.URL + "/tarballs/" + v + ".tgz", "integrity": in}}
			}
			json.NewEncoder(w).Encode(map[string]any{"name": name, "dist-tags": map[string]string{"latest": "1.0.0"}, "versions": vs})
			return
		}
		if v, ok := strings.CutPrefix(r.URL.Path, "/tarballs/"); ok {
			w.Write(versions[strings.TrimSuffix(v, ".tgz")])
			return
		}
		http.NotFound(w, r)
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func fetchTarget(t *testing.T, target string) (*Result, string, error) {
	t.Helper()
	tg, err := resolve.ParseWith(target, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r, err := Fetch(context.Background(), tg, dir)
	return r, dir, err
}

func TestFetchNPM(t *testing.T) {
	good := tgz(t, entry{name: "package/package.json", body: `{"name": "@acme/weather", "version": "1.0.0"}`},
		entry{name: "package/index.js", body: "console.log(1)\n"}, entry{name: "package/lib/link", typ: tar.TypeSymlink, link: "../index.js"})
	versions := map[string][]byte{
		"1.0.0": good,
		"1.0.1": good, // listed with another package's integrity
		"1.0.2": tgz(t, entry{name: "package/../../evil.sh", body: "x"}),
		"1.0.3": tgz(t, entry{name: "/etc/cron.d/evil", body: "x"}),
		"1.0.4": tgz(t, entry{name: "package/etc", typ: tar.TypeSymlink, link: "/etc"}),
		"1.0.5": tgz(t, entry{name: "package/bomb", body: "", size: 10 << 30}),
		"1.0.6": tgz(t, entry{name: "package/dev", typ: tar.TypeChar}),
		"1.0.7": good,
	}
	sha1sum := sha1.Sum(good)
	srv := fakeNPM(t, "@acme/weather", versions, map[string]string{
		"1.0.1": sri([]byte("something else")),
		"1.0.7": "sha1-" + base64.StdEncoding.EncodeToString(sha1sum[:]),
	})
	t.Setenv(EnvNPMRegistry, srv.URL)

	r, dir, err := fetchTarget(t, "npm:@acme/weather")
	if err != nil {
		t.Fatal(err)
	}
	if r.Provenance.Type != "npm" || r.Provenance.URI != "npm:@acme/weather@1.0.0" || *r.Provenance.Integrity != sri(good) || r.DirName != "weather" {
		t.Errorf("provenance %+v integrity %s", r.Provenance, *r.Provenance.Integrity)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "index.js")); err != nil || string(b) != "console.log(1)\n" {
		t.Errorf("index.js: %q %v", b, err)
	}
	if l, err := os.Readlink(filepath.Join(dir, "lib/link")); err != nil || l != "../index.js" {
		t.Errorf("an inside link is kept as a link: %q %v", l, err)
	}
	for v, want := range map[string]error{
		"1.0.1": ErrIntegrity, "1.0.2": ErrHostileArchive, "1.0.3": ErrHostileArchive, "1.0.4": ErrHostileArchive,
		"1.0.5": ErrHostileArchive, "1.0.6": ErrHostileArchive, "1.0.7": resolve.ErrRemote, "9.9.9": resolve.ErrRemote,
	} {
		_, dir, err := fetchTarget(t, "npm:@acme/weather@"+v)
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", v, err, want)
		}
		if v == "1.0.2" || v == "1.0.3" {
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "evil.sh")); err == nil {
				t.Errorf("%s wrote outside its directory", v)
			}
		}
	}
	if _, _, err := fetchTarget(t, "npm:@acme/weather@1.0.7"); err == nil || !strings.Contains(err.Error(), "SHA-1") {
		t.Errorf("sha1-only: %v", err)
	}
	if _, _, err := fetchTarget(t, "npm:@acme/absent"); err == nil || !strings.Contains(err.Error(), "no such package") {
		t.Errorf("missing package: %v", err)
	}
}

func TestDecompressionBomb(t *testing.T) {
	old := MaxExtractBytes
	MaxExtractBytes = 4 << 20
	defer func() { MaxExtractBytes = old }()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	// The header tells the truth about each part; together they outgrow the limit.
	for i := range 8 {
		tw.WriteHeader(&tar.Header{Name: "package/zeros" + string(rune('a'+i)), Typeflag: tar.TypeReg, Mode: 0o644, Size: 1 << 20})
		tw.Write(make([]byte, 1<<20))
	}
	tw.Close()
	gz.Close()
	if buf.Len() > 64<<10 {
		t.Fatalf("the bomb is %d bytes compressed", buf.Len())
	}
	err := extractTarGz(bytes.NewReader(buf.Bytes()), t.TempDir(), 1)
	if !errors.Is(err, ErrHostileArchive) || !strings.Contains(err.Error(), "decompression bomb") {
		t.Fatalf("err %v", err)
	}
}

func TestFetchPyPI(t *testing.T) {
	sdist := tgz(t, entry{name: "mcp_time-0.6.2/pyproject.toml", body: "[project]\nname = \"mcp-time\"\n"}, entry{name: "mcp_time-0.6.2/server.py", body: "print(1)\n"})
	var wheel bytes.Buffer
	zw := zip.NewWriter(&wheel)
	w, _ := zw.Create("mcp_time/__init__.py")
	io.WriteString(w, "x = 1\n")
	zw.Close()
	files := map[string][]byte{"mcp_time-0.6.2.tar.gz": sdist, "mcp_time-0.7.0-py3-none-any.whl": wheel.Bytes(), "mcp_time-0.8.0.tar.gz": sdist}
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f, ok := strings.CutPrefix(r.URL.Path, "/files/"); ok {
			w.Write(files[f])
			return
		}
		ver := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/pypi/mcp-time/"), "json")
		ver = strings.TrimSuffix(ver, "/")
		if ver == "" {
			ver = "0.6.2"
		}
		var urls []map[string]any
		add := func(name, typ, digest string) {
			urls = append(urls, map[string]any{"url": srv.URL + "/files/" + name, "filename": name, "packagetype": typ, "digests": map[string]string{"sha256": digest}})
		}
		hexsum := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
		switch ver {
		case "0.6.2":
			add("mcp_time-0.6.2.tar.gz", "sdist", hexsum(sdist))
		case "0.7.0":
			add("mcp_time-0.7.0-py3-none-any.whl", "bdist_wheel", hexsum(wheel.Bytes()))
		case "0.8.0":
			add("mcp_time-0.8.0.tar.gz", "sdist", hexsum([]byte("other")))
		default:
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"info": map[string]any{"name": "mcp-time", "version": ver}, "urls": urls})
	}))
	defer srv.Close()
	t.Setenv(EnvPyPI, srv.URL)
	r, dir, err := fetchTarget(t, "pypi:mcp-time")
	if err != nil {
		t.Fatal(err)
	}
	if r.Provenance.URI != "pypi:mcp-time==0.6.2" || !strings.HasPrefix(*r.Provenance.Integrity, "sha256:") {
		t.Errorf("provenance %+v", r.Provenance)
	}
	if _, err := os.Stat(filepath.Join(dir, "server.py")); err != nil {
		t.Error(err)
	}
	if _, dir, err := fetchTarget(t, "pypi:mcp-time==0.7.0"); err != nil {
		t.Error(err)
	} else if _, err := os.Stat(filepath.Join(dir, "mcp_time/__init__.py")); err != nil {
		t.Errorf("wheel: %v", err)
	}
	if _, _, err := fetchTarget(t, "pypi:mcp-time==0.8.0"); !errors.Is(err, ErrIntegrity) {
		t.Errorf("bad digest: %v", err)
	}
	if _, _, err := fetchTarget(t, "pypi:mcp-time==9.9"); err == nil || !strings.Contains(err.Error(), "no such project or version") {
		t.Errorf("missing version: %v", err)
	}
}

func FuzzExtract(f *testing.F) {
	f.Add(tgzBytes("package/a", "b"), false)
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	w, _ := zw.Create("a/b")
	io.WriteString(w, "c")
	zw.Close()
	f.Add(z.Bytes(), true)
	f.Fuzz(func(t *testing.T, data []byte, isZip bool) {
		if len(data) > 1<<16 {
			return
		}
		dir := t.TempDir()
		if isZip {
			extractZip(data, dir, 1)
		} else {
			extractTarGz(bytes.NewReader(data), dir, 1)
		}
		// Whatever happened, nothing may exist outside dir.
		entries, _ := os.ReadDir(filepath.Dir(dir))
		for _, e := range entries {
			if filepath.Join(filepath.Dir(dir), e.Name()) != dir {
				t.Fatalf("wrote %s outside the directory", e.Name())
			}
		}
	})
}

func tgzBytes(name, body string) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))})
	io.WriteString(tw, body)
	tw.Close()
	gz.Close()
	return buf.Bytes()
}
