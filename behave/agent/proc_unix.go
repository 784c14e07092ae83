//go:build unix

package agent

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// groupAttr starts a command in a process group of its own.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills a command's process group.
func killGroup(p *os.Process) { syscall.Kill(-p.Pid, syscall.SIGKILL) }

// rlimitNproc is RLIMIT_NPROC on Linux.
const rlimitNproc = 6

// command runs argv under a process limit below the agent's own: the
// kernel counts processes (and threads) per user, and the agent, the same
// user, must still be able to start a thread and answer after the
// artifact has used up what it may have.
func command(argv []string) *exec.Cmd {
	var rl syscall.Rlimit
	prlimit, err := exec.LookPath("prlimit")
	if err != nil || syscall.Getrlimit(rlimitNproc, &rl) != nil || rl.Cur == 0 || rl.Cur > 1<<20 {
		return exec.Command(argv[0], argv[1:]...)
	}
	threads := 8
	if ents, err := os.ReadDir("/proc/self/task"); err == nil {
		threads = len(ents)
	}
	reserve := uint64(threads + 16)
	if rl.Cur <= reserve+4 {
		return exec.Command(argv[0], argv[1:]...)
	}
	return exec.Command(prlimit, append([]string{fmt.Sprintf("--nproc=%d", rl.Cur-reserve), "--"}, argv...)...)
}
