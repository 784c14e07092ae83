package behave

import (
	"os"
	"syscall"
)

// sandboxProcAttr has nothing to set on Windows, where no sandbox of
// attest's runs; the build still links the command.
func sandboxProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

// killGroup kills the process; no sandbox of attest's runs on Windows.
func killGroup(p *os.Process) { p.Kill() }

// limitSignal: Windows has no limit signals.
func limitSignal(int) string { return "" }
