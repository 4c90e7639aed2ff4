package canon

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"
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

// clsUpper is ('a'-'A')<<1, so that lowerASCII adds byteClass[c]&clsUpper>>1
// to a byte to lowercase it: the index below is out of range (a compile
// error) if the constants move.
var _ = [1]struct{}{}[clsUpper^('a'-'A')<<1]

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

// lowerHex spells hexadecimal digits in lowercase, as RFC 5952 writes an
// IPv6 address and the surt library's keys write their triplets.
const lowerHex = "0123456789abcdef"

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

// invalidUTF8At returns the offset of the first byte of s that is not
// part of a valid UTF-8 sequence, or -1.
func invalidUTF8At(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for k := 0; k < len(s); {
		r, size := utf8.DecodeRuneInString(s[k:])
		if r == utf8.RuneError && size == 1 {
			return k
		}
		k += size
	}
	return -1
}

// escapeInvalidUTF8 returns s with every octet that is not part of a
// valid UTF-8 sequence percent-encoded.
func escapeInvalidUTF8(s string) string {
	b := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = appendEscaped(b, s[i])
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return ownedString(b)
}

// hasUpperASCII reports whether s holds an ASCII capital.
func hasUpperASCII[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// lowerASCII lowercases the ASCII letters of b in place: the one
// lowercase loop of the writers. Eight bytes at a time, a letter is found
// without a branch: adding 0x3F to a byte below 0x80 sets its top bit
// from "A" up, adding 0x25 from "[" (one past "Z") up, so a top bit set
// by the first sum and not by the second (nor in the byte itself, which
// keeps UTF-8 whole) marks a capital, and shifted down it is the 0x20
// that lowercases it. No sum carries into the next byte, as the bytes are
// masked to 7 bits first.
func lowerASCII(b []byte) {
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		x := w & 0x7F7F7F7F7F7F7F7F
		capital := (x + 0x3F3F3F3F3F3F3F3F) &^ (x + 0x2525252525252525) &^ w & 0x8080808080808080
		binary.LittleEndian.PutUint64(b, w|capital>>2)
		b = b[8:]
	}
	for i, c := range b {
		// clsUpper is 'a'-'A' << 1: add 32 to an uppercase letter, without a branch.
		b[i] = c + byte(byteClass[c]&clsUpper>>1)
	}
}

// appendLower appends t with its ASCII letters lowercased.
func appendLower(dst []byte, t string) []byte {
	n := len(dst)
	dst = append(dst, t...)
	lowerASCII(dst[n:])
	return dst
}

// decodeRepeatedlyInPlace decodes the escapes of c until none is left
// ("%252541" -> "%2541" -> "%41" -> "A") and returns the shortened c.
// Decoding again, pass after pass, would take one pass for each "25" of
// "%252525…", quadratic in the input; a new escape can only end at the
// byte just written, so this looks back there after each byte it writes,
// once over c.
func decodeRepeatedlyInPlace(c []byte) []byte {
	w := 0
	for r := 0; r < len(c); r++ {
		c[w] = c[r]
		w++
		for w >= 3 && c[w-3] == '%' && isHex(c[w-2]) && isHex(c[w-1]) {
			c[w-3] = tripletValue(c, w-3)
			w -= 2
		}
	}
	return c[:w]
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for k := 0; k < len(s); k++ {
		if s[k] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// The percent-encode sets, as bits of encodeSet: a byte whose bit is set
// for a component is written percent-encoded there. All but the last are
// the WHATWG URL Standard's.
const (
	setC0           uint16 = 1 << iota // C0 control percent-encode set: C0 controls and above "~"
	setFragment                        // the C0 set and space " < > `
	setQuery                           // the C0 set and space " # < >
	setSpecialQuery                    // the query set and '
	setPath                            // the query set and ? ^ ` { }
	setUserinfo                        // the path set and / : ; = @ [ \ ] |

	// POWDER's (DecodeAll): the octets of a decoded input that would not
	// read back the same unencoded: "%", space, "\", controls, DEL and
	// non-ASCII.
	setPOWDER

	// Not an encode set: "%", where a WHATWG plan that rewrites escapes
	// (plan.pctTriplets) looks at the triplet that may start there.
	setTriplet

	// Not encode sets, but questions about the same bytes: the
	// standard's forbidden host code points, and its forbidden domain
	// code points (those, C0 controls, "%" and DEL).
	forbiddenHost
	forbiddenDomain

	// Not one of the standard's sets: "\", which ReadAsSURT's path of a
	// special URL writes as "%5C", as it is no separator there.
	setBackslash
)

var encodeSet = func() (t [256]uint16) {
	set := func(chars string, bits uint16) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= bits
		}
	}
	for c := 0; c < 256; c++ {
		if c < 0x20 || c > 0x7E {
			t[c] = setC0 | setFragment | setQuery | setSpecialQuery | setPath | setUserinfo
		}
	}
	set(" \"<>", setFragment|setQuery|setSpecialQuery|setPath|setUserinfo)
	set("`", setFragment|setPath|setUserinfo)
	set("#", setQuery|setSpecialQuery|setPath|setUserinfo)
	set("'", setSpecialQuery)
	set("?^{}", setPath|setUserinfo)
	set("/:;=@[\\]|", setUserinfo)
	set("\x00\t\n\r #/:<>?@[\\]^|", forbiddenHost|forbiddenDomain)
	for c := 0; c <= 0x20; c++ {
		t[c] |= forbiddenDomain
	}
	set("%\x7f", forbiddenDomain)
	set("%", setTriplet)
	set("\\", setBackslash)
	for c := 0; c < 256; c++ {
		if c == '%' || c <= ' ' || c == '\\' || c >= 0x7f {
			t[c] |= setPOWDER
		}
	}
	return t
}()

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
