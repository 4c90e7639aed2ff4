package canon

import (
	"bytes"
	"unsafe"
)

// RemoveDotSegments removes the "." and ".." segments of path as
// RFC 3986 §5.2.4 describes: "/a/b/c/./../../g" -> "/a/g". A ".." that has
// no segment left to remove is dropped ("/../g" -> "/g"). It returns path
// itself, without allocating, when there is no dot segment to remove.
//
// The "." and ".." must be literal: "%2E" is a dot segment only after
// percent-encoding normalization, which [RFC3986] does first (§6.2.2).
func RemoveDotSegments(path string) string {
	if !hasDotSegment(path) {
		return path
	}
	b := removeDots([]byte(path), dotsRFC3986, false)
	return string(b)
}

// hasDotSegment reports whether a segment of path is "." or "..".
func hasDotSegment[T string | []byte](path T) bool { return firstDotSegment(path) >= 0 }

// firstDotSegment returns the offset at which the first "." or ".."
// segment of path starts, with the "/" before it if there is one, or -1.
// Everything before that offset is unchanged by dot-segment removal.
func firstDotSegment[T string | []byte](path T) int {
	for i := 0; i < len(path); i++ {
		if path[i] != '.' || (i > 0 && path[i-1] != '/') {
			continue
		}
		// path[i] starts a segment with a dot.
		j := i + 1
		if j < len(path) && path[j] == '.' {
			j++
		}
		if j == len(path) || path[j] == '/' {
			return max(i-1, 0)
		}
	}
	return -1
}

// removeDotSegmentsInPlace runs the loop of RFC 3986 §5.2.4 with the input
// buffer b[r:] and the output buffer b[:w] in the same array: the output
// never grows faster than the input is consumed (w <= r), so each step can
// write over bytes already read. Each step is named after the RFC's rule.
// Removing the last output segment scans back over bytes that are then
// dropped, so the whole loop is linear in len(b).
//
// The segments before the first dot segment stay where they are (rule E
// would move them onto themselves).
func removeDotSegmentsInPlace(b []byte) []byte {
	n, w := len(b), firstDotSegment(b)
	if w < 0 {
		return b
	}
	r := w
	at := func(i int, prefix string) bool {
		return n-i >= len(prefix) && string(b[i:i+len(prefix)]) == prefix
	}
	for r < n {
		// Rules A-D apply only where the input buffer starts with "." or
		// "/."; test the first bytes before anything else.
		switch c := b[r]; {
		case c == '.':
			switch {
			// A: remove a prefix "../" or "./".
			case at(r, "../"):
				r += 3
				continue
			case at(r, "./"):
				r += 2
				continue
			// D: remove a final "." or "..".
			case r+1 == n || (r+2 == n && b[r+1] == '.'):
				r = n
				continue
			}
		case c == '/' && r+1 < n && b[r+1] == '.':
			switch {
			// B: replace a prefix "/./" or a final "/." with "/".
			case at(r, "/./"):
				r += 2
				continue
			case r+2 == n:
				r++
				b[r] = '/'
				continue
			// C: replace a prefix "/../" or a final "/.." with "/", and
			// remove the last segment and its preceding "/" (if any)
			// from the output.
			case at(r, "/../"):
				r += 3
				w = lastSlash(b[:w])
				continue
			case r+3 == n && b[r+2] == '.':
				r += 2
				b[r] = '/'
				w = lastSlash(b[:w])
				continue
			}
		}
		// E: move the first segment, with its leading "/" if any, to the
		// output - and with it every segment up to the next dot segment,
		// which E would move one by one.
		// (next is never 0: A-D have matched a dot segment at r; max
		// keeps the loop finite whatever.)
		next := firstDotSegment(b[r:])
		if next < 0 {
			next = n - r
		}
		next = max(next, 1)
		copy(b[w:], b[r:r+next])
		r += next
		w += next
	}
	return b[:w]
}

func lastSlash(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' {
			return i
		}
	}
	return 0
}

// removeDotSegments1808 applies the dot-segment rules of RFC 1808 §4 step 6
// to path, as the PDF Reference's "URL Strings" asks (step 7).
// The rules apply to the path after its leading "/" (RFC 1808 makes that
// slash a separator, not part of the path):
//
//	a) every "./" whose "." is a complete segment is removed;
//	b) a final "." that is a complete segment is removed;
//	c) every "<segment>/../", with <segment> complete and not "..", is
//	   removed, leftmost first, until none remains;
//	d) a final "<segment>/..", with <segment> complete and not "..", is removed.
//
// Unlike RFC 3986, a ".." with no segment to cancel stays:
// "/b/../../g" -> "/../g". Removing the leftmost match repeatedly is what a
// stack of kept segments computes in one pass, which this does in place.
func removeDotSegments1808(b []byte) []byte {
	start := 0
	if len(b) > 0 && b[0] == '/' {
		start = 1
	}
	// Kept segments are b[start:w], each followed by "/" except the last;
	// the stack top is the segment after the last "/" in b[start:w].
	w, r, n := start, start, len(b)
	kept := 0 // number of segments in b[start:w]
	for r <= n {
		e := r
		for e < n && b[e] != '/' {
			e++
		}
		// (Not seg := string(b[r:e]): held in a variable, that string is
		// allocated for a segment longer than 32 bytes.)
		dot := e-r == 1 && b[r] == '.'
		dotDot := e-r == 2 && b[r] == '.' && b[r+1] == '.'
		last := e == n
		switch {
		case dot: // rules a and b
			if last {
				// "a/." -> "a/": the kept segments end with "/" already,
				// or the path is now empty.
				return b[:w]
			}
		case dotDot && kept > 0 && !topIsDotDot(b, start, w): // rules c and d
			w = topStart(b, start, w) // pop the top segment
			kept--
			if last {
				return b[:w]
			}
		default:
			w += copy(b[w:], b[r:e])
			kept++
			if last {
				return b[:w]
			}
			b[w] = '/'
			w++
		}
		r = e + 1
	}
	return b[:w]
}

// topIsDotDot reports whether the last kept segment of b[start:w], whose
// bytes end with "/" (w > start), is "..".
func topIsDotDot(b []byte, start, w int) bool {
	t := topStart(b, start, w)
	return w-1-t == 2 && b[t] == '.' && b[t+1] == '.'
}

// topStart returns where the last kept segment of b[start:w] begins.
func topStart(b []byte, start, w int) int {
	i := w - 1 // the "/" that ends the top segment
	for i > start && b[i-1] != '/' {
		i--
	}
	return i
}

// removeSegments removes the dot segments of an absolute path (one that
// starts with "/"), in place, with a stack of the segments kept, which
// is what RFC 3986 §5.2.4's loop computes for such a path and what the
// WHATWG URL Standard's path state does: a single-dot segment goes, a
// double-dot one also takes the segment before it ("shorten"), and either
// one that ends the path leaves a "/" behind ("/a/b/.." -> "/a/"). With
// escapedDots, "%2e" (any case) is a dot too, as the standard reads it;
// with file, a ".." keeps a file URL's lone normalized Windows drive
// letter ("/C:/.." -> "/C:/"); with rootDots, a ".." with no segment
// before it is a segment of its own, which a ".." after it removes as
// any other ("/../a" stays, "/../../a" is "/a"), as the surt library's
// normalizePath reads a path (ReadAsSURT). The segments before the first
// dot segment stay where they are.
func removeSegments(path []byte, escapedDots, file, rootDots bool) []byte {
	first := firstDotSegment(path)
	if escapedDots && bytes.IndexByte(path, '%') >= 0 {
		first = 0 // "%2e" is a dot: read every segment
	}
	if first < 0 || len(path) == 0 || path[0] != '/' {
		return path
	}
	w := first // path[:w] is the output, "/" + segments joined by "/"
	segments := bytes.Count(path[:w], slash)
	for r := w + 1; r <= len(path); {
		e := r
		for e < len(path) && path[e] != '/' {
			e++
		}
		seg := unsafe.String(unsafe.SliceData(path[r:]), e-r)
		last := e == len(path)
		dot, dotDot := seg == ".", seg == ".."
		if escapedDots && !dot && !dotDot {
			dot, dotDot = isSingleDot(seg), isDoubleDot(seg)
		}
		switch {
		case dotDot && segments == 0 && rootDots:
			path[w], path[w+1], path[w+2] = '/', '.', '.'
			w += 3
			segments++
		case dotDot:
			if segments > 0 && !(file && segments == 1 && w == 3 && path[2] == ':' && isWindowsDriveLetter(unsafe.String(&path[1], 2))) {
				w = lastSlash(path[:w])
				segments--
			}
			if last {
				path[w] = '/'
				w++
				segments++
			}
		case dot:
			if last {
				path[w] = '/'
				w++
				segments++
			}
		default:
			path[w] = '/'
			w++
			w += copy(path[w:], seg)
			segments++
		}
		r = e + 1
	}
	return path[:w]
}

var slash = []byte{'/'}

// removeDotSegmentsWHATWG removes the dot segments of a path the WHATWG
// URL Standard wrote (it starts with "/"), in place, as its path state
// does when it reads the path again (see removeSegments: "%2e" is a dot,
// a file URL keeps its drive letter). The key steps call it on the paths
// they decode.
func removeDotSegmentsWHATWG(path []byte, file, rootDots bool) []byte {
	return removeSegments(path, true, file, rootDots)
}

// removeDots removes the dot segments of path, in place, by rule: RFC
// 3986 §5.2.4, RFC 1808 §4 step 6, or the WHATWG URL Standard's path
// state (file says whether the URL is a file URL, whose drive letter a
// ".." keeps). It returns path itself under dotsNone.
func removeDots(path []byte, rule dotRule, file bool) []byte {
	switch rule {
	case dotsRFC3986:
		if len(path) > 0 && path[0] == '/' {
			return removeSegments(path, false, false, false)
		}
		return removeDotSegmentsInPlace(path) // a rootless path: the RFC's steps to the letter
	case dotsRFC1808:
		return removeDotSegments1808(path)
	case dotsWHATWG:
		return removeDotSegmentsWHATWG(path, file, false)
	}
	return path
}

// What a writer of a path knows of its dot segments.
const (
	dotsNoDot = iota // the path holds no "."
	dotsMaybe        // it may hold a dot segment
	dotsSeen         // it holds one
)

// removeOutputDots removes the dot segments of the path written from
// offset pathAt on by the plan's rule; hint says what the writer knows
// of them. A path that this makes start with "//" in a URI without an
// authority is written "/.//" (see guardPath): "foo:/a/..//b" ->
// "foo:/.//b".
func removeOutputDots(w *writer, pathAt int, pl *plan, hasAuth bool, hint int) {
	str, b := w.tail(pathAt)
	if b == nil {
		if hint == dotsNoDot || hint == dotsMaybe && !hasDotSegment(str) {
			return
		}
		if len(str) <= 256 && !(hint == dotsSeen && pl.dots != dotsRFC1808) {
			// The path is still the input's, and may stay so: it is
			// rewritten on the stack and copied once if it changed (RFC
			// 1808 keeps a ".." with nothing to cancel, and then the path
			// stays uncopied). A dot segment seen under the other rules
			// always goes: the path is copied and rewritten in place.
			var tmp [256]byte
			out := removeDots(append(tmp[:0], str...), pl.dots, false)
			if len(out) == len(str) {
				return
			}
			w.replaceTail(pathAt, out)
			b = nil
		} else {
			// A long path, or one that loses a dot segment: rewritten in
			// place in the writer's buffer. If RFC 1808 kept it as it was
			// (a ".." with nothing to cancel), the output goes back to
			// being the input's, uncopied, as above.
			clean := *w
			w.spill()
			_, b = w.tail(pathAt)
			n := len(removeDots(b, pl.dots, false))
			if n == len(b) {
				*w = clean
				return
			}
			w.truncate(pathAt + n)
			b = nil
		}
	} else if hint != dotsSeen && !hasDotSegment(b) {
		return
	}
	if b != nil {
		w.truncate(pathAt + len(removeDots(b, pl.dots, false)))
	}
	if !hasAuth {
		// Only dot removal can make such a path start with "//".
		w.spill()
		w.guard(pathAt)
	}
}

// isSingleDot reports whether seg is "." or "%2e" in any case.
func isSingleDot(seg string) bool {
	return seg == "." || len(seg) == 3 && seg[0] == '%' && seg[1] == '2' && (seg[2]|0x20) == 'e'
}

// isDoubleDot reports whether seg is "..", ".%2e", "%2e." or "%2e%2e", in
// any case.
func isDoubleDot(seg string) bool {
	switch len(seg) {
	case 2:
		return seg == ".."
	case 4:
		return isSingleDot(seg[:1]) && isSingleDot(seg[1:]) || isSingleDot(seg[:3]) && isSingleDot(seg[3:])
	case 6:
		return isSingleDot(seg[:3]) && isSingleDot(seg[3:])
	}
	return false
}
