// Package policy turns check outcomes into a verdict: it applies a
// configuration (disabled checks, waivers, a minimum score), scores the
// results with a versioned formula, and decides the verdict. Every function
// here is pure: no I/O, no clock (the caller passes the time a waiver's
// expiry is judged against).
package policy
