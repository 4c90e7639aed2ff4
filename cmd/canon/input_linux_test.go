//go:build linux

package main

import (
	"os"
	"syscall"
)

// pipeSize returns the buffer size of the pipe f.
func pipeSize(f *os.File) int {
	n, _, _ := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_GETPIPE_SZ, 0)
	return int(n)
}
