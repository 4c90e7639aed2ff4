package canon

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// whatwgHref is the library's WHATWG profile in the form the conformance
// harnesses take: the href of input (against base, if not ""), or false
// where the standard returns failure.
func whatwgHref(input, base string) (string, bool) {
	var key string
	var err error
	if base == "" {
		key, err = Normalize(input, WHATWG)
	} else {
		key, err = NormalizeRef(base, input, WHATWG)
	}
	return key, err == nil
}

func init() {
	whatwgImpls = append(whatwgImpls, whatwgImpl{name: "canon", href: whatwgHref})
	whatwgUnderTest = whatwgHref
}

// TestWHATWGIdempotent holds the WHATWG profile to idempotence on the
// test data the standard's own tests use.
func TestWHATWGIdempotent(t *testing.T) {
	for _, in := range seedInputs(t) {
		key, err := Normalize(in, WHATWG)
		if err != nil {
			continue
		}
		if again, err := Normalize(key, WHATWG); again != key || err != nil {
			t.Errorf("Normalize(%q, WHATWG) = %q, and Normalize of that = %q, %v: not idempotent", in, key, again, err)
		}
	}
}

// FuzzWHATWG holds the WHATWG profile to the slow literal transcription of
// the standard (whatwgSlowHref), with no base and against base, and to the
// invariants of every profile: errors well-formed, idempotence, the fast
// path agreeing with the engine. The two may differ only where canon's
// documented limits reject an input (MaxHostLength, invalid UTF-8).
func FuzzWHATWG(f *testing.F) {
	bases := []string{"http://example.com/a/b?q#f", "file:///C:/dir/file", "foo://h/a/b", "non-special:opaque", "https://u:p@h:8080/d/"}
	for i, s := range seedInputs(f) {
		f.Add(bases[i%len(bases)], s)
	}
	f.Fuzz(func(t *testing.T, base, in string) {
		got, err := Normalize(in, WHATWG)
		checkWHATWG(t, in, "", got, err)
		if err == nil {
			if again, err := Normalize(got, WHATWG); again != got || err != nil {
				t.Fatalf("Normalize(%q, WHATWG) = %q; Normalize of that = %q, %v: not idempotent", in, got, again, err)
			}
			checkFast(t, got, WHATWG)
		}
		checkFast(t, in, WHATWG)
		if base == "" {
			return // (whatwgSlowHref reads "" as no base)
		}
		got, err = NormalizeRef(base, in, WHATWG)
		checkWHATWG(t, in, base, got, err)
		if err == nil {
			if again, err := Normalize(got, WHATWG); again != got || err != nil {
				t.Fatalf("NormalizeRef(%q, %q, WHATWG) = %q; Normalize of that = %q, %v: not idempotent", base, in, got, again, err)
			}
		}
	})
}

// checkWHATWG compares canon's answer for in (against base, if not "")
// with the slow transcription's.
func checkWHATWG(t *testing.T, in, base, got string, err error) {
	t.Helper()
	want, ok := whatwgSlowHref(in, base)
	call := fmt.Sprintf("Normalize(%q, WHATWG)", in)
	if base != "" {
		call = fmt.Sprintf("NormalizeRef(%q, %q, WHATWG)", base, in)
	}
	if err != nil {
		checkError(t, "WHATWG", in, got, err)
		if errors.Is(err, ErrTooLong) || (errors.Is(err, ErrInvalidChar) && !(utf8.ValidString(base) && utf8.ValidString(in))) {
			return // canon's limits: MaxLength, MaxHostLength, invalid UTF-8
		}
		if ok {
			t.Fatalf("%s: %v, want %q (slow)", call, err, want)
		}
		return
	}
	if !ok || got != want {
		t.Fatalf("%s = %q, want %q, %v (slow)", call, got, want, ok)
	}
}

// TestWHATWGEncodeSets checks the byte table of the standard's
// percent-encode sets (encodeSet) against the slow transcription's
// definitions, for every byte. (A non-ASCII byte belongs to every set: its
// code point is above U+007E.)
func TestWHATWGEncodeSets(t *testing.T) {
	sets := []struct {
		name string
		bit  uint16
		in   func(rune) bool
	}{
		{"C0 control", setC0, inC0ControlPercentEncodeSet},
		{"fragment", setFragment, inFragmentPercentEncodeSet},
		{"query", setQuery, inQueryPercentEncodeSet},
		{"special-query", setSpecialQuery, inSpecialQueryPercentEncodeSet},
		{"path", setPath, inPathPercentEncodeSet},
		{"userinfo", setUserinfo, inUserinfoPercentEncodeSet},
	}
	for _, set := range sets {
		for c := 0; c < 256; c++ {
			want := c >= 0x80 || set.in(rune(c))
			if got := encodeSet[c]&set.bit != 0; got != want {
				t.Errorf("%s percent-encode set: byte %#02x in the table = %v, want %v", set.name, c, got, want)
			}
		}
	}
}

// TestWHATWGACELabelClass checks UTS #46's rule for "xn--" labels in a
// domain that goes through it (one with a non-ASCII label): a label that
// maps to "xn--" and nothing after, or to "xn--" and non-ASCII, is an
// error, however it is spelled: with any code point that UTS #46 maps to
// "x", "n" or "-" (fullwidth letters, the Kelvin-like look-alikes, soft
// hyphens that are ignored), in any place of the domain, after any full
// stop. (golang.org/x/net/idna returned an empty label for "xn--", which
// merged "a。xn--" with "a.".) Every such label must also be rejected in
// IRI, which converts it to Unicode.
func TestWHATWGACELabelClass(t *testing.T) {
	spell := map[byte][]string{'x': {"x", "X"}, 'n': {"n", "N"}, '-': {"-"}}
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) || !testing.Short() && r > 0x2FFFF && r < 0xE0000 {
			continue
		}
		if testing.Short() && r > 0xFFFF {
			break
		}
		m, _ := idnaMapping.ToUnicode(string(r))
		if len(m) == 1 && spell[m[0]] != nil {
			spell[m[0]] = append(spell[m[0]], string(r))
		}
	}
	if len(spell['x']) < 3 || len(spell['n']) < 3 || len(spell['-']) < 3 {
		t.Fatalf("too few spellings found: %q", spell)
	}
	var labels []string
	for _, x := range spell['x'] {
		labels = append(labels, x+"n--")
	}
	for _, n := range spell['n'] {
		labels = append(labels, "x"+n+"--")
	}
	for _, h := range spell['-'] {
		labels = append(labels, "xn"+h+"-", "xn-"+h)
	}
	labels = append(labels, "xn--\u00ad", "x\u00adn--", "xn--é", "xn--9ca\u0301")
	checked := 0
	for _, label := range labels {
		for _, host := range []string{"é." + label, "a\u3002" + label, label + ".é", label + "\uff0ecom", "é." + label + "."} {
			in := "http://" + host + "/"
			if key, err := Normalize(in, WHATWG); err == nil {
				t.Errorf("Normalize(%q, WHATWG) = %q, want an error: UTS #46 rejects the label %q", in, key, label)
			}
			if key, err := Normalize(in, IRI); err == nil && !strings.Contains(key, label) {
				t.Errorf("Normalize(%q, IRI) = %q: the label %q is gone", in, key, label)
			}
			checked++
		}
	}
	// A label that maps to a valid A-label is one: "ｘｎ--9ca" is "é".
	for _, in := range []string{"http://\uff58\uff4e--9ca.é/", "http://x\u00adn--9ca.é/", "http://XN--9CA.é/"} {
		if key, err := Normalize(in, WHATWG); err != nil || key != "http://xn--9ca.xn--9ca/" {
			t.Errorf("Normalize(%q, WHATWG) = %q, %v, want %q", in, key, err, "http://xn--9ca.xn--9ca/")
		}
	}
	t.Logf("%d labels, %d hosts", len(labels), checked)
}
