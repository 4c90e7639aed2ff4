package main

import (
	"sync"
	"unsafe"
)

// A window bounds the batches in flight, from the reader's send to the
// end of the writer's write, by their number and by their bytes, so that
// memory does not grow with -j: a batch's output may be many times its
// input (a jsonl record writes a byte of invalid UTF-8 as six, a failing
// line of two bytes as a record of a hundred and its message), and a few
// lines of 4 MiB are as many bytes as thousands of batches of URLs.
//
// A batch weighs what it may hold once normalized (batchWeight, an upper
// bound of the usual cases) from the moment it is sent, and what it
// holds (footprint) from the moment it is normalized, until it is
// written. The reader sends a batch when the window has room for its
// weight, or when the window is empty: a batch heavier than the budget
// (one line of 4 MiB) goes alone. The budget is windowBytes, whatever
// -j, and workerBytes more per worker (a batch of ordinary lines, so
// that every worker has one): lines of 4 MiB are normalized one or two
// at a time, and ordinary ones on every worker.
type window struct {
	mu       sync.Mutex
	room     sync.Cond // signalled when batches leave or get lighter
	n, maxN  int       // batches in flight, and the most
	bytes    int       // their weight
	maxBytes int
	peak     int // the most bytes in flight (the tests read it)
}

const (
	// weightPerByte and weightPerLine bound what a batch holds once
	// normalized besides its input buffer, per byte of input and per
	// line: its output (six bytes for one of invalid UTF-8 in a jsonl
	// string) with room to grow; a failing line's message and jsonl
	// record, which a line of any length has.
	weightPerByte = 8
	weightPerLine = 256
	// maxBatchLines bounds a batch's lines, so that a batch of short
	// lines that all fail weighs about as much as one of ordinary URLs.
	maxBatchLines = 1024
	// windowBytes is the budget of the batches in flight whatever -j;
	// workerBytes more per worker is the weight of a batch of ordinary
	// lines (batchBytes of input, maxBatchLines lines).
	windowBytes = 32 << 20
	workerBytes = (1+weightPerByte)*batchBytes + weightPerLine*maxBatchLines
)

func newWindow(workers int) *window {
	w := &window{maxN: 4 * workers, maxBytes: windowBytes + workers*workerBytes}
	w.room.L = &w.mu
	return w
}

// windowHook, when set, is given the window of each run of
// processParallel: a test reads its peak.
var windowHook func(*window)

// batchWeight is the weight of b as the reader sends it: what it may
// hold once normalized.
func batchWeight(b *batch) int {
	return b.inputBytes() + weightPerByte*len(b.data) + weightPerLine*(b.ends+1)
}

// inputBytes is the memory that holds b's input: its buffer, or the
// pages of the mapping it points into, until the writer releases them.
func (b *batch) inputBytes() int {
	if b.mapEnd > 0 {
		return len(b.data)
	}
	return cap(b.data)
}

// footprint is what b holds once normalized: its buffers and the text of
// its errors and -u keys.
func (b *batch) footprint() int {
	n := cap(b.out) + cap(b.errAt)*int(unsafe.Sizeof(0)) + cap(b.nums)*int(unsafe.Sizeof(lineRef{})) +
		cap(b.errs)*int(unsafe.Sizeof(lineError{})) + (cap(b.lines)+cap(b.keys))*int(unsafe.Sizeof(""))
	n += b.inputBytes()
	for _, e := range b.errs {
		n += len(e.msg)
	}
	for _, k := range b.keys {
		n += len(k)
	}
	return n
}

// acquire waits until the window has room for b, and takes it.
func (w *window) acquire(b *batch) {
	b.weight = batchWeight(b)
	w.mu.Lock()
	for w.n > 0 && (w.n >= w.maxN || w.bytes+b.weight > w.maxBytes) {
		w.room.Wait()
	}
	w.n++
	w.add(b.weight)
	w.mu.Unlock()
}

// reweigh sets the weight of b, just normalized, to what it holds.
func (w *window) reweigh(b *batch) {
	f := b.footprint()
	w.mu.Lock()
	w.add(f - b.weight)
	w.mu.Unlock()
	if f < b.weight {
		w.room.Signal()
	}
	b.weight = f
}

// release gives back the room of a batch of the given weight, written.
func (w *window) release(weight int) {
	w.mu.Lock()
	w.n--
	w.add(-weight)
	w.mu.Unlock()
	w.room.Signal() // (only the reader waits)
}

func (w *window) add(d int) {
	w.bytes += d
	w.peak = max(w.peak, w.bytes)
}
