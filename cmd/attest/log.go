package main

import (
	"github.com/spf13/cobra"
)

func newLogCmd(a *app) *cobra.Command {
	lg := &cobra.Command{
		Use:   "log",
		Short: "Run and check a transparency log (the Sigstore log protocol, Rekor v2)",
		Long: `A transparency log records every signed report so that a publisher cannot
change or back-date a verdict quietly. attest serves one itself (Rekor v2's
write API on Tessera storage, the C2SP tlog-tiles read API), and works
with any Rekor v2 log (rekor-tiles, Sigstore's). docs/TLOG.md covers
operating it and its threat model.`,
		Args: cobra.NoArgs,
	}
	var dir, addr, key, origin, url, since, trustedRoot string
	var update bool
	serve := &cobra.Command{
		Use:   "serve --dir DIR [--addr ADDR] [--key KEY.pem] [--origin NAME]",
		Short: "Serve a Rekor v2-compatible log from a directory",
		Long: `Serve the log in DIR, creating it on first start: POST /api/v2/log/entries
takes a hashedrekord entry whose signature must verify before anything is
appended, and answers, once a checkpoint includes it, with the entry, its
inclusion proof and the signed checkpoint; GET /checkpoint and /tile/...
(also under /api/v2/) serve the tree. Identical entries are answered 409
with the index they have (within one run of the server). The checkpoint
key is DIR/log-key.pem (ECDSA P-256, made on first start) unless --key
names one; the origin, the name the log signs its checkpoints under, is
the host verifiers reach it by (default: the host of --addr), fixed when
the log is made. Ctrl-C stops it after the queued entries are
integrated.`,
		Example: `  attest log serve --dir ./log --addr 127.0.0.1:3080
  attest log trusted-root --dir ./log > trusted_root.json
  attest sign --key publisher.pem --log http://127.0.0.1:3080 report.json
  attest verify --key publisher.pub.pem --trusted-root trusted_root.json report.sigstore.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			argv := []string{"log-serve", "--dir", dir, "--addr", addr}
			if key != "" {
				argv = append(argv, "--key", key)
			}
			if origin != "" {
				argv = append(argv, "--origin", origin)
			}
			if err := a.sub(cmd.Context(), a.stdout, argv...); err != nil && cmd.Context().Err() == nil {
				return subFailed(err, "the log server stopped")
			}
			return nil
		},
	}
	serve.Flags().StringVar(&dir, "dir", "", "the log's directory (created on first start)")
	serve.Flags().StringVar(&addr, "addr", "127.0.0.1:3080", "address to listen on")
	serve.Flags().StringVar(&key, "key", "", "checkpoint signing key, PKCS#8 PEM (default DIR/log-key.pem)")
	serve.Flags().StringVar(&origin, "origin", "", "the log's name in its checkpoints: the host verifiers reach it by")
	serve.MarkFlagRequired("dir")

	var pub string
	root := &cobra.Command{
		Use:   "trusted-root (--dir DIR | --key LOG.pub.pem --url URL) [--url URL]",
		Short: "Print a trusted_root.json naming the log",
		Long: `Print a Sigstore trusted_root.json that names the log (its URL, key and
log id), so that attest verify --trusted-root, sigstore-go and cosign can
verify the entries it issued. --url is the URL verifiers know the log by;
its host must be the log's origin.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var argv []string
			for _, f := range []struct{ name, v string }{{"--dir", dir}, {"--key", pub}, {"--url", url}} {
				if f.v != "" {
					argv = append(argv, f.name, f.v)
				}
			}
			if err := a.sub(cmd.Context(), a.stdout, append([]string{"log-trusted-root"}, argv...)...); err != nil {
				return subFailed(err, "no trusted root")
			}
			return nil
		},
	}
	root.Flags().StringVar(&dir, "dir", "", "the log's directory")
	root.Flags().StringVar(&pub, "key", "", "the log's public key, for a log whose directory is elsewhere")
	root.Flags().StringVar(&url, "url", "", "the URL verifiers know the log by")

	verify := &cobra.Command{
		Use:   "verify --url URL --since CHECKPOINT (--trusted-root FILE | --key LOG.pub.pem) [--update]",
		Short: "Check that a log still extends a checkpoint it signed (monitor mode)",
		Long: `Fetch the log's current checkpoint, verify its signature and that of an
older one (a checkpoint file, or a bundle the log issued), and prove with
a consistency proof built from the log's tiles that the current tree
extends the old one. A log that signed two trees that do not extend each
other is showing a split view: exit 1, with both roots. --update then
writes the current checkpoint to the --since file, for the next run.`,
		Example: `  attest log verify --url http://127.0.0.1:3080 --since seen.checkpoint --trusted-root trusted_root.json --update`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			argv := []string{"log-verify", "--url", url, "--since", since}
			if trustedRoot != "" {
				argv = append(argv, "--trusted-root", trustedRoot)
			}
			if pub != "" {
				argv = append(argv, "--key", pub)
			}
			if update {
				argv = append(argv, "--update")
			}
			return subFailed(a.sub(cmd.Context(), a.stdout, argv...), "the log could not be checked")
		},
	}
	verify.Flags().StringVar(&url, "url", "", "the log's URL")
	verify.Flags().StringVar(&since, "since", "", "an older checkpoint: a checkpoint file, or a bundle the log issued")
	verify.Flags().StringVar(&trustedRoot, "trusted-root", "", "trusted_root.json naming the log")
	verify.Flags().StringVar(&pub, "key", "", "the log's public key")
	verify.Flags().BoolVar(&update, "update", false, "after a consistent check, write the current checkpoint to the --since file")
	lg.AddCommand(serve, root, verify)
	return lg
}
