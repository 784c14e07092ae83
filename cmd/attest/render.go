package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/render"
	"github.com/metahub-ai/attest/resolve"
	"github.com/metahub-ai/attest/verify"
)

func newRenderCmd(a *app) *cobra.Command {
	var format, out, key, identity, issuer, trustedRoot, colorMode string
	var all, quiet, insecure bool
	cmd := &cobra.Command{
		Use:   "render [--format text|json|sarif|markdown|html] [--out FILE] REPORT.json|BUNDLE",
		Short: "Render a saved report, or a signed bundle with its verification, without evaluating again",
		Long: `Render a report written by 'attest run --json' in another format: text,
json, sarif (SARIF 2.1.0 for code scanning), markdown (a pull-request
comment: the axis table and the findings) or html (one self-contained
page: no script, no external asset).

Given a Sigstore bundle (attest sign), it is verified first, as
attest verify does (--key, or --identity, --issuer and --trusted-root, or
--insecure-ignore-signer) and the report it carries is rendered; the HTML page shows
the verification answers. Exit 1 when an answer fails (the page still
shows them), or when a signer is given with a plain report, which carries
no signature (nothing is rendered); 2 when the input cannot be read.`,
		Example: `  attest render report.json --format html --out report.html
  attest render report.json --format markdown > comment.md
  attest render --key publisher.pub.pem report.sigstore.json --format html --out report.html`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := render.ParseFormat(format)
			if err != nil {
				return withCode(exitError, err)
			}
			data, err := resolve.ReadFileMax(args[0], maxReportBytes)
			if err != nil {
				return withCode(exitError, err)
			}
			var opts render.Options
			failed := false
			var probe struct {
				MediaType string `json:"mediaType"`
			}
			if json.Unmarshal(data, &probe) == nil && strings.HasPrefix(probe.MediaType, "application/vnd.dev.sigstore.bundle") {
				argv := []string{"--json", "--with-report"}
				for _, fl := range []struct{ name, v string }{{"--key", key}, {"--identity", identity}, {"--issuer", issuer}, {"--trusted-root", trustedRoot}} {
					if fl.v != "" {
						argv = append(argv, fl.name, fl.v)
					}
				}
				if insecure {
					argv = append(argv, "--insecure-ignore-signer")
				}
				var buf bytes.Buffer
				err := a.sub(cmd.Context(), &buf, append(append([]string{"verify"}, argv...), args[0])...)
				if err != nil && !errors.Is(err, verify.ErrFailed) {
					return subFailed(err, "the bundle could not be verified")
				}
				var res struct {
					Answers []render.Verification
					Failed  bool
					Report  json.RawMessage
				}
				if err := json.Unmarshal(buf.Bytes(), &res); err != nil || len(res.Report) == 0 {
					return withCode(exitError, fmt.Errorf("%s: the bundle carries no readable report", args[0]))
				}
				data, opts.Verification, failed = res.Report, res.Answers, res.Failed
			} else if key != "" || identity != "" || issuer != "" || trustedRoot != "" {
				// A signer was named: a report with no signature to check
				// against it fails, as attest verify fails it.
				return withCode(exitFail, fmt.Errorf("%s is a plain report, which carries no signature to check against the signer given: render the bundle (attest sign writes REPORT.sigstore.json)", args[0]))
			}
			var r attest.Report
			if err := json.Unmarshal(data, &r); err != nil || r.SchemaVersion != attest.SchemaVersion || r.Results == nil {
				return withCode(exitError, fmt.Errorf("%s: not an attest report or bundle (attest run --json, attest sign)", args[0]))
			}
			opts.ASCII, opts.All, opts.Quiet = a.ascii(), all, quiet
			w := a.stdout
			var tmp *resolve.Output
			if out != "" {
				if tmp, err = resolve.CreateOutput(out); err != nil {
					return withCode(exitError, err)
				}
				defer tmp.Discard()
				w = tmp
			}
			color, err := a.colorOn(colorMode, w)
			if err != nil {
				return err
			}
			opts.Color = f == render.Text && color
			if err := render.Render(w, &r, f, opts); err != nil {
				return withCode(exitError, err)
			}
			if tmp != nil {
				if err := tmp.Commit(); err != nil {
					return withCode(exitError, err)
				}
			}
			if failed {
				fmt.Fprintln(a.stderr, "attest: the bundle failed verification (the answers are in the rendered report; attest verify shows them)")
				return errSilentFail
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "text", "text, json, sarif, markdown or html")
	fl.StringVarP(&out, "out", "o", "", "write to this file instead of standard output")
	fl.StringVar(&key, "key", "", "for a bundle: the publisher's public key")
	fl.StringVar(&identity, "identity", "", "for a keyless bundle: the expected signer")
	fl.StringVar(&issuer, "issuer", "", "for a keyless bundle: the signer's OIDC issuer")
	fl.StringVar(&trustedRoot, "trusted-root", "", "for a bundle: Sigstore trusted_root.json")
	fl.BoolVar(&insecure, "insecure-ignore-signer", false, "for a bundle: render it with no key, identity or policy signer to check who signed it")
	fl.BoolVar(&all, "all", false, "text: list every check (by default passes and checks that do not apply are summarised in one line)")
	fl.BoolVarP(&quiet, "quiet", "q", false, "text: print only the verdict line")
	fl.StringVar(&colorMode, "color", "auto", "colour the text report: auto (on a terminal, unless NO_COLOR is set), always or never")
	return cmd
}
