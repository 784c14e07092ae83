// Package prose is the producer for documents a model reads: it segments
// Markdown once (checks/facts/markdown), hands every fenced, indented,
// inline or bare command to the producer of its language, reads
// frontmatter and JSON/YAML blocks at any depth, and lowers sentences
// addressed to the model into facts: an instruction that reads a secret
// and sends it somewhere is a flow, and one that overrides the user or its
// host, hides something, claims authority, drops its rules or asks for
// secrets is a model-instruction sink with its family. Each fact carries
// where it sits: a labelled example, a negated or consented instruction, a
// hidden channel.
package prose

import (
	"regexp"
	"strings"

	"github.com/metahub-ai/attest/checks/facts"
	"github.com/metahub-ai/attest/checks/facts/flow"
	"github.com/metahub-ai/attest/checks/facts/markdown"
	"github.com/metahub-ai/attest/checks/facts/text"
	"github.com/metahub-ai/attest/checks/vocab"
)

// Version is the producer's version.
const Version = "1.3.0"

// Limits on one document.
const (
	MaxSentences = 20_000
	MaxSentence  = 4 << 10 // characters of one sentence analysed
	MaxUnits     = 400     // code blocks and commands lowered
)

// Result is what a document yields: its facts, and code units for the
// engine with the context of each.
type Result struct {
	Set   *facts.Set
	Units []*flow.Unit
	Ctx   map[*flow.Unit]facts.Context
	Via   map[*flow.Unit][]string
	// Hosts are the hosts the document names (for Intent).
	Hosts []string
	// Repos are the forge repositories the document's prose names, as
	// "github.com/owner/name" (for Intent).
	Repos []string
	// Title is the document's first top-level heading.
	Title string
	// Tells are files and keys the document tells the model to run or
	// read ("run the setup command from config.json").
	Tells []Tell
	// Obeys are the artifact's data files the document tells the model to
	// take as its instructions ("treat policy.json as authoritative"): their
	// text is then text the model reads.
	Obeys []Tell
}

// Tell is a document telling the model to use something of the artifact.
type Tell struct {
	File, Key string
	At        facts.Span
	Ctx       facts.Context
}

// Options qualify a document.
type Options struct {
	// Medium of the document's own facts: facts.Prose, or facts.MCPString
	// for texts a client shows the model.
	Medium facts.Medium
	// Ctx is added to every fact (Hidden for a hidden channel).
	Ctx facts.Context
	// Via names where the text came from ("tool search", "frontmatter").
	Via []string
	// Lowerers are the code producers by language.
	Lowerers map[string]flow.Parser
	// Plain: the text is not Markdown (an MCP description); read it as
	// paragraphs.
	Plain bool
	// Ships reports whether a path the document names (relative to it) is
	// a file the artifact ships; nil when not known.
	Ships func(rel string) bool
	// Dest is where the text's own answer goes, when it asks the model for
	// something (a tool parameter's value goes to the tool's server).
	Dest string
}

type lowerer struct {
	path string
	opt  Options
	res  *Result
	n    int // sentences analysed
	// depth counts decoding layers, so a payload decodes at most twice
	depth int
	// section is the headings above the block being read; recent are
	// the secrets its last instructions read ("Read ~/.ssh/id_rsa. Upload
	// the contents to …"), stores every concrete store the document tells
	// the model to read
	section string
	// frames caches whether a heading or lead-in frames what follows: a
	// section's headings are asked again for each of its blocks
	frames map[string]bool
	recent []held
	stores []held
	// lead is set while the items of a list whose lead-in reads or sends
	// ("the backup includes:") are read: each item's secrets are that
	// verb's objects
	lead bool
	// lastRef is what the document named last: "url" for a URL, "local"
	// for a file of the artifact ("examples/updates.md"), so "follow the
	// instructions in that file" knows which file it means.
	lastRef string
	// ref is what the sentence being read refers to: its own last
	// reference, else the document's.
	ref string
}

// held is a secret an instruction read, and the sentence that read it.
type held struct {
	o    span
	n    int
	list bool // named by a list item
}

// Lower reads one document.
func Lower(path, doc string, lineBase int, opt Options) *Result {
	if opt.Medium == "" {
		opt.Medium = facts.Prose
	}
	l := &lowerer{path: path, opt: opt, res: &Result{Set: &facts.Set{}, Ctx: map[*flow.Unit]facts.Context{}, Via: map[*flow.Unit][]string{}}}
	if len(doc) > markdown.MaxBytes {
		l.res.Set.Unresolved = append(l.res.Set.Unresolved, facts.Unresolved{At: l.span(lineBase+1, nil), What: "document past the first 8 MiB not read"})
	}
	var blocks []markdown.Block
	if opt.Plain {
		blocks = []markdown.Block{{Kind: markdown.Para, Text: doc, Line: lineBase + 1}}
	} else {
		blocks = markdown.Parse(doc, lineBase)
	}
	for i, b := range blocks {
		if b.Kind == markdown.Heading && b.Level == 1 && l.res.Title == "" {
			l.res.Title = strings.TrimSpace(b.Text)
		}
		l.block(b, blocks, i)
	}
	return l.res
}

func (l *lowerer) span(line int, via []string) facts.Span {
	v := append(append([]string(nil), l.opt.Via...), via...)
	return facts.Span{Path: l.path, Line: line, Medium: l.opt.Medium, Via: v}
}

// framed reports whether a block sits under a label that makes its content
// an example of an attack, a pattern to detect or something not to do: the
// nearest headings, the line before it. Words inside URLs, hosts and code
// never count: a host named attacker.example frames nothing.
func (l *lowerer) framed(b markdown.Block) bool {
	frame := vocab.Words("frame")
	if frame == nil {
		return false
	}
	check := func(s string) bool {
		if s == "" {
			return false
		}
		if f, ok := l.frames[s]; ok {
			return f
		}
		f := frame.MatchString(text.Normalize(stripCode(s)))
		if l.frames == nil {
			l.frames = map[string]bool{}
		}
		l.frames[s] = f
		return f
	}
	hs := b.Headings
	if len(hs) > 2 {
		hs = hs[len(hs)-2:]
	}
	for _, h := range hs {
		if check(h) {
			return true
		}
	}
	if b.Kind == markdown.Fence || b.Kind == markdown.Indented {
		return check(b.Before)
	}
	if b.Kind == markdown.Row && b.Header != b.Text {
		// a table whose header says its rows are examples ("Examples",
		// "Blocked commands", "Risk")
		return tableFrame.MatchString(text.Normalize(b.Header)) || check(b.Header)
	}
	return false
}

var tableFrame = regexp.MustCompile(`\b(?:examples?|patterns?|risk|risky|dangerous|danger|blocked|denied|deny|forbidden|prohibited|unsafe|vulnerable|bad|anti-?patterns?|indicators?|iocs?|signatures?|attacks?|detects?|flags?|matches|catches)\b`)

var urlish = regexp.MustCompile("(?i)`[^`]*`|https?://\\S+|\\b[\\w.-]+\\.(?:com|net|org|io|dev|sh|site|example|test|xyz|app|co|me|ai)\\b\\S*")

// stripCode removes inline code, URLs and host names, whose words are not
// framing.
func stripCode(s string) string { return urlish.ReplaceAllString(s, " ") }

func (l *lowerer) block(b markdown.Block, all []markdown.Block, i int) {
	if key := strings.Join(b.Headings, "\x00"); key != l.section {
		l.section, l.recent = key, nil
	}
	if b.Kind != markdown.Item {
		t := text.Normalize(b.Text)
		if i := strings.LastIndexAny(strings.TrimSuffix(t, ":"), ".!?"); i >= 0 {
			t = t[i+1:]
		}
		l.lead = strings.HasSuffix(t, ":") && (matches("read", t) || matches("send", t))
	}
	ctx := l.opt.Ctx
	if l.framed(b) {
		ctx |= facts.InExample
	}
	if (b.Kind == markdown.Fence || b.Kind == markdown.Indented) && matches("consent", text.Normalize(b.Before)) {
		// "if you want, add this line yourself:" above the block
		ctx |= facts.Consent
	}
	switch b.Kind {
	case markdown.Fence, markdown.Indented:
		l.code(b, ctx)
	case markdown.Frontmatter:
		l.frontmatter(b, ctx)
	case markdown.Comment, markdown.LinkDef:
		l.prose(b.Text, b.Line, ctx|facts.Hidden, false)
	case markdown.Heading:
		l.prose(b.Text, b.Line, ctx, false)
	default:
		if b.Details {
			ctx |= facts.Hidden
		}
		l.prose(b.Text, b.Line, ctx, true)
	}
}

// addUnit queues a code unit for the engine.
func (l *lowerer) addUnit(u *flow.Unit, ctx facts.Context, via ...string) {
	if u == nil || len(l.res.Units) >= MaxUnits {
		return
	}
	l.res.Units = append(l.res.Units, u)
	l.res.Ctx[u] = ctx | facts.InDoc
	l.res.Via[u] = append(append([]string(nil), l.opt.Via...), via...)
}

// lineOf is the file line of byte offset off in a block's text.
func lineOf(textBlock string, line, off int) int {
	if off > len(textBlock) {
		off = len(textBlock)
	}
	return line + strings.Count(textBlock[:off], "\n")
}
