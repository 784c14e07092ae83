package flow

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"html"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeAs decodes s the way the named call would; ok only when the result
// is text.
func decodeAs(name, s string, a *args) (string, string, bool) {
	try := func(b []byte, err error, codec string) (string, string, bool) {
		if err != nil || len(b) == 0 {
			return "", "", false
		}
		if d, ok := inflate(b); ok {
			b, codec = d, codec+"→zlib"
		}
		if d, ok := utf16LE(b); ok {
			b, codec = d, codec+"→utf16le"
		}
		if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
			return "", "", false
		}
		return string(b), codec, true
	}
	t := strings.TrimSpace(s)
	switch {
	case name == "reverse":
		return reverse(s), "reverse", true
	case name == "chr":
		// chr(99): one character from its code
		n, err := strconv.ParseInt(t, 0, 32)
		if err != nil || n < 0x20 && n != '\n' && n != '\t' || n > utf8.MaxRune {
			return "", "", false
		}
		return string(rune(n)), "char codes", true
	case name == "zlib":
		if d, ok := inflate([]byte(s)); ok && utf8.Valid(d) {
			return string(d), "zlib", true
		}
		return "", "", false
	case strings.Contains(name, "b32"), strings.Contains(name, "base32"):
		b, err := base32.StdEncoding.DecodeString(padTo(t, 8))
		return try(b, err, "base32")
	case strings.Contains(name, "hex"), strings.Contains(name, "unhexlify"), strings.Contains(name, "b16"):
		b, err := hex.DecodeString(t)
		return try(b, err, "hex")
	case strings.Contains(name, "html") && strings.Contains(name, "unescape"):
		d := html.UnescapeString(s)
		if d == s {
			return "", "", false
		}
		return d, "html-entities", true
	case strings.Contains(name, "unquote"), strings.Contains(name, "decodeuri"), strings.Contains(name, "unescape"):
		d, err := url.PathUnescape(t)
		if err != nil || d == t {
			return "", "", false
		}
		return d, "url", true
	case strings.Contains(name, "fromcharcode"), strings.Contains(name, "fromcodepoint"):
		return "", "", false
	case strings.Contains(name, "codecs.decode"):
		for _, v := range a.pos[1:] {
			if c, ok := v.str(); ok && strings.Contains(strings.ToLower(c), "rot") {
				return rot13(t), "rot13", true
			}
		}
		return "", "", false
	case strings.Contains(name, "decompress"), strings.Contains(name, "inflate"), strings.Contains(name, "gunzip"):
		if d, ok := inflate([]byte(s)); ok && utf8.Valid(d) {
			return string(d), "zlib", true
		}
		return "", "", false
	case strings.Contains(name, "buffer.from"):
		enc := ""
		if len(a.pos) > 1 {
			enc, _ = a.pos[1].str()
		}
		switch strings.ToLower(enc) {
		case "base64", "base64url":
			b, err := b64(t)
			return try(b, err, "base64")
		case "hex":
			b, err := hex.DecodeString(t)
			return try(b, err, "hex")
		}
		return "", "", false
	case strings.HasSuffix(name, ".decode") && !strings.Contains(name, "b64") && !strings.Contains(name, "base64"):
		return "", "", false
	}
	b, err := b64(t)
	return try(b, err, "base64")
}

// charCodes is the text a list of character codes spells (decimal,
// 0x hex or 0o octal constants); ok only for printable text of at least
// min characters, so that a file signature's bytes are not text.
func charCodes(vs []*Val, min int) (string, bool) {
	var b strings.Builder
	for _, v := range vs {
		if v == nil || len(v.S) != 1 || len(v.T) > 0 {
			return "", false
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v.S[0]), 0, 32)
		if err != nil || n < 0 || n > utf8.MaxRune {
			return "", false
		}
		r := rune(n)
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' || r == utf8.RuneError {
			return "", false
		}
		b.WriteRune(r)
	}
	if b.Len() < min {
		return "", false
	}
	return b.String(), true
}

// execFormat names the executable format whose magic number a list of
// byte constants starts with ("" for none).
func execFormat(vs []*Val) string {
	var b []byte
	for _, v := range vs {
		if len(b) == 4 {
			break
		}
		if v == nil || len(v.S) != 1 {
			return ""
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v.S[0]), 0, 8)
		if err != nil {
			return ""
		}
		b = append(b, byte(n))
	}
	switch {
	case len(vs) < 16 || len(b) < 4:
		return ""
	case bytes.Equal(b, []byte{0x7f, 'E', 'L', 'F'}):
		return "ELF"
	case b[0] == 'M' && b[1] == 'Z':
		return "PE"
	case bytes.Equal(b, []byte{0xfe, 0xed, 0xfa, 0xce}), bytes.Equal(b, []byte{0xfe, 0xed, 0xfa, 0xcf}),
		bytes.Equal(b, []byte{0xce, 0xfa, 0xed, 0xfe}), bytes.Equal(b, []byte{0xcf, 0xfa, 0xed, 0xfe}):
		return "Mach-O"
	}
	return ""
}

// opaqueCodec names the decoding a call performs when it is a real
// decoder of opaque text (base64, hex, compression), "" otherwise (a
// bytes.decode("utf-8") only reads bytes as text).
func opaqueCodec(name string) string {
	switch {
	case strings.Contains(name, "b64"), strings.Contains(name, "base64"), strings.Contains(name, "atob"), strings.Contains(name, "a2b"):
		return "base64"
	case strings.Contains(name, "b32"), strings.Contains(name, "base32"):
		return "base32"
	case strings.Contains(name, "hex"), strings.Contains(name, "b16"):
		return "hex"
	case strings.Contains(name, "decompress"), strings.Contains(name, "inflate"), strings.Contains(name, "gunzip"), strings.Contains(name, "unzip"):
		return "compressed"
	}
	return ""
}

// opaque: a constant of some length, fully known (no part the engine
// could not fold).
func opaque(s string) bool {
	return len(strings.TrimSpace(s)) >= 16 && !strings.Contains(s, "?")
}

// utf16LE decodes text stored as UTF-16LE (Windows' "Unicode", what
// PowerShell's -EncodedCommand holds): ok when every other byte is zero
// as ASCII-range text has it.
func utf16LE(b []byte) ([]byte, bool) {
	if len(b) < 2 || len(b)%2 != 0 {
		return nil, false
	}
	zeros := 0
	for i := 1; i < len(b); i += 2 {
		if b[i] == 0 {
			zeros++
		}
	}
	if zeros*4 < len(b)/2*3 {
		return nil, false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return []byte(string(utf16.Decode(u))), true
}

func b64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	if strings.ContainsAny(s, "-_") {
		return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	}
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}

func padTo(s string, n int) string {
	if r := len(s) % n; r != 0 {
		s += strings.Repeat("=", n-r)
	}
	return s
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// inflate undoes zlib or gzip compression, bounded.
func inflate(b []byte) ([]byte, bool) {
	const limit = 1 << 20
	var r io.Reader
	if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
		g, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, false
		}
		r = g
	} else if len(b) > 2 && b[0] == 0x78 {
		z, err := zlib.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, false
		}
		r = z
	} else {
		return nil, false
	}
	out, err := io.ReadAll(io.LimitReader(r, limit))
	if err != nil && len(out) == 0 {
		return nil, false
	}
	return out, true
}
