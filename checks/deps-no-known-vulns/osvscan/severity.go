package osvscan

import (
	"math"
	"slices"
	"strings"

	"github.com/ossf/osv-schema/bindings/go/osvschema"
	cvss20 "github.com/pandatix/go-cvss/20"
	cvss30 "github.com/pandatix/go-cvss/30"
	cvss31 "github.com/pandatix/go-cvss/31"
	cvss40 "github.com/pandatix/go-cvss/40"
)

// describe reads an advisory for one package: the worst CVSS base score
// computed from its vectors, else the database's own rating.
func describe(id string, pkg int, v *osvschema.Vulnerability, p Package) Vuln {
	out := Vuln{ID: id, Package: pkg, Severity: "UNKNOWN", Malware: strings.HasPrefix(id, "MAL-")}
	if v == nil {
		if out.Malware {
			out.Severity = "CRITICAL"
		}
		return out
	}
	out.Aliases, out.Summary = v.GetAliases(), v.GetSummary()
	sevs := slices.Clone(v.GetSeverity())
	label := ""
	for _, a := range v.GetAffected() {
		if !strings.EqualFold(a.GetPackage().GetName(), p.Name) {
			continue
		}
		sevs = append(sevs, a.GetSeverity()...)
		for _, r := range a.GetRanges() {
			for _, e := range r.GetEvents() {
				if f := e.GetFixed(); f != "" && !slices.Contains(out.Fixed, f) {
					out.Fixed = append(out.Fixed, f)
				}
			}
		}
		if s := a.GetDatabaseSpecific().GetFields()["severity"].GetStringValue(); s != "" {
			label = s
		}
	}
	if s := v.GetDatabaseSpecific().GetFields()["severity"].GetStringValue(); s != "" {
		label = s
	}
	for _, s := range sevs {
		if score, ok := Score(s.GetScore()); ok && score > out.Score {
			out.Score, out.Vector = score, s.GetScore()
		}
	}
	switch {
	case out.Malware:
		out.Severity = "CRITICAL"
	case out.Vector != "":
		out.Severity = Rating(out.Score)
	case label != "":
		switch l := strings.ToUpper(label); l {
		case "CRITICAL", "HIGH", "LOW":
			out.Severity = l
		case "MODERATE", "MEDIUM":
			out.Severity = "MODERATE"
		}
	}
	return out
}

// scorers compute a base score per CVSS version, by vector prefix.
var scorers = []struct {
	prefix string
	score  func(string) (float64, error)
}{
	{"CVSS:4.0/", func(v string) (float64, error) {
		c, err := cvss40.ParseVector(v)
		return score(c, err, (*cvss40.CVSS40).Score)
	}},
	{"CVSS:3.1/", func(v string) (float64, error) {
		c, err := cvss31.ParseVector(v)
		return score(c, err, (*cvss31.CVSS31).BaseScore)
	}},
	{"CVSS:3.0/", func(v string) (float64, error) {
		c, err := cvss30.ParseVector(v)
		return score(c, err, (*cvss30.CVSS30).BaseScore)
	}},
	{"AV:", func(v string) (float64, error) {
		c, err := cvss20.ParseVector(v)
		return score(c, err, (*cvss20.CVSS20).BaseScore)
	}},
}

func score[T any](c *T, err error, f func(*T) float64) (float64, error) {
	if err != nil {
		return 0, err
	}
	return f(c), nil
}

// Score computes a CVSS base score from a vector string (v2, v3.0, v3.1
// or v4.0); a bare number is not a vector and is not trusted.
func Score(vector string) (float64, bool) {
	for _, s := range scorers {
		if strings.HasPrefix(vector, s.prefix) {
			v, err := s.score(vector)
			if err != nil {
				return 0, false
			}
			return math.Round(v*10) / 10, true
		}
	}
	return 0, false
}

// Rating maps a base score to the CVSS qualitative scale.
func Rating(score float64) string {
	switch {
	case score >= 9:
		return "CRITICAL"
	case score >= 7:
		return "HIGH"
	case score >= 4:
		return "MODERATE"
	case score > 0:
		return "LOW"
	}
	return "UNKNOWN"
}
