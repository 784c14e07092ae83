package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/mcp"
	"github.com/metahub-ai/attest/resolve"
)

func newLockCmd(a *app) *cobra.Command {
	var out, surf string
	cmd := &cobra.Command{
		Use:   "lock [flags] DIR | lock --surface FILE",
		Short: "Write the MCP surface's lock file (attest.lock.json)",
		Long: `Record the approved MCP surface of the server in DIR (or of a captured
surface given with --surface): every tool, prompt and resource by name
with the SHA-256 of its exact description and of its canonical schema.
'attest run' compares the surface with this file and exits 1 when a tool
is added, a description or schema changes, or a name is reused with a new
meaning. Review the change, then run 'attest lock' again to accept it.

A surface declared in source and one observed from a running server are
never compared with each other: lock the kind you run.`,
		Example: `  attest lock .
  attest lock --surface tools.json -o attest.lock.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if surf != "" {
				return cobra.RangeArgs(0, 1)(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := attest.Options{ToolVersion: Version, Kind: resolve.KindMCP}
			target := ""
			if len(args) > 0 {
				target = args[0]
			}
			if surf != "" {
				snap, err := readSurface(surf)
				if err != nil {
					return withCode(exitError, err)
				}
				opts.Surface = snap
				if target == "" {
					tmp, dir, src, err := stageSnapshot(surf)
					if err != nil {
						return withCode(exitError, err)
					}
					defer os.RemoveAll(tmp)
					target, opts.Source = dir, src
				}
			}
			report, err := attest.Evaluate(cmd.Context(), target, opts)
			if err != nil {
				return withCode(exitError, explainEvalError(target, err))
			}
			if out == "" {
				out = mcp.LockFile
				if surf == "" {
					out = filepath.Join(target, mcp.LockFile)
				}
			}
			data, err := json.MarshalIndent(report.Surface.Lock(), "", "  ")
			if err != nil {
				return withCode(exitError, err)
			}
			if err := writeAtomic(out, append(data, '\n')); err != nil {
				return withCode(exitError, fmt.Errorf("writing %s: %w", out, err))
			}
			s := report.Surface
			fmt.Fprintf(a.stderr, "wrote %s: %d tools, %d prompts, %d resources (%s surface)\n", out, len(s.Tools), len(s.Prompts), len(s.Resources), s.Origin)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the lock file to write (default DIR/"+mcp.LockFile+", or ./"+mcp.LockFile+" with --surface alone)")
	cmd.Flags().StringVar(&surf, "surface", "", "lock this captured MCP surface (tools/list JSON) instead of the one in the source")
	return cmd
}

// writeAtomic writes beside the destination and renames, so that a lock
// file is never left half-written.
func writeAtomic(p string, data []byte) error {
	f, err := resolve.CreateOutput(p)
	if err != nil {
		return err
	}
	defer f.Discard()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}
