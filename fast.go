package canon

import (
	"bytes"
	"encoding/binary"
	"strings"
)

// The fast path. Nearly every real URL has one shape, and nearly every
// real URL is already canonical or needs one of a few changes. fast reads
// such a URL once, in the manner of norm.Form's quick check: while the
// output equals the input it writes nothing, so a canonical URL costs
// one scan and no allocation; at the first change it copies what it
// passed and goes on writing, so a URL that changes costs one scan and
// one buffer. Anything else - a userinfo, an IP literal, a zero-padded
// port, a byte outside the URI grammar, non-ASCII, an escape a step would
// decode to non-ASCII or that is invalid, a change the profile does not
// make - goes to the engine (normalize.go), which handles every input.
// TestFastAgreesWithEngine and FuzzNormalize hold fast to giving the
// engine's key whenever it gives one.
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
// with every "%" starting a valid escape. The changes made, each only
// when the profile has the step: lowercase the scheme and the host
// (LowercaseScheme, LowercaseHost), drop a default port (RemoveDefaultPort,
// RemoveHTTPFTPPort), decode an escaped unreserved character
// (DecodeUnreserved), uppercase the hex of other escapes
// (UppercaseEscapes), remove dot segments (RemoveDots, RemoveDots1808),
// write an empty path as "/" (AddRootPath, AddHTTPRootPath), and drop
// the fragment (RemoveFragment).

// Fast classes: which bytes each part of the shape may hold. They are
// derived from byteClass, which holds the RFC sets; a table of its own
// keeps the scan's lookups in 256 bytes.
const (
	fScheme       uint8 = 1 << iota // letters, digits, "+", "-" and "."
	fHost                           // reg-name less "%": letters, digits, - . _ ~ ! $ & ' ( ) * + , ; =
	fPath                           // pchar and "/", less "%" and ".", which need a look
	fQuery                          // pchar, "/" and "?", less "%"
	fSpecialQuery                   // fQuery less "'", which the WHATWG special-query set encodes

	// fUpper marks A-Z. It is ('a'-'A')<<1, so that appendLower adds
	// fastClass[c]&fUpper>>1 to a byte to lowercase it.
	fUpper uint8 = 64
)

// whatwgFast are the profiles of the changes fast makes for ParseWHATWG
// (see fast), without and with RemoveFragment. They are made of steps
// NewProfile refuses together, so straight from their bits.
var whatwgFast = [2]Profile{
	profileOf(1<<ParseWHATWG|1<<LowercaseScheme|1<<LowercaseHost|1<<RemoveDefaultPort|1<<RemoveDots|1<<AddHTTPRootPath, nil),
	profileOf(1<<RemoveFragment|1<<ParseWHATWG|1<<LowercaseScheme|1<<LowercaseHost|1<<RemoveDefaultPort|1<<RemoveDots|1<<AddHTTPRootPath, nil),
}

var fastClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		b := byteClass[c]
		letterOrDigit := b&clsUnreserved != 0 && c != '-' && c != '.' && c != '_' && c != '~'
		if letterOrDigit || c == '+' || c == '-' || c == '.' {
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

// fast normalizes s under p for URLs of the shape above. When s is
// canonical, it returns dst unchanged and the length of the key, s[:end]
// (end < len(s) when p removes the fragment). When s changes, it returns
// dst with the key appended and end = -1. ok is false when s needs the
// engine; dst may then hold bytes past its length, but its length and
// contents are those the caller gave.
func fast(dst []byte, s string, p Profile) (out []byte, end int, ok bool) {
	n := len(s)
	if n > MaxLength || n == 0 || fastClass[s[0]]&fScheme == 0 || s[0] < 'A' {
		return dst, 0, false // also a digit, "+", "-" or "." first
	}
	pl := p.plan()
	if pl.whatwg {
		// On this shape, with a special scheme other than file, the
		// WHATWG URL Standard makes the changes of these steps and no
		// other: its percent-encode sets leave every byte of the shape
		// alone but "'" in the query, and "%2e" may make a dot segment,
		// both of which go to the engine.
		if pl.dropFragment {
			pl = whatwgFast[1].pl
		} else {
			pl = whatwgFast[0].pl
		}
	}
	if pl.decodeAll || pl.plusToSpace {
		// POWDER: DecodeAll rewrites every escape and PlusToSpace every "+".
		if pl.has(DecodeAll) && strings.IndexByte(s, '%') >= 0 ||
			pl.has(PlusToSpace) && strings.IndexByte(s, '+') >= 0 {
			return dst, 0, false
		}
	}
	// The output is dst[base:] followed by the input s[from:k] not yet
	// copied; while from == 0 and nothing was appended, it is s[:k].
	base, from := len(dst), 0

	// Scheme (RFC 3986 §3.1, §6.2.2.1) and "//".
	i, seen := spanUnion(s, 0, fScheme)
	if seen&fUpper != 0 {
		if !pl.has(LowercaseScheme) {
			return dst, 0, false
		}
		dst = reserve(dst, n+1)
		dst = appendLower(dst, s[:i])
		from = i
	}
	if n-i < 3 || s[i] != ':' || s[i+1] != '/' || s[i+2] != '/' {
		return dst[:base], 0, false
	}
	scheme := s[:i]
	if pl.has(ParseWHATWG) {
		if k := kindOf(scheme); k == schemeOther || k == schemeFile {
			return dst[:base], 0, false // an opaque host, or the file states
		}
	}

	// Host (§3.2.2, §6.2.2.1): a registered name or a canonical IPv4.
	h := i + 3
	k, seen := spanUnion(s, h, fHost)
	lowerHost := seen&fUpper != 0
	host := s[h:k]
	switch {
	case host == "":
		if kindOf(scheme).needsHost() {
			return dst[:base], 0, false
		}
	case lowerHost && !pl.has(LowercaseHost),
		host[len(host)-1] == '.', len(host) > MaxHostLength,
		endsInNumber(host) && !numericHostValid(host), // rejected (or, in WHATWG, rewritten): the engine's
		pl.has(HostToUnicode) && hasACEPrefix(host),
		pl.has(StripFileLocalhost) && strings.EqualFold(host, "localhost") && kindOf(scheme) == schemeFile:
		return dst[:base], 0, false
	}
	if lowerHost {
		dst = reserve(dst, n-from+1)
		dst = append(dst, s[from:h]...)
		dst = appendLower(dst, host)
		from = k
	}

	// Port (§3.2.3, §6.2.3).
	if k < n && s[k] == ':' {
		colon := k
		for k++; k < n && s[k] >= '0' && s[k] <= '9'; k++ {
		}
		v, f := portValue(s, colon+1, k)
		if f != nil || v < 0 || s[colon+1] == '0' {
			return dst[:base], 0, false // out of range, empty or zero-padded: the engine's
		}
		kind := kindOf(scheme)
		if pl.has(RemoveDefaultPort) && v == kind.defaultPort() ||
			pl.has(RemoveHTTPFTPPort) && (kind == schemeHTTP && v == 80 || kind == schemeFTP && v == 21) {
			dst = reserve(dst, n-from+1)
			dst = append(dst, s[from:colon]...)
			from = k
		}
	}
	if k < n && s[k] != '/' && s[k] != '?' && s[k] != '#' {
		return dst[:base], 0, false // a byte the host may not hold
	}

	// Path (§3.3). With RemoveDots, each dot segment is removed as the
	// scan meets it (RFC 3986 §5.2.4, see dropDotSegment), so the path is
	// read once. With RemoveDots1808 the scan notes whether there is one and
	// the path is rewritten after it, as RFC 1808 keeps a ".." with nothing
	// to cancel. An escape
	// decoded to "." could make a dot segment with its neighbours: that
	// rare case is the engine's.
	pathAt := len(dst) + k - from // where the path starts in the output
	dots, dots1808 := pl.has(RemoveDots), pl.has(RemoveDots1808)
	dotSeen := false // a dot segment, for RemoveDots1808
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
					dst = reserve(dst, n-from+1)
					dst = dropDotSegment(append(dst, s[from:k]...), pathAt, seg)
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
			var ok bool
			if dst, from, ok = fastEscape(dst, s, k, from, pl); !ok || (dots || dots1808) && from == k+3 && dst[len(dst)-1] == '.' {
				return dst[:base], 0, false
			}
			k += 3
			continue
		}
		break
	}
	if k < n && s[k] != '?' && s[k] != '#' {
		return dst[:base], 0, false
	}
	if dotSeen && dots1808 {
		// RFC 1808 §4 step 6.
		dst = reserve(dst, n-from+1)
		undoLen, undoFrom := len(dst), from
		dst = append(dst, s[from:k]...)
		from = k
		path := dst[pathAt:]
		if out := removeDotSegments1808(path); len(out) == len(path) {
			// Nothing removed (a ".." with nothing to cancel): the path
			// is still the input's, left uncopied.
			dst, from = dst[:undoLen], undoFrom
		} else {
			dst = dst[:pathAt+len(out)]
		}
	}
	if pathAt == len(dst)+k-from && (pl.has(AddRootPath) || pl.has(AddHTTPRootPath) && kindOf(scheme).defaultPort() > 0) {
		dst = reserve(dst, n-from+1)
		dst = append(dst, s[from:k]...)
		dst = append(dst, '/')
		from = k
	}

	// Query (§3.4) and fragment (§3.5).
	if k < n && s[k] == '?' {
		var ok bool
		q := k + 1
		if dst, k, from, ok = fastQuery(dst, s, q, from, pl); !ok ||
			pl.has(ParseWHATWG) && strings.IndexByte(s[q:k], '\'') >= 0 { // the special-query set encodes "'"
			return dst[:base], 0, false
		}
	}
	end = n
	if k < n { // s[k] == '#'
		if pl.has(RemoveFragment) {
			// The fragment goes, but a control character in it is
			// still an error (Parse), and under ParseWHATWG so is
			// invalid UTF-8: the engine's to report.
			for j := k + 1; j < n; j++ {
				if s[j] < ' ' || s[j] >= 0x80 && pl.has(ParseWHATWG) {
					return dst[:base], 0, false
				}
			}
			end = k
		} else {
			var ok bool
			if dst, k, from, ok = fastQuery(dst, s, k+1, from, pl); !ok || k < n {
				return dst[:base], 0, false // a second "#"
			}
		}
	}
	if from == 0 && len(dst) == base {
		return dst, end, true
	}
	return append(dst, s[from:end]...), -1, true
}

// span returns the offset of the first byte of s from k on that is not in
// the fast class cls, or len(s). (Unrolled to four bytes a step, it made
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

// reserve makes room in dst for n more bytes. fast calls it before each
// write with the most the rest of the output can take, so that the key
// takes one allocation at most: the rest of the input, and a "/" until
// the path is passed, as an empty path may become "/". An escape is in a
// path that is not empty or after it, so fastEscape asks for the rest of
// the input alone (one more, after an added "/", made a second
// allocation; TestAllocsPerKey).
func reserve(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	b := make([]byte, len(dst), len(dst)+n)
	copy(b, dst)
	return b
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

// dropDotSegment is one step of RFC 3986 §5.2.4 for fast, which meets
// the dot segments of a path from left to right: dst holds the output,
// with the path from pathAt on, ending with the "/" before a dot segment
// of length seg. The "." goes (rule B: "/a/./b" -> "/a/b"); a ".." also
// takes the last output segment with it (rule C: "/a/b/../c" -> "/a/c"),
// or nothing when there is none ("/../c" -> "/c").
func dropDotSegment(dst []byte, pathAt, seg int) []byte {
	if seg == 2 {
		// Cut after the "/" before the last segment. The path starts
		// with "/": when that "/" is all the output path holds (no
		// segment to remove), the search finds nothing and it stays.
		dst = dst[:pathAt+max(bytes.LastIndexByte(dst[pathAt:len(dst)-1], '/'), 0)+1]
	}
	return dst
}

// appendLower appends t with its ASCII letters lowercased. Eight bytes
// at a time, a letter is found without a branch: adding 0x3F to a byte
// below 0x80 sets its top bit from "A" up, adding 0x25 from "[" (one
// past "Z") up, so a top bit set by the first sum and not by the second
// (nor in the byte itself, which keeps UTF-8 whole) marks a capital,
// and shifted down it is the 0x20 that lowercases it. No sum carries
// into the next byte, as the bytes are masked to 7 bits first.
func appendLower(dst []byte, t string) []byte {
	n := len(dst)
	dst = append(dst, t...)
	b := dst[n:]
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		x := w & 0x7F7F7F7F7F7F7F7F
		capital := (x + 0x3F3F3F3F3F3F3F3F) &^ (x + 0x2525252525252525) &^ w & 0x8080808080808080
		binary.LittleEndian.PutUint64(b, w|capital>>2)
		b = b[8:]
	}
	for i, c := range b {
		// fUpper is 'a'-'A' << 1: add 32 to an uppercase letter, without a branch.
		b[i] = c + fastClass[c]&fUpper>>1
	}
	return dst
}

// fastQuery scans a query or fragment from s[k] up to a "#" or the end,
// and returns where it stopped and the new from (see fast).
func fastQuery(dst []byte, s string, k, from int, pl *plan) ([]byte, int, int, bool) {
	for {
		k = span(s, k, fQuery)
		if k == len(s) || s[k] == '#' {
			return dst, k, from, true
		}
		if s[k] != '%' {
			return dst, k, from, false
		}
		var ok bool
		if dst, from, ok = fastEscape(dst, s, k, from, pl); !ok {
			return dst, k, from, false
		}
		k += 3
	}
}

// fastEscape handles the escape at s[k] as p writes it: decoded if it is
// unreserved and p has DecodeUnreserved (§6.2.2.2), in uppercase hex if
// p has UppercaseEscapes (§6.2.2.1), else as written. When that changes
// it, the pending input s[from:k] is copied first and from moves past the
// escape. An invalid escape, or one of a non-ASCII octet that
// DecodeIUnreserved may decode, is the engine's.
func fastEscape(dst []byte, s string, k, from int, pl *plan) ([]byte, int, bool) {
	if k+2 >= len(s) || !isHex(s[k+1]) || !isHex(s[k+2]) {
		return dst, from, false
	}
	v := unhex(s[k+1])<<4 | unhex(s[k+2])
	switch {
	case v == '.' && pl.has(ParseWHATWG):
		return dst, from, false // "%2e" may make a dot segment
	case v >= 0x80 && pl.has(DecodeIUnreserved):
		return dst, from, false
	case byteClass[v]&clsUnreserved != 0 && pl.has(DecodeUnreserved):
		dst = reserve(dst, len(s)-from)
		dst = append(dst, s[from:k]...)
		return append(dst, v), k + 3, true
	case pl.has(UppercaseEscapes) && (!isUpperHex(s[k+1]) || !isUpperHex(s[k+2])):
		dst = reserve(dst, len(s)-from)
		dst = append(dst, s[from:k]...)
		return append(dst, '%', upperHex[v>>4], upperHex[v&15]), k + 3, true
	}
	return dst, from, true
}
