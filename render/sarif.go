package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/metahub-ai/attest/attest"
	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/checks/suite"
	"github.com/metahub-ai/attest/policy"
)

// InformationURI is where attest's checks are documented.
const InformationURI = "https://github.com/metahub-ai/attest"

// maxSARIFLocations bounds the results one finding becomes (one per file
// location, so code scanning shows each where it is).
const maxSARIFLocations = 100

// SourceRoot is the uriBaseId of every location: the directory attest ran
// in, the repository root in CI.
const SourceRoot = "%SRCROOT%"

// renderSARIF writes SARIF 2.1.0 through go-sarif, as GitHub code scanning
// takes it: one rule per check of the report, with its documentation as
// help, tags and, for safety checks, a security-severity; one result per
// file location of each fail, warn or error, each with a location (the
// file concerned, else the artifact's manifest) relative to the
// repository root and a partial fingerprint (a waived finding carries an
// external suppression with its reason).
func renderSARIF(w io.Writer, r *attest.Report) error {
	rep, err := sarif.New(sarif.Version210)
	if err != nil {
		return err
	}
	run := sarif.NewRunWithInformationURI(attest.ToolName, InformationURI)
	run.Tool.Driver.WithVersion(r.Tool.Version)
	run.OriginalUriBaseIDs = map[string]*sarif.ArtifactLocation{
		SourceRoot: sarif.NewArtifactLocation().WithDescriptionText("The directory attest ran in (the repository root in CI); every location is relative to it."),
	}
	base := sarifBase(r)
	fallback := r.Subject.Manifest
	docs := map[string]*checks.Check{}
	if cat, err := suite.Default(); err == nil {
		for _, c := range cat.Checks() {
			docs[c.ID+"@"+c.Version] = c
		}
	}
	for _, res := range r.Results {
		run.AddRule(res.Check).
			WithName(ruleName(res.Check)).
			WithShortDescription(sarif.NewMultiformatMessageString(ruleTitle(res, docs))).
			WithFullDescription(sarif.NewMultiformatMessageString(ruleDoc(res, docs))).
			WithHelpURI(InformationURI + "/blob/main/docs/CHECKS.md#" + res.Check).
			WithHelp(sarif.NewMultiformatMessageString(ruleHelp(res, docs)).WithMarkdown(ruleHelp(res, docs))).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(ruleLevel(res))).
			WithProperties(ruleProperties(res))
	}
	for _, res := range r.Results {
		level := resultLevel(res.Status)
		if level == "" {
			continue
		}
		msg := res.Summary
		if res.Status == checks.Error {
			msg = "the check could not run (this counts against nothing): " + msg
		}
		var files []checks.Evidence
		for _, e := range res.Evidence {
			if e.Type == checks.EvidenceFile && e.Path != "" && e.Path != "." {
				files = append(files, e)
			}
		}
		if len(files) > maxSARIFLocations {
			files = files[:maxSARIFLocations]
		}
		add := func(e *checks.Evidence) {
			text := msg
			if e != nil && e.Message != "" {
				text = e.Message
			}
			out := sarif.NewRuleResult(res.Check).WithLevel(level).WithMessage(sarif.NewTextMessage(text))
			file, line, col := fallback, 0, 0
			if e != nil {
				file, line, col = e.Path, e.Line, e.Column
			}
			uri := locationURI(base, file)
			loc := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(uri).WithUriBaseId(SourceRoot))
			region := sarif.NewRegion().WithStartLine(max(line, 1))
			if line > 0 && col > 0 {
				region.WithStartColumn(col)
			}
			loc.WithRegion(region)
			out.AddLocation(sarif.NewLocationWithPhysicalLocation(loc))
			out.WithPartialFingerPrints(map[string]interface{}{FingerprintKey: fingerprint(res.Check, uri, text)})
			if res.Waiver != nil {
				// go-sarif v2 writes unset suppression fields as null, which
				// the schema refuses: every field is set.
				sup := sarif.NewSuppression("external").WithStatus("accepted").WithJustifcation(res.Waiver.Reason).
					WithGuid(waiverGUID(res.Check, res.Waiver.Reason)).WithLocation(sarif.NewLocation())
				if len(out.Locations) > 0 {
					sup.WithLocation(out.Locations[0])
				}
				out.AddSuppression(sup)
			}
			run.AddResult(out)
		}
		if len(files) == 0 {
			add(nil)
		}
		for i := range files {
			add(&files[i])
		}
	}
	run.Properties = sarif.Properties{
		"subject":       fmt.Sprintf("%s:%s", r.Subject.Kind, r.Subject.Name),
		"subjectSha256": r.Subject.Digest.SHA256,
		"suite":         r.Suite.ID + "@" + r.Suite.Version,
		"verdict":       r.Score.Verdict,
	}
	if r.Score.Overall != nil {
		run.Properties["overallScore"] = *r.Score.Overall
	}
	rep.AddRun(run)
	return rep.PrettyWrite(w)
}

// FingerprintKey names attest's partial fingerprint: the check, the file
// and what was found there, not the line, so a finding keeps its alert
// when lines move above it.
const FingerprintKey = "attestFinding/v1"

func fingerprint(check, uri, message string) string {
	sum := sha256.Sum256([]byte(check + "\x00" + uri + "\x00" + message))
	return hex.EncodeToString(sum[:16])
}

// sarifBase is the artifact's directory relative to the repository root:
// a local directory as typed when it is relative and inside the working
// directory, the path inside the repository of a git target; "" when
// locations are relative to the artifact's root.
func sarifBase(r *attest.Report) string {
	src := r.Subject.Source
	switch src.Type {
	case "dir":
		p := path.Clean(strings.ReplaceAll(src.URI, "\\", "/"))
		if p == "." || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
			return ""
		}
		return p
	case "git", "registry":
		if src.Path != nil && *src.Path != "" {
			return path.Clean(*src.Path)
		}
	}
	return ""
}

// locationURI is file (relative to the artifact's root) under base, as a
// URI reference; the artifact's directory itself when there is no file.
func locationURI(base, file string) string {
	p := path.Join(base, file)
	if p == "" || p == "." {
		return "."
	}
	return uriPath(p)
}

// waiverGUID is a stable GUID for a waiver (a name-based UUID, RFC 9562
// version 8, from its check and reason), so a re-rendered report keeps it.
func waiverGUID(check, reason string) string {
	sum := sha256.Sum256([]byte(check + "\x00" + reason))
	sum[6] = sum[6]&0x0f | 0x80
	sum[8] = sum[8]&0x3f | 0x80
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// uriPath escapes a relative artifact path as a URI reference.
func uriPath(p string) string {
	parts := strings.Split(path.Clean(p), "/")
	for i, s := range parts {
		parts[i] = uriSegment(s)
	}
	return strings.Join(parts, "/")
}

func uriSegment(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=:@", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func resultLevel(s checks.Status) string {
	switch s {
	case checks.Fail:
		return "error"
	case checks.Warn:
		return "warning"
	case checks.Error:
		return "note"
	}
	return ""
}

func ruleLevel(res policy.Result) string {
	if res.Blocking {
		return "error"
	}
	return "warning"
}

// ruleName is the check id in PascalCase, as SARIF rule names are.
func ruleName(id string) string {
	var b strings.Builder
	for _, w := range strings.Split(id, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

func ruleTitle(res policy.Result, docs map[string]*checks.Check) string {
	if c, ok := docs[res.Check+"@"+res.Version]; ok && c.Title != "" {
		return c.Title
	}
	return res.Check
}

func ruleDoc(res policy.Result, docs map[string]*checks.Check) string {
	if c, ok := docs[res.Check+"@"+res.Version]; ok && c.Doc != "" {
		return c.Doc
	}
	return ruleTitle(res, docs)
}

func ruleHelp(res policy.Result, docs map[string]*checks.Check) string {
	doc := ruleDoc(res, docs)
	rem := res.Remediation
	if c, ok := docs[res.Check+"@"+res.Version]; ok && c.Remediation != "" {
		rem = c.Remediation
	}
	if rem == "" {
		return doc
	}
	return doc + "\n\nHow to fix: " + rem
}

// ruleProperties tag the rule with its axis and weight; safety rules get
// the security-severity GitHub code scanning ranks alerts by (blocking
// checks critical, the heaviest high, the rest medium).
func ruleProperties(res policy.Result) sarif.Properties {
	p := sarif.Properties{"axis": string(res.Axis), "weight": res.Weight, "blocking": res.Blocking,
		"tags": []string{string(res.Axis), "attest"}}
	if res.Axis == checks.Safety {
		sev := "5.0"
		switch {
		case res.Blocking:
			sev = "9.0"
		case res.Weight >= 3:
			sev = "7.0"
		}
		p["security-severity"] = sev
		p["tags"] = []string{"security", string(res.Axis), "attest"}
	}
	return p
}
