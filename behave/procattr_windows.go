package behave

import "syscall"

// sandboxProcAttr has nothing to set on Windows, where no sandbox of
// attest's runs; the build still links the command.
func sandboxProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
