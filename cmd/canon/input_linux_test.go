//go:build linux

package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/seed15588f71/canon"
)

// pipeSize returns the buffer size of the pipe f.
func pipeSize(f *os.File) int {
	n, _, _ := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_GETPIPE_SZ, 0)
	return int(n)
}

// mappingRSS returns the resident size, in KiB, of the mapping that holds
// b, from /proc/self/smaps.
func mappingRSS(t *testing.T, b []byte) int {
	addr := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inside := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line)[0], "-"); ok {
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				inside = l <= addr && addr < h
				continue
			}
		}
		if inside && strings.HasPrefix(line, "Rss:") {
			kb, _ := strconv.Atoi(strings.Fields(line)[1])
			return kb
		}
	}
	t.Fatal("no mapping holds the input in /proc/self/smaps")
	return 0
}

// TestMappedLongLineMemory checks that readMapped does not keep a line
// far longer than MaxLength resident: it gives back its pages as it
// searches them, so that after a 100 MiB line the mapping holds about a
// batch.
func TestMappedLongLineMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("http://a/\n")
	for i := 0; i < 100; i++ {
		w.WriteString(strings.Repeat("x", 1<<20))
	}
	w.WriteString("\nhttp://b/\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if f, err = os.Open(path); err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := prepareInput(f)
	if m == nil {
		t.Fatal("prepareInput did not map a regular file")
	}
	defer m.close()
	var long int
	readMapped(m, canon.MaxLength+1, func() *batch { return new(batch) }, func(b *batch) {
		if b.long {
			long++
		}
	})
	if rss := mappingRSS(t, m.data); long != 1 || rss > 2<<10 {
		t.Errorf("after a 100 MiB line: %d long batches, %d KiB of the mapping resident; want 1 and under 2 MiB", long, rss)
	}
}
