//go:build !linux

package canon

import "time"

var threadTimeStart = time.Now()

// threadTime returns wall time where the thread's CPU clock is not read
// (see threadtime_linux_test.go): the tests that use it then depend on
// taking the fastest of several runs to see through the machine's load.
func threadTime() time.Duration { return time.Since(threadTimeStart) }

const threadTimeIsCPU = false
