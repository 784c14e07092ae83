// Package shell rates the commands an artifact has run on its user's
// behalf (install scripts, hooks, MCP launch specs, apiKeyHelper and
// statusLine commands, the components a plugin bundles) as one rule set
// over the analysis model (Judge): the model's shell producer reads the
// programs, the vocabulary says what each program and path is, and the
// rules say which behaviours fail. Analyze rates one shell program on its
// own the same way, for a check that holds a command the model was not
// built from (a folded string, a decoded payload).
package shell

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/metahub-ai/attest/checks/analysis"
	"github.com/metahub-ai/attest/checks/facts"
)

// MaxProgramBytes bounds a program Analyze reads.
const MaxProgramBytes = 1 << 20

// Severity of a finding.
type Severity int

const (
	Warn Severity = iota + 1
	Fail
)

// Category of a finding.
type Category string

const (
	DownloadExec    Category = "download-and-execute"
	ReverseShell    Category = "reverse-shell"
	CredentialSend  Category = "credential-exfiltration"
	CredentialRead  Category = "credential-read"
	Beacon          Category = "system-info-sent"
	CaptureHost     Category = "capture-host"
	Persistence     Category = "persistence"
	Destruction     Category = "destruction"
	DefenceEvasion  Category = "defence-evasion"
	Privilege       Category = "privilege"
	DecodeExec      Category = "decode-and-execute"
	Sudo            Category = "sudo"
	Mining          Category = "mining"
	SelfPropagation Category = "self-propagation"
)

// Finding is one rated command.
type Finding struct {
	Category Category
	Severity Severity
	Line     int // 1-based, in the analysed source
	Message  string
}

// ParseError is a program the parser rejected.
type ParseError struct{ Err error }

func (e *ParseError) Error() string { return "shell: " + e.Err.Error() }

// AnalyzeLenient rates a program that may not parse as a whole (a zsh
// script, a template): the producer then reads it line by line, so
// breaking the syntax does not hide a command. parsed is false when the
// program does not parse as a whole.
func AnalyzeLenient(src []byte) (fs []Finding, parsed bool, err error) {
	if len(src) > MaxProgramBytes {
		return nil, false, fmt.Errorf("shell program over %d bytes", MaxProgramBytes)
	}
	return rate(src), parses(src) == nil, nil
}

// Analyze parses a shell program and rates it; a program that does not
// parse is an error (its findings line by line still come back).
func Analyze(src []byte) ([]Finding, error) {
	fs, _, err := AnalyzeLenient(src)
	if err != nil {
		return nil, err
	}
	if err := parses(src); err != nil {
		return fs, &ParseError{Err: err}
	}
	return fs, nil
}

func parses(src []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parser failed: %v", r)
		}
	}()
	_, err = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(string(src)), "")
	if err == nil {
		return nil
	}
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return pe
	}
	return err
}

// rate lowers one program through the model's shell producer and judges
// all of it.
func rate(src []byte) []Finding {
	var out []Finding
	set := analysis.Code("shell", "program", string(src), 0, 0)
	seen := map[string]bool{}
	for _, f := range judge(set, Scope{In: func(facts.Span, facts.Context) bool { return true }, Spreads: true}) {
		k := fmt.Sprintf("%s/%d/%s", f.cat, f.ev.Line, f.ev.Message)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, Finding{Category: f.cat, Severity: f.sev, Line: f.ev.Line, Message: f.ev.Message})
	}
	return out
}
