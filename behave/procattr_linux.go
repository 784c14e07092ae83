package behave

import (
	"os"
	"syscall"
)

// sandboxProcAttr puts the sandbox in its own process group, so everything
// it starts outside the sandbox's namespace is killed with it, and has the
// kernel kill it when attest dies.
func sandboxProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the sandbox's process group.
func killGroup(p *os.Process) { syscall.Kill(-p.Pid, syscall.SIGKILL) }

// limitSignal names the limit a signal reports: the kernel sends SIGXFSZ
// past the file-size limit and SIGXCPU past the CPU limit.
func limitSignal(sig int) string {
	switch syscall.Signal(sig) {
	case syscall.SIGXFSZ:
		return HitFileSize
	case syscall.SIGXCPU:
		return HitCPU
	}
	return ""
}
