package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/metahub-ai/attest/behave"
	"github.com/metahub-ai/attest/behave/model"
	"github.com/metahub-ai/attest/behave/proxy"
)

// server is an MCP server running in the sandbox, with a client session.
type server struct {
	t     *behave.Traced
	cs    *sdk.ClientSession
	tools []*sdk.Tool
	web   *webServer
}

// startServer launches the server in the sandbox, after installing its
// dependencies there, and connects to it.
func (r *run) startServer(ctx context.Context, p *proxy.Proxy, proxyDir string) (*server, error) {
	spec := r.agentSpec(proxyDir, r.o.Launch)
	inst, launch := InstallFor(r.o.Dir, r.o.Launch, r.o.Registries)
	if inst != nil {
		spec.Argv, spec.Prepare, spec.Dir = launch, inst.Script, inst.Dir
		spec.Env = append(spec.Env, inst.Env...)
		p.AllowAlso(inst.Hosts)
		defer p.AllowAlso(nil)
		r.noteOnce(inst.Note)
	}
	var web *webServer
	var err error
	if r.o.MCPURL != "" {
		if web, err = r.webServer(&spec); err != nil {
			return nil, err
		}
	}
	t, err := behave.StartAgent(ctx, r.o.Sandbox, spec)
	if err != nil {
		web.remove()
		return nil, err
	}
	out := io.ReadCloser(t.Stdout)
	if inst != nil {
		br := bufio.NewReader(t.Stdout)
		line, err := br.ReadString('\n')
		if err != nil || line != behave.ReadyLine {
			t.Kill()
			res, _, _ := t.Finish()
			return nil, fmt.Errorf("installing the server's dependencies failed%s", stderrOf(res))
		}
		p.AllowAlso(nil)
		out = readCloser{br, t.Stdout}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "attest", Version: "behave"}, nil)
	cctx, cancel := context.WithTimeout(ctx, r.o.CallTimeout)
	defer cancel()
	var cs *sdk.ClientSession
	if web != nil {
		// The server's output is its log: drained, not kept.
		go io.Copy(io.Discard, out)
		cs, err = web.connect(cctx, client)
	} else {
		cs, err = client.Connect(cctx, &sdk.IOTransport{Reader: out, Writer: t.Stdin, MaxLineLength: 4 << 20}, nil)
	}
	if err != nil {
		t.Kill()
		res, _, _ := t.Finish()
		web.remove()
		how := "over stdio"
		if web != nil {
			how = "at " + r.o.MCPURL
		}
		return nil, fmt.Errorf("the server did not start %s: %v%s", how, err, stderrOf(res))
	}
	s := &server{t: t, cs: cs, web: web}
	for tool, err := range cs.Tools(cctx, nil) {
		if err != nil {
			s.close()
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		s.tools = append(s.tools, tool)
		if len(s.tools) >= 64 {
			break
		}
	}
	return s, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

func stderrOf(res *behave.Result) string {
	if res == nil || len(res.Stderr) == 0 {
		return ""
	}
	// The end of it: a failing program says why last.
	msg := strings.TrimSpace(string(res.Stderr))
	if len(msg) > 500 {
		msg = "…" + msg[len(msg)-500:]
	}
	return "; its stderr ends: " + msg
}

func (s *server) close() (*behave.Result, *behave.Ledger, error) {
	s.cs.Close()
	s.t.Stdin.Close()
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			s.t.Kill()
		}
	}()
	res, l, err := s.t.Finish()
	close(done)
	s.web.remove()
	return res, l, err
}

// call calls a tool with a bound; the text of the result, whether it is an
// error, and whether the server failed to answer at all.
func (s *server) call(ctx context.Context, name string, args json.RawMessage, timeout time.Duration) (text string, isErr, noAnswer bool) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var a any
	if json.Unmarshal(args, &a) != nil {
		return "the arguments are not JSON", true, false
	}
	res, err := s.cs.CallTool(cctx, &sdk.CallToolParams{Name: name, Arguments: a})
	if err != nil {
		return "the server did not answer: " + err.Error(), true, errors.Is(cctx.Err(), context.DeadlineExceeded) || errors.Is(err, sdk.ErrConnectionClosed)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		} else {
			data, _ := json.Marshal(c)
			b.Write(data)
		}
		if b.Len() > 64<<10 {
			break
		}
	}
	return clip(b.String(), 16<<10), res.IsError, false
}

const mcpDriverSystem = `ROLE: driver
You are exercising an MCP server inside a sandbox to see what it does. Carry out the user's task with the server's tools, as its documentation describes them. When the task is done, or cannot be done, say so plainly in a final answer without calling a tool.

<documentation>
%s
</documentation>`

// driveMCP runs the driver against the server's real tools.
func (r *run) driveMCP(ctx context.Context, c Case) ([]model.Message, *behave.Result, *behave.Ledger, error) {
	p, dir, err := r.startProxy()
	if err != nil {
		return nil, nil, nil, err
	}
	defer p.Close()
	p.Tag(r.tag)
	s, err := r.startServer(ctx, p, dir)
	if err != nil {
		return nil, nil, nil, err
	}
	var tools []model.Tool
	for _, t := range s.tools {
		schema, _ := json.Marshal(t.InputSchema)
		tools = append(tools, model.Tool{Name: t.Name, Description: t.Description, Schema: schema})
	}
	msgs, _, driveErr := r.drive(ctx, fmt.Sprintf(mcpDriverSystem, r.docs), tools, c.Prompt, func(part model.Part) (string, bool, bool) {
		text, isErr, _ := s.call(ctx, part.Name, part.Input, r.o.CallTimeout)
		return text, isErr, false
	})
	res, l, err := s.close()
	withNetwork(l, p)
	if err == nil {
		err = driveErr
	}
	return msgs, res, l, err
}
