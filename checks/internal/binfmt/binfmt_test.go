package binfmt

import "testing"

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
	f.Fuzz(func(t *testing.T, b []byte) {
		ty := Detect("x", b)
		if ty.Archive() {
			_, _ = Inspect("x", b, ty)
		}
	})
}
