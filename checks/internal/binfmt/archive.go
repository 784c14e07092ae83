package binfmt

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// Limits on opening archives.
const (
	MaxArchiveDepth    = 3
	MaxMembers         = 10_000
	MaxExpandedBytes   = 256 << 20
	MaxRatio           = 100
	MaxTextMemberBytes = 8 << 20 // the per-file text scanning limit
	maxMemberHeadBytes = 512
)

var errArchiveLimit = errors.New("archive limit reached")

// ErrNotOpened means an archive of a format attest does not read: its
// members were not inspected, which is recorded and never passes.
var ErrNotOpened = errors.New("archive format not read")

// maxLinkBytes bounds a zip symlink member's target.
const maxLinkBytes = 4096

// Member is one entry of an archive, as far as it was read.
type Member struct {
	Name    string // archive!/member (nested: a!/b.zip!/c)
	Type    Type
	Escapes bool   // absolute or climbing name, or a link out of the archive
	Link    string // a link member's target
	// Text is the member's content when it is a regular file of valid
	// UTF-8 with no NUL, within MaxTextMemberBytes: the content checks
	// read it as a virtual file.
	Text []byte
}

func text(b []byte, t Type) []byte {
	if t != "" || len(b) > MaxTextMemberBytes || !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return nil
	}
	return b
}

// Inspect lists an archive's members (recursing into nested archives),
// classifying each by its first bytes. It stops at the limits and reports
// errArchiveLimit with what it read.
func Inspect(name string, b []byte, t Type) ([]Member, error) {
	ins := &inspector{}
	err := ins.open(name, b, t, 0)
	return ins.members, err
}

type inspector struct {
	members  []Member
	expanded int64
}

func (in *inspector) add(m Member) error {
	in.members = append(in.members, m)
	if len(in.members) > MaxMembers {
		return errArchiveLimit
	}
	return nil
}

func escapes(name string) bool {
	n := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(n, "/") || len(n) > 1 && n[1] == ':' {
		return true
	}
	c := path.Clean(n)
	return c == ".." || strings.HasPrefix(c, "../")
}

// linkEscapes: a link member whose target, resolved where the member is
// extracted, leaves the extraction directory (an absolute target always
// does).
func linkEscapes(name, target string) bool {
	t := strings.ReplaceAll(target, `\`, "/")
	if strings.HasPrefix(t, "/") || len(t) > 1 && t[1] == ':' {
		return true
	}
	return escapes(path.Join(path.Dir(strings.ReplaceAll(name, `\`, "/")), t))
}

// read reads one member up to the expansion limits.
func (in *inspector) read(r io.Reader, compressed int64) ([]byte, error) {
	limit := int64(MaxExpandedBytes) - in.expanded
	if compressed > 0 && compressed*MaxRatio < limit {
		limit = compressed * MaxRatio
	}
	if limit <= 0 {
		return nil, errArchiveLimit
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	in.expanded += int64(len(b))
	if err != nil {
		return b, err
	}
	if int64(len(b)) > limit {
		return b[:limit], errArchiveLimit
	}
	return b, nil
}

func (in *inspector) open(name string, b []byte, t Type, depth int) error {
	if depth >= MaxArchiveDepth {
		return errArchiveLimit
	}
	switch t {
	case Zip:
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, f := range zr.File {
			m := Member{Name: name + "!/" + f.Name, Escapes: escapes(f.Name)}
			if f.Mode()&fs.ModeSymlink != 0 {
				// a link member's content is its target, followed by
				// whoever extracts it
				rc, err := f.Open()
				if err != nil {
					return fmt.Errorf("%s: %w", m.Name, err)
				}
				target, err := io.ReadAll(io.LimitReader(rc, maxLinkBytes))
				rc.Close()
				if err != nil {
					return fmt.Errorf("%s: %w", m.Name, err)
				}
				m.Link = string(target)
				m.Escapes = m.Escapes || linkEscapes(f.Name, m.Link)
				if err := in.add(m); err != nil {
					return err
				}
				continue
			}
			if !f.FileInfo().IsDir() {
				rc, err := f.Open()
				if err != nil {
					return fmt.Errorf("%s: %w", m.Name, err)
				}
				data, rerr := in.read(rc, int64(f.CompressedSize64))
				rc.Close()
				m.Type = Detect(f.Name, data)
				if rerr == nil {
					m.Text = text(data, m.Type)
				}
				if err := in.add(m); err != nil {
					return err
				}
				if rerr != nil {
					return rerr
				}
				if m.Type.Archive() {
					if err := in.open(m.Name, data, m.Type, depth+1); err != nil {
						return err
					}
				}
				continue
			}
			if err := in.add(m); err != nil {
				return err
			}
		}
	case Gzip, Bzip2, XZ, LZMA, Zstd:
		r, closer, err := decompressor(t, b)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		data, rerr := in.read(r, int64(len(b)))
		closer()
		if rerr != nil && !errors.Is(rerr, errArchiveLimit) {
			return fmt.Errorf("%s: %w", name, rerr)
		}
		inner := Detect(streamInner(name), data)
		if inner == Tar || len(data) > 262 && string(data[257:262]) == "ustar" {
			// the tar's members count against the budget as they are
			// read; the stream holding them must not count twice
			in.expanded -= int64(len(data))
			err := in.open(name, data, Tar, depth)
			if rerr != nil {
				// a stream cut at the limit, even exactly at a member
				// boundary where the tar reads cleanly: what followed
				// was never seen
				return rerr
			}
			return err
		}
		m := Member{Name: name + "!/", Type: inner}
		if rerr == nil {
			m.Text = text(data, inner)
		}
		if err := in.add(m); err != nil {
			return err
		}
		return rerr
	case SevenZ, RAR, CAB, Deb, RPM, ISO:
		return fmt.Errorf("%s: %w (%s)", name, ErrNotOpened, t)
	case Tar:
		tr := tar.NewReader(bytes.NewReader(b))
		for {
			h, err := tr.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			m := Member{Name: name + "!/" + h.Name, Escapes: escapes(h.Name)}
			if h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink {
				m.Link = h.Linkname
				m.Escapes = m.Escapes || linkEscapes(h.Name, h.Linkname)
			}
			if h.Typeflag == tar.TypeReg {
				data, rerr := in.read(tr, h.Size/MaxRatio+1)
				m.Type = Detect(h.Name, data)
				if rerr == nil && !m.Escapes {
					m.Text = text(data, m.Type)
				}
				if rerr != nil {
					in.add(m)
					return rerr
				}
				if m.Type.Archive() {
					if err := in.open(m.Name, data, m.Type, depth+1); err != nil {
						return err
					}
				}
			}
			if err := in.add(m); err != nil {
				return err
			}
		}
	}
	return nil
}

// decompressor opens a compressed stream; closer releases its decoder.
func decompressor(t Type, b []byte) (io.Reader, func(), error) {
	none := func() {}
	switch t {
	case Gzip:
		r, err := gzip.NewReader(bytes.NewReader(b))
		return r, none, err
	case Bzip2:
		return bzip2.NewReader(bytes.NewReader(b)), none, nil
	case XZ:
		r, err := xz.NewReader(bytes.NewReader(b))
		return r, none, err
	case LZMA:
		r, err := lzma.NewReader(bytes.NewReader(b))
		return r, none, err
	case Zstd:
		// one goroutine, and a window no larger than the expansion
		// limit, so a crafted frame cannot allocate past it
		d, err := zstd.NewReader(bytes.NewReader(b), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(MaxExpandedBytes),
			zstd.WithDecoderMaxMemory(MaxExpandedBytes))
		if err != nil {
			return nil, none, err
		}
		return d, d.Close, nil
	}
	return nil, none, fmt.Errorf("%w (%s)", ErrNotOpened, t)
}

// streamInner is the name of what a compressed stream holds.
func streamInner(name string) string {
	lower := strings.ToLower(name)
	for _, ext := range []string{".gz", ".bz2", ".xz", ".lzma", ".zst"} {
		if strings.HasSuffix(lower, ext) {
			return name[:len(name)-len(ext)]
		}
	}
	for _, ext := range []string{".tgz", ".tbz2", ".txz", ".tlz", ".tzst"} {
		if strings.HasSuffix(lower, ext) {
			return name[:len(name)-len(ext)] + ".tar"
		}
	}
	return name
}
