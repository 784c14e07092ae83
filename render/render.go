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
	Text     Format = "text"
	JSON     Format = "json"
	SARIF    Format = "sarif"
	Markdown Format = "markdown"
	HTML     Format = "html"
)

// Formats lists the supported formats.
var Formats = []Format{Text, JSON, SARIF, Markdown, HTML}

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
	// All lists every check (by default passes and checks that do not
	// apply are summarised in one line); Verbose also shows their evidence.
	All     bool
	Verbose bool
	// Quiet prints only the verdict line.
	Quiet bool
	// Verification, when a bundle is rendered, are its verification
	// answers (shown by the HTML report).
	Verification []Verification
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
	case Markdown:
		return renderMarkdown(w, r)
	case HTML:
		return renderHTML(w, r, opts)
	}
	return fmt.Errorf("unknown format %q", f)
}
