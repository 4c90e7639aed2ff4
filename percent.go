package canon

import (
	"unicode/utf8"
)

// Byte classes. One lookup in byteClass answers every question the parser
// and the normalizer ask about a byte, in the style of net/url's
// encoding table: byteClass[c]&class != 0.
//
// The sets are the ABNF sets of RFC 3986 §2 and §3; TestByteClassTable
// rebuilds the table from those definitions and compares.
const (
	clsUnreserved uint16 = 1 << iota // ALPHA DIGIT "-" "." "_" "~"        (RFC 3986 §2.3)
	clsSubDelim                      // "!" "$" "&" "'" "(" ")" "*" "+" "," ";" "="   (§2.2)
	clsUserinfo                      // unreserved / sub-delims / ":"       (§3.2.1)
	clsNotPath                       // not allowed raw in a path: all but pchar and "/" (§3.3), "%" included
	clsNotQuery                      // not allowed raw in a query or fragment: as clsNotPath, but "?" is allowed (§3.4, §3.5)
	clsNotUser                       // not allowed raw in userinfo: all but unreserved, sub-delims and ":" (§3.2.1), "%" included
	clsUpper                         // "A"-"Z"
	clsHex                           // HEXDIG
	clsScheme                        // ALPHA DIGIT "+" "-" "."            (§3.1)
	clsCtl                           // C0 controls: never valid raw anywhere (policy)
	clsNonASCII                      // 0x80-0xFF
	clsPct                           // "%"
	clsDot                           // "."
	clsBackslash                     // "\": rejected in authority and path (policy)
	clsOutside                       // outside the URI grammar everywhere: space " < > [ \ ] ^ ` { | } DEL
	clsEndPath                       // "?" and "#", which end a path
)

// byteClass is built once at init from the ABNF sets; see the constants.
var byteClass = buildByteClass()

func buildByteClass() (t [256]uint16) {
	set := func(chars string, cls uint16) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= cls
		}
	}
	const (
		alphaUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		alphaLower = "abcdefghijklmnopqrstuvwxyz"
		digit      = "0123456789"
		subDelims  = "!$&'()*+,;="
	)
	unreserved := alphaUpper + alphaLower + digit + "-._~"
	set(unreserved, clsUnreserved|clsUserinfo)
	set(subDelims, clsSubDelim|clsUserinfo)
	set(":", clsUserinfo)
	for c := 0; c < 256; c++ {
		if t[c]&clsUserinfo == 0 {
			t[c] |= clsNotUser
			if c != '@' && c != '/' {
				t[c] |= clsNotPath
				if c != '?' {
					t[c] |= clsNotQuery
				}
			}
		}
	}
	set(alphaUpper, clsUpper)
	set(digit+"ABCDEFabcdef", clsHex)
	set(alphaUpper+alphaLower+digit+"+-.", clsScheme)
	set("%", clsPct)
	set("?#", clsEndPath)
	set(".", clsDot)
	set("\\", clsBackslash)
	set(" \"<>[\\]^`{|}\x7f", clsOutside)
	for c := 0; c < 0x20; c++ {
		t[c] |= clsCtl
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] |= clsNonASCII
	}
	return t
}

func isHex(c byte) bool { return byteClass[c]&clsHex != 0 }

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return byteClass[c]&clsUnreserved != 0 && c != '-' && c != '.' && c != '_' && c != '~'
}

// unhex returns the value of a hex digit; c must satisfy isHex.
// Branch-free, as in net/url: '0'-'9' are 0x30-0x39, letters have bit 6 set.
func unhex(c byte) byte { return 9*(c>>6) + (c & 15) }

const upperHex = "0123456789ABCDEF"

func lower(c byte) byte {
	if byteClass[c]&clsUpper != 0 {
		return c + ('a' - 'A')
	}
	return c
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// appendEscaped appends the percent-encoded triplet of b with uppercase hex
// (RFC 3986 §2.1: "URI producers ... should use uppercase hexadecimal digits").
func appendEscaped(dst []byte, b byte) []byte {
	return append(dst, '%', upperHex[b>>4], upperHex[b&15])
}

// percentDecode returns a copy of s with every valid triplet decoded
// ("percent-decode", RFC 3986 §2.1; the WHATWG URL Standard's, which
// leaves a "%" that starts no triplet as it is).
func percentDecode(s string) []byte {
	b := make([]byte, 0, len(s))
	for k := 0; k < len(s); k++ {
		if s[k] == '%' && validEscape(s, k) {
			b = append(b, tripletValue(s, k))
			k += 2
			continue
		}
		b = append(b, s[k])
	}
	return b
}

// validEscape reports whether s[i] == '%' starts a complete triplet.
func validEscape(s string, i int) bool {
	return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
}

// isUCSChar reports whether r may appear unencoded in an IRI outside the
// query: ucschar of RFC 3987 §2.2, less the bidirectional formatting
// characters that §4.1 says IRIs must not contain and the two whose NFC
// is ASCII punctuation (see nfcIsASCIIPunct).
func isUCSChar(r rune) bool {
	switch {
	case r < 0xA0:
		return false
	case r <= 0xD7FF:
		return !isBidiFormatting(r) && !nfcIsASCIIPunct(r)
	case r < 0xF900:
		return false
	case r <= 0xFDCF:
		return true
	case r < 0xFDF0:
		return false
	case r <= 0xFFEF:
		return true
	case r < 0x10000 || r > 0xEFFFD:
		return false
	case r >= 0xE0000 && r < 0xE1000:
		return false
	}
	// Planes 1-14: every code point but the last two of each plane.
	return r&0xFFFF <= 0xFFFD
}

// isIPrivate reports whether r is iprivate (RFC 3987 §2.2), which is
// allowed unencoded only in the query.
func isIPrivate(r rune) bool {
	return (r >= 0xE000 && r <= 0xF8FF) || (r >= 0xF0000 && r <= 0xFFFFD) || (r >= 0x100000 && r <= 0x10FFFD)
}

// isBidiFormatting reports whether r is a bidirectional formatting
// character: the seven RFC 3987 §4.1 forbids in IRIs (LRM, RLM, LRE, RLE,
// PDF, LRO, RLO) and those Unicode added after it, for the same reason
// (they reorder how an IRI is displayed): ALM U+061C (Unicode 6.3) and the
// isolates LRI, RLI, FSI and PDI, U+2066-U+2069 (Unicode 6.3).
func isBidiFormatting(r rune) bool {
	return r == 0x200E || r == 0x200F || (r >= 0x202A && r <= 0x202E) ||
		r == 0x061C || (r >= 0x2066 && r <= 0x2069)
}

// nfcIsASCIIPunct reports whether the NFC of r is ASCII punctuation:
// U+037E GREEK QUESTION MARK is ";" and U+1FEF GREEK VARIA is "`". Left
// raw, NFC would create a delimiter ("a\u037eb" would get the key of
// "a;b") or a character outside the grammar that the key no longer
// encodes, so IRI keeps them percent-encoded. (The one other code point
// whose NFC is ASCII, U+212A KELVIN SIGN, is "K": an ordinary merge of a
// letter.) TestNFCToASCIIList derives the list from every code point.
func nfcIsASCIIPunct(r rune) bool { return r == 0x037E || r == 0x1FEF }

// iriAllowed reports whether the non-ASCII rune r may stay unencoded in an
// IRI component; inQuery admits iprivate (RFC 3987 §2.2 iquery).
func iriAllowed(r rune, inQuery bool) bool {
	return isUCSChar(r) || (inQuery && isIPrivate(r))
}

// decodeEscapedRune decodes the UTF-8 sequence spelled as percent-encoded
// triplets at s[i:], as RFC 3987 §5.3.2.3 asks. It returns the rune and the
// number of input bytes it spans, or size 0 when the triplets do not form
// one valid, shortest-form UTF-8 sequence (such bytes stay encoded, §3.2).
func decodeEscapedRune(s string, i, end int) (r rune, size int) {
	var b [utf8.UTFMax]byte
	if !validEscapeBefore(s, i, end) {
		return 0, 0
	}
	b[0] = tripletValue(s, i)
	var n int
	switch {
	case b[0] >= 0xC2 && b[0] <= 0xDF:
		n = 2
	case b[0] >= 0xE0 && b[0] <= 0xEF:
		n = 3
	case b[0] >= 0xF0 && b[0] <= 0xF4:
		n = 4
	default:
		return 0, 0
	}
	for k := 1; k < n; k++ {
		j := i + 3*k
		if !validEscapeBefore(s, j, end) {
			return 0, 0
		}
		b[k] = tripletValue(s, j)
	}
	r, sz := utf8.DecodeRune(b[:n])
	if r == utf8.RuneError || sz != n {
		return 0, 0
	}
	return r, 3 * n
}

// validEscapeBefore reports whether s[i:i+3] is a triplet lying before end.
func validEscapeBefore(s string, i, end int) bool {
	return i+2 < end && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2])
}

// tripletAt returns the octet of the triplet s[i:i+3] ("%" and two hex
// digits) lying before end, and whether there is one.
func tripletAt(s string, i, end int) (byte, bool) {
	if i+2 >= end || s[i] != '%' || !isHex(s[i+1]) || !isHex(s[i+2]) {
		return 0, false
	}
	return tripletValue(s, i), true
}

// tripletValue returns the octet of the valid triplet at s[i]: the one
// decoder of triplets.
func tripletValue[T string | []byte](s T, i int) byte { return unhex(s[i+1])<<4 | unhex(s[i+2]) }

func isUpperHex(c byte) bool { return c <= '9' || c >= 'A' && c <= 'F' }
