package canon

import (
	"strings"
)

// The quick scan, the engine's first phase. Nearly every real URL has
// one shape, and nearly every real URL is already canonical or needs one
// of a few changes. The scan reads such a URL once, in the manner of
// x/text/unicode/norm's quick check: it writes through the engine's own
// writer, which copies nothing while the output equals the input, so a
// canonical URL costs one scan and no allocation, and a URL that changes
// costs one scan and one buffer. It reads the plan's rules and applies
// the engine's own rule functions (the escape rule, the port rule, the
// root-path rule, the lowercase loop); it validates nothing of its own:
// it takes only bytes that the parser accepts in that place and that the
// plan leaves as they are, and stops at anything else. Where it stops it
// hands over: at the start (nothing written), or after the authority,
// with the scheme and the authority written and their parts set, so that
// the engine reads and writes the rest from the path on.
//
// The shape, in ASCII (RFC 3986 §3 with the uncommon branches left out):
//
//	scheme "://" host [ ":" port ] path [ "?" query ] [ "#" fragment ]
//	scheme   = letter *( letter / digit / "+" / "-" / "." )
//	host     = *( unreserved / sub-delims ), not ending in "."; a
//	           numeric last label only in a canonical IPv4 address
//	port     = 1*5digit, no leading zero, at most 65535
//	path     = *( "/" *( pchar ) )
//	query    = *( pchar / "/" / "?" ), and so the fragment
//
// with every "%" starting a valid escape. Under ParseWHATWG only special
// schemes other than file take this shape (an opaque host, and the file
// states, are the engine's), and in it the standard changes nothing but
// the case of scheme and host, a default port, dot segments, an empty
// path and "'" in the query (which goes to the engine).

// Quick-scan classes: which bytes each part of the shape may hold. They
// are derived from byteClass, which holds the RFC sets; a table of its
// own keeps the scan's lookups in 256 bytes.
const (
	fScheme uint8 = 1 << iota // letters, digits, "+", "-" and "."
	fHost                     // reg-name less "%": letters, digits, - . _ ~ ! $ & ' ( ) * + , ; =
	fPath                     // pchar and "/", less "%" and ".", which need a look
	fQuery                    // pchar, "/" and "?", less "%"

	// fUpper marks A-Z. It is ('a'-'A')<<1, so that appendLower adds
	// fastClass[c]&fUpper>>1 to a byte to lowercase it.
	fUpper uint8 = 64
)

var fastClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		b := byteClass[c]
		if isAlnum(byte(c)) || c == '+' || c == '-' || c == '.' {
			t[c] |= fScheme
		}
		if b&(clsUnreserved|clsSubDelim) != 0 {
			t[c] |= fHost
		}
		pchar := b&clsNotPath == 0 && c != '%' // unreserved, sub-delims, ":", "@" and "/"
		if pchar && c != '.' {
			t[c] |= fPath
		}
		if pchar || c == '?' {
			t[c] |= fQuery
		}
		if b&clsUpper != 0 {
			t[c] |= fUpper
		}
	}
	return t
}()

// scanResult is where the quick scan stopped.
type scanResult uint8

const (
	scanNone     scanResult = iota // nothing written: the engine starts over
	scanFromPath                   // scheme and authority written, e.pr set up to the path
	scanDone                       // the whole key written, e.u set
)

// handover is what the scan read of the scheme and the authority, in
// the input: the parts the general writers need to go on from the path.
type handover struct {
	schemeEnd, hostEnd, pathStart int
	kind                          schemeKind
}

// parts sets pr to the parts of s up to the path that the scan read.
func (h *handover) parts(pr *parts, s string, pl *plan) {
	a := h.schemeEnd + 3
	*pr = parts{s: s, schemeEnd: h.schemeEnd, hasAuth: true, authStart: a, authEnd: h.pathStart,
		hostStart: a, hostEnd: h.hostEnd, hasPort: h.hostEnd < h.pathStart, kind: h.kind, special: pl.whatwg}
}

// scan runs the quick scan over s by pl into u: it scans and writes
// scheme "://" host [":" port], sets their offsets in u and what it read
// in h, and goes on with the rest (scanTail). Where it hands over after
// the authority, h says what it read. (One function with the authority,
// not two: the call was a measurable part of a URL's time.)
func (u *url) scan(s string, pl *plan, ho *handover) scanResult {
	n := len(s)
	if n == 0 || fastClass[s[0]]&fScheme == 0 || s[0] < 'A' {
		return scanNone // also a digit, "+", "-" or "." first
	}
	if pl.decodeAll && strings.IndexByte(s, '%') >= 0 || pl.plusToSpace && strings.IndexByte(s, '+') >= 0 {
		return scanNone // rewritten before it is read (and a decoded "%" is written "%25")
	}
	w := &u.w

	// Scheme (RFC 3986 §3.1, §6.2.2.1) and "//".
	i, seen := spanUnion(s, 0, fScheme)
	if n-i < 3 || s[i] != ':' || s[i+1] != '/' || s[i+2] != '/' {
		return scanNone
	}
	kind := kindOf(s[:i])
	if pl.whatwg && (kind == schemeOther || kind == schemeFile) {
		return scanNone // an opaque host, or the file states
	}
	if seen&fUpper != 0 {
		if !pl.lowerScheme {
			return scanNone
		}
		w.lower(0, i)
	}
	w.run(w.to, i+3)

	// Host (§3.2.2, §6.2.2.1): a registered name or a canonical IPv4.
	h := i + 3
	k, seen := spanUnion(s, h, fHost)
	host := s[h:k]
	switch {
	case host == "":
		if kind.needsHost() {
			return scanNone
		}
	case seen&fUpper != 0 && !pl.lowerHost,
		host[len(host)-1] == '.', len(host) > MaxHostLength,
		pl.trimDots && trimsDots(host, pl.surtKeys),
		endsInNumber(host) && !numericHostValid(host), // rejected (or, in WHATWG, rewritten): the engine's
		pl.toUnicode && hasACEPrefix(host),
		pl.fileLocalhost && kind == schemeFile && strings.EqualFold(host, "localhost"):
		return scanNone
	}
	if seen&fUpper != 0 {
		// Lowercasing starts a copy: not for an authority the scan hands
		// over ("JeremyCline:pw@h", whose userinfo it read as a host).
		if !scanAuthorityEnds(s, k) {
			return scanNone
		}
		w.lower(h, k)
	} else {
		w.run(h, k)
	}
	hostEnd := k

	// Port (§3.2.3, §6.2.3).
	if k < n && s[k] == ':' {
		var ok bool
		if k, ok = u.scanWritePort(s, pl, k, kind); !ok {
			return scanNone
		}
	}
	if k < n && s[k] != '/' && s[k] != '?' && s[k] != '#' {
		return scanNone // a byte the host may not hold
	}
	u.schemeEnd, u.authStart = i, i+3
	u.hasAuth, u.hostStart, u.hostEnd = true, i+3, i+3+len(host)
	u.authEnd = w.length()
	u.hasPort = u.authEnd > u.hostEnd
	ho.schemeEnd, ho.hostEnd, ho.pathStart, ho.kind = i, hostEnd, k, kind
	if u.scanTail(s, pl, k, kind) {
		return scanDone
	}
	// The path's own bytes are the engine's, from the path on.
	u.w.truncate(u.authEnd)
	return scanFromPath
}

// scanWritePort reads the port after the ":" at s[colon] (scanPort) and
// writes it with its ":", unless the plan's port rule drops it (RFC 3986
// §6.2.3, a scheme's default port). It returns where the port ends, and
// false where the port is the engine's to read. Most URLs have no port:
// scan, which every URL goes through, leaves the port's work to this
// function and keeps only the test for a ":".
func (u *url) scanWritePort(s string, pl *plan, colon int, kind schemeKind) (int, bool) {
	k, v := scanPort(s, colon)
	if v < 0 {
		return k, false
	}
	if !pl.dropsPort(kind, v) {
		u.w.run(colon, k)
	}
	return k, true
}

// scanAuthorityEnds reports whether the authority the scan read up to
// s[k] ends there as the scan reads it: a port it takes, then the end, or
// "/", "?" or "#" (what scan checks after writing the host and port).
func scanAuthorityEnds(s string, k int) bool {
	if k < len(s) && s[k] == ':' {
		var v int
		if k, v = scanPort(s, k); v < 0 {
			return false
		}
	}
	return k == len(s) || s[k] == '/' || s[k] == '?' || s[k] == '#'
}

// scanPort reads the port after the ":" at s[colon] and returns where it
// ends and its value (portValue), or the value -1 where the port is the
// engine's to read: empty, zero-padded or out of range.
func scanPort(s string, colon int) (end, value int) {
	k := colon + 1
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == colon+1 || s[colon+1] == '0' {
		return k, -1
	}
	v, f := portValue(s, colon+1, k)
	if f != nil {
		return k, -1
	}
	return k, v
}

// surtDotsEngine reports whether a dot segment at s[k] of a path is the
// engine's under ReadAsSURT: a ".." above the root (atRoot), which
// ReadAsSURT keeps, or, with DecodePathRepeatedly, a dot segment after an
// escape of the path, which whatwgPath leaves to that step (the library
// decodes the path before its dot segments go). *read is where the path
// has been read for "%" up to, by earlier calls of the scan: each byte is
// read once, however many dot segments there are, and the scan loop
// itself carries no state for this rare branch.
func surtDotsEngine(s string, pl *plan, k, seg int, atRoot bool, read *int) bool {
	if seg == 2 && atRoot {
		return true
	}
	if !pl.has(DecodePathRepeatedly) {
		return false
	}
	if strings.IndexByte(s[*read:k], '%') >= 0 {
		return true
	}
	*read = k
	return false
}

// scanTail scans and writes the path, the query and the fragment from
// s[k] on, and sets their offsets in e.u. It reports false where it stops
// before the end.
func (u *url) scanTail(s string, pl *plan, k int, kind schemeKind) bool {
	w := &u.w
	n := len(s)

	// Path (§3.3). With RFC 3986's (or the WHATWG standard's) dot rule,
	// each dot segment is removed as the scan meets it (RFC 3986 §5.2.4,
	// see dropDotSegment), so the path is read once. With RFC 1808's the
	// scan notes whether there is one and the path is rewritten after
	// it, as RFC 1808 keeps a ".." with nothing to cancel. An escape
	// decoded to "." could make a dot segment with its neighbours: that
	// rare case is the engine's.
	pathAt, pathIn := w.length(), k // where the path starts in the output and the input
	dots := pl.dots == dotsRFC3986 || pl.dots == dotsWHATWG
	dotSeen := false   // a dot segment, for RFC 1808's rule
	from := k          // the input not yet written
	escapesReadTo := k // the path read for "%" (surtDotsEngine)
	for k < n {
		k = span(s, k, fPath)
		if k == n {
			break
		}
		switch s[k] {
		case '.':
			// s[k-1] exists: the path starts with "/".
			if seg := dotSegmentAt(s, k); seg > 0 {
				if dots {
					w.run(from, k)
					if pl.surtRead && surtDotsEngine(s, pl, k, seg, w.length()-pathAt == 1, &escapesReadTo) {
						return false // ReadAsSURT's: the engine's
					}
					dropDotSegment(w, pathAt, seg)
					if k += seg; k < n && s[k] == '/' {
						k++ // the output ends with "/" already
					}
					from = k
					continue
				}
				dotSeen = true
			}
			k++
			continue
		case '%':
			decoded, ok := u.scanEscape(s, pl, k, &from)
			if !ok || pl.dots != dotsNone && decoded == '.' {
				return false
			}
			k += 3
			continue
		}
		break
	}
	if k < n && s[k] != '?' && s[k] != '#' {
		return false
	}
	w.run(from, k)
	from = k
	if dotSeen && pl.dots == dotsRFC1808 {
		removeOutputDots(w, pathAt, pl, true, dotsSeen) // RFC 1808 §4 step 6
	}
	if k == pathIn && pl.addsRoot(kind) { // an empty path (a path the scan takes starts with "/")
		w.byte('/')
	}
	u.pathStart, u.pathEnd = pathAt, w.length()
	u.queryStart, u.queryEnd = u.pathEnd, u.pathEnd

	// Query (§3.4) and fragment (§3.5).
	if k < n && s[k] == '?' {
		q := k + 1
		w.run(from, q)
		from = q
		queryAt := w.length()
		var ok bool
		if k, ok = u.scanQuery(s, pl, q, &from); !ok || pl.whatwg && strings.IndexByte(s[q:k], '\'') >= 0 { // the special-query set encodes "'"
			return false
		}
		w.run(from, k)
		from = k
		u.hasQuery, u.queryStart, u.queryEnd = true, queryAt, w.length()
	}
	u.fragStart = u.queryEnd
	if k < n { // s[k] == '#'
		if pl.dropFragment {
			// The fragment goes, but a control character in it is
			// still an error (Parse), and under ParseWHATWG so is
			// invalid UTF-8: the engine's to report.
			for j := k + 1; j < n; j++ {
				if s[j] < ' ' || s[j] >= 0x80 && pl.whatwg {
					return false
				}
			}
		} else {
			w.run(from, k+1)
			from = k + 1
			u.hasFrag, u.fragStart = true, w.length()
			var ok bool
			if k, ok = u.scanQuery(s, pl, k+1, &from); !ok || k < n {
				return false // a second "#"
			}
			w.run(from, k)
		}
	}
	u.kind = kind
	return true
}

// span returns the offset of the first byte of s from k on that is not in
// the quick class cls, or len(s). (Unrolled to four bytes a step, it made
// the corpus benchmark slower.)
func span(s string, k int, cls uint8) int {
	t := s[k:] // so that the loop needs no bounds check
	for i := 0; i < len(t); i++ {
		if fastClass[t[i]]&cls == 0 {
			return k + i
		}
	}
	return len(s)
}

// spanUnion is span that also returns the union of the classes of the
// bytes it passed over, so that one pass finds both where a part ends and
// whether it holds a capital.
func spanUnion(s string, k int, cls uint8) (int, uint8) {
	var seen uint8
	for ; k < len(s); k++ {
		c := fastClass[s[k]]
		if c&cls == 0 {
			break
		}
		seen |= c
	}
	return k, seen
}

// endsSegment reports whether a path segment ends at s[k].
func endsSegment(s string, k int) bool {
	return k >= len(s) || s[k] == '/' || s[k] == '?' || s[k] == '#'
}

// dotSegmentAt returns the length of the dot segment ("." or "..") that
// starts at s[k], a "." inside a path, or 0 if the segment there is not
// one. s[k-1] must exist.
func dotSegmentAt(s string, k int) int {
	switch {
	case s[k-1] != '/':
		return 0
	case endsSegment(s, k+1):
		return 1
	case s[k+1] == '.' && endsSegment(s, k+2):
		return 2
	}
	return 0
}

// dropDotSegment is one step of RFC 3986 §5.2.4 for the scan, which meets
// the dot segments of a path from left to right: the output holds the
// path from pathAt on, ending with the "/" before a dot segment of length
// seg. The "." goes (rule B: "/a/./b" -> "/a/b"); a ".." also takes the
// last output segment with it (rule C: "/a/b/../c" -> "/a/c"), or nothing
// when there is none ("/../c" -> "/c").
func dropDotSegment(w *writer, pathAt, seg int) {
	if seg != 2 {
		return
	}
	// Cut after the "/" before the last segment. The path starts with
	// "/": when that "/" is all the output path holds (no segment to
	// remove), the search finds nothing and it stays.
	str, b := w.tail(pathAt)
	var k int
	if b != nil {
		k = lastSlash(b[:len(b)-1])
	} else {
		k = max(strings.LastIndexByte(str[:len(str)-1], '/'), 0)
	}
	w.truncate(pathAt + k + 1)
}

// scanQuery scans a query or fragment from s[k] up to a "#" or the end,
// writing its escapes by the plan's rule, and returns where it stopped.
func (u *url) scanQuery(s string, pl *plan, k int, from *int) (int, bool) {
	for {
		k = span(s, k, fQuery)
		if k == len(s) || s[k] == '#' {
			return k, true
		}
		if s[k] != '%' {
			return k, false
		}
		if _, ok := u.scanEscape(s, pl, k, from); !ok {
			return k, false
		}
		k += 3
	}
}

// scanEscape writes the escape at s[k] by the plan's rule (see
// plan.triplet): when that changes it, the pending input s[*from:k] is
// written first and *from moves past the escape. It returns the octet the
// escape was decoded to, or 0. An invalid escape, or one that needs more
// than the quick shape allows (one of a non-ASCII octet that
// DecodeIUnreserved may decode, "%2e" under ParseWHATWG, any under
// POWDER), is the engine's.
func (u *url) scanEscape(s string, pl *plan, k int, from *int) (byte, bool) {
	w := &u.w
	v, ok := tripletAt(s, k, len(s))
	switch {
	case !ok, pl.whatwg && v == '.', pl.decodeIUnres && v >= 0x80:
		return 0, false
	}
	switch pl.triplet(v, s[k+1], s[k+2], pl.decodeUnres) {
	case tripletDecode:
		w.run(*from, k)
		w.byte(v)
		*from = k + 3
		return v, true
	case tripletUpper:
		w.run(*from, k)
		w.byte('%')
		w.byte(upperHex[v>>4])
		w.byte(upperHex[v&15])
		*from = k + 3
	}
	return 0, true
}
