package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/checks/suite"
)

func newVersionCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of attest and of its check suite",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			cat, err := suite.Default()
			if err != nil {
				return withCode(exitError, err)
			}
			revision := ""
			if bi, ok := debug.ReadBuildInfo(); ok {
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" {
						revision = s.Value
					}
				}
			}
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]string{"version": Version, "go": runtime.Version(), "revision": revision,
					"suite": cat.ID + "@" + cat.Version, "catalogDigest": cat.Digest()})
			}
			fmt.Fprintf(a.stdout, "attest %s (%s)\nsuite  %s@%s %s\n", Version, runtime.Version(), cat.ID, cat.Version, cat.Digest())
			if revision != "" {
				fmt.Fprintf(a.stdout, "commit %s\n", revision)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
