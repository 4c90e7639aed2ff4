package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// TestWindowAdmission checks the window's rules on batches of known
// weights: the budget does not depend on -j but for workerBytes a
// worker; a batch heavier than the budget goes into an empty window and
// alone; the number of batches is bounded too; a batch that weighs less
// once normalized, or one written, lets the reader send the next.
func TestWindowAdmission(t *testing.T) {
	for _, j := range []int{1, 2, 8, 32} {
		if w := newWindow(j); w.maxBytes != windowBytes+j*workerBytes || w.maxN != 4*j {
			t.Errorf("newWindow(%d): %d bytes, %d batches; want %d, %d", j, w.maxBytes, w.maxN, windowBytes+j*workerBytes, 4*j)
		}
	}
	w := newWindow(2)
	sized := func(n, ends int) *batch { return &batch{data: make([]byte, n), ends: ends} }
	// acquired reports whether acquiring b returns within d.
	acquired := func(b *batch, d time.Duration) (bool, chan struct{}) {
		done := make(chan struct{})
		go func() { w.acquire(b); close(done) }()
		select {
		case <-done:
			return true, done
		case <-time.After(d):
			return false, done
		}
	}
	heavy := sized(w.maxBytes, 0)
	if ok, _ := acquired(heavy, 5*time.Second); !ok {
		t.Fatal("a batch heavier than the budget waits on an empty window")
	}
	small := sized(1000, 10)
	ok, done := acquired(small, 50*time.Millisecond)
	if ok {
		t.Fatal("a batch went into the window beside one heavier than the budget")
	}
	w.release(heavy.weight)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the window stayed closed after the heavy batch was written")
	}
	if want := 1000 + weightPerByte*1000 + weightPerLine*11; small.weight != want {
		t.Errorf("weight of 1000 bytes in 10 lines: %d, want %d", small.weight, want)
	}
	// A batch that fits waits while the window holds its most batches.
	var in []*batch
	for len(in) < w.maxN-1 {
		b := sized(10, 1)
		if ok, _ := acquired(b, 5*time.Second); !ok {
			t.Fatalf("batch %d of %d waits", len(in)+2, w.maxN)
		}
		in = append(in, b)
	}
	last := sized(10, 1)
	if ok, done = acquired(last, 50*time.Millisecond); ok {
		t.Fatalf("batch %d went into a window of %d", w.maxN+1, w.maxN)
	}
	w.release(in[0].weight)
	<-done
	for _, b := range append(in[1:], last) {
		w.release(b.weight)
	}
	// Normalized, a batch weighs what it holds: one that grew makes the
	// reader wait, one that shrank lets it go on.
	small.out = make([]byte, w.maxBytes)
	w.reweigh(small)
	next := sized(10, 1)
	if ok, done = acquired(next, 50*time.Millisecond); ok {
		t.Fatal("a batch went into a window whose batches outgrew the budget")
	}
	small.out = nil
	w.reweigh(small)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the window stayed closed after a batch shrank")
	}
	if w.peak < w.maxBytes {
		t.Errorf("peak %d: want the heavy batch's %d", w.peak, heavy.weight)
	}
}

// TestWindowBooks runs the command in this process with -j 2 and 8 on
// inputs of each shape (long failing lines, short failing lines, URLs,
// -rekey lines), from a reader, and checks the window's books: every
// batch that went in came out with the weight it was last given, so
// that the window ends empty; and its peak stayed within the budget and
// one batch heavier than it.
func TestWindowBooks(t *testing.T) {
	long := "http://h/" + strings.Repeat("\xff", 1<<20)
	cases := []struct {
		in   string
		args []string
	}{
		{strings.Repeat(long+"\n", 6), []string{"-p", "whatwg", "-format", "jsonl"}},
		{strings.Repeat("\xff\n", 100000), []string{"-p", "whatwg", "-format", "jsonl"}},
		{strings.Repeat("HTTP://Example.COM/a/./b?x=1\n", 50000), []string{"-p", "crawler", "-format", "tsv"}},
		{strings.Repeat("http://h/?b&a\thttp://h/?b&a\n", 50000), []string{"-p", "crawler", "-rekey"}},
	}
	for _, c := range cases {
		for _, j := range []string{"2", "8"} {
			var win *window
			windowHook = func(w *window) { win = w }
			cfg, code, err := parseFlags(append(c.args, "-q", "-j", j), io.Discard, io.Discard)
			if err != nil {
				windowHook = nil
				t.Fatalf("%q: exit %d: %v", c.args, code, err)
			}
			var stderr bytes.Buffer
			process(cfg, struct{ io.Reader }{strings.NewReader(c.in)}, io.Discard, &stderr)
			windowHook = nil
			if win == nil {
				t.Fatalf("%q -j %s: no window", c.args, j)
			}
			if win.n != 0 || win.bytes != 0 {
				t.Errorf("%q -j %s: the window ends with %d batches of %d bytes", c.args, j, win.n, win.bytes)
			}
			if heaviest := batchWeight(&batch{data: make([]byte, len(long)+1, 2*(len(long)+1)), ends: 1}); win.peak > win.maxBytes+heaviest {
				t.Errorf("%q -j %s: peak %d bytes, budget %d", c.args, j, win.peak, win.maxBytes)
			}
		}
	}
}
