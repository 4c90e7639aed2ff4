package canon

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkComposedParts holds the parts a resolver composed with its result
// to a fresh parse of the result: the engine writes a resolved URI from
// those parts without reading it again.
func checkComposedParts(t *testing.T, op, base, ref, abs string, got *parts) {
	t.Helper()
	var want parts
	if f := want.parse(abs, syntaxRFC3986); f != nil {
		t.Fatalf("%s(%q, %q) = %q, which does not parse: %v", op, base, ref, abs, f)
	}
	if *got != want {
		t.Fatalf("%s(%q, %q) = %q with parts\n%+v, a parse gives\n%+v", op, base, ref, abs, *got, want)
	}
}

// composedBases are the bases TestComposedParts resolves against.
var composedBases = []string{"http://a/b/c/d;p?q#f", "https://u:p@h.example:8080/dir/page.html?x=1", "file:///C:/dir/f", "foo://h/a/b", "foo:opaque"}

// TestComposedParts runs checkComposedParts over the RFC examples and the
// seed inputs as references against a few bases, with both resolvers.
func TestComposedParts(t *testing.T) {
	var ex []resolutionExample
	loadJSON(t, "rfc-resolution.json", &ex)
	type pair struct{ base, ref string }
	var pairs []pair
	for _, e := range ex {
		pairs = append(pairs, pair{e.Base, e.Ref})
	}
	for _, in := range seedInputs(t) {
		for _, base := range composedBases {
			pairs = append(pairs, pair{base, in}, pair{in, "../g;x?y#s"}, pair{in, ""}, pair{in, "?q"}, pair{in, "//h/x"})
		}
	}
	n := 0
	for _, p := range pairs {
		b, _, f1 := parseInput(p.base)
		r, _, f2 := parseInput(p.ref)
		if f1 != nil || f2 != nil || b.schemeEnd < 0 {
			continue
		}
		abs, pr := resolve3986(&b, &r)
		checkComposedParts(t, "resolve3986", p.base, p.ref, abs, &pr)
		if abs, pr, f := resolve1808(&b, &r); f == nil {
			checkComposedParts(t, "resolve1808", p.base, p.ref, abs, &pr)
		}
		n++
	}
	if n < 1000 {
		t.Fatalf("only %d pairs checked", n)
	}
}

// TestResolve1808ParamsAfterNetloc: RFC 1808 resolution of a reference
// of params alone against a base with a net_loc and an empty path gives
// the path "/;x" (RFC 1808 §2.2: after a net_loc a path is an abs_path),
// not text that reads back as the host "a;x".
func TestResolve1808ParamsAfterNetloc(t *testing.T) {
	for _, tc := range []struct{ base, ref, want string }{
		{"http://A", ";0", "http://a/;0"},
		{"http://a", ";x?q", "http://a/;x?q"},
		{"http://a/", ";x", "http://a/;x"},
		{"http://a?b", ";x", "http://a/;x"}, // (params: the base's query is not inherited, step 5a)
		{"foo:", ";x", "foo:;x"},
	} {
		got, err := NormalizeRef(tc.base, tc.ref, WebCapture)
		if got != tc.want || err != nil {
			t.Errorf("NormalizeRef(%q, %q, WebCapture) = %q, %v, want %q", tc.base, tc.ref, got, err, tc.want)
		}
		if r, err := Parse(got); err == nil && r.HasAuthority && strings.ContainsRune(r.Host, ';') {
			t.Errorf("NormalizeRef(%q, %q, WebCapture) = %q reads back with the host %q", tc.base, tc.ref, got, r.Host)
		}
	}
}

// TestNormalizeRefDefaultSchemeReadsBack holds NormalizeRef under the
// profiles with DefaultScheme to idempotence on the class of bases that
// DefaultScheme would read as host and port but the base is read as a
// scheme ("a:0/x", an opaque path: NormalizeRef takes a base that has a
// scheme, as the standard reads it): every scheme spelling, digit run and
// what follows it, against fragment references (the one kind an opaque
// base takes) and absolute ones, some of which DefaultScheme alone would
// read as host and port ("http:0"; against a base, the standard reads the
// scheme http). A result is an error or a key that Normalize gives back
// unchanged, and the key of the standard's resolution.
func TestNormalizeRefDefaultSchemeReadsBack(t *testing.T) {
	profiles := []Profile{Archive, Aggressive, mustProfile(ParseWHATWG, DefaultScheme)}
	refused := 0
	for _, scheme := range []string{"a", "A", "localhost", "x-y.z+1", "http", "mailto", "file"} {
		for _, digits := range []string{"", "0", "80", "0080", "99999"} {
			for _, tail := range []string{"", "/", "/0/0/", "?q", "#f", "x", "/..", ":1"} {
				base := scheme + ":" + digits + tail
				for _, ref := range []string{"#", "#000000000", "#x?y", base, base + "#g", "http:0", "HTTP:80/x#f", "ws:1", "localhost:80/x"} {
					for _, p := range profiles {
						checkRefIsWHATWGThenKey(t, base, ref, p)
						got, err := NormalizeRef(base, ref, p)
						if err != nil {
							var e *Error
							if !errors.As(err, &e) {
								t.Fatalf("NormalizeRef(%q, %q, %s): %v, not a *canon.Error", base, ref, name(p), err)
							}
							refused++
							continue
						}
						if again, err := Normalize(got, p); again != got || err != nil {
							t.Errorf("NormalizeRef(%q, %q, %s) = %q; Normalize of that = %q, %v: not idempotent", base, ref, name(p), got, again, err)
						}
					}
				}
			}
		}
	}
	if refused == 0 {
		t.Error("no reference was refused: the class holds none of the bases it is for")
	}
}

// TestNormalizeRefSpaceAtEnd holds NormalizeRef, under every profile, to
// the class of bases whose path ends in spaces, against references that
// keep that path whole ("", "#g", "?r"): the result is the key of the base
// with each such space written "%20" (a space and its escape are one
// octet of the path in every profile that writes escapes one way), and
// idempotent. A resolved URI
// ending in a space was read again as an input, trimmed, and lost it:
// "http://h/a #f" and "" gave "http://h/a" under POWDER.
func TestNormalizeRefSpaceAtEnd(t *testing.T) {
	compared := 0
	for _, prefix := range []string{"http://h/a", "http://h/", "a:/x", "A:0", "a:x", "file:///c"} {
		for _, spaces := range []int{1, 2} {
			for _, tail := range []string{"#f", "?q", "?q#f"} { // a base ending in a space is trimmed
				base := prefix + strings.Repeat(" ", spaces) + tail
				escaped := prefix + strings.Repeat("%20", spaces) + tail
				for _, ref := range []string{"", " ", "#", "#g", "?r"} {
					for _, p := range everyProfile {
						got, err := NormalizeRef(base, ref, p)
						want, werr := NormalizeRef(escaped, ref, p)
						if (err == nil) != (werr == nil) {
							t.Errorf("NormalizeRef(%q, %q, %s) = %q, %v; with %%20: %q, %v", base, ref, name(p), got, err, want, werr)
							continue
						}
						if err != nil {
							continue
						}
						compared++
						if keepsSpaces(prefix, p) {
							// WebCapture leaves escapes as they are, and a
							// space inside the path too, as the WHATWG
							// profiles do in an opaque path ("a:x b"):
							// there "%20" is another spelling. Idempotence
							// alone holds it.
						} else if got != want {
							t.Errorf("NormalizeRef(%q, %q, %s) = %q, want %q (the key with %%20)", base, ref, name(p), got, want)
						}
						if again, err := Normalize(got, p); again != got || err != nil {
							t.Errorf("NormalizeRef(%q, %q, %s) = %q; Normalize of that = %q, %v: not idempotent", base, ref, name(p), got, again, err)
						}
					}
				}
			}
		}
	}
	if compared == 0 {
		t.Error("no pair compared")
	}
}

// keepsSpaces reports whether p writes a space inside the path of a URL
// that starts with prefix as it is (WebCapture: no percent-encoding
// change; the WHATWG URL Standard's opaque paths).
func keepsSpaces(prefix string, p Profile) bool {
	k, err := Normalize(prefix+" b", p)
	return err == nil && strings.Contains(k, " ")
}

// whatwgRefProfiles are profiles of ParseWHATWG with the steps that spell
// a component another way than the standard, the key steps, or both.
var whatwgRefProfiles = []Profile{Crawler, Archive, Aggressive, SafeBrowsing,
	mustProfile(ParseWHATWG, UppercaseEscapes), mustProfile(ParseWHATWG, DecodeUnreserved),
	mustProfile(ParseWHATWG, TrimHostDots), mustProfile(ParseWHATWG, DefaultScheme, RemoveFragment,
		UppercaseEscapes, DecodeUnreserved, TrimHostDots)}

// checkRefIsWHATWGThenKey holds NormalizeRef under a profile that reads
// URLs as the WHATWG URL Standard does to what it is documented to be:
// the reference resolved as a browser resolves it (NormalizeRef under
// WHATWG), then the profile's key of that. Where both give a result they
// are equal.
func checkRefIsWHATWGThenKey(t *testing.T, base, ref string, p Profile) {
	t.Helper()
	got, err := NormalizeRef(base, ref, p)
	if err != nil {
		return
	}
	resolved, err := NormalizeRef(base, ref, WHATWG)
	if err != nil {
		return
	}
	if want, err := Normalize(resolved, p); err == nil && got != want {
		t.Fatalf("NormalizeRef(%q, %q, %s) = %q, want %q, the key of the WHATWG resolution %q", base, ref, name(p), got, want, resolved)
	}
}

// TestNormalizeRefIsWHATWGThenKey runs checkRefIsWHATWGThenKey over bases
// whose scheme, host, path and query hold escapes and dots that the
// profiles spell their own way, against references that keep each part
// of the base: the target keeps the base's parts as the base's key has
// them, so the base must be read with the profile's spelling steps.
func TestNormalizeRefIsWHATWGThenKey(t *testing.T) {
	var bases []string
	for _, scheme := range []string{"http", "A", "file"} {
		for _, host := range []string{"h", "h%70", "H%7e", "a..b.", "%41%2e"} {
			for _, path := range []string{"/", "/%7e/%7Ea", "/a%2fb/c", "/%2e%2e/x/"} {
				for _, tail := range []string{"", "?%7e&b=%41", "#%7e"} {
					bases = append(bases, scheme+"://"+host+path+tail)
				}
			}
		}
	}
	refs := []string{"", "x", "../y%7e", "?q", "#f", "//h2%41/z", "/p%7e", "%2e/"}
	for _, base := range bases {
		for _, ref := range refs {
			for _, p := range whatwgRefProfiles {
				checkRefIsWHATWGThenKey(t, base, ref, p)
			}
		}
	}
}

// sameLean checks that resolveLean writes what the engine writes for ref
// against bu, a value of whatwgBase under p's refBase plan that
// leanBase takes, under p, when leanRef takes ref; it reports whether it
// did.
func sameLean(t *testing.T, bu *url, ref string, p Profile) bool {
	t.Helper()
	if ref == "" || strings.HasPrefix(ref, "//") {
		return false
	}
	lr, ok := leanRef(ref)
	if !ok {
		return false
	}
	pl := p.plan()
	if pl.surtRead {
		pl = pl.surtRef // (the plan NormalizeRef and Base resolve by: see plan.surtRef)
	}
	var lean, eng url
	resolveLean(&lean, bu, ref, lr, pl, nil)
	if f := resolveWHATWGInto(&eng, bu, ref, pl, nil); f != nil {
		t.Fatalf("base %q, %s: leanRef takes %q, which the engine refuses: %v", bu.str(), name(p), ref, f)
	}
	if lean.str() != eng.str() || lean.offsets() != eng.offsets() {
		t.Fatalf("base %q, %s: resolveLean(%q) = %q %+v, the engine writes %q %+v", bu.str(), name(p), ref, lean.str(), lean.offsets(), eng.str(), eng.offsets())
	}
	return true
}

// TestResolveLean holds resolveLean, which writes the references leanRef
// takes without the engine, to the engine (resolveWHATWGInto): the same
// bytes and the same offsets, against special bases with an authority,
// under plans that keep and drop the fragment. The references are every
// string of up to four bytes of an alphabet of the bytes leanRef turns
// on (delimiters, dots, and neighbours it must refuse: "%", "\", a
// space, a quote, "`", "{", non-ASCII), and the relative hrefs of the
// bench corpus.
func TestResolveLean(t *testing.T) {
	bases := []string{"https://example.com/dir/page.html?x=1#f", "http://h", "http://h/", "ws://u:p@h:1/a/b/", "ftp://h/a/b/c?q", "http://h/a//b"}
	alphabet := []string{".", "/", "?", "#", "a", ":", "%", "\\", " ", "'", "`", "{", "é", "\t"}
	var refs []string
	var walk func(s string, n int)
	walk = func(s string, n int) {
		if s != "" {
			refs = append(refs, s)
		}
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			walk(s+c, n-1)
		}
	}
	walk("", 4)
	b, err := os.ReadFile(filepath.Join("bench", "testdata", "hrefs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	refs = append(refs, strings.Split(string(b), "\n")...)
	taken := map[string]bool{}
	for _, p := range []Profile{WHATWG, Crawler} {
		pl := p.plan()
		for _, base := range bases {
			bu := keyValue(base, nil)
			if _, err := whatwgBase(&bu, "test", pl.refBase); err != nil {
				t.Fatal(err)
			}
			if !leanBase(&bu) {
				t.Fatalf("leanBase(%q) = false", base)
			}
			for _, ref := range refs {
				if sameLean(t, &bu, ref, p) {
					taken[ref] = true
				}
			}
		}
	}
	// The common forms are taken (a leanRef that took nothing would pass
	// the loop above).
	for _, ref := range []string{"a", "a/b.c", "/a?b#c", "?", "#", "?a/.", "./a", "../a", "../", "../../a:b", ".a", "..a/...", "a~b#c_d"} {
		if _, ok := leanRef(ref); !ok {
			t.Errorf("leanRef(%q) refuses it", ref)
		}
	}
	for _, ref := range []string{".", "..", "a/./b", "a/..", "a/..?x", "./?x", ".//a", "../#", "a%2e", "a\\b", "a b", "é", "a\tb", "a??", "a#b#c", "a#b?c?", "a?'", "a'b", "a`b", "a{b", "a?b#`"} {
		if _, ok := leanRef(ref); ok {
			t.Errorf("leanRef(%q) takes it", ref)
		}
	}
	t.Logf("%d of %d references taken by leanRef", len(taken), len(refs))
}

// TestReadAsSURTRefs checks NormalizeRef and Base under Archive, whose
// ReadAsSURT reads an input as the surt library does, against what
// ReadAsSURT documents for a reference: the URL Standard's resolution
// (NormalizeRef under WHATWG), then Archive's key of the URL it makes,
// over bases with and without a host, with a default port and with
// "localhost", a numeric host and a "\\" in the path, and references of
// each form (relative paths with dot segments, "//" and "\\", network
// paths to such hosts and to numeric ones, absolute URLs, session ids).
func TestReadAsSURTRefs(t *testing.T) {
	bases := []string{"file:///a/b/c", "file:///a/./b//c", "file://localhost/a/b", "ftp://h.example:21/a/b",
		"http://h.example/a/b", "ws://h.example:80/a/", "foo:/a/b", "foo://h/a/b", "http://1.2.3.4../a/b",
		"http://0x7f.1/a\\b/c", "http://h.example/a%5Cb/c", "file://"}
	refs := []string{"x", "../x", "./x/../y", ".//x", "..//x", "x//y/./z", "/p/./q//r", "?q", "#f", "",
		"//localhost/y", "//h.example:21/y/../z", "//h.example/y", "///y", "ftp://h.example:21/z",
		"file://localhost/z/./w", "file:///z//w/../v", "%2e%2e/x", "a/%2E/b", "mailto:Joe@Example.COM", "javascript:Foo(1)",
		"x\\y\\..\\z", "\\\\h.example\\y", "../../../x", "%252e%252e/x", "//0x42660793/y", "//1113982867../y",
		"//www.1.2.3.4../y", "//0x7f../y", "foo://1113982867/y", "x?SID=k11lf2097p3d8ucjusrcidcle6",
		"x?a=1&jsessionid=0123456789abcdef0123456789abcdef", "x;jsessionid=0123456789abcdef0123456789abcdef",
		"(S(0123456789abcdefghijklmn))/(S(0123456789abcdefghijklmn))/p.aspx", "file:", "file://?q"}
	for _, base := range bases {
		b, err := NewBase(base, Archive)
		if err != nil {
			t.Fatalf("NewBase(%q, Archive): %v", base, err)
		}
		for _, ref := range refs {
			got, err := NormalizeRef(base, ref, Archive)
			resolved, rerr := NormalizeRef(base, ref, WHATWG)
			want, werr := Normalize(resolved, Archive)
			if (err == nil) != (rerr == nil && werr == nil) || got != want {
				t.Errorf("NormalizeRef(%q, %q, Archive) = %q, %v; want %q, %v: the key of the WHATWG resolution %q (%v)", base, ref, got, err, want, werr, resolved, rerr)
			}
			if again, err2 := Normalize(got, Archive); err == nil && (again != got || err2 != nil) {
				t.Errorf("NormalizeRef(%q, %q, Archive) = %q; Normalize of that = %q, %v: not a fixed point", base, ref, got, again, err2)
			}
			bk, berr := b.Normalize(ref)
			ab, aerr := b.AppendNormalized(make([]byte, 0, 64), ref)
			if bk != got || (berr == nil) != (err == nil) || string(ab) != got || (aerr == nil) != (err == nil) {
				t.Errorf("Base(%q, Archive): Normalize(%q) = %q, %v; AppendNormalized = %q, %v; NormalizeRef gives %q, %v", base, ref, bk, berr, ab, aerr, got, err)
			}
		}
	}
}
