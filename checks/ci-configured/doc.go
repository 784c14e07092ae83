// Package ciconfigured implements the ci-configured check.
package ciconfigured

// Doc is the check's documentation.
const Doc = `Notes the continuous-integration systems configured in the artifact:
GitHub Actions workflows, GitLab CI, CircleCI, Travis CI, Azure Pipelines,
Jenkins, Buildkite, Woodpecker, Bitbucket Pipelines. It is information
only (weight 0): it passes when one is configured and is not applicable
otherwise, never warns; a member of a larger repository usually has its CI
at the repository root.`

// Remediation says how to fix a finding.
const Remediation = `Run the tests on every change in CI.`
