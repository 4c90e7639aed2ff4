//go:build linux

package main

import (
	"io"
	"os"
	"syscall"
)

// prepareInput readies the input file f for reading. A regular file is
// mapped, from its current offset on, into memory, so that the workers
// read the input in place: no copy into buffers, and no bytes that one
// core copied and another reads. A pipe gets a larger buffer (growPipe).
// It returns the mapping, or nil when the command is to read f.
func prepareInput(f *os.File) *mappedInput {
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil
	case fi.Mode()&os.ModeNamedPipe != 0:
		growPipe(f)
		return nil
	case !fi.Mode().IsRegular() || fi.Size() <= 0 || int64(int(fi.Size())) != fi.Size():
		return nil
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil || off >= fi.Size() {
		return nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	_ = syscall.Madvise(data, syscall.MADV_SEQUENTIAL) // a hint: read ahead
	return &mappedInput{f: f, data: data, start: int(off)}
}

// A mappedInput is a file mapped from offset 0 (so that data is page
// aligned); the input is data[start:].
type mappedInput struct {
	f        *os.File
	data     []byte
	start    int
	released int // data[:released] has been given back
}

// releaseBytes is how much release gives back at once: each madvise
// interrupts the other cores to flush their TLBs, so it is called once
// per 16 batches rather than once per batch.
const releaseBytes = 4 << 20

// release gives back the pages of data[:end], which the command is done
// with, so that its resident memory stays bounded however large the file
// is. The pages stay in the page cache: touching one again only maps it
// again, so releasing early is never wrong, only slower.
func (m *mappedInput) release(end int) {
	end &^= os.Getpagesize() - 1
	if end-m.released >= releaseBytes {
		_ = syscall.Madvise(m.data[m.released:end], syscall.MADV_DONTNEED)
		m.released = end
	}
}

// drop gives back the pages of data[from:to] but a partial last one: the
// middle of a line too long to keep, which only the reader looks at. (The
// first page may hold lines before it; they are mapped again if needed.)
func (m *mappedInput) drop(from, to int) {
	page := os.Getpagesize()
	from &^= page - 1
	to &^= page - 1
	if from < to {
		_ = syscall.Madvise(m.data[from:to], syscall.MADV_DONTNEED)
	}
}

// close unmaps the file and leaves its offset at its end, as reading it
// would have.
func (m *mappedInput) close() {
	_ = syscall.Munmap(m.data)
	_, _ = m.f.Seek(int64(len(m.data)), io.SeekStart)
}

// pipeBytes is the pipe buffer growPipe asks for: 1 MiB, the most an
// unprivileged process gets by default (/proc/sys/fs/pipe-max-size).
const pipeBytes = 1 << 20

// growPipe asks the kernel for a buffer of pipeBytes for the pipe f,
// instead of the default 64 KiB: "zcat links.gz | canon" then makes a
// sixteenth of the reads and wakes a sixteenth as often, which cut the
// command's CPU time by a seventh. It is a hint; a refusal changes nothing.
func growPipe(f *os.File) {
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_SETPIPE_SZ, pipeBytes)
}
