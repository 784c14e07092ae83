package behave

// Ledger is what the sandboxed artifact did, as recorded outside its
// reach: network attempts by the recording proxy, files and processes by
// strace.
type Ledger struct {
	// Method says how files and processes were recorded: "strace", or
	// "none" with Note saying why.
	Method    string      `json:"method"`
	Note      string      `json:"note,omitempty"`
	Network   []NetEvent  `json:"network"`
	Files     []FileEvent `json:"files"`
	Processes []ProcEvent `json:"processes"`
	// Truncated says a ledger reached its bound; what is kept comes first.
	Truncated bool `json:"truncated,omitempty"`
}

// NetEvent is one attempt to reach the network through the proxy.
type NetEvent struct {
	Case   string `json:"case,omitempty"`
	Method string `json:"method"` // CONNECT, GET, POST, …
	Host   string `json:"host"`
	Port   int    `json:"port"`
	// Allowed says the proxy let it through; Reason says why not.
	Allowed  bool   `json:"allowed"`
	Reason   string `json:"reason,omitempty"`
	BytesOut int64  `json:"bytesOut"`
	BytesIn  int64  `json:"bytesIn"`
	// Canary says the run's decoy token was in what was sent.
	Canary bool `json:"canary,omitempty"`
}

// FileEvent is one file operation by the artifact.
type FileEvent struct {
	Case string `json:"case,omitempty"`
	Op   string `json:"op"` // read, write, create, delete, rename
	Path string `json:"path"`
	// OK says the operation succeeded; an attempt that failed is still
	// recorded (reaching for ~/.ssh/id_rsa is the evidence).
	OK bool `json:"ok"`
}

// ProcEvent is one program the artifact executed.
type ProcEvent struct {
	Case string   `json:"case,omitempty"`
	Path string   `json:"path"`
	Argv []string `json:"argv"`
	// Connect is set for a connect() the artifact made itself, bypassing
	// the proxy: the address it tried.
	Connect string `json:"connect,omitempty"`
}

// Ledger bounds.
const (
	MaxNetEvents  = 2000
	MaxFileEvents = 5000
	MaxProcEvents = 2000
)

// Merge appends o's events, tagged with a case, within the bounds.
func (l *Ledger) Merge(o *Ledger, tag string) {
	if o == nil {
		return
	}
	for _, e := range o.Network {
		if len(l.Network) >= MaxNetEvents {
			l.Truncated = true
			break
		}
		if e.Case == "" {
			e.Case = tag
		}
		l.Network = append(l.Network, e)
	}
	for _, e := range o.Files {
		if len(l.Files) >= MaxFileEvents {
			l.Truncated = true
			break
		}
		if e.Case == "" {
			e.Case = tag
		}
		l.Files = append(l.Files, e)
	}
	for _, e := range o.Processes {
		if len(l.Processes) >= MaxProcEvents {
			l.Truncated = true
			break
		}
		if e.Case == "" {
			e.Case = tag
		}
		l.Processes = append(l.Processes, e)
	}
	l.Truncated = l.Truncated || o.Truncated
	if l.Method == "" {
		l.Method, l.Note = o.Method, o.Note
	}
}
