package remote

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/metahub-ai/attest/resolve"
)

// Registries of packages, replaceable for mirrors and tests.
const (
	EnvNPMRegistry = "ATTEST_NPM_REGISTRY" // default https://registry.npmjs.org
	EnvPyPI        = "ATTEST_PYPI_URL"     // default https://pypi.org
)

// Limits of package downloads.
const (
	MaxMetadataBytes = 64 << 20
	MaxPackageBytes  = 256 << 20
)

// ErrIntegrity is returned when a download does not match the digest the
// registry published for it.
var ErrIntegrity = errors.New("integrity mismatch")

var httpClient = sync.OnceValue(func() *http.Client {
	return &http.Client{Timeout: FetchTimeout, Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   30 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
	}, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("more than 5 redirects")
		}
		return checkURL(req.URL)
	}}
})

// checkURL admits https, and http to loopback hosts only (local mirrors).
func checkURL(u *url.URL) error {
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		h := u.Hostname()
		if ip := net.ParseIP(h); h == "localhost" || ip != nil && ip.IsLoopback() {
			return nil
		}
	}
	return fmt.Errorf("%s: only https is fetched (plain http only from loopback mirrors)", u.Redacted())
}

// get downloads a URL, at most max bytes.
func get(ctx context.Context, raw string, max int64, accept string) ([]byte, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if err := checkURL(u); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	req.Header.Set("User-Agent", "attest (+https://github.com/metahub-ai/attest)")
	resp, err := httpClient().Do(req)
	if err != nil {
		return nil, networkError(err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, errNotFound
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, errPrivate
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%s answered %s", u.Redacted(), resp.Status)
	}
	if resp.ContentLength > max {
		return nil, fmt.Errorf("%w: %s is %d bytes, the limit is %d", resolve.ErrTooLarge, u.Redacted(), resp.ContentLength, max)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, networkError(err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w: %s is over %d bytes", resolve.ErrTooLarge, u.Redacted(), max)
	}
	return b, nil
}

var (
	errNotFound = errors.New("not found")
	errPrivate  = errors.New("needs credentials")
)

func networkError(err error) error {
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.As(err, &dns):
		return fmt.Errorf("cannot resolve %s: no network, or a wrong host name", dns.Name)
	case errors.As(err, &op):
		return fmt.Errorf("cannot connect: no network or the host is down (%v)", err)
	}
	return err
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return strings.TrimSuffix(v, "/")
	}
	return def
}

// fetchNPM downloads a package's tarball as the registry lists it, checks
// it against the registry's integrity string before unpacking it, and
// never runs npm or any script of the package.
func fetchNPM(ctx context.Context, t resolve.Target, dir string) (*Result, error) {
	return fetchNPMPinned(ctx, t, dir, "")
}

// fetchNPMPinned is fetchNPM for a registry entry that pins the
// integrity: the npm registry must list that same integrity.
func fetchNPMPinned(ctx context.Context, t resolve.Target, dir, pinned string) (*Result, error) {
	base := envOr(EnvNPMRegistry, "https://registry.npmjs.org")
	fail := func(format string, a ...any) (*Result, error) {
		return nil, fmt.Errorf("%w npm:%s: "+format, append([]any{resolve.ErrRemote, t.Name}, a...)...)
	}
	doc, err := get(ctx, base+"/"+strings.Replace(t.Name, "/", "%2f", 1), MaxMetadataBytes, "application/json")
	switch {
	case errors.Is(err, errNotFound):
		return fail("no such package on %s", base)
	case errors.Is(err, errPrivate):
		return fail("%s asks for credentials: the package is private; attest fetches anonymously", base)
	case err != nil:
		return fail("%w", err)
	}
	var pk struct {
		DistTags map[string]string `json:"dist-tags"`
		Versions map[string]struct {
			Dist struct {
				Tarball   string `json:"tarball"`
				Integrity string `json:"integrity"`
			} `json:"dist"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(doc, &pk); err != nil {
		return fail("the registry's answer is not a packument: %v", err)
	}
	version := t.Version
	if version == "" {
		version = "latest"
	}
	if v, ok := pk.DistTags[version]; ok {
		version = v
	}
	v, ok := pk.Versions[version]
	if !ok {
		return fail("no version or dist-tag %q (latest is %s)", version, pk.DistTags["latest"])
	}
	if pinned != "" && pinned != v.Dist.Integrity {
		return nil, fmt.Errorf("%w npm:%s@%s: %w: the attest registry pins %s, the npm registry lists %s; nothing was evaluated",
			resolve.ErrRemote, t.Name, version, ErrIntegrity, pinned, v.Dist.Integrity)
	}
	algo, want, err := parseSRI(v.Dist.Integrity)
	if err != nil {
		return fail("version %s: %v", version, err)
	}
	tgz, err := get(ctx, v.Dist.Tarball, MaxPackageBytes, "")
	if err != nil {
		return fail("downloading %s: %w", v.Dist.Tarball, err)
	}
	h := algo()
	h.Write(tgz)
	if got := h.Sum(nil); !bytes.Equal(got, want) {
		return nil, fmt.Errorf("%w npm:%s@%s: %w: the registry lists %s, the tarball is %s; nothing was evaluated",
			resolve.ErrRemote, t.Name, version, ErrIntegrity, v.Dist.Integrity, sriPrefix(v.Dist.Integrity)+base64.StdEncoding.EncodeToString(got))
	}
	if err := extractTarGz(bytes.NewReader(tgz), dir, 1); err != nil {
		return fail("%w", err)
	}
	integrity := v.Dist.Integrity
	_, bare, _ := strings.Cut(t.Name, "/")
	if bare == "" {
		bare = t.Name
	}
	return &Result{Provenance: resolve.Provenance{Type: resolve.TypeNPM, URI: "npm:" + t.Name + "@" + version, Integrity: &integrity}, DirName: bare}, nil
}

func sriPrefix(sri string) string {
	a, _, _ := strings.Cut(strings.Fields(sri + " ")[0], "-")
	return a + "-"
}

// parseSRI reads the strongest sha512/384/256 digest of a subresource
// integrity string; SHA-1 alone is refused.
func parseSRI(sri string) (func() hash.Hash, []byte, error) {
	algos := map[string]func() hash.Hash{"sha512": sha512.New, "sha384": sha512.New384, "sha256": sha256.New}
	var best string
	var sum []byte
	for _, f := range strings.Fields(sri) {
		a, b64, ok := strings.Cut(f, "-")
		if _, known := algos[a]; !ok || !known {
			continue
		}
		d, err := base64.StdEncoding.DecodeString(strings.SplitN(b64, "?", 2)[0])
		if err != nil {
			continue
		}
		if best == "" || a > best { // sha512 > sha384 > sha256
			best, sum = a, d
		}
	}
	if best == "" {
		return nil, nil, fmt.Errorf("the registry gives no sha512, sha384 or sha256 integrity (%q); refusing to trust a SHA-1 checksum", sri)
	}
	return algos[best], sum, nil
}

// fetchPyPI downloads the sdist (else a pure-Python wheel) the JSON API
// names, checks its sha256 and unpacks it; nothing is built or installed.
func fetchPyPI(ctx context.Context, t resolve.Target, dir string) (*Result, error) {
	base := envOr(EnvPyPI, "https://pypi.org")
	fail := func(format string, a ...any) (*Result, error) {
		return nil, fmt.Errorf("%w pypi:%s: "+format, append([]any{resolve.ErrRemote, t.Name}, a...)...)
	}
	u := base + "/pypi/" + url.PathEscape(t.Name) + "/json"
	if t.Version != "" {
		u = base + "/pypi/" + url.PathEscape(t.Name) + "/" + url.PathEscape(t.Version) + "/json"
	}
	doc, err := get(ctx, u, MaxMetadataBytes, "application/json")
	switch {
	case errors.Is(err, errNotFound):
		if t.Version != "" {
			return fail("no such project or version %s on %s", t.Version, base)
		}
		return fail("no such project on %s", base)
	case err != nil:
		return fail("%w", err)
	}
	var meta struct {
		Info struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"info"`
		URLs []struct {
			URL         string            `json:"url"`
			Filename    string            `json:"filename"`
			PackageType string            `json:"packagetype"`
			Digests     map[string]string `json:"digests"`
			Yanked      bool              `json:"yanked"`
		} `json:"urls"`
	}
	if err := json.Unmarshal(doc, &meta); err != nil {
		return fail("the JSON API's answer is not readable: %v", err)
	}
	pick := -1
	for i, f := range meta.URLs {
		if f.PackageType == "sdist" && (strings.HasSuffix(f.Filename, ".tar.gz") || strings.HasSuffix(f.Filename, ".zip")) {
			pick = i
			break
		}
	}
	if pick < 0 {
		for i, f := range meta.URLs {
			if f.PackageType == "bdist_wheel" && strings.HasSuffix(f.Filename, "-none-any.whl") {
				pick = i
				break
			}
		}
	}
	if pick < 0 {
		return fail("version %s has no source distribution and no pure-Python wheel", meta.Info.Version)
	}
	f := meta.URLs[pick]
	want, err := hex.DecodeString(f.Digests["sha256"])
	if err != nil || len(want) != sha256.Size {
		return fail("%s has no sha256 digest in the JSON API", f.Filename)
	}
	data, err := get(ctx, f.URL, MaxPackageBytes, "")
	if err != nil {
		return fail("downloading %s: %w", f.URL, err)
	}
	if got := sha256.Sum256(data); !bytes.Equal(got[:], want) {
		return nil, fmt.Errorf("%w pypi:%s==%s: %w: the JSON API lists sha256 %x for %s, the download is %x; nothing was evaluated",
			resolve.ErrRemote, t.Name, meta.Info.Version, ErrIntegrity, want, f.Filename, got)
	}
	switch {
	case strings.HasSuffix(f.Filename, ".tar.gz"):
		err = extractTarGz(bytes.NewReader(data), dir, 1)
	case strings.HasSuffix(f.Filename, ".zip"):
		err = extractZip(data, dir, 1)
	default: // a wheel: files at its root
		err = extractZip(data, dir, 0)
	}
	if err != nil {
		return fail("%s: %w", f.Filename, err)
	}
	integrity := "sha256:" + hex.EncodeToString(want)
	return &Result{Provenance: resolve.Provenance{Type: resolve.TypePyPI, URI: "pypi:" + meta.Info.Name + "==" + meta.Info.Version, Integrity: &integrity},
		DirName: path.Base(t.Name)}, nil
}
