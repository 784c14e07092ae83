package nobundledbinaries_test

import (
	"testing"

	"github.com/metahub-ai/attest/checks/checktest"
	nobundledbinaries "github.com/metahub-ai/attest/checks/no-bundled-binaries"
)

func TestFixtures(t *testing.T) { checktest.Verify(t, nobundledbinaries.Check, "testdata") }

func TestDetect(t *testing.T) {
	for name, tc := range map[string]struct {
		b    string
		want nobundledbinaries.Type
	}{
		"a.png":      {"\x7fELF\x02", nobundledbinaries.ELF},
		"a.exe":      {"MZ" + string(make([]byte, 70)), nobundledbinaries.PE},
		"a.jar":      {"PK\x03\x04", nobundledbinaries.Zip},
		"A.class":    {"\xca\xfe\xba\xbe\x00\x00\x00\x41", nobundledbinaries.JavaCls},
		"x.wasm":     {"\x00asm\x01", nobundledbinaries.WASM},
		"photo.jpg":  {"\xff\xd8\xff\xe0", nobundledbinaries.Media},
		"notes.md":   {"# hi", ""},
		"archive.gz": {"\x1f\x8b\x08", nobundledbinaries.Gzip},
	} {
		if got := nobundledbinaries.Detect(name, []byte(tc.b)); got != tc.want {
			t.Errorf("Detect(%s) = %q, want %q", name, got, tc.want)
		}
	}
	if !nobundledbinaries.Disguised("notes.md", nobundledbinaries.Zip) || nobundledbinaries.Disguised("report.docx", nobundledbinaries.Zip) {
		t.Error("Disguised")
	}
}

func FuzzInspect(f *testing.F) {
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte("\x1f\x8b\x08\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ty := nobundledbinaries.Detect("x", b)
		if ty.Archive() {
			_, _ = nobundledbinaries.Inspect("x", b, ty)
		}
	})
}
