//go:build !linux

package main

import "os"

// prepareInput maps files and grows pipes on Linux only, where syscall
// has madvise, which keeps the resident memory bounded; elsewhere the
// command reads its input as it is.
func prepareInput(*os.File) *mappedInput { return nil }

type mappedInput struct {
	data  []byte
	start int
}

func (m *mappedInput) release(int)   {}
func (m *mappedInput) drop(int, int) {}
func (m *mappedInput) close()        {}
