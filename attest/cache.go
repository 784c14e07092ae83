package attest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/policy"
	"github.com/metahub-ai/attest/resolve"
)

// EnvCacheDir overrides where the evaluation cache lives.
const EnvCacheDir = "ATTEST_CACHE_DIR"

// Cache keeps reports by what decides them: the artifact's tree digest,
// the kind asked for, the suite and its catalog digest, the grants, the
// policy and the tool version. A report is reused only when all of them
// are equal, so a cached verdict is the verdict a fresh run would give.
//
// For a local directory it also remembers which digest a tree had, by a
// fingerprint of every entry's metadata (path, size, mode, inode, and
// modification and change times). A change to any file changes its change
// time, which no unprivileged process can set back, so an unchanged
// fingerprint means an unchanged tree, and a hit costs a walk of stat
// calls instead of reading every file.
type Cache struct {
	Dir string
}

// DefaultCacheDir is $ATTEST_CACHE_DIR, else $XDG_CACHE_HOME/attest, else
// ~/.cache/attest.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv(EnvCacheDir); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "attest"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: %w (set %s or XDG_CACHE_HOME)", err, EnvCacheDir)
	}
	return filepath.Join(home, ".cache", "attest"), nil
}

// maxCacheEntry bounds a cache entry read; a larger one is a miss.
const maxCacheEntry = 256 << 20

// maxFingerprintEntries bounds the stat walk; a larger tree is digested.
const maxFingerprintEntries = 100_000

func hashJSON(parts ...any) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, p := range parts {
		enc.Encode(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// reportKey is the cache key of an evaluation.
func reportKey(digest string, kind resolve.Kind, cat *checks.Catalog, grants checks.Grants, pol policy.Config, tool string) string {
	return hashJSON("report/2", digest, kind, cat.ID, cat.Version, cat.Digest(), grants, pol.MinScore, pol.Disabled, pol.Waivers, pol.Settings, pol.Source, tool)
}

// cachedReport is a report as the cache keeps it: with the time after
// which it no longer holds (a waiver it applied has expired).
type cachedReport struct {
	Until  *time.Time `json:"until,omitempty"`
	Report *Report    `json:"report"`
}

func (c *Cache) path(kind, key string) string {
	return filepath.Join(c.Dir, kind, key[:2], key+".json")
}

// report returns a cached report still valid at now.
func (c *Cache) report(key string, now time.Time) (*Report, bool) {
	b, err := resolve.ReadFileMax(c.path("reports", key), maxCacheEntry)
	if err != nil {
		return nil, false
	}
	var r cachedReport
	if json.Unmarshal(b, &r) != nil || r.Report == nil || r.Report.SchemaVersion != SchemaVersion {
		return nil, false
	}
	if r.Until != nil && !now.Before(*r.Until) {
		return nil, false
	}
	return r.Report, true
}

// putReport stores a report, valid until the first waiver of pol that
// expires after now.
func (c *Cache) putReport(key string, r *Report, pol policy.Config, now time.Time) error {
	rec := cachedReport{Report: r}
	if t, ok := pol.NextExpiry(now); ok {
		rec.Until = &t
	}
	return c.put("reports", key, rec)
}

// put stores a value, written aside and renamed so a reader never sees
// half of it.
func (c *Cache) put(kind, key string, v any) error {
	p := c.path(kind, key)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), p)
}

type treeRecord struct {
	Fingerprint string `json:"fingerprint"`
	Digest      string `json:"digest"`
	// EvalMs is how long its last evaluation took, for a batch to start
	// the longest first.
	EvalMs int64 `json:"evalMs,omitempty"`
}

// lastEval is how long the last evaluation of a directory took.
func (c *Cache) lastEval(dir string) (int64, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return 0, false
	}
	b, err := resolve.ReadFileMax(c.path("trees", hashJSON(abs)), maxCacheEntry)
	if err != nil {
		return 0, false
	}
	var t treeRecord
	if json.Unmarshal(b, &t) != nil || t.EvalMs <= 0 {
		return 0, false
	}
	return t.EvalMs, true
}

// knownDigest is the digest a directory had when its fingerprint was fp.
func (c *Cache) knownDigest(dir, fp string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	b, err := resolve.ReadFileMax(c.path("trees", hashJSON(abs)), maxCacheEntry)
	if err != nil {
		return "", false
	}
	var t treeRecord
	if json.Unmarshal(b, &t) != nil || t.Fingerprint != fp || len(t.Digest) != 64 {
		return "", false
	}
	return t.Digest, true
}

func (c *Cache) rememberDigest(dir, fp, digest string, evalMs int64) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if evalMs <= 0 {
		evalMs, _ = c.lastEval(dir)
	}
	return c.put("trees", hashJSON(abs), treeRecord{fp, digest, evalMs})
}

var errTooMany = errors.New("too many entries")

// fingerprint hashes the metadata of every entry under dir (symlinks not
// followed), or fails for a tree too large or unreadable.
func fingerprint(dir string) (string, error) {
	type entry struct {
		Path                   string
		Size                   int64
		Mode                   fs.FileMode
		Ino, MTime, CTime, Dev uint64
	}
	var es []entry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if len(es) >= maxFingerprintEntries {
			return errTooMany
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		meta, ok := statMeta(fi)
		if !ok {
			return errors.New("no file metadata on this system")
		}
		rel, _ := filepath.Rel(dir, p)
		es = append(es, entry{filepath.ToSlash(rel), fi.Size(), fi.Mode(), meta.ino, meta.mtime, meta.ctime, meta.dev})
		return nil
	})
	if err != nil {
		return "", err
	}
	// The work tree's ignore rules above the directory decide which of its
	// files are evaluated: a change to them must change the fingerprint.
	for _, p := range ignoreInputs(dir) {
		e := entry{Path: "^" + filepath.ToSlash(p)}
		if fi, err := os.Lstat(p); err == nil {
			meta, _ := statMeta(fi)
			e.Size, e.Mode, e.Ino, e.MTime, e.CTime, e.Dev = fi.Size(), fi.Mode(), meta.ino, meta.mtime, meta.ctime, meta.dev
		}
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b entry) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	return hashJSON("tree/1", es), nil
}

type fileMeta struct{ ino, mtime, ctime, dev uint64 }

// ignoreInputs are the files outside dir that a local work tree's ignore
// rules come from: the .gitignore of every directory from the work tree's
// top down to dir's parent, and the top's .git, its index and its
// info/exclude. None is followed; only their metadata is taken. Inside
// dir the fingerprint's walk covers them.
func ignoreInputs(dir string) []string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	var out []string
	for cur := abs; ; {
		parent := filepath.Dir(cur)
		if _, err := os.Lstat(filepath.Join(cur, ".git")); err == nil {
			if cur != abs {
				git := filepath.Join(cur, ".git")
				out = append(out, git, filepath.Join(git, "index"), filepath.Join(git, "info", "exclude"))
			}
			return out
		}
		if parent == cur {
			return nil // no work tree: no rules
		}
		out = append(out, filepath.Join(parent, ".gitignore"))
		cur = parent
	}
}
