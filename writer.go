package canon

import "unsafe"

// writer builds the output lazily. The output so far is buf[base:]
// followed by the pending run src[from:to]: bytes of the input that the
// output repeats are not copied as they are met, only counted, so a URL
// that is already canonical is never copied (the result is the input
// itself, or a prefix of it when a fragment is removed, at no
// allocation), and one that changes is copied run by run, once. A write
// that does not continue the pending run flushes it into buf first.
//
// While nothing was flushed (clean), the output is src[:to].
type writer struct {
	src      string
	buf      []byte // Normalize's stack buffer, AppendNormalized's dst, or nil until the first flush
	base     int    // len(buf) when the writer started
	from, to int    // the pending run
	dirty    bool   // buf[base:] holds output (else from == 0)
	slack    int    // room past len(src) in a buffer flush allocates
}

// reset starts an output of src in buf[:base].
func (w *writer) reset(src string, buf []byte, base int) {
	*w = writer{src: src, buf: buf[:base], base: base, slack: w.slack}
}

// flush appends the pending run to buf. A buffer allocated here has room
// for the input and slack bytes more: the quick scan's keys are at most
// one byte longer than the input (an added "/"), and the general path's
// changes mostly shrink the URL or add a few bytes, so that Normalize
// allocates once; growth past it is amortized by append.
func (w *writer) flush() {
	if !w.dirty {
		w.start()
	}
	if w.from < w.to { // most flushes come right after another write
		w.buf = append(w.buf, w.src[w.from:w.to]...)
		w.from = w.to
	}
}

// start marks the output as being in buf from now on (the first flush),
// and allocates buf if the caller gave none.
func (w *writer) start() {
	w.dirty = true
	if w.buf == nil {
		w.buf = make([]byte, 0, len(w.src)+w.slack)
	}
}

// spill makes buf[base:] hold the whole output, to be written to in place.
func (w *writer) spill() {
	if !w.dirty || w.from < w.to {
		w.flush()
	}
}

// length returns the length of the output so far.
func (w *writer) length() int { return len(w.buf) - w.base + w.to - w.from }

// run appends src[i:j].
func (w *writer) run(i, j int) {
	if i == w.to {
		w.to = j
		return
	}
	if i == j {
		return
	}
	w.flush()
	w.from, w.to = i, j
}

// byte appends c.
func (w *writer) byte(c byte) {
	if w.to < len(w.src) && w.src[w.to] == c {
		w.to++
		return
	}
	w.flush()
	w.buf = append(w.buf, c)
}

// str appends t.
func (w *writer) str(t string) {
	if len(w.src)-w.to >= len(t) && w.src[w.to:w.to+len(t)] == t {
		w.to += len(t)
		return
	}
	w.flush()
	w.buf = append(w.buf, t...)
}

// lower appends src[i:j] with its ASCII letters lowercased.
func (w *writer) lower(i, j int) {
	w.flush()
	n := len(w.buf)
	w.buf = append(w.buf, w.src[i:j]...)
	lowerASCII(w.buf[n:])
	w.from, w.to = j, j
}

// guard writes a path that starts with "//" at offset pathAt, in a URL
// without an authority, as "/.//" (see guardPath); it reports whether it
// did. The output must be flushed.
func (w *writer) guard(pathAt int) bool {
	at := w.base + pathAt
	if len(w.buf)-at < 2 || w.buf[at] != '/' || w.buf[at+1] != '/' {
		return false
	}
	w.buf = append(w.buf, "/."...) // room for the prefix
	copy(w.buf[at+2:], w.buf[at:len(w.buf)-2])
	w.buf[at], w.buf[at+1] = '/', '.'
	return true
}

// byteAt returns the output's byte at offset i.
func (w *writer) byteAt(i int) byte {
	if n := len(w.buf) - w.base; i >= n {
		return w.src[w.from+i-n]
	}
	return w.buf[w.base+i]
}

// escaped appends the percent-encoded triplet of c (uppercase hex).
func (w *writer) escaped(c byte) {
	w.byte('%')
	w.byte(upperHex[c>>4])
	w.byte(upperHex[c&15])
}

// tail returns the output from offset at on, as a string when it lies in
// the pending run (no copy) and as the bytes of buf otherwise; exactly
// one of them is set.
func (w *writer) tail(at int) (string, []byte) {
	n := len(w.buf) - w.base
	if at >= n {
		return w.src[w.from+at-n : w.to], nil
	}
	w.flush()
	return "", w.buf[w.base+at:]
}

// truncate cuts the output to length k.
func (w *writer) truncate(k int) {
	n := len(w.buf) - w.base
	if k >= n {
		w.to = w.from + k - n
		return
	}
	w.buf = w.buf[:w.base+k]
	w.from = w.to
}

// replaceTail replaces the output from offset at on with t.
func (w *writer) replaceTail(at int, t []byte) {
	w.truncate(at)
	w.flush()
	w.buf = append(w.buf, t...)
}

// output returns the output: the input's own bytes while clean, and
// buf[base:] otherwise. When it is buf's, the caller owns it (see the
// callers for when a copy must be made).
func (w *writer) output() (string, []byte, bool) {
	if !w.dirty {
		return w.src[:w.to], nil, true
	}
	w.flush()
	return "", w.buf[w.base:], false
}

// view returns the output as a string without copying: the input's
// bytes while clean, buf's bytes otherwise. The string is valid until
// the next write.
func (w *writer) view() string {
	s, b, clean := w.output()
	if clean {
		return s
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
