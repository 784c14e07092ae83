package harness

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/behave/model"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// agentJSON reads agent.json's instructions and entry, if it has them.
func agentJSON(dir string) (instructions, entry string) {
	for _, name := range []string{"agent.json", ".claude/agent.json"} {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || len(data) > 1<<20 {
			continue
		}
		a, err := manifest.ParseAgentJSON(data)
		if err != nil {
			continue
		}
		if a.Instructions != nil {
			instructions = a.Instructions.Value
		}
		if a.Entry != nil {
			entry = a.Entry.Value
		}
		return instructions, entry
	}
	return "", ""
}

// entryArgv runs a code agent's entry file with the interpreter its
// extension names; "" when the entry is not a file inside the artifact.
func entryArgv(dir, entry string) []string {
	p := path.Clean(strings.TrimPrefix(entry, "./"))
	if p == "." || strings.HasPrefix(p, "..") || path.IsAbs(p) {
		return nil
	}
	st, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	in := "/artifact/" + p
	switch path.Ext(p) {
	case ".py":
		return []string{"python3", in}
	case ".js", ".mjs", ".cjs":
		return []string{"node", in}
	case ".sh":
		return []string{"/bin/sh", in}
	}
	return []string{in}
}

// driveCodeAgent runs a code agent's entry in the sandbox with the case's
// task on its standard input; its output is the answer the judge grades.
func (r *run) driveCodeAgent(ctx context.Context, c Case, argv []string) ([]model.Message, *behave.Result, *behave.Ledger, error) {
	p, dir, err := r.startProxy()
	if err != nil {
		return nil, nil, nil, err
	}
	defer p.Close()
	p.Tag(r.tag)
	s, err := behave.StartSession(ctx, r.o.Sandbox, r.agentSpec(dir, nil))
	if err != nil {
		return nil, nil, nil, err
	}
	rep, callErr := s.Call(behave.Call{Argv: argv, Stdin: c.Prompt, TimeoutMs: int(r.o.CallTimeout.Milliseconds()), MaxOutput: 64 << 10})
	res, l, err := s.Close()
	withNetwork(l, p)
	if err == nil {
		err = callErr
	}
	out := fmt.Sprintf("exit code %d\nstdout:\n%s\nstderr:\n%s", rep.ExitCode, rep.Stdout, rep.Stderr)
	if rep.TimedOut && res != nil && res.LimitHit == "" {
		res.LimitHit = behave.HitWall
	}
	msgs := []model.Message{
		{Role: "user", Parts: []model.Part{{Type: model.Text, Text: c.Prompt}}},
		{Role: "assistant", Parts: []model.Part{{Type: model.ToolUse, ID: "entry", Name: "run-agent", Input: mustJSON(map[string]any{"argv": argv})}}},
		{Role: "user", Parts: []model.Part{{Type: model.ToolResult, ID: "entry", Text: clip(out, 16<<10), IsError: rep.ExitCode != 0 || rep.TimedOut}}},
	}
	return msgs, res, l, err
}
