package ciconfigured

import (
	"context"
	"strings"

	"github.com/metahub-ai/attest/checks"
	"github.com/metahub-ai/attest/resolve"
)

// Check is ci-configured.
var Check = &checks.Check{
	ID:          "ci-configured",
	Version:     "1.0.0",
	Title:       "Continuous integration is configured",
	Axis:        checks.Care,
	Weight:      0,
	Tier:        checks.Deterministic,
	Kinds:       resolve.Kinds,
	Doc:         Doc,
	Remediation: Remediation,
	Run:         run,
}

var systems = []struct{ prefix, name string }{
	{".github/workflows/", "GitHub Actions"}, {".gitlab-ci.yml", "GitLab CI"}, {".circleci/", "CircleCI"},
	{".travis.yml", "Travis CI"}, {"azure-pipelines.yml", "Azure Pipelines"}, {"Jenkinsfile", "Jenkins"},
	{".buildkite/", "Buildkite"}, {".woodpecker", "Woodpecker"}, {"bitbucket-pipelines.yml", "Bitbucket Pipelines"},
}

func run(_ context.Context, in *checks.Input) (checks.Result, error) {
	var found []string
	seen := map[string]bool{}
	for i := range in.Subject.Inventory.Files {
		p := in.Subject.Inventory.Files[i].Path
		for _, s := range systems {
			if strings.HasPrefix(p, s.prefix) && !seen[s.name] {
				seen[s.name] = true
				found = append(found, s.name+" ("+p+")")
			}
		}
	}
	if len(found) == 0 {
		return checks.NotApplicable("no CI configuration in the artifact (information only)"), nil
	}
	return checks.Passed(strings.Join(found, ", ")), nil
}
