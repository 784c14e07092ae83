// Package lex holds the tokenizers shared by the checks and the MCP surface
// extractor: JavaScript/TypeScript and Python tokenizers that know every
// string and comment form, so that a pattern is matched against code and
// never against text inside a string or comment (or the reverse).
//
// It imports no project package, so any package may import it. Input is
// untrusted: tokenizers run in time linear in their input, bound their
// nesting, and never panic.
package lex

// MaxNesting bounds template-literal and bracket nesting.
const MaxNesting = 256

// Kind is a token's type.
type Kind uint8

const (
	Ident Kind = iota + 1
	Punct
	String   // a complete string literal; Text is the raw literal
	Template // a JS template literal (raw, including nested expressions)
	Regex
	Number
	Comment
)

// Token is one token with its 1-based line and column (bytes).
// The fields are sized to keep a token at 32 bytes: a tokenized file is
// the largest allocation of a run, and every fresh page costs a fault.
type Token struct {
	Text string
	Line int32
	Col  int32
	// Depth is the bracket depth ({, [, ( ) before the token.
	Depth int32
	Kind  Kind
	// LineStart is true for the first token on its line.
	LineStart bool
}

// tokenBytes is the average source bytes per token (7.3 over the reference
// MCP servers), used to size a token slice once: an estimate too high
// zeroes pages never used, one too low copies the slice as it grows.
const tokenBytes = 7

// countFrom is the size from which a source's tokens are counted rather
// than estimated: minified code runs about 2 bytes a token, and growing
// a slice sized for 7 held the old and new arrays at once, twice the
// final size (an 8 MiB bundle: 265 MB at the last step for 140 MB of
// tokens).
const countFrom = 64 << 10

// capacity sizes the token slice of src: for a large source, an upper
// estimate from one pass over its bytes (a run of word characters or
// one other non-space byte per token).
func capacity(src string) int {
	if len(src) < countFrom {
		return len(src)/tokenBytes + 16
	}
	n, word := 0, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '_' || c == '$' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= 0x80:
			if !word {
				n++
			}
			word = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			word = false
		default:
			n++
			word = false
		}
	}
	return n + 16
}
