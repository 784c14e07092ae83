// Package policy turns check outcomes into a verdict: it applies a
// configuration (disabled checks, waivers, a minimum score), scores the
// results with a versioned formula, and decides the verdict. Applying and
// scoring are pure: no I/O, no clock (the caller passes the time a
// waiver's expiry is judged against). The only I/O is reading the policy
// files themselves: a run's attest.json and a consumer's install policy.
package policy
