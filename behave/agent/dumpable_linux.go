package agent

import "syscall"

// undumpable sets PR_SET_DUMPABLE 0: /proc/<agent>/fd is then closed to
// the artifact, which runs as the same user.
func undumpable() { syscall.RawSyscall(syscall.SYS_PRCTL, 4, 0, 0) }
