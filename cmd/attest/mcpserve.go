package main

import (
	"io"

	"github.com/spf13/cobra"
)

// nopWriteCloser lets the MCP transport close standard output without
// closing the process's.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

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
Messages are one JSON-RPC 2.0 object a line, at most 4 MiB and 64 levels
deep; any other line gets a JSON-RPC error (id null) and the server goes
on serving.
Add it to a client as a stdio server whose command is
'attest mcp serve --root /path/to/downloads'.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := mcpServe(cmd.Context(), []string{"--root", root}, io.NopCloser(a.stdin), nopWriteCloser{a.stdout}); err != nil && cmd.Context().Err() == nil {
				return subFailed(err, "the MCP server stopped")
			}
			return nil
		},
	}
	serve.Flags().StringVar(&root, "root", ".", "local targets and files must be under this directory")
	group.AddCommand(serve)
	return group
}
