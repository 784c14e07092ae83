package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/metahub-ai/attest/attest"
)

// Format is an output format.
type Format string

const (
	Text  Format = "text"
	JSON  Format = "json"
	SARIF Format = "sarif"
)

// Formats lists the supported formats.
var Formats = []Format{Text, JSON, SARIF}

// ParseFormat parses a format name.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == strings.ToLower(s) {
			return f, nil
		}
	}
	var names []string
	for _, f := range Formats {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown format %q: want one of %s", s, strings.Join(names, ", "))
}

// Options tune a renderer. The zero value is plain text with Unicode
// glyphs and no colour.
type Options struct {
	Color bool // ANSI colour; the caller decides (TTY, NO_COLOR, TERM=dumb)
	ASCII bool // ASCII glyphs only
	// Verbose lists passing and neutral checks' evidence too.
	Verbose bool
}

// Render writes r in format f.
func Render(w io.Writer, r *attest.Report, f Format, opts Options) error {
	switch f {
	case Text:
		return renderText(w, r, opts)
	case JSON:
		return renderJSON(w, r)
	case SARIF:
		return renderSARIF(w, r)
	}
	return fmt.Errorf("unknown format %q", f)
}
