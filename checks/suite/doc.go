// Package suite is the default check suite, attest-default: the explicit,
// sorted list of every check (all.go), the pinned catalog of every check
// version the suite has shipped (pinned.json), and the registry test that
// runs every check's fixtures.
//
// It is a package of its own because each check's package imports checks
// for the Check type, so the list cannot live in checks itself.
package suite
