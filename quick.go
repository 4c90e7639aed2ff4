package canon

import "strings"

// The quick check is the fast path of Normalize, in the manner of
// norm.Form's quick check: one pass over the input that answers "is this
// URL already canonical?" for the shape nearly every real URL has, so
// that the answer yes costs about as much as reading the bytes once. It
// only ever answers yes when the full engine would return the input
// unchanged (or cut at its fragment); anything it is not sure of - an
// uppercase letter in the scheme or host, a userinfo, a default port, a
// dot segment, a percent-encoding that a step could rewrite, a byte
// outside the URI grammar, non-ASCII - sends the input to the engine.
// TestQuickAgreesWithEngine and FuzzNormalize hold it to that.
//
// The shape accepted, in ASCII:
//
//	scheme   = lowercase letter *( lowercase letter / digit / "+" / "-" / "." )
//	host     = 1*( lowercase letter / digit / "-" / "." ), not ending in "."
//	port     = digits without a leading zero, at most 65535, not the scheme's default
//	path     = *( "/" segment ), no segment "." or ".."
//	scheme "://" host [ ":" port ] path [ "?" query ] [ "#" fragment ]
//
// where segment, query and fragment hold pchar (RFC 3986 §3.3) and,
// outside the path, "/" and "?", with every percent-encoding in uppercase
// hex and for an ASCII character that is not unreserved.

// Quick classes: which bytes each part of the accepted shape may hold.
const (
	qScheme uint8 = 1 << iota // a-z 0-9 + - .
	qHost                     // a-z 0-9 - .
	qPath                     // pchar and "/", less "%" and ".", which need a look
	qQuery                    // pchar, "/" and "?", less "%"
)

var quickClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		b := byteClass[c]
		lowerOrDigit := b&clsScheme != 0 && b&clsUpper == 0 && c != '+' && c != '-' && c != '.'
		if lowerOrDigit || c == '+' || c == '-' || c == '.' {
			t[c] |= qScheme
		}
		if lowerOrDigit || c == '-' || c == '.' {
			t[c] |= qHost
		}
		pchar := b&clsNotPath == 0 && c != '%' // unreserved, sub-delims, ":", "@" and "/"
		if pchar && c != '.' {
			t[c] |= qPath
		}
		if pchar || c == '?' {
			t[c] |= qQuery
		}
	}
	return t
}()

// quick reports whether s is canonical under p and, if so, the length of
// its canonical form: len(s), or the offset of the "#" when p removes the
// fragment. See the comment at the top of this file.
func quick(s string, p Profile) (int, bool) {
	n := len(s)
	if n > MaxLength || n == 0 || s[0] < 'a' || s[0] > 'z' {
		return 0, false
	}
	if p.steps&(1<<DecodeAll|1<<PlusToSpace) != 0 {
		// POWDER: DecodeAll rewrites any escape and PlusToSpace any "+"
		// (the scheme cannot hold a "%", and a "+" in it sends the input
		// to the engine too, which is harmless).
		if p.Has(DecodeAll) && strings.IndexByte(s, '%') >= 0 ||
			p.Has(PlusToSpace) && strings.IndexByte(s, '+') >= 0 {
			return 0, false
		}
	}

	// Scheme and "//".
	i := 1
	for i < n && quickClass[s[i]]&qScheme != 0 {
		i++
	}
	if n-i < 3 || s[i] != ':' || s[i+1] != '/' || s[i+2] != '/' {
		return 0, false
	}
	scheme := s[:i]

	// Host: a lowercase ASCII registered name, or a canonical IPv4.
	h := i + 3
	k := h
	for k < n && quickClass[s[k]]&qHost != 0 {
		k++
	}
	host := s[h:k]
	if host == "" {
		// file:///x: an empty host is canonical where the scheme allows
		// one (not http, https, ws, wss, ftp).
		if kindOf(scheme).needsHost() {
			return 0, false
		}
	} else if host[len(host)-1] == '.' || len(host) > MaxHostLength ||
		endsInNumber(host) && !isCanonicalIPv4(host) ||
		p.Has(HostToUnicode) && strings.Contains(host, "xn--") ||
		p.Has(StripFileLocalhost) && host == "localhost" && kindOf(scheme) == schemeFile {
		return 0, false
	}

	// Port.
	if k < n && s[k] == ':' {
		k++
		v, digits := 0, 0
		for k < n && s[k] >= '0' && s[k] <= '9' && digits < 6 {
			v = v*10 + int(s[k]-'0')
			k++
			digits++
		}
		if digits == 0 || digits == 6 || s[k-digits] == '0' || v > 65535 || v == kindOf(scheme).defaultPort() {
			return 0, false
		}
	}

	// Path.
	if k == n || s[k] != '/' {
		if k < n && s[k] != '?' && s[k] != '#' {
			return 0, false // a byte the host may not hold
		}
		if p.Has(AddRootPath) || p.Has(AddHTTPRootPath) && kindOf(scheme).defaultPort() > 0 {
			return 0, false
		}
	}
path:
	for k < n {
		for k < n && quickClass[s[k]]&qPath != 0 {
			k++
		}
		if k == n {
			return n, true
		}
		switch s[k] {
		case '.':
			// s[k-1] exists: the path starts with "/".
			if s[k-1] == '/' && (endsSegment(s, k+1) || s[k+1] == '.' && endsSegment(s, k+2)) {
				return 0, false
			}
			k++
			continue
		case '%':
			if !quickEscape(s, k) {
				return 0, false
			}
			k += 3
			continue
		}
		break path
	}

	// Query.
	if k < n && s[k] == '?' {
		if k = quickQuery(s, k+1); k < 0 {
			return 0, false
		}
	}

	// Fragment.
	if k == n {
		return n, true
	}
	if s[k] != '#' {
		return 0, false
	}
	if p.Has(RemoveFragment) {
		// The fragment goes, but a control character in it is still an
		// error (Parse).
		for j := k + 1; j < n; j++ {
			if s[j] < ' ' {
				return 0, false
			}
		}
		return k, true
	}
	if quickQuery(s, k+1) != n {
		return 0, false
	}
	return n, true
}

// endsSegment reports whether a path segment ends at s[k].
func endsSegment(s string, k int) bool {
	return k >= len(s) || s[k] == '/' || s[k] == '?' || s[k] == '#'
}

// quickEscape reports whether the "%" at s[k] starts an escape that no
// step rewrites: uppercase hex for an ASCII character that is not
// unreserved (UppercaseEscapes, DecodeUnreserved; DecodeIUnreserved
// decodes only non-ASCII).
func quickEscape(s string, k int) bool {
	if k+2 >= len(s) || !isHex(s[k+1]) || !isHex(s[k+2]) || !isUpperHex(s[k+1]) || !isUpperHex(s[k+2]) {
		return false
	}
	v := unhex(s[k+1])<<4 | unhex(s[k+2])
	return v < 0x80 && byteClass[v]&clsUnreserved == 0
}

// quickQuery scans a query or fragment from s[k] and returns where it
// ends (len(s) or a "#"), or -1 for a byte that needs the engine.
func quickQuery(s string, k int) int {
	n := len(s)
	for k < n {
		for k < n && quickClass[s[k]]&qQuery != 0 {
			k++
		}
		if k == n || s[k] == '#' {
			return k
		}
		if s[k] != '%' || !quickEscape(s, k) {
			return -1
		}
		k += 3
	}
	return k
}
