package canon

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// baseHref is the WHATWG profile through a Base, in the form the
// conformance harnesses take (see whatwgHref): TestWHATWGURLTestData runs
// every row of urltestdata.json through it too.
func baseHref(input, base string) (string, bool) {
	if base == "" {
		key, err := Normalize(input, WHATWG)
		return key, err == nil
	}
	b, err := NewBase(base, WHATWG)
	if err != nil {
		return "", false
	}
	key, err := b.Normalize(input)
	return key, err == nil
}

func init() {
	whatwgImpls = append(whatwgImpls, whatwgImpl{name: "Base", href: baseHref})
}

// sameRef checks that a Base gives what NormalizeRef gives for base and
// ref under p in enc, key and error alike, through Normalize and
// AppendNormalized (after a prefix, which must stay); the errors are
// named for Base (sameErrorAs).
func sameRef(t *testing.T, enc Encoding, base, ref string, p Profile) {
	t.Helper()
	want, werr := enc.NormalizeRef(base, ref, p)
	b, err := enc.NewBase(base, p)
	if err != nil {
		var e *Error
		if werr == nil || !errors.As(err, &e) || e.Op != "NewBase" || e.Arg != "base" {
			t.Fatalf("%s.NewBase(%q, %s) = %v; NormalizeRef(%q) = %q, %v", enc, base, name(p), err, ref, want, werr)
		}
		if !errors.As(werr, &e) || e.Arg != "base" {
			t.Fatalf("%s.NewBase(%q, %s) = %v; NormalizeRef(%q) fails otherwise: %v", enc, base, name(p), err, ref, werr)
		}
		return
	}
	got, err := b.Normalize(ref)
	if got != want || !sameErrorAs(err, werr, "Base.Normalize") {
		t.Fatalf("%s.NewBase(%q, %s).Normalize(%q) = %q, %v; NormalizeRef = %q, %v", enc, base, name(p), ref, got, err, want, werr)
	}
	for _, dst := range [][]byte{nil, []byte("prefix"), make([]byte, 3, 256)} {
		pre := string(dst)
		out, err := b.AppendNormalized(dst, ref)
		if !sameErrorAs(err, werr, "Base.AppendNormalized") || err == nil && string(out) != pre+want || err != nil && string(out) != pre {
			t.Fatalf("%s.NewBase(%q, %s).AppendNormalized(%q, %q) = %q, %v; want %q, %v", enc, base, name(p), pre, ref, out, err, pre+want, werr)
		}
	}
}

// sameAsHref checks that the key of ref against base under p, a profile
// with ParseWHATWG, is the key p gives the href WHATWG makes of them:
// resolution first, then the profile's steps, whichever way the target
// was written (the quick scan, the engine, resolveLean).
func sameAsHref(t *testing.T, enc Encoding, base, ref string, p Profile) {
	t.Helper()
	h, err := enc.NormalizeRef(base, ref, WHATWG)
	if err != nil {
		return
	}
	if r, _ := Parse(h); p.Has(DefaultScheme) && !r.HasAuthority {
		// NormalizeRef refuses a target without an authority that
		// DefaultScheme would read as host and port ("a:0"), which
		// Normalize reads so (readsBack).
		return
	}
	got, err1 := enc.NormalizeRef(base, ref, p)
	want, err2 := enc.Normalize(h, p)
	if got != want || (err1 == nil) != (err2 == nil) {
		t.Fatalf("%s.NormalizeRef(%q, %q, %s) = %q, %v; the WHATWG href %q normalized = %q, %v", enc, base, ref, name(p), got, err1, h, want, err2)
	}
}

// sameErrorAs reports whether err is want but for its Op, which is op:
// Base's methods fail as NormalizeRef does, under their own names.
func sameErrorAs(err, want error, op string) bool {
	var e *Error
	if err != nil && (!errors.As(err, &e) || e.Op != op) {
		return false
	}
	return errTextButOp(err) == errTextButOp(want)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestBase holds Base to NormalizeRef over the RFC resolution examples
// and the seed inputs as references, against bases of every kind, in
// every predefined profile, and in three encodings under the profiles
// that read one.
func TestBase(t *testing.T) {
	bases := []string{"http://a/b/c/d;p?q", "https://example.com/dir/page?x=1#f", "http://example.jp/日本/?q=日本",
		"file:///C:/dir/file", "foo://h/a/b", "mailto:x@y", "blob:https://a/b", "http://h", "HTTP://u:p@H:80/%7e/./x/..",
		"non-special:opaque", "http://[::1]/", "ftp://h/a/", "no-scheme", ""}
	var refs []string
	var ex []resolutionExample
	loadJSON(t, "rfc-resolution.json", &ex)
	for _, c := range ex {
		refs = append(refs, c.Ref)
	}
	for i, s := range seedInputs(t) {
		if i%7 == 0 {
			refs = append(refs, s)
		}
	}
	refs = append(refs, "", "#f", "?q=日本", "//other/x", "\\\\other\\x", "http:g", "x", "../../..", "ソ本?ソ本#ソ本")
	sjis, _ := LookupEncoding("shift_jis")
	iso, _ := LookupEncoding("iso-2022-jp")
	n := 0
	for _, np := range namedProfiles {
		encs := []Encoding{{}}
		if np.p.Has(ParseWHATWG) {
			encs = append(encs, sjis, iso)
		}
		for _, enc := range encs {
			for _, base := range bases {
				for _, ref := range refs {
					sameRef(t, enc, base, ref, np.p)
					n++
				}
			}
		}
	}
	t.Logf("%d (profile, encoding, base, reference) cases", n)
}

// TestBaseCorpus holds Base to NormalizeRef on every line of the bench
// module's corpus (real and messy URLs, and its relative hrefs),
// against two bases, in WHATWG and Crawler: links a crawler meets, where
// the quick scan takes most and hands some over part-way (a NormalizeRef
// that scanned such a reference twice panicked on messy.txt); and the
// key profiles' NormalizeRef to their Normalize of WHATWG's href.
func TestBaseCorpus(t *testing.T) {
	n := 0
	for _, f := range []string{"real.txt", "messy.txt", "hrefs.txt"} {
		b, err := os.ReadFile(filepath.Join("bench", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range strings.Split(string(b), "\n") {
			for _, base := range []string{"https://example.com/dir/page.html?x=1", "http://h/a/b/../c;p?q#f"} {
				for _, p := range []Profile{WHATWG, Crawler} {
					sameRef(t, Encoding{}, base, ref, p)
					n++
				}
				for _, p := range []Profile{Crawler, Archive, Aggressive} {
					sameAsHref(t, Encoding{}, base, ref, p)
				}
			}
		}
	}
	t.Logf("%d references", n)
}

// TestBaseConcurrent resolves the links of one Base from several
// goroutines at once: a Base is never written after NewBase (run with
// -race to see a write; without it, a write shows as a wrong key).
func TestBaseConcurrent(t *testing.T) {
	refs := []string{"", "#f", "?q", "x", "/y/../z", "//h/", "https://e/A", "..", "a b?c d#e f"}
	for _, np := range namedProfiles {
		const base = "HTTP://Example.com/a/b/../c?q#f"
		b, err := NewBase(base, np.p)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]string, len(refs))
		for i, r := range refs {
			want[i], _ = NormalizeRef(base, r, np.p)
		}
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				buf := make([]byte, 0, 8)
				for k := 0; k < 200; k++ {
					i := (k + g) % len(refs)
					got, _ := b.Normalize(refs[i])
					buf, _ = b.AppendNormalized(buf[:0], refs[i])
					if got != want[i] || string(buf) != want[i] {
						t.Errorf("%s: Base.Normalize(%q) = %q, AppendNormalized %q, want %q", np.name, refs[i], got, buf, want[i])
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}

// FuzzBase holds NewBase and Base.Normalize, Base.AppendNormalized to
// NormalizeRef, key and error alike, in every predefined profile and, for
// those that read one, a page encoding; NormalizeRef under Crawler,
// Archive and Aggressive to their Normalize of WHATWG's href (the
// resolution, then the steps); and resolveLean, which writes most
// links, to the engine (sameLean).
func FuzzBase(f *testing.F) {
	for i, s := range seedInputs(f) {
		if i%11 == 0 {
			f.Add("http://a/b/c/d;p?q", s, uint8(i), uint8(i/7))
			f.Add(s, "../x?y#z", uint8(i/3), uint8(0))
		}
	}
	encs := allEncodings()
	f.Fuzz(func(t *testing.T, base, ref string, pi, ei uint8) {
		np := namedProfiles[int(pi)%len(namedProfiles)]
		enc := Encoding{}
		if np.p.Has(ParseWHATWG) {
			enc = encs[int(ei)%len(encs)]
		}
		sameRef(t, enc, base, ref, np.p)
		if np.p.Has(ParseWHATWG) && np.p != WHATWG {
			sameAsHref(t, enc, base, ref, np.p)
		}
		if np.p.Has(ParseWHATWG) {
			// The links that resolveLean writes, as the engine writes them.
			bu := keyValue(base, nil)
			if _, err := whatwgBase(&bu, "test", np.p.plan().refBase); err == nil && leanBase(&bu) {
				sameLean(t, &bu, ref, np.p)
			}
		}
	})
}

// TestBaseErrors checks the errors of NewBase: the base's, named so, and
// an encoding a profile cannot take.
func TestBaseErrors(t *testing.T) {
	for _, c := range []struct {
		base string
		p    Profile
		want error
	}{
		{"/relative", RFC3986, ErrRelative},
		{"/relative", WHATWG, ErrRelative},
		{"http://h:99999/", Crawler, ErrInvalidPort},
		{"http://u:secret@h:x/", SafeBrowsing, ErrInvalidPort},
	} {
		_, err := NewBase(c.base, c.p)
		var e *Error
		if !errors.Is(err, c.want) || !errors.As(err, &e) || e.Op != "NewBase" || e.Arg != "base" || strings.Contains(err.Error(), "secret") {
			t.Errorf("NewBase(%q, %s) = %v, want NewBase(base ...) wrapping %v, no password", c.base, name(c.p), err, c.want)
		}
	}
	sjis, _ := LookupEncoding("sjis")
	if _, err := sjis.NewBase("http://h/", RFC3986); !errors.Is(err, ErrEncoding) {
		t.Errorf("Shift_JIS.NewBase(http://h/, RFC3986) = %v, want ErrEncoding", err)
	}
}
