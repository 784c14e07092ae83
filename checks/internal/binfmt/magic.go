// Package binfmt classifies bytes by their magic and opens archives within
// limits (CHECKS §4.1). no-bundled-binaries judges what it finds, and the
// text members of archives join the content checks as virtual files.
package binfmt

import (
	"bytes"
	"encoding/binary"
	"path"
	"strings"
)

// Type is what a file's bytes say it is.
type Type string

// Detected types; "" is text or an unknown format.
const (
	ELF      Type = "ELF executable"
	PE       Type = "Windows PE executable"
	MachO    Type = "Mach-O executable"
	JavaCls  Type = "Java class file"
	PyByte   Type = "Python bytecode"
	WASM     Type = "WebAssembly module"
	Zip      Type = "zip archive"
	Tar      Type = "tar archive"
	Gzip     Type = "gzip archive"
	Bzip2    Type = "bzip2 archive"
	XZ       Type = "xz archive"
	Zstd     Type = "zstd archive"
	LZMA     Type = "lzma archive"
	SevenZ   Type = "7z archive"
	RAR      Type = "rar archive"
	CAB      Type = "cab archive"
	Deb      Type = "deb package"
	RPM      Type = "rpm package"
	ISO      Type = "ISO image"
	OLE      Type = "OLE document"
	PDF      Type = "PDF document"
	SVG      Type = "SVG image"
	Media    Type = "media"
	DataFile Type = "data file"
)

// Executable reports whether the type runs or is loaded as code.
func (t Type) Executable() bool {
	switch t {
	case ELF, PE, MachO, JavaCls, PyByte, WASM:
		return true
	}
	return false
}

// Archive reports whether the type is an archive.
func (t Type) Archive() bool {
	switch t {
	case Zip, Tar, Gzip, Bzip2, XZ, LZMA, Zstd, SevenZ, RAR, CAB, Deb, RPM, ISO:
		return true
	}
	return false
}

// Detect classifies content by its magic bytes (name decides only for
// bytecode and SVG, whose magic is weak).
func Detect(name string, b []byte) Type {
	has := func(off int, magic string) bool {
		return len(b) >= off+len(magic) && string(b[off:off+len(magic)]) == magic
	}
	ext := strings.ToLower(path.Ext(name))
	switch {
	case has(0, "\x7fELF"):
		return ELF
	case has(0, "MZ") && len(b) >= 0x40:
		return PE
	case has(0, "\xfe\xed\xfa\xce"), has(0, "\xfe\xed\xfa\xcf"), has(0, "\xce\xfa\xed\xfe"), has(0, "\xcf\xfa\xed\xfe"):
		return MachO
	case has(0, "\xca\xfe\xba\xbe") && len(b) >= 8:
		// Java class (major version ≥ 45) or a fat Mach-O (a small arch count).
		if binary.BigEndian.Uint16(b[6:8]) >= 45 {
			return JavaCls
		}
		return MachO
	case (ext == ".pyc" || ext == ".pyo") && len(b) >= 4 && b[2] == '\r' && b[3] == '\n':
		return PyByte
	case has(0, "\x00asm"):
		return WASM
	case has(0, "PK\x03\x04"), has(0, "PK\x05\x06"), has(0, "PK\x07\x08"):
		return Zip
	case has(257, "ustar"):
		return Tar
	case has(0, "\x1f\x8b"):
		return Gzip
	case has(0, "BZh"):
		return Bzip2
	case has(0, "\xfd7zXZ\x00"):
		return XZ
	case has(0, "\x28\xb5\x2f\xfd"):
		return Zstd
	case (ext == ".lzma" || ext == ".tlz") && len(b) >= 13 && b[0] < 225:
		// LZMA alone has no magic: a properties byte (lc+lp*9+pb*45),
		// then the dictionary size and the length
		return LZMA
	case has(0, "7z\xbc\xaf\x27\x1c"):
		return SevenZ
	case has(0, "Rar!\x1a\x07"):
		return RAR
	case has(0, "MSCF"):
		return CAB
	case has(0, "!<arch>\ndebian"):
		return Deb
	case has(0, "\xed\xab\xee\xdb"):
		return RPM
	case has(0x8001, "CD001"):
		return ISO
	case has(0, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
		return OLE
	case has(0, "%PDF-"):
		return PDF
	case has(0, "\x89PNG"), has(0, "\xff\xd8\xff"), has(0, "GIF8"), has(0, "BM") && ext == ".bmp", has(0, "II*\x00"), has(0, "MM\x00*"),
		has(0, "RIFF") && (has(8, "WEBP") || has(8, "WAVE") || has(8, "AVI ")), has(0, "\x00\x00\x01\x00"), has(4, "ftyp"),
		has(0, "OggS"), has(0, "fLaC"), has(0, "ID3"), has(0, "\xff\xfb"), has(0, "OTTO"), has(0, "\x00\x01\x00\x00") && (ext == ".ttf" || ext == ".otf"),
		has(0, "wOFF"), has(0, "wOF2"), has(0, "\x1aE\xdf\xa3"):
		return Media
	case has(0, "SQLite format 3\x00"), has(0, "PAR1"):
		return DataFile
	case ext == ".svg" || bytes.Contains(b[:min(len(b), 512)], []byte("<svg")):
		return SVG
	}
	return ""
}

// claimsText: extensions that promise text or media, so a binary behind
// them is disguised.
var claimsText = map[string]bool{".md": true, ".txt": true, ".json": true, ".yaml": true, ".yml": true, ".toml": true, ".csv": true,
	".py": true, ".js": true, ".ts": true, ".sh": true, ".html": true, ".css": true, ".xml": true, ".svg": true}

var claimsMedia = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".ico": true, ".webp": true, ".bmp": true,
	".mp3": true, ".wav": true, ".mp4": true, ".ttf": true, ".otf": true, ".woff": true, ".woff2": true, ".pdf": true}

// Disguised reports whether the extension hides what the bytes are.
func Disguised(name string, t Type) bool {
	ext := strings.ToLower(path.Ext(name))
	if !(t.Executable() || t.Archive() || t == OLE) {
		return false
	}
	if t == Zip && (ext == ".docx" || ext == ".xlsx" || ext == ".pptx" || ext == ".jar" || ext == ".whl" || ext == ".epub" || ext == ".odt") {
		return false
	}
	return claimsText[ext] || claimsMedia[ext]
}
