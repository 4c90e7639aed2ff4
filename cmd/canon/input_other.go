//go:build !linux

package main

import "os"

// mapInput maps files on Linux only, where syscall has madvise, which
// keeps the resident memory bounded; elsewhere the command reads them.
func mapInput(*os.File) *mappedInput { return nil }

type mappedInput struct {
	data  []byte
	start int
}

// growPipe leaves pipes as they are outside Linux.
func growPipe(*os.File) {}

func (m *mappedInput) release(int)   {}
func (m *mappedInput) drop(int, int) {}
func (m *mappedInput) close()        {}
