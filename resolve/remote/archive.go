package remote

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/metahub-ai/attest/resolve"
)

// Limits of an extracted package.
var (
	MaxExtractBytes int64 = 512 << 20
	MaxExtractFiles       = resolve.DefaultMaxFiles
)

// ErrHostileArchive is returned for an archive entry that would write
// outside the directory, link out of it, create a device, or outgrow the
// limits.
var ErrHostileArchive = errors.New("refusing the archive")

// extractor writes archive entries below dir, refusing anything that
// leaves it.
type extractor struct {
	dir   string
	strip int // leading path components dropped (npm's package/)
	total int64
	files int
}

func (x *extractor) name(raw string) (string, bool, error) {
	n := strings.ReplaceAll(raw, `\`, "/")
	if strings.HasPrefix(n, "/") || path.IsAbs(n) || len(n) > 1 && n[1] == ':' {
		return "", false, fmt.Errorf("%w: entry %q has an absolute path", ErrHostileArchive, raw)
	}
	for _, seg := range strings.Split(n, "/") {
		if seg == ".." {
			return "", false, fmt.Errorf("%w: entry %q climbs out with ..", ErrHostileArchive, raw)
		}
	}
	parts := strings.Split(strings.Trim(path.Clean(n), "/"), "/")
	if len(parts) <= x.strip {
		return "", false, nil // the stripped directory itself
	}
	rel := strings.Join(parts[x.strip:], "/")
	if rel == "." || rel == "" {
		return "", false, nil
	}
	if !filepath.IsLocal(rel) {
		return "", false, fmt.Errorf("%w: entry %q is not a local path", ErrHostileArchive, raw)
	}
	return rel, true, nil
}

func (x *extractor) count(size int64) error {
	x.files++
	if x.files > MaxExtractFiles {
		return fmt.Errorf("%w: more than %d files", ErrHostileArchive, MaxExtractFiles)
	}
	if size > MaxExtractBytes-x.total {
		return fmt.Errorf("%w: it unpacks to more than %d bytes (a decompression bomb, or simply too large)", ErrHostileArchive, MaxExtractBytes)
	}
	return nil
}

func (x *extractor) file(rel string, r io.Reader, mode os.FileMode) error {
	dst := filepath.Join(x.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("%w: entry %q: %v", ErrHostileArchive, rel, err)
	}
	// Count what is written, not what the header claims.
	n, err := io.Copy(f, io.LimitReader(r, MaxExtractBytes-x.total+1))
	x.total += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if x.total > MaxExtractBytes {
		return fmt.Errorf("%w: it unpacks to more than %d bytes (a decompression bomb, or simply too large)", ErrHostileArchive, MaxExtractBytes)
	}
	return nil
}

func (x *extractor) symlink(rel, target string) error {
	t := strings.ReplaceAll(target, `\`, "/")
	if path.IsAbs(t) || !filepath.IsLocal(path.Join(path.Dir(rel), t)) {
		return fmt.Errorf("%w: entry %q links to %q, outside the package", ErrHostileArchive, rel, target)
	}
	dst := filepath.Join(x.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.Symlink(target, dst)
}

func fileMode(m int64) os.FileMode {
	if m&0o111 != 0 {
		return 0o755
	}
	return 0o644
}

// extractTarGz unpacks a gzip-compressed tar stream.
func extractTarGz(r io.Reader, dir string, strip int) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("%w: not a gzip stream: %v", ErrHostileArchive, err)
	}
	defer gz.Close()
	x := &extractor{dir: dir, strip: strip}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %v", ErrHostileArchive, err)
		}
		rel, ok, err := x.name(h.Name)
		if err != nil {
			return err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if ok {
				if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(rel)), 0o755); err != nil {
					return err
				}
			}
			continue
		case tar.TypeXGlobalHeader, tar.TypeXHeader, tar.TypeGNULongName, tar.TypeGNULongLink:
			continue
		case tar.TypeReg, tar.TypeRegA:
			if !ok {
				continue
			}
			if err := x.count(h.Size); err != nil {
				return err
			}
			if err := x.file(rel, tr, fileMode(h.Mode)); err != nil {
				return err
			}
		case tar.TypeSymlink:
			if !ok {
				continue
			}
			if err := x.count(0); err != nil {
				return err
			}
			if err := x.symlink(rel, h.Linkname); err != nil {
				return err
			}
		case tar.TypeLink:
			return fmt.Errorf("%w: entry %q is a hard link", ErrHostileArchive, h.Name)
		default:
			return fmt.Errorf("%w: entry %q is a device, pipe or other special file", ErrHostileArchive, h.Name)
		}
	}
}

// extractZip unpacks a zip archive held in memory.
func extractZip(data []byte, dir string, strip int) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("%w: not a zip archive: %v", ErrHostileArchive, err)
	}
	x := &extractor{dir: dir, strip: strip}
	for _, f := range zr.File {
		rel, ok, err := x.name(f.Name)
		if err != nil {
			return err
		}
		mode := f.Mode()
		switch {
		case mode.IsDir():
			if ok {
				if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(rel)), 0o755); err != nil {
					return err
				}
			}
			continue
		case mode&os.ModeSymlink != 0:
			if !ok {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return fmt.Errorf("%w: %v", ErrHostileArchive, err)
			}
			target, err := io.ReadAll(io.LimitReader(rc, 4096))
			rc.Close()
			if err != nil {
				return err
			}
			if err := x.count(0); err != nil {
				return err
			}
			if err := x.symlink(rel, string(target)); err != nil {
				return err
			}
		case mode.IsRegular():
			if !ok {
				continue
			}
			if err := x.count(int64(f.UncompressedSize64)); err != nil {
				return err
			}
			rc, err := f.Open()
			if err != nil {
				return fmt.Errorf("%w: %v", ErrHostileArchive, err)
			}
			err = x.file(rel, rc, fileMode(int64(mode.Perm())))
			rc.Close()
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("%w: entry %q is a device, pipe or other special file", ErrHostileArchive, f.Name)
		}
	}
	return nil
}
