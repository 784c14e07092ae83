package behave

import "syscall"

// sandboxProcAttr puts the sandbox in its own process group, so everything
// it starts outside the sandbox's namespace is killed with it, and has the
// kernel kill it when attest dies.
func sandboxProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
