package behave

// The in-sandbox agent (package behave/agent) and the host speak JSON
// lines over the sandbox's standard input and output: one Call in, one
// Reply out.

// Agent paths inside the sandbox.
const (
	AgentPath = "/.attest/agent"
	// ProxySocket is the recording proxy's Unix socket; ProxyAddr is the
	// address the agent forwards to it, which HTTP_PROXY names.
	ProxySocket = "/.attest/proxy/proxy.sock"
	ProxyAddr   = "127.0.0.1:3128"
)

// ServerSocket is where the agent exposes an MCP server that listens on
// TCP inside the sandbox (Streamable HTTP), for the host to dial.
const ServerSocket = "/.attest/server/server.sock"

// ReadyLine is what the agent writes once prepared (--ready), before the
// command it runs can write anything.
const ReadyLine = "attest-agent: ready\n"

// PrepareName is the $0 of the agent's preparation script: the trace
// reader leaves that process and its children out of the artifact's
// ledger (they are attest's installer, not the artifact).
const PrepareName = "attest-prepare"

// Call asks the agent to run one command.
type Call struct {
	ID    int      `json:"id"`
	Argv  []string `json:"argv"`
	Stdin string   `json:"stdin,omitempty"`
	// TimeoutMs bounds the command; its whole process group is killed then.
	TimeoutMs int `json:"timeoutMs"`
	// MaxOutput bounds what is kept of each of stdout and stderr.
	MaxOutput int `json:"maxOutput"`
}

// Reply is how a call ended.
type Reply struct {
	ID        int    `json:"id"`
	ExitCode  int    `json:"exitCode"`
	Stdout    string `json:"stdout"`
	Stderr    string `json:"stderr"`
	TimedOut  bool   `json:"timedOut,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	// Error is the agent's failure to run the command at all.
	Error string `json:"error,omitempty"`
}
