package main

import (
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/resolve"
)

func newMCPCmd(a *app) *cobra.Command {
	group := &cobra.Command{
		Use:   "mcp",
		Short: "attest as an MCP server, for agents",
		Args:  cobra.NoArgs,
	}
	var root string
	serve := &cobra.Command{
		Use:   "serve [--root DIR]",
		Short: "Serve attest's evaluate and verify tools over MCP (stdio)",
		Long: `Run attest as a Model Context Protocol server over standard input and
output, so an agent can evaluate an artifact, or gate an install on a
signed report, itself:

  evaluate  a directory under --root, or a remote target: the verdict,
            the score per axis and the failing and warning checks with
            where they are (at most 40 findings, 5 locations each, every
            string bounded and made terminal-safe; never file contents)
  verify    a bundle under --root, optionally against the artifact, a
            key, a trusted root and a consumer policy: each answer, and
            passed (false when any answer fails)

Local paths outside --root (default: the working directory) are refused.
Add it to a client as a stdio server whose command is
'attest mcp serve --root /path/to/downloads'. It runs in the attest-net
companion.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			helper, err := resolve.NetHelper()
			if err != nil {
				return withCode(exitError, err)
			}
			c := exec.CommandContext(cmd.Context(), helper, "mcp-serve", "--root", root)
			c.Stdin, c.Stdout, c.Stderr = a.stdin, a.stdout, a.stderr
			if err := c.Run(); err != nil && cmd.Context().Err() == nil {
				return companionFailed(err, "the MCP server stopped")
			}
			return nil
		},
	}
	serve.Flags().StringVar(&root, "root", ".", "local targets and files must be under this directory")
	group.AddCommand(serve)
	return group
}
