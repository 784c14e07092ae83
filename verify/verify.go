// Package verify checks a signed report the way a stranger would: each
// answer of ARCHITECTURE §3.5 separately, from the bundle's signed payload
// only, with the score recomputed from the results and the pinned catalog
// (never from the report's own axis, weight or blocking). Signatures,
// certificates, log entries and timestamps are sigstore-go's to check
// (signature.go); the predicate is this package's.
package verify

import (
	"context"
	"crypto"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	v1 "github.com/in-toto/attestation/go/v1"
	"github.com/sigstore/sigstore-go/pkg/root"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/suite"
	"github.com/metahub-ai/attest/policy"
)

// Statuses of an answer.
const (
	OK   = "ok"
	Warn = "warn"
	Fail = "fail"
)

// Answer is one verification answer.
type Answer struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// Result is every answer, in a fixed order.
type Result struct {
	Answers []Answer `json:"answers"`
	// Failed is true when any answer failed.
	Failed bool `json:"failed"`
	// Report is the signed report, when asked for (--with-report), so a
	// renderer shows what was verified without parsing the bundle itself.
	Report json.RawMessage `json:"report,omitempty"`

	// The signed statement's subject and the sha256 of its payload, for a
	// verification summary.
	subject       *v1.ResourceDescriptor
	payloadSHA256 string
	sourceURI     string // the signed report's subject.source.uri
	// When a timestamp authority or a log vouched the signature was made.
	signedAt time.Time
	signedBy string
	// schema is the outcome of the schema validation, which runs beside
	// everything else from the moment the report's bytes are known: it is
	// the costliest step after the artifact's evaluation.
	schema chan error
	report []byte
	// Checks whose results the results answer found unconfirmed (no
	// evidence for a result no one can re-run) or did not re-run.
	unconfirmed, notRerun []string
}

// startSchema validates report against the schema in the background.
func (r *Result) startSchema(report []byte) {
	r.schema = make(chan error, 1)
	go func() { r.schema <- schemaValid(report) }()
}

func (r *Result) add(name, status, format string, a ...any) {
	r.Answers = append(r.Answers, Answer{name, status, fmt.Sprintf(format, a...)})
	if status == Fail {
		r.Failed = true
	}
}

// Options say what the verifier trusts and checks.
type Options struct {
	// Keys are the publisher keys trusted (--key, or the policy's trusted
	// signers); without any, a key signature is at most a warning.
	Keys []crypto.PublicKey
	// Identities are the keyless signers trusted (--identity and
	// --issuer, or the policy's); TrustedRoot is the Sigstore
	// trusted_root.json their certificates, log entries and timestamps
	// are checked against.
	Identities  []policy.Identity
	TrustedRoot []byte
	// RequireSignature makes a missing or unchecked signature a failure
	// (it always is when anyone is trusted).
	RequireSignature bool
	// InsecureIgnoreSigner, with nobody trusted (no key, identity or
	// policy signers), lets every other answer stand with the signature
	// only a warning. Without it, nobody trusted is a failed signature.
	InsecureIgnoreSigner bool
	// Artifact, when set, is evaluated for its tree digest and compared
	// with the statement's subject.
	Artifact string
	// Policy, when set, is the consumer's install policy.
	Policy *policy.Consumer
	// Now is the time reports are aged against.
	Now time.Time

	trustedRoot *root.TrustedRoot // TrustedRoot, parsed
}

// MaxInput bounds a bundle or report read for verification.
const MaxInput = 64 << 20

// Verify checks a Sigstore bundle, or a plain report (which has no
// signature to check).
func Verify(ctx context.Context, input []byte, opts Options) *Result {
	return verifyInput(ctx, readInput(input), opts)
}

func verifyInput(ctx context.Context, in *input, opts Options) *Result {
	r := &Result{}
	input := in.data
	if in.tooLarge {
		r.add("input", Fail, "over %d bytes", MaxInput)
		return r
	}
	if !in.json {
		r.add("input", Fail, "not JSON")
		return r
	}
	var report []byte
	if in.isBundle {
		report = checkBundle(ctx, r, in, opts)
		if report == nil {
			return r
		}
	} else {
		if signatureRequired(opts) {
			r.add("signature", Fail, "a plain report carries no signature: give the bundle (attest sign writes REPORT.sigstore.json)")
		} else {
			r.add("signature", Warn, "a plain report carries no signature: anyone could have written it")
		}
		report = input
		if err := repeatedKey(report); err != nil {
			r.add("schema", Fail, "%v", err)
			return r
		}
		r.startSchema(report)
	}
	if json.Valid(report) {
		r.report = report
	}
	rep := checkReport(ctx, r, report, opts)
	if opts.Policy != nil {
		checkPolicy(r, rep, opts)
	}
	return r
}

// checkBundle answers signature, transparency log and statement, and
// returns the report the signed statement carries (nil when there is none
// to go on with).
func checkBundle(ctx context.Context, r *Result, in *input, opts Options) []byte {
	b := in.bundle
	if in.err != nil {
		r.add("signature", Fail, "not a valid Sigstore bundle: %v", in.err)
		return nil
	}
	env := b.GetDsseEnvelope()
	if env == nil {
		r.add("statement", Fail, "the bundle holds no DSSE envelope")
		return nil
	}
	payload := env.GetPayload()
	st, report, stErr := readStatement(payload)
	if stErr == nil {
		r.startSchema(report)
	}
	var signed Signed
	if !opts.hasSigner() && !opts.InsecureIgnoreSigner {
		signed = Signed{Signature: Answer{"signature", Fail, noSigner}}
	} else {
		signed = checkSignature(b, opts)
	}
	r.Answers = append(r.Answers, signed.Signature)
	r.Failed = r.Failed || signed.Signature.Status == Fail
	r.signedAt, r.signedBy = signed.At, signed.By
	if env.GetPayloadType() != attest.PayloadType {
		r.add("statement", Fail, "payload type %q, not %q", env.GetPayloadType(), attest.PayloadType)
		return nil
	}
	if stErr != nil {
		r.add("statement", Fail, "not a valid in-toto Statement v1: %v", stErr)
		return nil
	}
	if st.PredicateType != attest.PredicateType {
		r.add("statement", Fail, "predicate type %q, not %q", st.PredicateType, attest.PredicateType)
		return nil
	}
	var head struct {
		Subject struct {
			Kind, Name string
			Digest     struct{ SHA256 string }
			Source     struct{ URI string }
		}
	}
	json.Unmarshal(report, &head)
	want := head.Subject.Kind + ":" + head.Subject.Name
	if len(st.Subject) != 1 || st.Subject[0].Name != want || st.Subject[0].Digest["sha256"] != head.Subject.Digest.SHA256 {
		r.add("statement", Fail, "the statement's subject does not match the report's subject %s (sha256 %s)", want, head.Subject.Digest.SHA256)
		return nil
	}
	r.add("statement", OK, "in-toto Statement v1 about %s, sha256 %s", want, head.Subject.Digest.SHA256)
	sum := sha256.Sum256(payload)
	r.subject, r.payloadSHA256, r.sourceURI = st.Subject[0], hex.EncodeToString(sum[:]), head.Subject.Source.URI
	if signed.Log != nil {
		r.Answers = append(r.Answers, *signed.Log)
		r.Failed = r.Failed || signed.Log.Status == Fail
	} else {
		r.add("transparency log", Warn, "no log entry: nothing shows when it was signed or that it was published")
	}
	return report
}

// checkReport answers schema, suite, score, subject digest and results,
// and returns the report (nil when it could not be read). The artifact's
// evaluation, the longest step, runs beside the schema validation.
func checkReport(ctx context.Context, r *Result, report []byte, opts Options) *attest.Report {
	var rep attest.Report
	if err := json.Unmarshal(report, &rep); err != nil {
		if serr := schemaValid(report); serr != nil {
			err = serr
		}
		r.add("schema", Fail, "%v", err)
		return nil
	}
	var again *attest.Report
	var evalErr error
	if opts.Artifact != "" {
		again, evalErr = rerun(ctx, &rep, opts.Artifact)
	}
	if err := <-r.schema; err != nil {
		r.add("schema", Fail, "%v", err)
		return nil
	}
	r.add("schema", OK, "valid against the report schema")
	checkSuite(r, &rep)
	checkScore(r, &rep)
	cs, csErr := defaultCatalogs()
	results := func(again *attest.Report) {
		if csErr != nil {
			r.add("results", Fail, "%v", csErr)
			return
		}
		checkResults(r, &rep, again, cs)
	}
	switch {
	case opts.Artifact == "":
		r.add("subject digest", Warn, "not checked: give the artifact (--artifact) to compare its tree with the signed digest")
		results(nil)
	case evalErr != nil:
		r.add("subject digest", Fail, "could not read the artifact: %v", evalErr)
	case again.Subject.Digest.SHA256 != rep.Subject.Digest.SHA256:
		r.add("subject digest", Fail, "the artifact's tree is sha256 %s; the report is about %s", again.Subject.Digest.SHA256, rep.Subject.Digest.SHA256)
	default:
		r.add("subject digest", OK, "the artifact's tree matches sha256 %s", rep.Subject.Digest.SHA256)
		checkName(r, &rep, again)
		results(again)
	}
	if r.signedAt.IsZero() {
		r.add("validity", Warn, "finished at %s by the report's own clock (self-asserted; a log entry or a signed timestamp would date it)", rep.FinishedAt)
	} else {
		r.add("validity", OK, "signed at %s (%s); the report says it finished at %s", r.signedAt.UTC().Format(time.RFC3339), r.signedBy, rep.FinishedAt)
	}
	return &rep
}

// checkName answers whether the signed subject name is the one the
// artifact declares: the same tree relabelled with another artifact's
// name would otherwise verify. A name taken from the directory the
// publisher evaluated cannot be checked, and is said to be so.
func checkName(r *Result, rep, again *attest.Report) {
	declared := again.Subject.DeclaredName
	switch {
	case declared == "":
		r.add("subject name", Warn, "the artifact declares no name; %q is the name of the directory it was evaluated in, which the tree does not record", rep.Subject.Name)
	case declared != rep.Subject.Name:
		r.add("subject name", Fail, "the artifact declares the name %q%s; the report names it %q", declared, inManifest(again), rep.Subject.Name)
	default:
		r.add("subject name", OK, "the artifact declares the name %q%s", declared, inManifest(again))
	}
}

func inManifest(rep *attest.Report) string {
	if rep.Subject.Manifest == "" {
		return ""
	}
	return " in " + rep.Subject.Manifest
}

// rerun evaluates the artifact as the report's run did: its kind, its
// policy (waivers and disabled checks), its start time.
func rerun(ctx context.Context, rep *attest.Report, artifact string) (*attest.Report, error) {
	cfg := policy.Config{MinScore: rep.Policy.MinScore, Disabled: rep.Policy.Disabled, Waivers: rep.Policy.Waivers}
	return attest.Evaluate(ctx, artifact, attest.Options{Kind: rep.Subject.Kind, Policy: cfg, Now: func() time.Time {
		t, _ := time.Parse(time.RFC3339Nano, rep.StartedAt)
		return t
	}})
}

// checkPolicy answers whether the report meets the consumer's policy.
func checkPolicy(r *Result, rep *attest.Report, opts Options) {
	p := opts.Policy
	if rep == nil {
		r.add("policy", Fail, "no readable report to hold to the policy")
		return
	}
	status := map[string]string{}
	for _, a := range r.Answers {
		status[a.Name] = a.Status
	}
	var bad []string
	confirmed := status["score"] == OK
	if p.MinOverall != nil {
		switch {
		case !confirmed:
			bad = append(bad, fmt.Sprintf("minOverall %.0f: the score is not confirmed", *p.MinOverall))
		case rep.Score.Overall == nil:
			bad = append(bad, fmt.Sprintf("minOverall %.0f: the report has no overall score", *p.MinOverall))
		case *rep.Score.Overall < *p.MinOverall:
			bad = append(bad, fmt.Sprintf("overall %.1f is under %g", *rep.Score.Overall, *p.MinOverall))
		}
	}
	for _, axis := range checks.Axes {
		min, ok := p.MinAxis[axis]
		if !ok {
			continue
		}
		a := rep.Score.Axes[axis]
		switch {
		case !confirmed:
			bad = append(bad, fmt.Sprintf("minAxis.%s %.0f: the score is not confirmed", axis, min))
		case a.Score == nil:
			bad = append(bad, fmt.Sprintf("%s was not measured (minimum %.0f)", axis, min))
		case *a.Score < min:
			bad = append(bad, fmt.Sprintf("%s %.1f is under %.0f", axis, *a.Score, min))
		}
	}
	switch {
	case !confirmed:
		bad = append(bad, "the verdict is not confirmed (see the score answer)")
	case rep.Score.Verdict != policy.VerdictPass:
		bad = append(bad, fmt.Sprintf("the verdict is %s (%s)", rep.Score.Verdict, policy.VerdictReason(rep.Score, rep.Results, rep.Policy.MinScore)))
	}
	bad = append(bad, blockingNotPassed(r, rep, opts)...)
	for _, id := range p.MustPass {
		found := false
		for _, res := range rep.Results {
			if res.Check != id {
				continue
			}
			found = true
			switch {
			case res.Waiver != nil:
				bad = append(bad, fmt.Sprintf("%s is waived, not passed", id))
			case res.Status != checks.Pass:
				bad = append(bad, fmt.Sprintf("%s is %s, must pass", id, res.Status))
			case slices.Contains(r.unconfirmed, id):
				bad = append(bad, fmt.Sprintf("%s is unconfirmed, not passed", id))
			}
		}
		if !found {
			bad = append(bad, fmt.Sprintf("%s has no result, must pass", id))
		}
	}
	if p.MaxAgeDays != nil {
		t, err := time.Parse(time.RFC3339Nano, rep.FinishedAt)
		clock := "by its own clock"
		if !r.signedAt.IsZero() {
			t, err, clock = r.signedAt, nil, "signed then, by "+r.signedBy
		}
		now := opts.Now
		if now.IsZero() {
			now = time.Now()
		}
		switch {
		case err != nil:
			bad = append(bad, "maxAgeDays: the report's finishedAt is unreadable")
		case now.Sub(t) > time.Duration(*p.MaxAgeDays*24*float64(time.Hour)):
			bad = append(bad, fmt.Sprintf("the report is %.0f days old (at most %.0f; %s)", now.Sub(t).Hours()/24, *p.MaxAgeDays, clock))
		}
	}
	if p.RequireLog && status["transparency log"] != OK {
		bad = append(bad, "a transparency log entry is required")
	}
	if len(p.AllowedSuites) > 0 && !slices.Contains(p.AllowedSuites, rep.Suite.ID) && !slices.Contains(p.AllowedSuites, rep.Suite.ID+"@"+rep.Suite.Version) {
		bad = append(bad, fmt.Sprintf("suite %s@%s is not allowed", rep.Suite.ID, rep.Suite.Version))
	}
	if len(p.AllowedFormulas) > 0 && !slices.Contains(p.AllowedFormulas, rep.Score.Formula) {
		bad = append(bad, fmt.Sprintf("formula %s is not allowed", rep.Score.Formula))
	}
	if (len(p.TrustedSigners) > 0 || len(p.TrustedIdentities) > 0) && status["signature"] != OK {
		bad = append(bad, "not signed by a trusted signer")
	}
	if len(bad) > 0 {
		r.add("policy", Fail, "%s", strings.Join(bad, "; "))
		return
	}
	r.add("policy", OK, "meets the policy")
}

// blockingNotPassed lists the blocking checks the report's verdict lets
// through that the policy does not count as passing: waived or disabled
// by the publisher, or, with the artifact given, not re-run by this
// verifier, unless the policy names them; and any unconfirmed result.
func blockingNotPassed(r *Result, rep *attest.Report, opts Options) []string {
	p := opts.Policy
	var bad []string
	for _, res := range rep.Results {
		if !res.Blocking {
			continue
		}
		id := res.Check
		switch {
		case slices.Contains(r.unconfirmed, id):
			bad = append(bad, fmt.Sprintf("%s is unconfirmed (see the results answer)", id))
		case res.Waiver != nil && !slices.Contains(p.AcceptWaived, id):
			bad = append(bad, fmt.Sprintf("%s is waived by the publisher (%q), which acceptWaived does not name", id, res.Waiver.Reason))
		case res.Status == checks.Skip && res.SkipReason == checks.SkipPolicy && !slices.Contains(p.AcceptDisabled, id):
			bad = append(bad, fmt.Sprintf("%s is disabled by the publisher, which acceptDisabled does not name", id))
		case opts.Artifact != "" && res.Status != checks.Fail && slices.Contains(r.notRerun, id) && !slices.Contains(p.AcceptNotRerun, id):
			bad = append(bad, fmt.Sprintf("%s was not re-run by this verifier (see the results answer), which acceptNotRerun does not name", id))
		}
	}
	return bad
}

// checkScore recomputes the score from the results with the pinned catalog.
func checkScore(r *Result, rep *attest.Report) {
	pinned, err := suite.Pinned()
	if err != nil {
		r.add("score", Fail, "%v", err)
		return
	}
	var unknown, altered []string
	for _, res := range rep.Results {
		e, ok := pinned.Entry(res.Check, res.Version)
		if !ok {
			unknown = append(unknown, res.Check+"@"+res.Version)
			continue
		}
		if e.Axis != res.Axis || e.Weight != res.Weight || e.Blocking != res.Blocking || e.Tier != res.Tier {
			altered = append(altered, fmt.Sprintf("%s@%s (the catalog says %s, weight %d, blocking %v, %s)", res.Check, res.Version, e.Axis, e.Weight, e.Blocking, e.Tier))
		}
	}
	if len(altered) > 0 {
		r.add("score", Fail, "results disagree with the pinned catalog: %s", strings.Join(altered, "; "))
		return
	}
	if len(unknown) > 0 {
		r.add("score", Fail, "check versions no suite release this verifier knows has shipped: %s%s", strings.Join(unknown, ", "), madeBy(rep))
		return
	}
	got, err := policy.Compute(rep.Results, pinned, rep.Policy.MinScore)
	if err != nil {
		r.add("score", Fail, "%v", err)
		return
	}
	if diff := compareScores(got, rep.Score); diff != "" {
		r.add("score", Fail, "the recomputed score differs: %s", diff)
		return
	}
	overall := "none"
	if got.Overall != nil {
		overall = fmt.Sprintf("%.1f", *got.Overall)
	}
	r.add("score", OK, "recomputed from %d results: overall %s, verdict %s", len(rep.Results), overall, got.Verdict)
}

func compareScores(a, b policy.Score) string {
	eq := func(x, y *float64) bool {
		return x == nil && y == nil || x != nil && y != nil && math.Abs(*x-*y) < 0.05
	}
	var d []string
	if a.Formula != b.Formula {
		d = append(d, fmt.Sprintf("formula %s, report says %s", a.Formula, b.Formula))
	}
	if !eq(a.Overall, b.Overall) {
		d = append(d, fmt.Sprintf("overall %s, report says %s", num(a.Overall), num(b.Overall)))
	}
	if a.Verdict != b.Verdict {
		d = append(d, fmt.Sprintf("verdict %s, report says %s", a.Verdict, b.Verdict))
	}
	for axis, x := range a.Axes {
		y := b.Axes[axis]
		if !eq(x.Score, y.Score) || math.Abs(x.Coverage-y.Coverage) > 0.005 {
			d = append(d, fmt.Sprintf("%s %s (coverage %.2f), report says %s (%.2f)", axis, num(x.Score), x.Coverage, num(y.Score), y.Coverage))
		}
	}
	if !slices.Equal(a.Blocking, b.Blocking) {
		d = append(d, fmt.Sprintf("blocking %v, report says %v", a.Blocking, b.Blocking))
	}
	slices.Sort(d)
	return strings.Join(d, "; ")
}

func num(f *float64) string {
	if f == nil {
		return "none"
	}
	return fmt.Sprintf("%.1f", *f)
}

// reportSchema is the report schema, resolved once. google/jsonschema-go
// is used here rather than the validator the tests use: its package
// initialisation is nearly free, and verify is a start-up-bound command.
// The schema comes as a Go literal (schema_gen.go, held to the file by a
// test): the library's reading of the JSON re-parses every nested schema
// and cost half of the 6 ms the schema took to resolve.
var reportSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	return reportSchemaLiteral().Resolve(nil)
})

// Warm prepares, in the background, what every verification reads and no
// input changes: the resolved report schema (5–7 ms in a fresh process,
// on the path of every answer that waits for the schema) and the pinned
// catalog and suite releases. A process that will verify calls it before
// it reads its input.
func Warm() {
	go reportSchema()
	go func() {
		suite.Releases()
		suite.Pinned()
	}()
}

func schemaValid(report []byte) error {
	// Decoded first, so a schema still resolving (Warm) is awaited
	// only after.
	var v any
	if err := json.Unmarshal(report, &v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	rs, err := reportSchema()
	if err != nil {
		return fmt.Errorf("the report schema: %w", err)
	}
	if err := rs.Validate(v); err != nil {
		return errors.New(strings.ReplaceAll(err.Error(), "\n", " "))
	}
	return nil
}

// checkSuite answers whether the report names a released suite with its
// true catalog digest, and carries exactly one result for every check
// that release runs on the artifact's kind.
func checkSuite(r *Result, rep *attest.Report) {
	rel, ok := suite.FindRelease(rep.Suite.ID, rep.Suite.Version)
	if !ok {
		r.add("suite", Fail, "%s@%s is not a suite release this verifier knows (it knows %s)%s", rep.Suite.ID, rep.Suite.Version, knownReleases(), madeBy(rep))
		return
	}
	entries, err := rel.Entries()
	if err != nil {
		r.add("suite", Fail, "%v", err)
		return
	}
	if d := checks.EntriesDigest(entries); d != rep.Suite.CatalogDigest {
		r.add("suite", Fail, "suite %s@%s has catalog digest %s; the report says %s", rel.ID, rel.Version, d, rep.Suite.CatalogDigest)
		return
	}
	want := map[string]int{}
	for _, e := range entries {
		if slices.Contains(e.Kinds, string(rep.Subject.Kind)) {
			want[e.ID+"@"+e.Version] = 0
		}
	}
	var extra, twice, missing []string
	for _, res := range rep.Results {
		k := res.Check + "@" + res.Version
		n, ok := want[k]
		switch {
		case !ok:
			extra = append(extra, k)
		case n > 0:
			twice = append(twice, k)
		}
		want[k] = n + 1
	}
	for k, n := range want {
		if n == 0 {
			missing = append(missing, k)
		}
	}
	slices.Sort(missing)
	var bad []string
	if len(missing) > 0 {
		bad = append(bad, "missing "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		bad = append(bad, "not in the suite for a "+string(rep.Subject.Kind)+": "+strings.Join(extra, ", "))
	}
	if len(twice) > 0 {
		bad = append(bad, "more than once: "+strings.Join(twice, ", "))
	}
	if len(bad) > 0 {
		r.add("suite", Fail, "the results are not those suite %s@%s runs on a %s: %s", rel.ID, rel.Version, rep.Subject.Kind, strings.Join(bad, "; "))
		return
	}
	r.add("suite", OK, "%s@%s: every check it runs on a %s reported once", rel.ID, rel.Version, rep.Subject.Kind)
}

// knownReleases lists the suite releases this build can check.
func knownReleases() string {
	rs, err := suite.Releases()
	if err != nil || len(rs) == 0 {
		return "none"
	}
	var names []string
	for _, r := range rs {
		names = append(names, r.ID+"@"+r.Version)
	}
	return strings.Join(names, ", ")
}

// madeBy names the attest the report says made it: the version that
// knows what this verifier does not, when the report is honest about it.
func madeBy(rep *attest.Report) string {
	if rep.Tool.Version == "" {
		return ""
	}
	return fmt.Sprintf("; the report says %s %s made it, so verify it with that version or a later one", rep.Tool.Name, rep.Tool.Version)
}
