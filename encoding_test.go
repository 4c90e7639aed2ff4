package canon

import (
	"errors"
	"strings"
	"testing"
)

// allEncodings returns the zero Encoding (UTF-8) and every encoding a
// query can be written in.
func allEncodings() []Encoding {
	encs := []Encoding{{}}
	for _, pe := range pageEncodings {
		encs = append(encs, Encoding{pe})
	}
	return encs
}

// encodingProfiles are the predefined profiles that read a page
// encoding (ParseWHATWG).
var encodingProfiles = []Profile{WHATWG, Crawler, Archive, Aggressive}

// TestEncodingProfiles checks where an encoding applies: a profile
// without ParseWHATWG refuses one other than UTF-8 (ErrEncoding), in
// Normalize, AppendNormalized and NormalizeRef alike, and takes UTF-8.
func TestEncodingProfiles(t *testing.T) {
	// Each encoding of pageEncodings is one of the standard's, once.
	seen := map[string]bool{}
	for _, enc := range allEncodings()[1:] {
		got, err := LookupEncoding(enc.Name())
		if err != nil || got != enc || seen[enc.Name()] {
			t.Errorf("LookupEncoding(%q) = %s, %v, want itself, once", enc.Name(), got, err)
		}
		seen[enc.Name()] = true
	}
	sjis, _ := LookupEncoding("shift_jis")
	for _, p := range []Profile{WebCapture, RFC3986, IRI, POWDER, SafeBrowsing} {
		const in = "http://example.com/?q=x"
		if _, err := sjis.Normalize(in, p); !errors.Is(err, ErrEncoding) {
			t.Errorf("Shift_JIS.Normalize(%q, %s) error = %v, want ErrEncoding", in, name(p), err)
		}
		if dst, err := sjis.AppendNormalized([]byte("x"), in, p); !errors.Is(err, ErrEncoding) || string(dst) != "x" {
			t.Errorf("Shift_JIS.AppendNormalized(%q, %s) = %q, %v, want dst and ErrEncoding", in, name(p), dst, err)
		}
		if _, err := sjis.NormalizeRef(in, "?q=y", p); !errors.Is(err, ErrEncoding) {
			t.Errorf("Shift_JIS.NormalizeRef(%q, %s) error = %v, want ErrEncoding", in, name(p), err)
		}
		var utf8 Encoding
		want, _ := Normalize(in+"é", p)
		if got, err := utf8.Normalize(in+"é", p); got != want || err != nil {
			t.Errorf("Encoding{}.Normalize(%q, %s) = %q, %v, want %q", in+"é", name(p), got, err, want)
		}
	}
	for _, p := range encodingProfiles {
		if got, err := sjis.NormalizeRef("http://example.jp/", "?q=日本", p); err != nil || !strings.Contains(strings.ToUpper(got), "?Q=%93%FA%96{") { // (Archive and Aggressive lowercase the query)
			t.Errorf("Shift_JIS.NormalizeRef(?q=日本, %s) = %q, %v", name(p), got, err)
		}
	}
}

// FuzzEncoding holds Encoding.Normalize and Encoding.NormalizeRef, in
// every encoding and every predefined profile with ParseWHATWG, to
// oracles that need no second implementation: every error is an *Error;
// an input with nothing the encoding writes differently (ASCII; but
// ISO-2022-JP's shift and escape controls) gets UTF-8's key; the zero
// Encoding is the package functions; a key is a fixed point with and
// without the encoding (its query is ASCII); and the key's scheme,
// host, path and fragment are UTF-8's.
func FuzzEncoding(f *testing.F) {
	for _, s := range []string{"http://example.jp/?q=日本", "https://h/日本?日本#日本", "ws://h/?q=日", "foo://h/?q=日", "http://h/?\x0eA", "http://h/?‾\\¥", "file:///C:/?ｱﾞﾟ−", "http://h/?q=€😀&#8364;", "http://h/a\tb?c\nd=é"} {
		f.Add(s, "?x=ソ", uint8(0), uint8(0))
	}
	for i, s := range seedInputs(f) {
		if i%16 == 0 {
			f.Add(s, "../é?q=é#é", uint8(i), uint8(i/3))
		}
	}
	encs := allEncodings()
	f.Fuzz(func(t *testing.T, in, ref string, ei, pi uint8) {
		enc, p := encs[int(ei)%len(encs)], encodingProfiles[int(pi)%len(encodingProfiles)]
		key, err := enc.Normalize(in, p)
		utf, uerr := Normalize(in, p)
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("%s.Normalize(%q, %s) error %T %v, want an *Error", enc, in, name(p), err, err)
		}
		same := enc.pe == nil || !enc.pe.changes(in)
		if same && (key != utf || (err == nil) != (uerr == nil)) {
			t.Fatalf("%s.Normalize(%q, %s) = %q, %v; Normalize = %q, %v: nothing to write differently", enc, in, name(p), key, err, utf, uerr)
		}
		if err == nil {
			if k2, err := enc.Normalize(key, p); k2 != key || err != nil {
				t.Fatalf("%s.Normalize(%q, %s) = %q, %v, want the key itself", enc, key, name(p), k2, err)
			}
			if k2, err := Normalize(key, p); k2 != key || err != nil {
				t.Fatalf("Normalize(%q, %s) = %q, %v: the key of %q in %s, want itself", key, name(p), k2, err, in, enc)
			}
			if uerr == nil {
				a, _ := Parse(key)
				b, _ := Parse(utf)
				if a.Scheme != b.Scheme || a.Host != b.Host || a.Path != b.Path || a.Fragment != b.Fragment {
					t.Fatalf("%s.Normalize(%q, %s) = %q, Normalize = %q: more than the query differs", enc, in, name(p), key, utf)
				}
			}
		}
		rkey, err := enc.NormalizeRef(in, ref, p)
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("%s.NormalizeRef(%q, %q, %s) error %T %v, want an *Error", enc, in, ref, name(p), err, err)
		}
		if enc.pe == nil || !enc.pe.changes(in+ref) {
			if want, werr := NormalizeRef(in, ref, p); rkey != want || (err == nil) != (werr == nil) {
				t.Fatalf("%s.NormalizeRef(%q, %q, %s) = %q, %v; NormalizeRef = %q, %v", enc, in, ref, name(p), rkey, err, want, werr)
			}
		}
		if err == nil {
			if k2, err := enc.Normalize(rkey, p); k2 != rkey || err != nil {
				t.Fatalf("%s.Normalize(%q, %s) = %q, %v: the target of %q against %q, want itself", enc, rkey, name(p), k2, err, ref, in)
			}
		}
	})
}

// TestLookupEncodingStrict holds LookupEncoding to "get an encoding":
// only ASCII whitespace is removed and only ASCII letters fold, where
// golang.org/x/text's htmlindex trims and lowercases by Unicode (the
// four refused labels were KOI8-R to it, and are not to Chromium).
func TestLookupEncodingStrict(t *testing.T) {
	for _, l := range []string{"\u212aoi8-r", "\u00a0koi8-r", "koi8-r\u0085", "\vkoi8-r", "koi8-r\x00", "koi8\u2010r"} {
		if enc, err := LookupEncoding(l); !errors.Is(err, ErrEncoding) {
			t.Errorf("LookupEncoding(%q) = %s, %v, want an error wrapping ErrEncoding", l, enc, err)
		}
	}
	for _, l := range []string{" \t\n\f\rKOI8-R \t\n\f\r", "Koi8-R", "koi8-r"} {
		if enc, err := LookupEncoding(l); err != nil || enc.Name() != "KOI8-R" {
			t.Errorf("LookupEncoding(%q) = %s, %v, want KOI8-R", l, enc, err)
		}
	}
}

// TestEncodingASCIIQuery holds docs/profiles.md to its word: a URL whose
// query is ASCII gets UTF-8's key in every encoding, every ASCII byte in
// the query, but the three controls ISO-2022-JP's encoder refuses
// (U+000E, U+000F, U+001B), which it writes as the reference to U+FFFD.
func TestEncodingASCIIQuery(t *testing.T) {
	for _, enc := range allEncodings() {
		for _, p := range encodingProfiles {
			for c := 0; c < 0x80; c++ {
				in := "http://h/?a" + string(rune(c)) + "b"
				got, err := enc.Normalize(in, p)
				utf8 := in
				if enc.Name() == "ISO-2022-JP" && (c == 0x0E || c == 0x0F || c == 0x1B) {
					utf8 = strings.Replace(in, string(rune(c)), "%26%2365533%3B", 1)
				}
				want, werr := Normalize(utf8, p)
				if got != want || (err == nil) != (werr == nil) {
					t.Errorf("%s.Normalize(%q, %s) = %q, %v; want %q, %v", enc.Name(), in, name(p), got, err, want, werr)
				}
			}
		}
	}
}
