// Package checks is the check framework: the Check type, the catalog and
// its validation, the capability grants, and the runner that evaluates a
// subject's checks in parallel, each bounded in time. The default suite
// lives in checks/suite, one directory per check under checks/<id>.
//
// A check never prints, never reads the environment, and reads the clock or
// the network only when it declared that capability and was granted it. A
// finding is never an error: Run returns an error only when the tool itself
// failed, and the runner records that as status "error", which never counts
// against the artifact.
package checks
