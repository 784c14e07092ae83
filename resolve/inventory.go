package resolve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// Default limits of an inventory. Each is a named constant so a report can
// say which one kept something out.
const (
	DefaultMaxFiles       = 50_000
	DefaultMaxTotalBytes  = 4 << 30   // bytes digested in one run
	DefaultScanFileBytes  = 8 << 20   // a file larger than this is digested, not content-scanned
	DefaultScanTotalBytes = 256 << 20 // content kept for scanning in one run
	maxDepth              = 128       // directory nesting
)

// ErrLimit means the artifact exceeds a hard inventory limit and cannot be
// evaluated at all (as opposed to a file left unscanned).
var ErrLimit = errors.New("artifact exceeds an inventory limit")

// Options bounds an inventory. The zero value uses the defaults and honours
// the local git work tree's ignore rules.
type Options struct {
	MaxFiles       int
	MaxTotalBytes  int64
	ScanFileBytes  int64
	ScanTotalBytes int64
	// NoIgnore evaluates every path but the root .git, as verify does.
	NoIgnore bool
}

func (o Options) withDefaults() Options {
	if o.MaxFiles <= 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	if o.MaxTotalBytes <= 0 {
		o.MaxTotalBytes = DefaultMaxTotalBytes
	}
	if o.ScanFileBytes <= 0 {
		o.ScanFileBytes = DefaultScanFileBytes
	}
	if o.ScanTotalBytes <= 0 {
		o.ScanTotalBytes = DefaultScanTotalBytes
	}
	return o
}

// File is one regular file of the subject.
type File struct {
	Path   string // slash-separated, relative to the root
	Mode   fs.FileMode
	Size   int64
	SHA256 [32]byte
	// Content holds the bytes when the file was content-scanned; nil when a
	// limit kept it out (it is still digested; see Inventory.Unscanned).
	// Never written after the inventory is built: Subject.Text shares it.
	Content []byte
	Scanned bool
}

// Exec reports whether any execute bit is set.
func (f *File) Exec() bool { return f.Mode&0o111 != 0 }

// Symlink is one symbolic link of the subject; it is recorded, never followed.
type Symlink struct {
	Path   string
	Target string
}

// Skip is a path with the reason it was left out.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Reasons for leaving a path out of the subject or out of scanning.
const (
	ReasonVCS        = "vcs metadata"
	ReasonGitIgnored = "ignored by the local git work tree"
	ReasonNotRegular = "not a regular file or symlink"
	ReasonScanSize   = "larger than the per-file scan limit; digested, not content-scanned"
	ReasonScanBudget = "past the per-run scan budget; digested, not content-scanned"
)

// Inventory is everything in the snapshot, as evaluated.
type Inventory struct {
	Files    []File    // sorted by path
	Symlinks []Symlink // sorted by path
	// Skipped are paths left out of the subject.
	Skipped []Skip
	// Unscanned are subject files whose content was not kept for scanning.
	Unscanned []Skip
	Bytes     int64
	// GitWorkTree is the work tree root when the artifact lies in one.
	GitWorkTree string

	byPath map[string]int
}

// File returns the file at a slash path.
func (inv *Inventory) File(p string) (*File, bool) {
	i, ok := inv.byPath[p]
	if !ok {
		return nil, false
	}
	return &inv.Files[i], true
}

// Read returns a scanned file's content. ok is false when the path is not a
// regular file of the subject or its content was not kept.
func (inv *Inventory) Read(p string) ([]byte, bool) {
	f, ok := inv.File(p)
	if !ok || !f.Scanned {
		return nil, false
	}
	return f.Content, true
}

// Symlink returns the symlink at a slash path.
func (inv *Inventory) Symlink(p string) (*Symlink, bool) {
	i, ok := slices.BinarySearchFunc(inv.Symlinks, p, func(s Symlink, p string) int { return strings.Compare(s.Path, p) })
	if !ok {
		return nil, false
	}
	return &inv.Symlinks[i], true
}

// Exists reports whether a file or symlink exists at p, or p is a directory
// holding one.
func (inv *Inventory) Exists(p string) bool {
	p = strings.TrimSuffix(path.Clean(p), "/")
	if p == "." || p == "" {
		return true
	}
	if _, ok := inv.byPath[p]; ok {
		return true
	}
	if _, ok := inv.Symlink(p); ok {
		return true
	}
	return inv.IsDir(p)
}

// IsDir reports whether some file lies under p/.
func (inv *Inventory) IsDir(p string) bool {
	prefix := strings.TrimSuffix(p, "/") + "/"
	i, _ := slices.BinarySearchFunc(inv.Files, prefix, func(f File, p string) int { return strings.Compare(f.Path, p) })
	return i < len(inv.Files) && strings.HasPrefix(inv.Files[i].Path, prefix)
}

// Take reads the whole tree of a snapshot. Content of files within the scan
// limits is kept in memory; every file is hashed.
func Take(ctx context.Context, s *Snapshot, opts Options) (*Inventory, error) {
	opts = opts.withDefaults()
	w := &walker{ctx: ctx, opts: opts, inv: &Inventory{byPath: map[string]int{}}}
	if !opts.NoIgnore {
		ig, err := loadGitIgnore(s.Dir)
		if err != nil {
			return nil, err
		}
		w.ignore = ig
		if ig != nil {
			w.inv.GitWorkTree = ig.top
		}
	}
	if w.ignore != nil {
		defer w.ignore.close()
	}
	// A descriptor of its own, so that the walk reads the root's entries
	// from the start whatever read the snapshot's before.
	top, err := openDirAt(s.root, ".")
	if err != nil {
		return nil, fmt.Errorf("reading directory %q: %w", ".", err)
	}
	defer top.Close()
	if err := w.dir(top, "", 0); err != nil {
		return nil, err
	}
	inv := w.inv
	slices.SortFunc(inv.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(inv.Symlinks, func(a, b Symlink) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(inv.Skipped, func(a, b Skip) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(inv.Unscanned, func(a, b Skip) int { return strings.Compare(a.Path, b.Path) })
	for i := range inv.Files {
		inv.byPath[inv.Files[i].Path] = i
	}
	return inv, nil
}

type walker struct {
	ctx     context.Context
	opts    Options
	inv     *Inventory
	ignore  *gitIgnore
	entries int
	scanned int64
	buf     []byte
}

// copyBuf is one buffer for streaming every large file through the hash.
func (w *walker) copyBuf() []byte {
	if w.buf == nil {
		w.buf = make([]byte, 256<<10)
	}
	return w.buf
}

// dir walks the directory rel, opened as at: its entries are opened
// through it by their names, never following a link (beneath.go).
func (w *walker) dir(at *os.File, rel string, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if depth > maxDepth {
		return fmt.Errorf("%w: directories nested deeper than %d at %q", ErrLimit, maxDepth, rel)
	}
	name := rel
	if name == "" {
		name = "."
	}
	entries, err := at.ReadDir(-1)
	if err != nil {
		return fmt.Errorf("reading directory %q: %w", name, err)
	}
	if w.ignore != nil {
		w.ignore.enter(at, rel)
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range entries {
		p := e.Name()
		if rel != "" {
			p = rel + "/" + e.Name()
		}
		if !utf8.ValidString(p) {
			return fmt.Errorf("%w: the path %q is not valid UTF-8, so no report could name it faithfully; rename it", ErrLimit, p)
		}
		if rel == "" && e.Name() == ".git" {
			w.inv.Skipped = append(w.inv.Skipped, Skip{Path: ".git", Reason: ReasonVCS})
			continue
		}
		w.entries++
		if w.entries > w.opts.MaxFiles {
			return fmt.Errorf("%w: more than %d files and directories; point attest at the artifact's own directory", ErrLimit, w.opts.MaxFiles)
		}
		t := e.Type()
		if w.ignore != nil && w.ignore.ignored(p, t.IsDir()) {
			w.inv.Skipped = append(w.inv.Skipped, Skip{Path: p, Reason: ReasonGitIgnored})
			continue
		}
		switch {
		case t&fs.ModeSymlink != 0:
			target, err := readlinkAt(at, e.Name())
			if err != nil {
				return fmt.Errorf("reading link %q: %w", p, err)
			}
			w.inv.Symlinks = append(w.inv.Symlinks, Symlink{Path: p, Target: target})
		case t.IsDir():
			if depth+1 > maxDepth {
				return fmt.Errorf("%w: directories nested deeper than %d at %q", ErrLimit, maxDepth, p)
			}
			sub, err := openDirAt(at, e.Name())
			if err != nil {
				return fmt.Errorf("reading directory %q: %w", p, err)
			}
			err = w.dir(sub, p, depth+1)
			sub.Close()
			if err != nil {
				return err
			}
		case t.IsRegular():
			if err := w.file(at, e.Name(), p); err != nil {
				return err
			}
		default:
			w.inv.Skipped = append(w.inv.Skipped, Skip{Path: p, Reason: ReasonNotRegular})
		}
	}
	return nil
}

// file reads the file p, named name in the directory at.
func (w *walker) file(at *os.File, name, p string) error {
	// If the entry was swapped for a link after ReadDir, the open fails;
	// for a FIFO or a device, it neither blocks nor is read.
	f, fi, err := openFileAt(at, name, false)
	if errors.Is(err, ErrNotRegular) {
		w.inv.Skipped = append(w.inv.Skipped, Skip{Path: p, Reason: ReasonNotRegular})
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %q: %w", p, err)
	}
	defer f.Close()
	if w.inv.Bytes+fi.Size() > w.opts.MaxTotalBytes {
		return fmt.Errorf("%w: more than %d bytes in total", ErrLimit, w.opts.MaxTotalBytes)
	}
	file := File{Path: p, Mode: fi.Mode().Perm(), Size: fi.Size()}
	h := sha256.New()
	keep := fi.Size() <= w.opts.ScanFileBytes && w.scanned+fi.Size() <= w.opts.ScanTotalBytes
	var n int64
	if keep {
		// Read one byte past the limit: the file may have grown since Stat.
		buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead+1))
		n, err = buf.ReadFrom(io.LimitReader(f, w.opts.ScanFileBytes+1))
		h.Write(buf.Bytes())
		if err == nil && n > w.opts.ScanFileBytes {
			keep = false
			var m int64
			m, err = io.CopyBuffer(h, f, w.copyBuf())
			n += m
		}
		if keep {
			file.Content = buf.Bytes()
			file.Scanned = true
			w.scanned += n
		}
	} else {
		n, err = io.CopyBuffer(h, f, w.copyBuf())
	}
	if err != nil {
		return fmt.Errorf("reading %q: %w", p, err)
	}
	file.Size = n
	copy(file.SHA256[:], h.Sum(nil))
	if !file.Scanned {
		reason := ReasonScanSize
		if n <= w.opts.ScanFileBytes {
			reason = ReasonScanBudget
		}
		w.inv.Unscanned = append(w.inv.Unscanned, Skip{Path: p, Reason: reason})
	}
	w.inv.Bytes += n
	w.inv.Files = append(w.inv.Files, file)
	return nil
}
