package agent

import (
	"os"
	"os/exec"
	"syscall"
)

// The agent runs only inside a Linux sandbox; on Windows the binary that
// holds it builds, and these do the least that compiles.

func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

func killGroup(p *os.Process) { p.Kill() }

func command(argv []string) *exec.Cmd { return exec.Command(argv[0], argv[1:]...) }
