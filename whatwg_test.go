package canon

import (
	"errors"
	"fmt"
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
// percent-encode sets (whatwgSet) against the slow transcription's
// definitions, for every byte. (A non-ASCII byte belongs to every set: its
// code point is above U+007E.)
func TestWHATWGEncodeSets(t *testing.T) {
	sets := []struct {
		name string
		bit  uint8
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
			if got := whatwgSet[c]&set.bit != 0; got != want {
				t.Errorf("%s percent-encode set: byte %#02x in the table = %v, want %v", set.name, c, got, want)
			}
		}
	}
}
