//go:build unix && !linux

package behave

import "syscall"

// sandboxProcAttr puts the sandbox in its own process group. Only Linux
// can have the kernel kill it with attest; bubblewrap runs only there.
func sandboxProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
