package main

import (
	"github.com/spf13/cobra"
)

func newRegistryCmd(a *app) *cobra.Command {
	reg := &cobra.Command{
		Use:   "registry",
		Short: "Self-host a registry catalog",
		Long: `Commands for registries of artifacts. A registry is a catalog of entries
(docs/REGISTRY.md) that pin each version of an artifact to an exact git
commit or a package with its integrity; 'attest run registry:KIND/NAME'
resolves through the registry named by ATTEST_REGISTRY.`,
		Args: cobra.NoArgs,
	}
	var addr string
	serve := &cobra.Command{
		Use:   "serve [--addr ADDR] DIR",
		Short: "Serve a catalog directory read-only over HTTP",
		Long: `Serve the catalog in DIR (DIR/v1/KIND/NAME.json, as docs/REGISTRY.md
describes) read-only: GET and HEAD of its files, no directory listings,
nothing reached through a link out of DIR, private entries answered with
403. It listens on loopback by default; put TLS in front of it to publish
it. Ctrl-C stops it gracefully.`,
		Example: `  attest registry serve ./catalog
  ATTEST_REGISTRY=http://127.0.0.1:8787 attest run registry:skill/pdf`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := a.sub(cmd.Context(), a.stdout, "registry-serve", "--addr", addr, args[0]); err != nil && cmd.Context().Err() == nil {
				return subFailed(err, "the registry server stopped")
			}
			return nil
		},
	}
	serve.Flags().StringVar(&addr, "addr", "127.0.0.1:8787", "address to listen on")
	reg.AddCommand(serve)
	return reg
}
