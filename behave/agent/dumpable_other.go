//go:build !linux

package agent

// undumpable does nothing off Linux: the agent runs only inside a Linux
// sandbox, but the binary that holds it builds everywhere.
func undumpable() {}
