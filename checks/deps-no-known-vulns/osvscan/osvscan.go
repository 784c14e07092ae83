// Package osvscan extracts resolved dependency versions with osv-scalibr's
// extractors and looks them up in OSV through the osv.dev client; the
// check calls it only when a run is granted the network.
package osvscan

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
	"testing/fstest"
	"time"

	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/golang/gomod"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/bunlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/packagelockjson"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/pnpmlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/yarnlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/pdmlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/pipfilelock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/poetrylock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/requirements"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/uvlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/rust/cargolock"
	"github.com/google/osv-scalibr/extractor/filesystem/osv"
	slog "github.com/google/osv-scalibr/log"
	"github.com/ossf/osv-schema/bindings/go/osvschema"
	"osv.dev/bindings/go/api"
	"osv.dev/bindings/go/osvdev"

	"github.com/metahub-ai/attest/checks/deps-no-known-vulns/osvwire"
	"github.com/metahub-ai/attest/checks/internal/netallow"
)

// Limits of one scan.
const (
	MaxFileBytes   = 16 << 20
	MaxPackages    = 20_000
	MaxPages       = 10 // querybatch pages followed per query set
	MaxVulnDetails = 500
	MaxRequestSize = 256 << 20
)

// DefaultBaseURL is OSV's API; DefaultHosts the hosts the client may reach.
var (
	DefaultBaseURL = osvdev.DefaultBaseURL
	DefaultHosts   = []string{"api.osv.dev", "osv.dev"}
)

// The wire types, named here for the helper's callers.
type (
	File     = osvwire.File
	Request  = osvwire.Request
	Package  = osvwire.Package
	Vuln     = osvwire.Vuln
	Response = osvwire.Response
)

type ctor func(*cpb.PluginConfig) (filesystem.Extractor, error)

var extractors = []ctor{packagelockjson.New, pnpmlock.New, yarnlock.New, bunlock.New,
	requirements.New, poetrylock.New, uvlock.New, pipfilelock.New, pdmlock.New,
	gomod.New, cargolock.New}

var ecosystems = map[string]string{"npm": "npm", "pypi": "PyPI", "golang": "Go", "cargo": "crates.io"}

// quiet drops scalibr's own log lines: a file it cannot read becomes a
// note in the response, not noise on the helper's standard error.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}
func (quiet) Warnf(string, ...any)  {}
func (quiet) Infof(string, ...any)  {}
func (quiet) Debugf(string, ...any) {}
func (quiet) Error(...any)          {}
func (quiet) Warn(...any)           {}
func (quiet) Info(...any)           {}
func (quiet) Debug(...any)          {}

func init() { slog.SetLogger(quiet{}) }

// Extract runs the extractors over the files.
func Extract(ctx context.Context, files []File) (pkgs, unresolved []Package, notes []string) {
	// A workspace root's lockfile arrives as ../../name, which is no fs
	// path: it is read under a stand-in name and reported under its own.
	files = slices.Clone(files)
	mfs := fstest.MapFS{}
	shown := map[string]string{}
	for i := range files {
		f := &files[i]
		if !fs.ValidPath(f.Path) {
			alias := fmt.Sprintf("_outside/%d/%s", i, path.Base(f.Path))
			shown[alias] = f.Path
			f.Path = alias
		}
		mfs[f.Path] = &fstest.MapFile{Data: f.Content, Mode: 0o444}
	}
	cfg := &cpb.PluginConfig{MaxFileSizeBytes: MaxFileBytes}
	var exs []filesystem.Extractor
	for _, c := range extractors {
		if e, err := c(cfg); err == nil {
			exs = append(exs, e)
		}
	}
	for _, f := range files {
		info, err := fs.Stat(mfs, f.Path)
		if err != nil {
			continue
		}
		api := fileAPI{f.Path, info}
		for _, e := range exs {
			if !e.FileRequired(api) {
				continue
			}
			inv, err := e.Extract(ctx, &filesystem.ScanInput{FS: mfs, Path: f.Path, Root: ".", Info: info, Reader: bytes.NewReader(f.Content)})
			if err != nil {
				notes = append(notes, fmt.Sprintf("%s: %s could not read it: %v", f.Path, e.Name(), err))
				continue
			}
			for _, p := range inv.Packages {
				file := f.Path
				if orig, ok := shown[file]; ok {
					file = orig
				}
				pk, exact := convert(p, file)
				if pk.Ecosystem == "" || pk.Name == "" {
					continue
				}
				if !exact || pk.Version == "" {
					unresolved = append(unresolved, pk)
					continue
				}
				pkgs = append(pkgs, pk)
			}
		}
	}
	slices.SortFunc(pkgs, func(a, b Package) int {
		return strings.Compare(a.File+"\x00"+a.Ecosystem+"\x00"+a.Name+"\x00"+a.Version, b.File+"\x00"+b.Ecosystem+"\x00"+b.Name+"\x00"+b.Version)
	})
	pkgs = slices.CompactFunc(pkgs, func(a, b Package) bool {
		return a.File == b.File && a.Ecosystem == b.Ecosystem && a.Name == b.Name && a.Version == b.Version
	})
	return pkgs, unresolved, notes
}

// convert reads a scalibr package; exact is false for a requirement whose
// version is a lower bound or range (scalibr reports flask>=1.0 as 1.0).
func convert(p *extractor.Package, file string) (Package, bool) {
	pk := Package{Ecosystem: ecosystems[p.PURLType], Name: p.Name, Version: p.Version, File: file}
	if p.Location.Descriptor != nil && p.Location.Descriptor.File != nil {
		pk.Line = p.Location.Descriptor.File.LineNumber
	}
	if g, ok := p.Metadata.(osv.DepGroups); ok && slices.Contains(g.DepGroups(), "dev") {
		pk.Dev = true
	}
	if m, ok := p.Metadata.(*requirements.Metadata); ok && m.VersionComparator != "==" && m.VersionComparator != "===" {
		return pk, false
	}
	if pk.Ecosystem == "Go" && pk.Name == "stdlib" {
		return Package{}, false
	}
	return pk, true
}

type fileAPI struct {
	p    string
	info fs.FileInfo
}

func (f fileAPI) Path() string               { return f.p }
func (f fileAPI) Stat() (fs.FileInfo, error) { return f.info, nil }

// Scan extracts the packages and looks them up in OSV.
func Scan(ctx context.Context, req Request) (*Response, error) {
	if req.Timeout <= 0 {
		req.Timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	base := req.BaseURL
	hosts := slices.Clone(DefaultHosts)
	if base == "" {
		base = DefaultBaseURL
	} else {
		u, err := url.Parse(base)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			return nil, fmt.Errorf("OSV base URL %q: want an https:// URL", base)
		}
		hosts = append(hosts, strings.ToLower(u.Hostname()))
	}
	rec := &netallow.Recorder{}
	client := osvdev.DefaultClient()
	client.BaseHostURL = strings.TrimSuffix(base, "/")
	client.HTTPClient = netallow.New(netallow.Options{Hosts: hosts, Recorder: rec, Timeout: req.Timeout})
	client.Config.UserAgent = "attest (+https://github.com/metahub-ai/attest)"
	client.Config.MaxConcurrentBatchRequests = 2
	// Two retries ride out a transient failure; a network that is down
	// is reported in seconds, not after a minute of backing off.
	client.Config.MaxRetryAttempts = 2

	resp := &Response{}
	resp.Packages, resp.Unresolved, resp.Notes = Extract(ctx, req.Files)
	resp.Packages = append(resp.Packages, req.Packages...)
	if len(resp.Packages) > MaxPackages {
		resp.Truncated = fmt.Sprintf("%d packages, only the first %d were queried", len(resp.Packages), MaxPackages)
		resp.Packages = resp.Packages[:MaxPackages]
	}
	err := query(ctx, client, resp)
	resp.Exchanges = rec.Exchanges()
	if resp.Vulns == nil {
		resp.Vulns = []Vuln{}
	}
	return resp, err
}

func query(ctx context.Context, client *osvdev.OSVClient, resp *Response) error {
	if len(resp.Packages) == 0 {
		return nil
	}
	queries := make([]*api.Query, len(resp.Packages))
	for i, p := range resp.Packages {
		queries[i] = &api.Query{Package: &osvschema.Package{Name: p.Name, Ecosystem: p.Ecosystem}, Param: &api.Query_Version{Version: p.Version}}
	}
	ids := make([][]string, len(queries))
	pending := make([]int, len(queries))
	for i := range pending {
		pending[i] = i
	}
	// querybatch answers with ids only; a result with next_page_token has
	// more, asked for again with that token.
	for page := 0; len(pending) > 0; page++ {
		if page == MaxPages {
			resp.Truncated = fmt.Sprintf("%d queries still had pages after %d rounds", len(pending), MaxPages)
			break
		}
		batch := make([]*api.Query, len(pending))
		for j, i := range pending {
			batch[j] = queries[i]
		}
		res, err := client.QueryBatch(ctx, batch)
		if err != nil {
			return fmt.Errorf("OSV querybatch: %w", err)
		}
		if len(res.GetResults()) != len(batch) {
			return fmt.Errorf("OSV querybatch: %d results for %d queries", len(res.GetResults()), len(batch))
		}
		var next []int
		for j, r := range res.GetResults() {
			i := pending[j]
			for _, v := range r.GetVulns() {
				ids[i] = append(ids[i], v.GetId())
			}
			if tok := r.GetNextPageToken(); tok != "" {
				queries[i].PageToken = tok
				next = append(next, i)
			}
		}
		pending = next
	}
	details := map[string]*osvschema.Vulnerability{}
	for i, list := range ids {
		slices.Sort(list)
		for _, id := range slices.Compact(list) {
			v, ok := details[id]
			if !ok {
				if len(details) >= MaxVulnDetails {
					resp.Truncated = fmt.Sprintf("more than %d advisories; the rest are listed without details", MaxVulnDetails)
				} else {
					var err error
					if v, err = client.GetVulnByID(ctx, id); err != nil {
						return fmt.Errorf("OSV advisory %s: %w", id, err)
					}
				}
				details[id] = v
			}
			resp.Vulns = append(resp.Vulns, describe(id, i, v, resp.Packages[i]))
		}
	}
	return nil
}
