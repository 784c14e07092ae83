package noobfuscatedpayloads

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/internal/files"
	"github.com/metahub-ai/attest/checks/internal/reach"
	"github.com/metahub-ai/attest/checks/internal/shell"
	"github.com/metahub-ai/attest/checks/lex"
	"github.com/metahub-ai/attest/checks/lex/fold"
	"github.com/metahub-ai/attest/checks/vocab"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Check is no-obfuscated-payloads.
var Check = &checks.Check{
	ID:          "no-obfuscated-payloads",
	Version:     "1.4.0",
	Title:       "No obfuscated payloads",
	Axis:        checks.Safety,
	Weight:      5,
	Blocking:    true,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Uses:        []string{checks.UsesFacts},
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

// Limits of decoding.
const (
	MaxLayers  = 4
	MaxDecoded = 1 << 20
)

var (
	b64Lit    = lex.Lazy("[\"'`]([A-Za-z0-9+/_-]{36,}={0,2})[\"'`]")
	hexLit    = lex.Lazy(`["'` + "`" + `]([0-9a-fA-F]{48,})["'` + "`" + `]`)
	charCodes = lex.Lazy(`(?:fromCharCode\s*\(|\[)\s*((?:\d{2,3}\s*,\s*){19,}\d{2,3})\s*[\])]`)
	escapes   = lex.Lazy(`((?:\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}){20,})`)
	urlEnc    = lex.Lazy(`((?:%[0-9a-fA-F]{2}){20,})`)
	// codeLike: decoded text that reads as code; a decoded command that
	// reaches the network is the vocabulary's to name (reachesNetwork).
	codeLike = lex.Lazy(`(?i)^#!|/bin/(ba)?sh\b|\bchmod\s|\brm\s+-rf\b|\beval\s*\(|\bexec\s*\(|\brequire\s*\(|^\s*import\s+\w|\bchild_process\b|\bsubprocess\b|\bos\.system\b|\bsocket\.|\bpowershell\b|invoke-expression|\biex\b|/dev/tcp/`)
	packers  = lex.Lazy(`eval\(function\(p,a,c,k,e,[rd]\)|__pyarmor__|pyarmor_runtime|gzinflate\(\s*base64_decode\(|(?i)-(?:e|enc|encodedcommand)\s+[A-Za-z0-9+/=]{40,}|FromBase64String\([^)]*\)[^;\n]{0,40}\|\s*(iex|invoke-expression)`)
	obfIdent = lex.Lazy(`\b_0x[0-9a-f]{4,6}\b`)
	jsfuck   = lex.Lazy(`[\[\]()!+]{200,}`)
)

// mediaMagic: decoded bytes that are images, fonts, audio or documents.
func mediaMagic(b []byte) bool {
	for _, m := range []string{"\x89PNG", "\xff\xd8\xff", "GIF8", "RIFF", "wOFF", "wOF2", "OTTO", "\x00\x01\x00\x00", "%PDF", "ID3", "OggS", "fLaC", "<svg", "<?xml", "\x00\x00\x01\x00", "BM"} {
		if bytes.HasPrefix(b, []byte(m)) {
			return true
		}
	}
	return false
}

// decode peels layers off a candidate and returns the text and the chain.
func decode(kind string, s string) (string, []string) {
	var out []byte
	switch kind {
	case "base64":
		v, ok := fold.Base64(s)
		if !ok {
			return "", nil
		}
		out = []byte(v)
	case "hex":
		b, err := hex.DecodeString(s)
		if err != nil {
			return "", nil
		}
		out = b
	case "char-codes":
		for _, p := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || n > 0x10FFFF {
				return "", nil
			}
			out = append(out, []byte(string(rune(n)))...)
		}
	case "escapes":
		v, err := strconv.Unquote(`"` + s + `"`)
		if err != nil {
			return "", nil
		}
		out = []byte(v)
	case "url-encoding":
		v, err := url.QueryUnescape(s)
		if err != nil {
			return "", nil
		}
		out = []byte(v)
	}
	chain := []string{kind}
	for layer := 1; layer < MaxLayers; layer++ {
		switch {
		case bytes.HasPrefix(out, []byte{0x1f, 0x8b}):
			if r, err := gzip.NewReader(bytes.NewReader(out)); err == nil {
				b, _ := io.ReadAll(io.LimitReader(r, MaxDecoded))
				out, chain = b, append(chain, "gzip")
				continue
			}
		case len(out) > 2 && out[0] == 0x78 && (out[1] == 0x9c || out[1] == 0x01 || out[1] == 0xda || out[1] == 0x5e):
			if r, err := zlib.NewReader(bytes.NewReader(out)); err == nil {
				b, _ := io.ReadAll(io.LimitReader(r, MaxDecoded))
				out, chain = b, append(chain, "zlib")
				continue
			}
		default:
			t := strings.TrimSpace(string(out))
			if len(t) >= 40 && strings.Trim(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") == "" {
				if v, ok := fold.Base64(t); ok {
					out, chain = []byte(v), append(chain, "base64")
					continue
				}
			}
		}
		break
	}
	return string(out), chain
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	var fails []checks.Evidence
	n := 0
	for f := range files.Scan(in.Subject) {
		if !files.IsText(f) || strings.HasSuffix(f.Path, ".map") || strings.HasSuffix(f.Path, ".lock") || strings.HasSuffix(f.Path, "-lock.json") || strings.HasSuffix(f.Path, ".pem") || strings.HasSuffix(f.Path, ".crt") {
			continue
		}
		n++
		text := in.Subject.Text(f)
		at := func(off int, msg string) {
			p := manifest.PosAt(f.Content, off)
			fails = append(fails, checks.At(f.Path, p.Line, p.Col, msg))
		}
		// Go's regexp is linear but slow on whole files: each pattern runs
		// only where a cheap test says it could match.
		if strings.Contains(text, "eval(function(p,a,c,k,e,") || strings.Contains(text, "pyarmor") || strings.Contains(text, "gzinflate(") ||
			lex.ContainsFold(text, "powershell") || strings.Contains(text, "FromBase64String") {
			if loc := packers.Re().FindStringIndex(text); loc != nil {
				at(loc[0], "packer or obfuscator signature")
			}
		}
		if strings.Count(text, "_0x") >= 20 {
			if ids := obfIdent.Re().FindAllString(text, 500); len(distinct(ids)) >= 20 && strings.Contains(text, "function(") {
				loc := obfIdent.Re().FindStringIndex(text)
				at(loc[0], fmt.Sprintf("obfuscator-style identifiers (%d distinct _0x names)", len(distinct(ids))))
			}
		}
		if strings.Contains(text, "!+[]") || strings.Contains(text, "[][") {
			if loc := jsfuck.Re().FindStringIndex(text); loc != nil {
				at(loc[0], "a JSFuck run")
			}
		}
		off := 0
		for _, line := range strings.SplitAfter(text, "\n") {
			for _, p := range candidates(line) {
				for _, m := range p.re.Re().FindAllStringSubmatchIndex(line, 50) {
					lit := line[m[2]:m[3]]
					if p.kind == "base64" && len(lit) < 40 {
						continue
					}
					if p.kind == "base64" && (strings.HasPrefix(line[max(0, m[0]-20):m[0]], "sha") || isDataURI(line, m[0])) {
						continue // SRI hashes, data: URIs
					}
					decoded, chain := decode(p.kind, lit)
					if decoded == "" || mediaMagic([]byte(decoded)) {
						continue
					}
					if judgeDecoded(decoded) {
						at(off+m[2], fmt.Sprintf("encoded code or shell (%s)", strings.Join(append(chain, "code"), "→")))
					}
				}
			}
			off += len(line)
		}
	}
	fails = reach.Annotate(in.Subject, fails)
	switch {
	case len(fails) > 0:
		return checks.Failed(fmt.Sprintf("%s:%d %s", fails[0].Path, fails[0].Line, fails[0].Message), fails...), nil
	case n == 0:
		return checks.NotApplicable("no text files"), nil
	}
	return checks.Passed(fmt.Sprintf("%s read, no encoded code", checks.Plural(n, "text file"))), nil
}

type candidate struct {
	kind string
	re   *lex.Pattern
}

// candidates picks the encodings a line could hold, by cheap tests.
func candidates(line string) []candidate {
	var out []candidate
	run, longest := 0, 0
	hexRun, hexLongest := 0, 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		isB64 := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-' || c == '='
		isHex := c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
		if isB64 {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
		if isHex {
			hexRun++
			hexLongest = max(hexLongest, hexRun)
		} else {
			hexRun = 0
		}
	}
	if longest >= 36 {
		out = append(out, candidate{"base64", b64Lit})
	}
	if hexLongest >= 48 {
		out = append(out, candidate{"hex", hexLit})
	}
	if strings.Count(line, ",") >= 19 {
		out = append(out, candidate{"char-codes", charCodes})
	}
	if strings.Count(line, `\x`)+strings.Count(line, `\u`) >= 20 {
		out = append(out, candidate{"escapes", escapes})
	}
	if strings.Count(line, "%") >= 20 {
		out = append(out, candidate{"url-encoding", urlEnc})
	}
	return out
}

// judgeDecoded reports decoded text that is code: it reads as code, the
// shell rules rate it as failing, or, read as a shell program, it reaches
// the network.
func judgeDecoded(s string) bool {
	if codeLike.Re().MatchString(s) {
		return true
	}
	fs, _, err := shell.AnalyzeLenient([]byte(s))
	if err != nil {
		return false
	}
	for _, f := range fs {
		if f.Severity == shell.Fail {
			return true
		}
	}
	return reachesNetwork(s)
}

// reachesNetwork reports text that, read by the model's shell producer,
// runs a program the vocabulary knows as fetching or sending (curl, wget,
// nc, aria2c, scp) towards a host: prose that happens to start with such a
// word ("curl is a tool") names none.
func reachesNetwork(s string) bool {
	for _, sk := range analysis.Code("shell", "decoded", s, 0, 0).Sinks {
		if sk.Kind != facts.NetSend && sk.Kind != facts.NetConnect {
			continue
		}
		if _, h, _, ok := vocab.SplitURL(sk.Dest); ok && strings.ContainsAny(h, ".:") {
			return true
		}
	}
	return false
}

func isDataURI(text string, off int) bool {
	before := text[max(0, off-60):off]
	return strings.Contains(before, "data:") && strings.Contains(before, ";base64,") || strings.HasSuffix(strings.TrimSpace(before), "base64,")
}

func distinct(xs []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}
