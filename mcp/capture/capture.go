// Package capture reads the surface of a running MCP server through a
// client of the official go-sdk. It is kept out of package mcp so that
// evaluating a source tree never links the SDK.
package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/metahub-ai/attest/mcp"
)

// CaptureOptions bounds a live capture. Zero values take the defaults.
type CaptureOptions struct {
	// Timeout bounds the whole capture: connecting, initialize and every
	// page of every list (default 30 s).
	Timeout time.Duration
	// MaxEntries bounds each list (default mcp.MaxSnapshotEntries).
	MaxEntries int
	// MaxDescriptionBytes bounds one description (default 1 MiB): a
	// server that sends more is refused rather than held in memory.
	MaxDescriptionBytes int
}

func (o *CaptureOptions) defaults() {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = mcp.MaxSnapshotEntries
	}
	if o.MaxDescriptionBytes <= 0 {
		o.MaxDescriptionBytes = 1 << 20
	}
}

// ErrCaptureLimit is returned when a server's surface passes a limit.
var ErrCaptureLimit = errors.New("the server's surface passes a capture limit")

// Capture connects to a server over the transport its caller supplies (a
// command in a sandbox, a Streamable HTTP endpoint, an in-memory test
// server), performs initialize, and lists tools, prompts, resources and
// resource templates page by page, as the server's capabilities announce
// them. It never starts a process itself.
func Capture(ctx context.Context, t sdk.Transport, opts CaptureOptions) (*mcp.Surface, error) {
	opts.defaults()
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "attest", Version: "capture"}, nil)
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to the server: %w", deadline(ctx, err))
	}
	defer cs.Close()
	s := &mcp.Surface{Origin: mcp.Observed}
	ir := cs.InitializeResult()
	if ir == nil || ir.Capabilities == nil {
		return nil, errors.New("the server's initialize result has no capabilities")
	}
	s.Instructions = ir.Instructions
	if len(s.Instructions) > opts.MaxDescriptionBytes {
		return nil, fmt.Errorf("%w: instructions of %d bytes", ErrCaptureLimit, len(s.Instructions))
	}
	caps := ir.Capabilities
	check := func(n int, list, desc string) error {
		if n > opts.MaxEntries {
			return fmt.Errorf("%w: more than %d %s", ErrCaptureLimit, opts.MaxEntries, list)
		}
		if len(desc) > opts.MaxDescriptionBytes {
			return fmt.Errorf("%w: a description of %d bytes in %s", ErrCaptureLimit, len(desc), list)
		}
		return nil
	}
	if caps.Tools != nil {
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("tools/list: %w", deadline(ctx, err))
			}
			t := mcp.Tool{Name: tool.Name, Title: tool.Title, Description: tool.Description}
			t.InputSchema = rawJSON(tool.InputSchema)
			t.OutputSchema = rawJSON(tool.OutputSchema)
			if tool.Annotations != nil {
				_ = json.Unmarshal(rawJSON(tool.Annotations), &t.Annotations)
			}
			t.Params = mcp.SchemaParams(t.InputSchema)
			s.Tools = append(s.Tools, t)
			if err := check(len(s.Tools), "tools", t.Description); err != nil {
				return nil, err
			}
		}
	}
	if caps.Prompts != nil {
		for p, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("prompts/list: %w", deadline(ctx, err))
			}
			pr := mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
			for _, a := range p.Arguments {
				pr.Arguments = append(pr.Arguments, mcp.Param{Name: a.Name, Title: a.Title, Description: a.Description})
			}
			s.Prompts = append(s.Prompts, pr)
			if err := check(len(s.Prompts), "prompts", pr.Description); err != nil {
				return nil, err
			}
		}
	}
	if caps.Resources != nil {
		for r, err := range cs.Resources(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("resources/list: %w", deadline(ctx, err))
			}
			s.Resources = append(s.Resources, mcp.Resource{Name: r.Name, Title: r.Title, Description: r.Description, URI: r.URI, MIMEType: r.MIMEType})
			if err := check(len(s.Resources), "resources", r.Description); err != nil {
				return nil, err
			}
		}
		for r, err := range cs.ResourceTemplates(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("resources/templates/list: %w", deadline(ctx, err))
			}
			s.Resources = append(s.Resources, mcp.Resource{Name: r.Name, Title: r.Title, Description: r.Description, URITemplate: r.URITemplate, MIMEType: r.MIMEType})
			if err := check(len(s.Resources), "resources", r.Description); err != nil {
				return nil, err
			}
		}
	}
	s.Sort()
	return s, nil
}

// deadline names the timeout when the context's deadline ended the call.
func deadline(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no answer within the capture timeout: %w", err)
	}
	return err
}

func rawJSON(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	if r, ok := v.(json.RawMessage); ok {
		return r
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return nil
	}
	return b
}
