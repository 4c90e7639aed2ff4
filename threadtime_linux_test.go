package canon

import (
	"syscall"
	"time"
	"unsafe"
)

// threadTime returns the CPU time the calling thread has used, which a
// loaded machine does not inflate the way it does wall time: while
// other processes have the CPU, the thread's clock stands still. The
// caller must hold its thread (runtime.LockOSThread) between two calls.
// It reads CLOCK_THREAD_CPUTIME_ID (clock_gettime(2)), precise to the
// nanosecond, where getrusage(RUSAGE_THREAD) counts in scheduler ticks.
func threadTime() time.Duration {
	const clockThreadCPUTimeID = 3 // CLOCK_THREAD_CPUTIME_ID, linux/time.h
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic("clock_gettime(CLOCK_THREAD_CPUTIME_ID): " + errno.Error())
	}
	return time.Duration(ts.Nano())
}

const threadTimeIsCPU = true
