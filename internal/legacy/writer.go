package legacy

import "unsafe"

// writer builds the canonical form lazily. While the output so far equals
// a prefix of the source (clean), writing a byte or a run that matches
// the source at the same place only advances n: a URL that is already
// canonical is never copied, and the result is the input itself, or a
// prefix of it (when a fragment is removed), at no allocation. At the
// first difference the writer spills: it copies the clean prefix into buf
// and appends from then on.
type writer struct {
	src   string
	n     int    // while clean: the output is src[:n]
	dirty bool   // the output is buf[base:]
	buf   []byte // AppendNormalized's dst, or nil until the first spill
	base  int    // len(dst) when the writer started
}

// spill switches to the dirty state. A buffer allocated here has room for
// the common case (changes that shrink the URL or add a few bytes), so
// that Normalize allocates once; growth past it is amortized by append.
func (w *writer) spill() {
	w.dirty = true
	if w.buf == nil {
		w.buf = make([]byte, 0, len(w.src)+32)
	}
	w.buf = append(w.buf, w.src[:w.n]...)
}

// length returns the length of the output so far.
func (w *writer) length() int {
	if w.dirty {
		return len(w.buf) - w.base
	}
	return w.n
}

// run appends src[i:j].
func (w *writer) run(i, j int) {
	if !w.dirty {
		if w.n == i {
			w.n = j
			return
		}
		if i == j {
			return
		}
		w.spill()
	}
	w.buf = append(w.buf, w.src[i:j]...)
}

// byte appends c.
func (w *writer) byte(c byte) {
	if !w.dirty {
		if w.n < len(w.src) && w.src[w.n] == c {
			w.n++
			return
		}
		w.spill()
	}
	w.buf = append(w.buf, c)
}

// str appends t.
func (w *writer) str(t string) {
	if !w.dirty {
		if len(w.src)-w.n >= len(t) && w.src[w.n:w.n+len(t)] == t {
			w.n += len(t)
			return
		}
		w.spill()
	}
	w.buf = append(w.buf, t...)
}

// escaped appends the percent-encoded triplet of c (uppercase hex).
func (w *writer) escaped(c byte) {
	w.byte('%')
	w.byte(upperHex[c>>4])
	w.byte(upperHex[c&15])
}

// tail returns the output from offset from on, as a string when clean
// (no copy) and as bytes when dirty; exactly one of them is set.
func (w *writer) tail(from int) (string, []byte) {
	if w.dirty {
		return "", w.buf[w.base+from:]
	}
	return w.src[from:w.n], nil
}

// truncate cuts the output to length k.
func (w *writer) truncate(k int) {
	if w.dirty {
		w.buf = w.buf[:w.base+k]
	} else {
		w.n = k
	}
}

// replaceTail replaces the output from offset from on with t.
func (w *writer) replaceTail(from int, t []byte) {
	if !w.dirty {
		w.spill()
	}
	w.buf = append(w.buf[:w.base+from], t...)
}

// ownedString returns the bytes of b as a string without copying them.
// The caller must own b and never write to it again. This is what
// strings.Builder does; it saves the second allocation of string(b), so
// that a URL that changes costs one allocation. If b has much spare
// capacity, it is copied instead, so that a long-lived key does not pin
// a larger buffer.
func ownedString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(b)-len(b) > len(b)/4+64 {
		return string(b)
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
