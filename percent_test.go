package canon

import (
	"fmt"
	"strings"
	"testing"
)

// byteSet is a set of bytes, as an ABNF rule that matches one character
// defines one.
type byteSet [256]bool

// abnfChars is the set of the characters of s: the quoted strings of an
// ABNF alternation, each one character long.
func abnfChars(s string) (b byteSet) {
	for i := 0; i < len(s); i++ {
		b[s[i]] = true
	}
	return b
}

// abnfRange is %xlo-hi.
func abnfRange(lo, hi byte) (b byteSet) {
	for c := int(lo); c <= int(hi); c++ {
		b[c] = true
	}
	return b
}

// abnfOr is the alternation a / b / ...
func abnfOr(sets ...byteSet) (b byteSet) {
	for _, s := range sets {
		for c := range s {
			b[c] = b[c] || s[c]
		}
	}
	return b
}

// without is s less every byte of t.
func (s byteSet) without(t byteSet) byteSet {
	for c := range s {
		s[c] = s[c] && !t[c]
	}
	return s
}

// complement is every byte not in s.
func (s byteSet) complement() byteSet {
	for c := range s {
		s[c] = !s[c]
	}
	return s
}

func (s byteSet) count() int {
	n := 0
	for _, in := range s {
		if in {
			n++
		}
	}
	return n
}

// The character sets of RFC 3986, Appendix A "Collected ABNF for URI",
// transcribed rule by rule, with ALPHA, DIGIT and HEXDIG from the core
// rules RFC 3986 §1.3 imports (RFC 2234 §6.1, now RFC 5234 Appendix B.1).
// ABNF strings are case-insensitive, so HEXDIG's "A" to "F" match "a" to
// "f" too (RFC 3986 §2.1: "The uppercase hexadecimal digits 'A' through
// 'F' are equivalent to the lowercase digits 'a' through 'f'"). A rule
// that allows pct-encoded is given here as the set of the characters it
// allows raw: "%" stands in it only as the start of a triplet. These are
// the oracle's own: nothing here reads percent.go.
var (
	// ALPHA = %x41-5A / %x61-7A ; A-Z / a-z
	abnfALPHA = abnfOr(abnfRange(0x41, 0x5A), abnfRange(0x61, 0x7A))
	// DIGIT = %x30-39 ; 0-9
	abnfDIGIT = abnfRange(0x30, 0x39)
	// HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"
	abnfHEXDIG = abnfOr(abnfDIGIT, abnfChars("ABCDEF"), abnfChars("abcdef"))

	// unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
	abnfUnreserved = abnfOr(abnfALPHA, abnfDIGIT, abnfChars("-._~"))
	// gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"
	abnfGenDelims = abnfChars(":/?#[]@")
	// sub-delims = "!" / "$" / "&" / "'" / "(" / ")"
	//            / "*" / "+" / "," / ";" / "="
	abnfSubDelims = abnfChars("!$&'()*+,;=")
	// reserved = gen-delims / sub-delims
	abnfReserved = abnfOr(abnfGenDelims, abnfSubDelims)

	// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ): the characters
	// after the first.
	abnfSchemeChar = abnfOr(abnfALPHA, abnfDIGIT, abnfChars("+-."))
	// userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
	abnfUserinfo = abnfOr(abnfUnreserved, abnfSubDelims, abnfChars(":"))
	// pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
	abnfPchar = abnfOr(abnfUnreserved, abnfSubDelims, abnfChars(":@"))
	// path-abempty = *( "/" segment ), segment = *pchar
	abnfPath = abnfOr(abnfPchar, abnfChars("/"))
	// query = *( pchar / "/" / "?" )
	abnfQuery = abnfOr(abnfPchar, abnfChars("/?"))
	// fragment = *( pchar / "/" / "?" )
	abnfFragment = abnfOr(abnfPchar, abnfChars("/?"))

	// abnfOutside is what percent.go calls outside the grammar everywhere:
	// the characters from space to DEL that no rule allows, being neither
	// unreserved nor reserved nor "%" (space " < > \ ^ ` { | } and DEL),
	// and "[" and "]", which only IP-literal allows, around an address:
	// IP-literal = "[" ( IPv6address / IPvFuture ) "]".
	abnfOutside = abnfOr(
		abnfRange(0x20, 0x7F).without(abnfOr(abnfUnreserved, abnfReserved, abnfChars("%"))),
		abnfChars("[]"))
)

// abnfClass is one class bit of percent.go's byteClass and the set the
// test rebuilds it from.
type abnfClass struct {
	name string
	bit  uint16
	set  byteSet
}

// abnfClasses are the classes of percent.go, each as its comment defines
// it: from the rules above, or for the policy classes (clsCtl,
// clsBackslash) from the policy the comment states.
func abnfClasses() []abnfClass {
	return []abnfClass{
		{"clsUnreserved", clsUnreserved, abnfUnreserved},
		{"clsSubDelim", clsSubDelim, abnfSubDelims},
		{"clsUserinfo", clsUserinfo, abnfUserinfo},
		{"clsNotPath", clsNotPath, abnfPath.complement()},
		{"clsNotQuery", clsNotQuery, abnfQuery.complement()},
		{"clsNotUser", clsNotUser, abnfUserinfo.complement()},
		{"clsUpper", clsUpper, abnfRange('A', 'Z')},
		{"clsHex", clsHex, abnfHEXDIG},
		{"clsScheme", clsScheme, abnfSchemeChar},
		{"clsCtl", clsCtl, abnfRange(0x00, 0x1F)}, // policy: the C0 controls
		{"clsNonASCII", clsNonASCII, abnfRange(0x80, 0xFF)},
		{"clsPct", clsPct, abnfChars("%")},
		{"clsDot", clsDot, abnfChars(".")},
		{"clsBackslash", clsBackslash, abnfChars(`\`)}, // policy
		{"clsOutside", clsOutside, abnfOutside},
		// A path ends at the "?" of a query or the "#" of a fragment:
		// URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ].
		{"clsEndPath", clsEndPath, abnfChars("?#")},
	}
}

// TestABNFSets checks the transcription against the sizes of the sets
// the RFC defines, so that a slip in it does not pass for a property of
// byteClass.
func TestABNFSets(t *testing.T) {
	for _, c := range []struct {
		name string
		set  byteSet
		want int
	}{
		{"ALPHA", abnfALPHA, 52},
		{"DIGIT", abnfDIGIT, 10},
		{"HEXDIG", abnfHEXDIG, 22},
		{"unreserved", abnfUnreserved, 66},
		{"gen-delims", abnfGenDelims, 7},
		{"sub-delims", abnfSubDelims, 11},
		{"reserved", abnfReserved, 18},
		{"pchar", abnfPchar, 66 + 11 + 2},
		{"query", abnfQuery, 66 + 11 + 4},
		{"userinfo", abnfUserinfo, 66 + 11 + 1},
		{"scheme", abnfSchemeChar, 65},
	} {
		if n := c.set.count(); n != c.want {
			t.Errorf("%s has %d characters, want %d", c.name, n, c.want)
		}
	}
	if abnfFragment != abnfQuery {
		t.Errorf("fragment and query allow different characters; RFC 3986 gives them one rule")
	}
	if n := abnfOutside.count(); n != 13 {
		t.Errorf("outside has %d characters, want 13: space \" < > [ \\ ] ^ ` { | } DEL", n)
	}
	// Every printable ASCII character is in exactly one of unreserved,
	// reserved, "%" and the rest, outside less "[" and "]".
	for c := 0x20; c < 0x7F; c++ {
		n := 0
		for _, s := range []byteSet{abnfUnreserved, abnfReserved, abnfChars("%"), abnfOutside.without(abnfChars("[]"))} {
			if s[c] {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q is in %d of unreserved, reserved, %%, outside; want 1", byte(c), n)
		}
	}
}

// TestByteClassTable rebuilds percent.go's byteClass from RFC 3986's ABNF
// (abnfClasses) and compares every class bit of every byte, and that the
// table sets no bit the classes do not name.
func TestByteClassTable(t *testing.T) {
	var all uint16
	for _, cl := range abnfClasses() {
		if cl.bit == 0 || cl.bit&(cl.bit-1) != 0 || all&cl.bit != 0 {
			t.Fatalf("%s = %#x: not a class bit of its own", cl.name, cl.bit)
		}
		all |= cl.bit
		var wrong []string
		for c := range 256 {
			if got := byteClass[c]&cl.bit != 0; got != cl.set[c] {
				wrong = append(wrong, fmt.Sprintf("%q: %v", byte(c), got))
			}
		}
		if len(wrong) > 0 {
			t.Errorf("byteClass[c]&%s != 0 is wrong for %d bytes (the table's answer shown): %s", cl.name, len(wrong), strings.Join(wrong, ", "))
		}
	}
	for c := range 256 {
		if extra := byteClass[c] &^ all; extra != 0 {
			t.Errorf("byteClass[%q] has bits %#x that no class of the test names", byte(c), extra)
		}
	}
}
