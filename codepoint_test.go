package canon

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// scanPosition is a place in a URL where TestCodePointScan puts a code
// point: the input is prefix + r + suffix.
type scanPosition struct {
	name           string
	prefix, suffix string
	// delims: r is in the path, query or fragment, where the no-false-merge
	// profiles must keep the input's ASCII delimiters exactly.
	delims bool
}

var scanPositions = []scanPosition{
	{"path", "http://h/a", "b", true},
	{"query", "http://h/?a=", "b", true},
	{"fragment", "http://h/#a", "b", true},
	{"userinfo", "http://u", "@h/", false},
	{"host", "http://a", "b.com/", false},
	// Right after an ASCII delimiter, where a combining mark could compose
	// with it ("=" + U+0338 is U+2260 in NFC).
	{"query-after-delim", "http://h/?a=", "", true},
	{"path-after-semicolon", "http://h/a;", "", true},
}

// scanRunes yields every Unicode scalar value from U+00A0 on, or when
// sample is set the 81,562 of them that scanSampled keeps, of the
// 1,111,904.
func scanRunes(sample bool) iter.Seq[rune] {
	return func(yield func(rune) bool) {
		for r := rune(0xA0); r <= utf8.MaxRune; r++ {
			if r >= 0xD800 && r <= 0xDFFF {
				continue
			}
			if sample && !scanSampled(r) {
				continue
			}
			if !yield(r) {
				return
			}
		}
	}
}

// scanSampled reports whether the sampled scan keeps r: every code point
// of the Basic Multilingual Plane, where the ASCII lookalikes, the
// compatibility forms and the scripts most URLs carry live; and above
// it every 97th code point, the two noncharacters that end each plane,
// and every code point that some step could turn into something else:
// one that NFKC changes (the mathematical alphanumerics, U+1F100 "0."
// and its kin, the CJK compatibility ideographs: UTS #46 maps them in a
// host), one with a case mapping (Deseret, Osage, Adlam...), a mark
// (combining, or a variation selector, which UTS #46 ignores), and a
// format or default-ignorable character (the tags, U+1D173..U+1D17A).
// The rest above U+FFFF (letters of scripts that no table maps,
// unassigned and private-use code points) is reached by the stride.
func scanSampled(r rune) bool {
	if r <= 0xFFFF || r%97 == 0 || r&0xFFFE == 0xFFFE {
		return true
	}
	s := string(r)
	return !norm.NFKC.IsNormalString(s) || unicode.SimpleFold(r) != r ||
		unicode.In(r, unicode.M, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// appendDelims appends to dst the ASCII bytes of s that are neither a
// letter, a digit nor "%". Those are the delimiters (and characters
// outside the grammar) whose presence and order decide how a URL reads;
// a percent-encoded triplet contributes nothing, as its hex digits are
// letters and digits.
func appendDelims(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < utf8.RuneSelf && c != '%' && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			dst = append(dst, c)
		}
	}
	return dst
}

// afterAuthority returns what follows the authority of s, which must
// start with a scheme and "//": the path, query and fragment with their
// delimiters. It splits the way RFC 3986 §3.2 says, independently of the
// package's parser.
func afterAuthority(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	s = s[i+3:]
	if k := strings.IndexAny(s, "/?#"); k >= 0 {
		return s[k:]
	}
	return ""
}

// appendPercentEncoded appends r as UTF-8 in percent-encoded triplets with
// uppercase hex, as RFC 3987 §3.1 maps a character to a URI.
func appendPercentEncoded(dst []byte, r rune) []byte {
	const hex = "0123456789ABCDEF"
	var b [utf8.UTFMax]byte
	for _, c := range b[:utf8.EncodeRune(b[:], r)] {
		dst = append(dst, '%', hex[c>>4], hex[c&15])
	}
	return dst
}

// errorKind is what TestCodePointScan tells errors apart by.
type errorKind struct {
	form string
	err  error
	comp Component
}

func isSentinel(err error) bool {
	for _, s := range sentinels {
		if err == s {
			return true
		}
	}
	return false
}

// scanFailures collects the failures of a scan by class, so that a
// systematic defect gives a few examples and a count, not a million lines.
type scanFailures struct {
	count    map[string]int
	classes  []string
	examples []string
}

const maxScanExamples = 20

func (f *scanFailures) add(class, format string, args ...any) {
	if f.count == nil {
		f.count = map[string]int{}
	}
	if f.count[class] == 0 {
		f.classes = append(f.classes, class)
	}
	f.count[class]++
	if len(f.examples) < maxScanExamples {
		f.examples = append(f.examples, fmt.Sprintf(format, args...))
	}
}

func (f *scanFailures) report(t *testing.T) {
	t.Helper()
	for _, e := range f.examples {
		t.Error(e)
	}
	for _, c := range f.classes {
		t.Errorf("%s: %d failures", c, f.count[c])
	}
}

// TestCodePointScan puts every code point from U+00A0 on in the path,
// query, fragment, userinfo and host of a URL, and right after a "=" and a
// ";", and checks under every predefined profile: no panic, the error
// contract (checkError), idempotence, and for the profiles that promise no
// false merge (WebCapture, RFC3986, IRI) that the path, query and fragment
// keep exactly the input's ASCII delimiters, in order: a non-ASCII
// character may be percent-encoded or normalized, but never become, eat
// or move a "/", "?", ";", "=", "`" ... The same input with the code point
// percent-encoded must keep them too under RFC3986 and IRI, which read
// escapes (IRI decodes those of ucschar).
//
// With -long (as .ci/run runs it) the scan covers every code point:
// 1,111,904 code points x 7 positions x 5 profiles, plus the encoded forms
// under RFC3986 and IRI, about 55 million Normalize calls and one more for
// each key that is not its input. Without -long it scans the sample of
// scanSampled, 81,562 code points: the whole BMP and the code points above
// it whose properties differ from their neighbours'.
func TestCodePointScan(t *testing.T) {
	sample := !*longTests
	n := 0
	for range scanRunes(sample) {
		n++
	}
	if sample {
		t.Logf("%d code points (a sample; -long scans all 1,111,904)", n)
	} else if n != 1111904 {
		t.Fatalf("the scan yields %d code points, want all 1,111,904 scalar values from U+00A0 on", n)
	}
	noFalseMerge := map[Profile]bool{WebCapture: true, RFC3986: true, IRI: true}
	readsEscapes := map[Profile]bool{RFC3986: true, IRI: true}
	for _, p := range allProfiles {
		t.Run(name(p), func(t *testing.T) {
			t.Parallel()
			wantDelims := make([]string, len(scanPositions))
			for i, pos := range scanPositions {
				// r is not ASCII, so the input's delimiters are those
				// around it, less the fragment when the profile drops it.
				in := pos.prefix + pos.suffix
				if k := strings.IndexByte(in, '#'); k >= 0 && p.Has(RemoveFragment) {
					in = in[:k]
				}
				wantDelims[i] = string(appendDelims(nil, afterAuthority(in)))
			}
			var fails scanFailures
			seen := map[errorKind]bool{}
			var buf, got []byte
			// check runs the checks on one input, with r raw or encoded.
			check := func(pos scanPosition, want string, in string, r rune, encoded bool) {
				form := pos.name
				if encoded {
					form += " (encoded)"
				}
				defer func() {
					if v := recover(); v != nil {
						fails.add(name(p)+"/"+form+": panic", "Normalize(%q, %s) panicked: %v", in, name(p), v)
					}
				}()
				out, err := Normalize(in, p)
				if err != nil {
					// checkError (fuzz_test.go) checks the error text too,
					// which costs more than Normalize: it runs on the first
					// error of each kind, and on any error that fails the
					// cheap part of its checks, to report it and stop.
					var e *Error
					if !errors.As(err, &e) {
						checkError(t, "Normalize", in, out, err)
					}
					k := errorKind{form, e.Err, e.Component}
					if !seen[k] || out != "" || e.Offset < -1 || e.Offset > len(e.Input) || !isSentinel(e.Err) {
						seen[k] = true
						checkError(t, "Normalize", in, out, err)
					}
					return
				}
				if out != in { // when it is, Normalize(out) is out again
					if again, err := Normalize(out, p); again != out || err != nil {
						fails.add(name(p)+"/"+form+": not idempotent",
							"Normalize(%q, %s) = %q, Normalize of that = %q, %v (U+%04X): not idempotent", in, name(p), out, again, err, r)
					}
				}
				if pos.delims && (noFalseMerge[p] && !encoded || readsEscapes[p] && encoded) {
					got = appendDelims(got[:0], afterAuthority(out))
					if string(got) != want {
						fails.add(name(p)+"/"+form+": delimiters changed",
							"Normalize(%q, %s) = %q (U+%04X): delimiters after the authority %q, want %q", in, name(p), out, r, got, want)
					}
				}
			}
			for r := range scanRunes(sample) {
				for i, pos := range scanPositions {
					buf = append(buf[:0], pos.prefix...)
					buf = utf8.AppendRune(buf, r)
					buf = append(buf, pos.suffix...)
					check(pos, wantDelims[i], string(buf), r, false)
					if readsEscapes[p] {
						buf = append(buf[:0], pos.prefix...)
						buf = appendPercentEncoded(buf, r)
						buf = append(buf, pos.suffix...)
						check(pos, wantDelims[i], string(buf), r, true)
					}
				}
			}
			fails.report(t)
		})
	}
}

// asciiPunct is the printable ASCII that is not a letter or a digit.
func asciiPunct() []byte {
	var out []byte
	for c := byte(' '); c < 0x7f; c++ {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			out = append(out, c)
		}
	}
	return out
}

// TestNFCToASCIIList derives from golang.org/x/text's tables, by brute
// force, the two ways NFC can turn non-ASCII text into ASCII or fold ASCII
// into non-ASCII, and checks that IRI, the one profile that applies NFC,
// neither creates nor swallows a delimiter that way:
//
//   - code points whose NFC contains an ASCII byte: U+037E GREEK QUESTION
//     MARK is ";", U+1FEF GREEK VARIA is "`", U+212A KELVIN SIGN is "K"
//     (canonical singletons, UnicodeData.txt);
//   - ASCII punctuation followed by a combining mark that composes with
//     it: "=", "<" and ">" with U+0338 are U+2260, U+226E and U+226F.
//
// If a new Unicode version adds to either list, this test says so, and
// TestCodePointScan shows what IRI makes of the new entries.
func TestNFCToASCIIList(t *testing.T) {
	var toASCII []rune
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := string(r)
		if norm.NFC.IsNormalString(s) {
			continue // its NFC is itself, which is not ASCII
		}
		nfc := norm.NFC.String(s)
		for i := 0; i < len(nfc); i++ {
			if nfc[i] < utf8.RuneSelf {
				toASCII = append(toASCII, r)
				break
			}
		}
	}
	if want := []rune{0x037E, 0x1FEF, 0x212A}; !slices.Equal(toASCII, want) {
		t.Errorf("code points whose NFC holds ASCII: %U, want %U", toASCII, want)
	}

	// Combining marks: every code point with a nonzero canonical combining
	// class, and U+0338 in any case.
	marks := []rune{0x0338}
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF || r == 0x0338 {
			continue
		}
		if norm.NFC.PropertiesString(string(r)).CCC() != 0 {
			marks = append(marks, r)
		}
	}
	if len(marks) < 500 {
		t.Fatalf("only %d combining marks found: the scan is broken", len(marks))
	}
	// A pair composes when c does not come out of NFC as itself followed
	// by the NFC of m (which is not m for the singletons U+0340, U+0341,
	// U+0343 and U+0344, whatever precedes them).
	var composing []string
	for _, c := range asciiPunct() {
		for _, m := range marks {
			if norm.NFC.String(string(c)+string(m)) != string(c)+norm.NFC.String(string(m)) {
				composing = append(composing, string(c)+string(m))
			}
		}
	}
	for _, want := range []string{"=\u0338", "<\u0338", ">\u0338"} {
		if !slices.Contains(composing, want) {
			t.Errorf("%+q does not compose under NFC: the scan or the tables are broken", want)
		}
	}
	if len(composing) != 3 {
		t.Errorf("ASCII punctuation + combining mark pairs that compose: %+q, want the three with U+0338", composing)
	}

	// Under IRI, such a pair must keep its ASCII byte, raw or
	// percent-encoded ("<" and ">" are outside the grammar): NFC must not
	// swallow a delimiter into a character that is not one.
	for _, pair := range composing {
		c := pair[0]
		enc := fmt.Sprintf("%%%02X", c)
		for _, in := range []string{"http://h/a" + pair, "http://h/?a" + pair} {
			t.Run(fmt.Sprintf("%+q", in), func(t *testing.T) {
				out, err := Normalize(in, IRI)
				if err != nil {
					t.Fatalf("Normalize(%q, IRI): %v", in, err)
				}
				rest := afterAuthority(out)
				if !strings.Contains(rest, string(c)) && !strings.Contains(rest, enc) {
					t.Errorf("Normalize(%q, IRI) = %q: %q is gone (NFC composed it with the mark)", in, out, c)
				}
				if again, err := Normalize(out, IRI); again != out || err != nil {
					t.Errorf("Normalize(%q, IRI) = %q, %v: not idempotent (from %q)", out, again, err, in)
				}
			})
		}
	}
}
