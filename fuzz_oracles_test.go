package canon

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The oracles of FuzzNoFalseMerge and FuzzResolve. They derive what a key
// must be from RFC 3986 and RFC 3987 alone, with the character sets
// written out here and in percent_test.go (RFC 3986's ABNF) rather than
// read from byteClass, so that a mistake in the library's tables cannot
// hide itself. The other oracles of the tests use these too, and their
// own transcriptions of what the package documents (oracleTrim) and of
// the schemes' default ports, not the package's functions.

const (
	// outsideURI holds the ASCII characters that are outside the URI
	// grammar in every component (RFC 3987 §3.1 step 2 percent-encodes
	// them): space " < > [ \ ] ^ ` { | } and DEL.
	outsideURI = " \"<>[\\]^`{|}\x7f"
	// subDelims are RFC 3986 §2.2's sub-delims.
	subDelims = "!$&'()*+,;="
)

// noFalseMergeProfiles are the predefined profiles that promise never to
// merge two different resources. POWDER merges by design.
var noFalseMergeProfiles = []Profile{RFC3986, IRI, WebCapture}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isASCIIDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isASCIIHex(c byte) bool {
	return isASCIIDigit(c) || ('a' <= c|0x20 && c|0x20 <= 'f')
}

// isTriplet reports whether s[i:] starts with "%" and two hex digits.
// isUnreservedTest is RFC 3986's unreserved: ALPHA DIGIT - . _ ~.
func isUnreservedTest(c byte) bool {
	return isASCIILetter(c) || isASCIIDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

func isTriplet(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && isASCIIHex(s[i+1]) && isASCIIHex(s[i+2])
}

// pctEncode writes every byte of s as a triplet with uppercase hex.
func pctEncode(s string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, 3*len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, '%', hex[s[i]>>4], hex[s[i]&15])
	}
	return string(b)
}

// decodeTriplets decodes every valid triplet of s once, as POWDER's
// DecodeAll does before it parses.
func decodeTriplets(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if isTriplet(s, i) {
			b = append(b, unhexTest(s[i+1])<<4|unhexTest(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// oracleTrim trims what Parse documents it trims: leading and trailing
// spaces and C0 control characters (the bytes up to 0x20).
func oracleTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// oracleHasDotSegment reports whether path has a "." or ".." segment,
// which RFC 3986 §5.2.4's remove_dot_segments removes.
func oracleHasDotSegment(path string) bool {
	return slices.ContainsFunc(strings.Split(path, "/"), func(seg string) bool { return seg == "." || seg == ".." })
}

// oracleDefaultPorts are the ports the schemes' specifications define,
// which RFC 3986 §6.2.3 lets a normalizer remove: RFC 9110 §4.2.1-4.2.2
// (http 80, https 443), RFC 6455 §3 (ws 80, wss 443), RFC 1738 §3.2 (ftp
// 21). They are also the schemes whose specification requires a host
// (oracleNeedsHost).
var oracleDefaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}

// oracleIsDefaultPort reports whether port is the default port of scheme.
func oracleIsDefaultPort(scheme, port string) bool {
	d, ok := oracleDefaultPorts[strings.ToLower(scheme)]
	return ok && port == d
}

// oracleNeedsHost reports whether the scheme's specification requires a
// non-empty host: http and https (RFC 9110 §4.2.1-4.2.2), ws and wss (RFC
// 6455 §3), ftp (RFC 1738 §3.2).
func oracleNeedsHost(scheme string) bool {
	_, ok := oracleDefaultPorts[strings.ToLower(scheme)]
	return ok
}

func unhexTest(c byte) byte {
	if isASCIIDigit(c) {
		return c - '0'
	}
	return (c | 0x20) - 'a' + 10
}

// compSpan is the path, query or fragment of an input, as offsets into the
// input as Parse read it.
type compSpan struct {
	comp       Component
	start, end int
}

// locate parses in and returns it as Parse read it (trimmed: Ref.String
// gives it back byte for byte, which FuzzParse checks) with the spans of
// its path (always) and of its query and fragment when present.
func locate(in string) (s string, r Ref, spans []compSpan, ok bool) {
	r, err := Parse(in)
	if err != nil {
		return "", Ref{}, nil, false
	}
	s = r.String()
	end := len(s)
	var frag, query compSpan
	if r.HasFragment {
		frag = compSpan{ComponentFragment, end - len(r.Fragment), end}
		end = frag.start - 1
	}
	if r.HasQuery {
		query = compSpan{ComponentQuery, end - len(r.Query), end}
		end = query.start - 1
	}
	spans = append(spans, compSpan{ComponentPath, end - len(r.Path), end})
	if r.HasQuery {
		spans = append(spans, query)
	}
	if r.HasFragment {
		spans = append(spans, frag)
	}
	return s, r, spans, true
}

// mayDropSegments reports whether dot removal may drop part of path, so
// that a change inside it need not change the key: some segment is "."
// or "..", with its dots written "%2E" or not, where a segment also ends
// at a ";" (RFC 1808, whose dot rules WebCapture follows, parses
// ";params" off the path).
func mayDropSegments(path string) bool {
	for _, seg := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == ';' }) {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "%2E", "."), "%2e", ".")
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// encodingClass is what percent-encoding one character of a path, query
// or fragment must do to the RFC3986 and IRI keys.
type encodingClass uint8

const (
	encSkip     encodingClass = iota // no expectation
	encSame                          // unreserved (RFC 3986 §2.3, §6.2.2.2): same key
	encDiffer                        // a delimiter (§2.2): another key
	encOutside                       // ASCII outside the grammar: encoded anyway, same key
	encNonASCII                      // non-ASCII or invalid UTF-8: encoded by RFC 3987 §3.1
)

// classify says what encoding the character at s[i] (in sp) must do.
// "." is skipped, as "%2E" can make a dot segment; so is "/" at the
// start of the path, which separates it from the authority or makes it
// absolute; a "#" in the fragment is outside the grammar (§3.5).
func classify(s string, sp compSpan, i int) encodingClass {
	c := s[i]
	switch {
	case c >= utf8.RuneSelf:
		return encNonASCII
	case isASCIILetter(c) || isASCIIDigit(c) || c == '-' || c == '_' || c == '~':
		return encSame
	case strings.IndexByte(subDelims+":@?", c) >= 0, c == '/' && i > sp.start:
		return encDiffer
	case strings.IndexByte(outsideURI, c) >= 0, c == '#' && sp.comp == ComponentFragment:
		return encOutside
	}
	return encSkip
}

// checkInputMutations is the no-false-merge oracle on the input itself:
// for up to 64 characters of the path, query and fragment of in, it
// percent-encodes the character, and flips the case of an ASCII letter,
// and compares the keys.
//
//   - RFC3986 and IRI: an encoded unreserved character gives the same
//     key, an encoded delimiter another one, and an encoded character
//     outside the URI grammar the same key (EncodeToURI and EncodeToIRI
//     encode it anyway).
//   - RFC3986: an encoded non-ASCII character gives the same key.
//   - IRI: the key of an input with an encoded non-ASCII character is the
//     IRI key of the RFC3986 key, as the RFC 3987 §3.1 mapping commutes
//     with the §5.3 ladder (IRI keeps some characters encoded, so it need
//     not be the input's own IRI key).
//   - RFC3986, IRI and WebCapture: a letter whose case is flipped gives
//     another key (paths and queries are case-sensitive), except in a
//     fragment WebCapture removes.
//
// A variant or input that fails to normalize is no evidence either way;
// neither is a change inside a path with dot segments, which removal may
// drop.
func checkInputMutations(t testing.TB, in string) {
	t.Helper()
	s, r, spans, ok := locate(in)
	if !ok {
		return
	}
	var keys [3]string // by noFalseMergeProfiles; "" where it fails
	for j, p := range noFalseMergeProfiles {
		keys[j], _ = Normalize(s, p)
	}
	kURI, kIRI := keys[0], keys[1]
	var kIRIofURI string
	if kURI != "" {
		kIRIofURI, _ = Normalize(kURI, IRI)
	}
	dotted := mayDropSegments(r.Path)
	n := 0
	for _, sp := range spans {
		for i := sp.start; i < sp.end && n < 64; {
			if isTriplet(s, i) && i+3 <= sp.end {
				i += 3 // an escape is the key-mutation oracle's business
				continue
			}
			size := 1
			if s[i] >= utf8.RuneSelf {
				_, size = utf8.DecodeRuneInString(s[i:sp.end]) // 1 for an invalid byte
			}
			n++
			inPath := sp.comp == ComponentPath
			variant := s[:i] + pctEncode(s[i:i+size]) + s[i+size:]
			switch class := classify(s, sp, i); class {
			case encSame, encOutside:
				expectKey(t, s, variant, RFC3986, kURI, true)
				expectKey(t, s, variant, IRI, kIRI, true)
			case encDiffer:
				if !(inPath && dotted) {
					expectKey(t, s, variant, RFC3986, kURI, false)
					expectKey(t, s, variant, IRI, kIRI, false)
				}
			case encNonASCII:
				expectKey(t, s, variant, RFC3986, kURI, true)
				if kIRIofURI != "" {
					if got, err := Normalize(variant, IRI); err == nil && got != kIRIofURI {
						t.Fatalf("no-false-merge: Normalize(%q, IRI) = %q, want Normalize(Normalize(%q, RFC3986) = %q, IRI) = %q", variant, got, s, kURI, kIRIofURI)
					}
				}
			}
			if c := s[i]; isASCIILetter(c) && !(inPath && dotted) {
				flipped := s[:i] + string(c^0x20) + s[i+1:]
				for j, p := range noFalseMergeProfiles {
					if sp.comp == ComponentFragment && p.Has(RemoveFragment) {
						continue
					}
					expectKey(t, s, flipped, p, keys[j], false)
				}
			}
			i += size
		}
	}
}

// expectKey asserts that variant's key under p is key (same) or is not
// (!same), when both normalize.
func expectKey(t testing.TB, in, variant string, p Profile, key string, same bool) {
	t.Helper()
	if key == "" {
		return
	}
	got, err := Normalize(variant, p)
	if err != nil || (got == key) == same {
		return
	}
	t.Fatalf("no-false-merge: Normalize(%q, %s) = %q and Normalize(%q, %[2]s) = %q: same = %v, want %v", in, name(p), key, variant, got, got == key, same)
}

// skeleton is the sequence of ASCII delimiters of s: its ASCII bytes
// that are not letters or digits (so not the hex digits of a triplet),
// not "%", not one of "-._~" (which DecodeUnreserved makes from "%2D" and
// its like), and not in drop.
func skeleton(s, drop string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || isASCIILetter(c) || isASCIIDigit(c) || strings.IndexByte("%-._~", c) >= 0 || strings.IndexByte(drop, c) >= 0 {
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// checkDelimiterSkeleton asserts that RFC3986, IRI and WebCapture create,
// remove and move no ASCII delimiter in the query and the fragment, nor
// in a path without dots: the key's delimiters are the input's, less the
// characters outside the URI grammar for the profiles that encode them
// (and a second "#", outside the grammar of a fragment). WebCapture
// writes a space that would end the key as "%20", so spaces are not
// compared there; it removes the fragment.
func checkDelimiterSkeleton(t testing.TB, in string) {
	t.Helper()
	s, ri, _, ok := locate(in)
	if !ok {
		return
	}
	for _, p := range noFalseMergeProfiles {
		key, err := Normalize(s, p)
		if err != nil {
			continue
		}
		rk, err := Parse(key)
		if err != nil {
			t.Fatalf("Parse(Normalize(%q, %s) = %q): %v", s, name(p), key, err)
		}
		dropIn, dropKey := "", ""
		if p.Has(EncodeToURI) || p.Has(EncodeToIRI) {
			dropIn = outsideURI
		} else {
			dropIn, dropKey = " ", " "
		}
		compare := func(comp, from, to, dropFrom string) {
			if a, b := skeleton(from, dropFrom), skeleton(to, dropKey); a != b {
				t.Fatalf("delimiters: Normalize(%q, %s) = %q: %s delimiters %q, want the input's %q", s, name(p), key, comp, b, a)
			}
		}
		// Dot removal removes "/" (and what is between); AddHTTPRootPath
		// writes an empty path as "/".
		pathDots := strings.Contains(ri.Path, ".") || strings.Contains(strings.ToUpper(ri.Path), "%2E") || strings.Contains(rk.Path, ".")
		if !pathDots && !(ri.Path == "" && rk.Path == "/") {
			compare("path", ri.Path, rk.Path, dropIn)
		}
		compare("query", ri.Query, rk.Query, dropIn)
		if !p.Has(RemoveFragment) {
			compare("fragment", ri.Fragment, rk.Fragment, dropIn+"#")
		}
	}
}

// hadAuthority reports whether s, read as p reads it, has an authority.
// POWDER reads more of them than Parse: it decodes every triplet once
// before parsing ("%2F%2Fx" is "//x"), and DefaultScheme reads
// "scheme:" followed by a port as a host ("http:1/a" is
// "http://http:1/a"). An input that does not parse counts as having one,
// as the oracle can then say nothing.
func hadAuthority(s string, p Profile) bool {
	if p.Has(ParseSafeBrowsing) {
		// Safe Browsing's document reads a host in every URL: it decodes
		// the whole URL first ("%2F%2Fh" is "//h"), and an input without a
		// scheme is "http://" + input. It makes its authorities by design.
		return true
	}
	r, err := Parse(s)
	if err != nil || r.HasAuthority {
		return true
	}
	if p.Has(DecodeAll) {
		if r, err := Parse(decodeTriplets(oracleTrim(s))); err != nil || r.HasAuthority {
			return true
		}
	}
	if p.Has(ParseWHATWG) {
		// The standard gives a special URL a host whatever the slashes
		// ("file:/a" has the empty host, "http:h" the host h). Read as
		// NormalizeRef reads a base: the standard alone (DefaultScheme
		// would read "http:70000" as a host and port).
		if k, err := Normalize(s, profileOf(1<<ParseWHATWG, nil)); err == nil {
			if r, err := Parse(k); err == nil && r.HasAuthority {
				return true
			}
		}
	}
	if p.Has(DefaultScheme) && r.IsAbs() {
		if k, err := Normalize(s, p); err == nil {
			if r, err := Parse(k); err == nil && r.HasAuthority {
				return true
			}
		}
	}
	return false
}

// checkRefAuthority asserts that resolving ref against base creates no
// authority: if the target has one, the base or the reference had one
// (a path like "//evil.com/x" in a URI without an authority must be
// written so that it reads back as a path). It runs NormalizeRef under
// every predefined profile, and Resolve, and also holds NormalizeRef to
// the error contract, its results to idempotence, and under the profiles
// that read URLs as the WHATWG URL Standard does to the key of the
// standard's resolution (checkRefIsWHATWGThenKey).
func checkRefAuthority(t *testing.T, base, ref string) {
	t.Helper()
	// check takes the profile whose reading of the inputs counts, and
	// how to name the call in a failure.
	check := func(p Profile, got string, call func() string) {
		t.Helper()
		r, err := Parse(got)
		if err != nil {
			return // a POWDER key need not be strict syntax; no claim
		}
		if r.HasAuthority && !hadAuthority(base, p) && !hadAuthority(ref, p) {
			t.Fatalf("%s = %q: an authority (%q) that neither the base nor the reference had", call(), got, r.Host)
		}
	}
	for _, p := range everyProfile {
		got, err := NormalizeRef(base, ref, p)
		if err != nil {
			checkError(t, "NormalizeRef", base+" "+ref, got, err)
			continue
		}
		if again, err := Normalize(got, p); again != got || err != nil {
			t.Fatalf("NormalizeRef(%q, %q, %s) = %q; Normalize of that = %q, %v: not idempotent", base, ref, name(p), got, again, err)
		}
		check(p, got, func() string { return fmt.Sprintf("NormalizeRef(%q, %q, %s)", base, ref, name(p)) })
	}
	for _, p := range whatwgRefProfiles {
		checkRefIsWHATWGThenKey(t, base, ref, p)
	}
	if got, err := Resolve(base, ref); err == nil {
		check(Profile{}, got, func() string { return fmt.Sprintf("Resolve(%q, %q)", base, ref) })
	}
}
