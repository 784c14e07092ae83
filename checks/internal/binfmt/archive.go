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
	"path"
	"strings"
	"unicode/utf8"
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

// Member is one entry of an archive, as far as it was read.
type Member struct {
	Name    string // archive!/member (nested: a!/b.zip!/c)
	Type    Type
	Escapes bool // absolute or climbing name, or a link out of the archive
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

// read reads one member up to the expansion limits.
func (in *inspector) read(r io.Reader, compressed int64) ([]byte, error) {
	limit := int64(MaxExpandedBytes) - in.expanded
	if compressed > 0 && compressed*MaxRatio < limit {
		limit = compressed * MaxRatio
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
	case Gzip, Bzip2:
		var r io.Reader
		if t == Gzip {
			gz, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			r = gz
		} else {
			r = bzip2.NewReader(bytes.NewReader(b))
		}
		data, err := in.read(r, int64(len(b)))
		if err != nil && !errors.Is(err, errArchiveLimit) {
			return fmt.Errorf("%s: %w", name, err)
		}
		inner := Detect(strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".bz2"), data)
		if inner == Tar || len(data) > 262 && string(data[257:262]) == "ustar" {
			return in.open(name, data, Tar, depth)
		}
		m := Member{Name: name + "!/", Type: inner}
		if err == nil {
			m.Text = text(data, inner)
		}
		if err := in.add(m); err != nil {
			return err
		}
		return err
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
				m.Escapes = m.Escapes || escapes(h.Linkname) || escapes(path.Join(path.Dir(h.Name), h.Linkname))
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
