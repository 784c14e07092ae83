// Package facts is the analysis model (ANALYSIS §2): what an artifact can
// do, built once per subject by one producer per medium and queried by
// every safety check. A Source is a read that yields a labelled value, a
// Sink a place a value can go or an action the artifact takes, an Effect a
// behaviour that matters without any value reaching it, a Flow a traced
// path from a Source to a Sink with the steps between, a Ref a file that
// runs, imports or tells the model to use another, Intent what the artifact
// says it does, and Unresolved what a producer could not follow. The model
// only reports; checks decide what each fact means.
//
// Everything a producer reads is untrusted: every producer bounds its input
// (size, depth, steps) and records what it did not follow instead of
// dropping it.
package facts

import (
	"fmt"
	"slices"
	"strings"
)

// Medium is where a fact was found.
type Medium string

const (
	Python     Medium = "code/python"
	JS         Medium = "code/js"
	TS         Medium = "code/ts"
	Go         Medium = "code/go"
	Shell      Medium = "code/shell"
	PowerShell Medium = "code/powershell"
	Prose      Medium = "doc/markdown" // prose a model reads
	Block      Medium = "doc/block"    // a fenced, indented or inline command in a document
	MCPString  Medium = "mcp/string"   // a text an MCP client shows the model
	Manifest   Medium = "manifest"     // package.json scripts, launch specs, hooks, MCP client configs
	Archive    Medium = "archive"
	Observed   Medium = "observed" // a behavioral ledger
)

// Span is where a fact is: the file, its 1-based line and column, the
// medium, and how the producer reached it ("SKILL.md block 3", "sh -c",
// "base64", "tool search").
type Span struct {
	Path   string   `json:"path"`
	Line   int      `json:"line"`
	Col    int      `json:"col,omitempty"`
	Medium Medium   `json:"medium"`
	Via    []string `json:"via,omitempty"`
}

func (s Span) String() string {
	v := ""
	if len(s.Via) > 0 {
		v = " (" + strings.Join(s.Via, ", ") + ")"
	}
	return fmt.Sprintf("%s:%d%s", s.Path, s.Line, v)
}

// Label says what a value is.
type Label string

const (
	CredentialStore Label = "credential-store" // ~/.ssh, ~/.aws/credentials, /etc/shadow …
	EnvFile         Label = "env-file"         // a .env file
	SecretEnv       Label = "secret-env"       // an environment variable named as a secret
	WholeEnv        Label = "whole-env"        // the whole environment
	Conversation    Label = "conversation"     // the model's context, chat history, the user's messages
	UserFiles       Label = "user-files"       // the user's documents or project files, in bulk
	Clipboard       Label = "clipboard"
	BrowserData     Label = "browser-data"
	Keychain        Label = "keychain"
	Wallet          Label = "wallet"
	AgentConfig     Label = "agent-config" // another agent's configuration and tokens
	History         Label = "history"      // shell and REPL history
	Keystrokes      Label = "keystrokes"   // what the user types, captured (a keylogger)
	SystemInfo      Label = "system-info"  // host name, user, OS, network interfaces
	RemoteContent   Label = "remote-content"
	Decoded         Label = "decoded"    // a value decoded or decrypted from a constant
	UserInput       Label = "user-input" // a tool's or a script's caller-chosen argument
	Socket          Label = "socket"     // a network connection's descriptor
	EnvVar          Label = "env-var"    // a named environment variable that is not a secret
)

// Secret reports whether a label is data the user would not hand a
// stranger.
func (l Label) Secret() bool {
	switch l {
	case CredentialStore, EnvFile, SecretEnv, WholeEnv, Conversation, UserFiles, Clipboard, BrowserData, Keychain, Wallet,
		AgentConfig, History, Keystrokes:
		return true
	}
	return false
}

// SinkKind is where a value goes, or what an action does.
type SinkKind string

const (
	NetSend          SinkKind = "net-send" // an HTTP request, a socket write, an upload
	NetConnect       SinkKind = "net-connect"
	DNS              SinkKind = "dns"
	Mail             SinkKind = "mail"
	ExecShell        SinkKind = "exec-shell"
	ExecCode         SinkKind = "exec-code"
	Deserialize      SinkKind = "deserialize"
	FileWrite        SinkKind = "file-write"
	Persist          SinkKind = "persist"
	PrivChange       SinkKind = "priv-change"
	Delete           SinkKind = "delete"
	ProcessKill      SinkKind = "process-kill"
	FDRedirect       SinkKind = "fd-redirect" // a descriptor bound to standard streams
	ModelOutput      SinkKind = "model-output"
	ModelInstruction SinkKind = "model-instruction"
	Install          SinkKind = "install" // a package installed at run time
)

// Sink is a place values can go: its kind, the API or program, the
// destination when it could be folded (URL, host, path, command), and
// where it is.
type Sink struct {
	Kind SinkKind `json:"kind"`
	API  string   `json:"api"`
	Dest string   `json:"dest,omitempty"`
	// DestLabels classify a destination path or host (vocab).
	DestLabels []string `json:"destLabels,omitempty"`
	// Args carries what a sink's arguments are when they matter to a
	// check: a shell command's argv, flags.
	Args []string `json:"args,omitempty"`
	At   Span     `json:"at"`
	Ctx  Context  `json:"ctx,omitempty"`
	// Instr qualifies a model-instruction sink (prose).
	Instr *Instruction `json:"instr,omitempty"`
}

// Source is a read that yields a labelled value.
type Source struct {
	Label Label   `json:"label"`
	What  string  `json:"what"` // the path, variable or API read
	At    Span    `json:"at"`
	Ctx   Context `json:"ctx,omitempty"`
}

// EffectKind is a behaviour that matters without a flow.
type EffectKind string

const (
	ForkLoop       EffectKind = "fork-loop"
	Unbounded      EffectKind = "unbounded"     // allocation, recursion or threads without bound
	AntiDebug      EffectKind = "anti-analysis" // debugger, VM or sandbox detection
	LogWipe        EffectKind = "log-wipe"
	TimeStomp      EffectKind = "timestomp"
	SecurityOff    EffectKind = "security-off"
	Miner          EffectKind = "miner"
	RemoteShell    EffectKind = "remote-shell" // a shell bound to a socket
	DecodeExec     EffectKind = "decode-exec"
	SelfPropagate  EffectKind = "self-propagate"
	HistoryOff     EffectKind = "history-off"
	Obfuscated     EffectKind = "obfuscated"
	SleepThenAct   EffectKind = "delayed"
	ProtectedWrite EffectKind = "immutable" // chattr +i and the like
)

// Effect is a behaviour found without a flow.
type Effect struct {
	Kind EffectKind `json:"kind"`
	What string     `json:"what"`
	At   Span       `json:"at"`
	Ctx  Context    `json:"ctx,omitempty"`
}

// Strength grades how a flow was established (strongest first).
type Strength int

const (
	SameUnit  Strength = iota + 1 // source and sink in one file or one document
	SameScope                     // in one function or one shell block, the sink's payload built there
	Proven                        // the value traced through assignments, containers, calls
)

func (s Strength) String() string {
	switch s {
	case Proven:
		return "proven"
	case SameScope:
		return "same-scope"
	case SameUnit:
		return "same-unit"
	}
	return "unknown"
}

// Flow is a traced path from a source to a sink.
type Flow struct {
	From     Source   `json:"from"`
	To       Sink     `json:"to"`
	Steps    []Span   `json:"steps,omitempty"`
	Strength Strength `json:"strength"`
}

// RefKind is how one file refers to another.
type RefKind string

const (
	Runs    RefKind = "runs"
	Imports RefKind = "imports"
	Sources RefKind = "sources"
	Reads   RefKind = "reads"
	Launch  RefKind = "launches"
	Tells   RefKind = "tells-the-model" // a document tells the model to run or read it
)

// Ref is one file referring to another.
type Ref struct {
	From string  `json:"from"`
	To   string  `json:"to"`
	How  RefKind `json:"how"`
	At   Span    `json:"at"`
}

// Intent is what the artifact says it does.
type Intent struct {
	Purpose []string `json:"purpose,omitempty"` // name, description, headings
	Hosts   []string `json:"hosts,omitempty"`   // hosts its documentation and manifests name
	Homes   []string `json:"homes,omitempty"`   // hosts its manifests name as its home (homepage, repository)
	// Repos are the forge repositories it names as its own or its
	// vendor's, in its manifests or its documentation's prose
	// ("github.com/owner/name", lower case).
	Repos    []string `json:"repos,omitempty"`
	Tools    []string `json:"tools,omitempty"` // allowed-tools, declared permissions
	Declared Span     `json:"declared"`
}

// Context qualifies where a fact sits, for the checks' precision: a
// labelled example, a negated or conditional instruction, a step the user
// is asked to agree to, code shown in a document.
type Context uint16

const (
	InExample   Context = 1 << iota // a labelled example, a quoted attack, a detection rule
	Negated                         // "never send …", "do not run …"
	Consent                         // the user is asked first or runs it themselves
	InDoc                           // a block or inline command in a document
	InComment                       // a comment or docstring
	InTest                          // under a tests directory (reported, never exempt)
	Hidden                          // a channel the user does not see (HTML comment, hidden element)
	ImportTime                      // module-level code: runs when the file is loaded
	Handler                         // an MCP tool handler
	InstallTime                     // runs at install (package scripts, setup.py)
	Quoted                          // inside quotes or inline code, with no label saying why
	ModelReads                      // text a model reads (a skill's documents, agent files, hook prompts, MCP strings)
	BuildTime                       // runs when the artifact is built or tested (Dockerfile RUN, CI steps, Makefile recipes)
	InContainer                     // runs inside a container image (a Dockerfile's RUN, a script the image copies in): it changes the image, not the user's machine
)

// Has reports whether every bit of x is set.
func (c Context) Has(x Context) bool { return c&x == x }

// Unresolved is something a producer could not follow, recorded so that a
// check never mistakes it for "nothing there".
type Unresolved struct {
	At   Span   `json:"at"`
	What string `json:"what"`
}

// Set is the model of one subject.
type Set struct {
	Sources    []Source     `json:"sources,omitempty"`
	Sinks      []Sink       `json:"sinks,omitempty"`
	Effects    []Effect     `json:"effects,omitempty"`
	Flows      []Flow       `json:"flows,omitempty"`
	Refs       []Ref        `json:"refs,omitempty"`
	Intent     Intent       `json:"intent"`
	Unresolved []Unresolved `json:"unresolved,omitempty"`
	// Producers names the producers that built the set, with versions.
	Producers []string `json:"producers,omitempty"`
}

// Merge appends o's facts to s.
func (s *Set) Merge(o *Set) {
	if o == nil {
		return
	}
	s.Sources = append(s.Sources, o.Sources...)
	s.Sinks = append(s.Sinks, o.Sinks...)
	s.Effects = append(s.Effects, o.Effects...)
	s.Flows = append(s.Flows, o.Flows...)
	s.Refs = append(s.Refs, o.Refs...)
	s.Unresolved = append(s.Unresolved, o.Unresolved...)
}

// Sort orders every list by place, so output never depends on the order
// producers ran in.
func (s *Set) Sort() {
	byAt := func(a, b Span) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Col != b.Col {
			return a.Col - b.Col
		}
		return strings.Compare(strings.Join(a.Via, "/"), strings.Join(b.Via, "/"))
	}
	slices.SortStableFunc(s.Sources, func(a, b Source) int {
		if c := byAt(a.At, b.At); c != 0 {
			return c
		}
		return strings.Compare(string(a.Label), string(b.Label))
	})
	slices.SortStableFunc(s.Sinks, func(a, b Sink) int {
		if c := byAt(a.At, b.At); c != 0 {
			return c
		}
		return strings.Compare(string(a.Kind), string(b.Kind))
	})
	slices.SortStableFunc(s.Effects, func(a, b Effect) int {
		if c := byAt(a.At, b.At); c != 0 {
			return c
		}
		return strings.Compare(string(a.Kind), string(b.Kind))
	})
	slices.SortStableFunc(s.Flows, func(a, b Flow) int {
		if c := byAt(a.To.At, b.To.At); c != 0 {
			return c
		}
		if c := byAt(a.From.At, b.From.At); c != 0 {
			return c
		}
		return strings.Compare(string(a.From.Label), string(b.From.Label))
	})
	slices.SortStableFunc(s.Refs, func(a, b Ref) int { return byAt(a.At, b.At) })
	slices.SortStableFunc(s.Unresolved, func(a, b Unresolved) int { return byAt(a.At, b.At) })
}

// Instruction qualifies a model-instruction sink: what text addressed to a
// model asks it to do.
type Instruction struct {
	// Family is what the instruction does: override, conceal, authority,
	// persona, rule-drop, tool-route, secret-request, approval-skip,
	// evaluator, persist, run, fetch-follow, send, read, delete.
	Family string `json:"family"`
	// Object and Dest are what it acts on and where it sends it, when the
	// text names them.
	Object string `json:"object,omitempty"`
	Dest   string `json:"dest,omitempty"`
	// Phrase is the matched words (never more than 80 characters).
	Phrase string `json:"phrase,omitempty"`
	// Weak: a concern, not a finding, on its own.
	Weak bool `json:"weak,omitempty"`
}
