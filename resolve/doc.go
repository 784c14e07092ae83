// Package resolve turns a target string into a pinned, read-only snapshot of
// an artifact: it parses the target, opens the tree, takes its inventory
// (every file with mode, size and sha256; every symlink with its target;
// every path left out, with the reason), computes the tree digest of
// docs/DIGEST.md, detects the artifact's kind and parses its manifests.
//
// It never executes anything from the artifact and never follows a symlink:
// every read goes through the artifact root's descriptor, one component at
// a time with O_NOFOLLOW, opens regular files only and never blocks on
// one, and content is read once, during the inventory, so every check sees
// exactly the bytes that were digested.
package resolve
