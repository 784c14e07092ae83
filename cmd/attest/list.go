package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/suite"
	"github.com/metahub-ai/attest/resolve"
)

type listOptions struct {
	json bool
	kind string
}

// listEntry is one check in 'attest list --json'.
type listEntry struct {
	checks.Entry
	Title string              `json:"title"`
	Needs []checks.Capability `json:"needs"`
}

func newListCmd(a *app) *cobra.Command {
	var o listOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the checks of the default suite",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cat, err := suite.Default()
			if err != nil {
				return withCode(exitError, err)
			}
			var kind resolve.Kind
			if o.kind != "" {
				if kind, err = resolve.ParseKind(o.kind); err != nil {
					return withCode(exitError, err)
				}
			}
			var list []*checks.Check
			for _, c := range cat.Checks() {
				if kind == "" || c.AppliesTo(kind) {
					list = append(list, c)
				}
			}
			if o.json {
				out := make([]listEntry, 0, len(list))
				for _, c := range list {
					needs := c.Needs
					if needs == nil {
						needs = []checks.Capability{}
					}
					out = append(out, listEntry{Entry: c.Entry(), Title: c.Title, Needs: needs})
				}
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "CHECK\tAXIS\tWEIGHT\tBLOCKING\tTIER\tKINDS\tTITLE")
			for _, c := range list {
				e := c.Entry()
				b := ""
				if e.Blocking {
					b = "yes"
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", e.ID, e.Axis, e.Weight, b, e.Tier, strings.Join(e.Kinds, ","), c.Title)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "\n%s in %s %s; 'attest explain CHECK' for one.\n", checks.Plural(len(list), "check"), cat.ID, cat.Version)
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the checks as JSON")
	cmd.Flags().StringVar(&o.kind, "kind", "", "only checks that apply to this kind: skill, mcp, agent or plugin")
	return cmd
}
