package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/metahub-ai/attest/behave"
	skillallowedtools "github.com/metahub-ai/attest/checks/skill-allowed-tools"
	"github.com/metahub-ai/attest/resolve/manifest"
)

// Bounds of a plugin's run.
const (
	maxPluginSkills  = 4
	maxPluginHooks   = 8
	maxPluginServers = 2
)

// plugin exercises a plugin's components: each bundled skill driven on its
// cases, each hook command run once on a sample event, each MCP server
// probed.
func (r *run) plugin(ctx context.Context) error {
	root, err := os.OpenRoot(r.o.Dir)
	if err != nil {
		return err
	}
	defer root.Close()
	skills, _ := globRel(r.o.Dir, "skills/*/SKILL.md")
	for i, sk := range skills {
		if i == maxPluginSkills {
			r.noteOnce(fmt.Sprintf("only the first %d of %d skills were run", maxPluginSkills, len(skills)))
			break
		}
		data, err := root.ReadFile(sk)
		if err != nil {
			continue
		}
		dir := path.Dir(sk)
		r.docs = fmt.Sprintf("(This skill's own files are in /artifact/%s.)\n\n%s", dir, clip(string(data), maxDocs))
		r.o.AllowedTools = nil
		if fm, err := manifest.ParseFrontmatter(data); err == nil {
			if k := fm.Get("allowed-tools"); k != nil {
				r.o.AllowedTools = skillallowedtools.Tools(k.Value)
			}
		}
		cases, err := r.cases(ctx, filepath.Join(r.o.Dir, filepath.FromSlash(dir)))
		if err != nil {
			r.obs.Errors = append(r.obs.Errors, dir+": "+err.Error())
		}
		if err := r.runCases(ctx, cases, path.Base(dir)+"/"); err != nil {
			return err
		}
	}
	if err := r.pluginHooks(ctx, root); err != nil {
		return err
	}
	for _, name := range []string{".mcp.json", "mcp.json"} {
		data, err := root.ReadFile(name)
		if err != nil {
			continue
		}
		cfg, err := manifest.ParseMCPConfig(data)
		if err != nil {
			r.obs.Errors = append(r.obs.Errors, name+": "+err.Error())
			break
		}
		for i, s := range cfg.Servers {
			if i == maxPluginServers || r.o.NoProbes {
				break
			}
			if s.Command == "" {
				continue // a remote server: nothing to run here
			}
			r.o.Launch = pluginArgv(append([]string{s.Command}, s.Args...))
			r.o.Progress("probing the plugin's MCP server %s", s.Name)
			if err := r.probe(ctx, s.Name+"/"); err != nil {
				if errors.Is(err, behave.ErrUnavailable) {
					return err
				}
				r.obs.Errors = append(r.obs.Errors, "server "+s.Name+": "+err.Error())
			}
		}
		break
	}
	if r.obs.Ledger.Method == "" {
		r.obs.Ledger.Method = "none"
	}
	return nil
}

// pluginArgv resolves ${CLAUDE_PLUGIN_ROOT} to where the plugin is.
func pluginArgv(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = strings.ReplaceAll(a, "${CLAUDE_PLUGIN_ROOT}", "/artifact")
	}
	return out
}

func globRel(dir, pattern string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pattern)))
	var out []string
	for _, p := range m {
		if rel, err := filepath.Rel(dir, p); err == nil {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	sort.Strings(out)
	return out, err
}

// pluginHooks runs each command hook once, in a fresh sandbox, with a
// sample event of its kind on standard input.
func (r *run) pluginHooks(ctx context.Context, root *os.Root) error {
	var hooks []manifest.Hook
	for _, name := range []string{"hooks/hooks.json", "hooks.json"} {
		if data, err := root.ReadFile(name); err == nil {
			if h, err := manifest.ParseHooks(data); err == nil {
				hooks = append(hooks, h.Hooks...)
			} else {
				r.obs.Errors = append(r.obs.Errors, name+": "+err.Error())
			}
		}
	}
	n := 0
	for _, h := range hooks {
		if h.Type != "command" || h.Command == "" {
			continue
		}
		if n == maxPluginHooks {
			r.noteOnce(fmt.Sprintf("only the first %d hook commands were run", maxPluginHooks))
			break
		}
		n++
		id := fmt.Sprintf("hook:%s:%d", h.Event, n)
		r.o.Progress("running the plugin's %s hook", h.Event)
		if err := r.runHook(ctx, id, h); err != nil {
			if errors.Is(err, behave.ErrUnavailable) {
				return err
			}
			r.obs.Errors = append(r.obs.Errors, id+": "+err.Error())
		}
	}
	return nil
}

func (r *run) runHook(ctx context.Context, id string, h manifest.Hook) error {
	p, dir, err := r.startProxy()
	if err != nil {
		return err
	}
	defer p.Close()
	p.Tag(id)
	spec := r.agentSpec(dir, nil)
	spec.Env = append(spec.Env, "CLAUDE_PLUGIN_ROOT=/artifact", "CLAUDE_PROJECT_DIR=/work")
	s, err := behave.StartSession(ctx, r.o.Sandbox, spec)
	if err != nil {
		return err
	}
	event, _ := json.Marshal(map[string]any{"session_id": "attest", "cwd": "/work", "hook_event_name": h.Event,
		"tool_name": "Bash", "tool_input": map[string]string{"command": "ls"}, "prompt": "list the files"})
	rep, callErr := s.Call(behave.Call{Argv: []string{"/bin/sh", "-c", h.Command}, Stdin: string(event),
		TimeoutMs: int(r.o.CallTimeout.Milliseconds()), MaxOutput: 64 << 10})
	res, l, err := s.Close()
	withNetwork(l, p)
	r.obs.Ledger.Merge(l, id)
	hr := behave.HookRun{ID: id, Event: h.Event, Command: clip(h.Command, 500), ExitCode: rep.ExitCode}
	if rep.TimedOut {
		hr.LimitHit = behave.HitWall
	} else if res != nil {
		hr.LimitHit = res.LimitHit
	}
	t := &behave.Transcript{Schema: behave.TranscriptSchema, Kind: "plugin", Case: id, Prompt: string(event), Ledger: l,
		Turns: []behave.Turn{
			{Role: "assistant", Parts: []behave.TurnPart{{Type: "tool_use", ID: id, Name: "hook", Input: mustJSON(map[string]string{"command": h.Command})}}},
			{Role: "user", Parts: []behave.TurnPart{{Type: "tool_result", ID: id, Text: clip(fmt.Sprintf("exit code %d\nstdout:\n%s\nstderr:\n%s", rep.ExitCode, rep.Stdout, rep.Stderr), 8192), IsError: rep.ExitCode != 0}}},
		}}
	if sum, err := r.store(t); err == nil {
		hr.Transcript = sum
	}
	r.obs.Hooks = append(r.obs.Hooks, hr)
	if callErr != nil {
		return callErr
	}
	return err
}
