package canon

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

var benchInputs = []struct{ class, in string }{
	{"canonical", "https://github.com/golang/go/issues/12345?tab=comments#issuecomment-1"},
	{"needs-change", "HTTPS://GitHub.COM:443/golang/./go/x/../issues/%7euser?q=%41"},
	{"idn", "http://résumé.example.org/caf%C3%A9/é"},
	{"long", "https://example.com/" + strings.Repeat("segment/", 250) + "?q=" + strings.Repeat("a", 100)},
}

func BenchmarkNormalize(b *testing.B) {
	for _, p := range allProfiles {
		for _, bi := range benchInputs {
			b.Run(name(p)+"/"+bi.class, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(bi.in)))
				for b.Loop() {
					if _, err := Normalize(bi.in, p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkAppendNormalized(b *testing.B) {
	buf := make([]byte, 0, 4096)
	for _, bi := range benchInputs {
		b.Run(bi.class, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bi.in)))
			for b.Loop() {
				var err error
				if buf, err = AppendNormalized(buf[:0], bi.in, RFC3986); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkResolve(b *testing.B) {
	for _, ref := range []string{"g", "../../g?y#s", "//other.example/x", "http://abs.example/a/b"} {
		b.Run(ref, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Resolve("http://a/b/c/d;p?q", ref); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// pathological builds inputs of about n bytes of the shapes that make
// naive URL code quadratic (hostile-catalogue G1-G7).
var pathological = []struct {
	shape string
	make  func(n int) string
}{
	{"dotdot", func(n int) string { return "http://h/" + strings.Repeat("../", n/3) }},
	{"dotslash", func(n int) string { return "http://h" + strings.Repeat("/./", n/3) }},
	{"pctA", func(n int) string { return "http://h/" + strings.Repeat("%41", n/3) }},
	{"pct2F", func(n int) string { return "http://h/" + strings.Repeat("%2F", n/3) }},
	{"segments", func(n int) string { return "http://h/" + strings.Repeat("a/b/../", n/7) }},
	{"nonascii-label", func(n int) string { return "http://" + strings.Repeat("é", n/2) + ".com/" }},
	{"nonascii-path", func(n int) string { return "http://h/" + strings.Repeat("é", n/2) }},
	{"at", func(n int) string { return "http://" + strings.Repeat("@", n) + "h/" }},
	{"bracket", func(n int) string { return "http://[" + strings.Repeat("[", n) + "/" }},
	{"zeros-port", func(n int) string { return "http://h:" + strings.Repeat("0", n) + "443/" }},
	{"query-params", func(n int) string { return "http://h/?" + strings.Repeat("a=1&", n/4) }},
	// An escape of an escape of …: decoded repeatedly (Archive), one pass
	// each would be quadratic.
	{"pct25-chain", func(n int) string {
		return "http://h/%25" + strings.Repeat("25", n/2) + "?q=%25" + strings.Repeat("25", n/2)
	}},
	// Runs of slashes (CollapseSlashes) and "www." labels (StripWWWN)
	// before a long rest: a cut per run or label would move the rest
	// each time.
	{"slash-runs", func(n int) string { return "http://h/" + strings.Repeat("a//", n/3) }},
	{"unsorted-pairs", func(n int) string { return "http://h/?" + strings.Repeat("b=1&a=2&", n/8) }},
	// A path without a host keeps its dot segments and runs of slashes
	// under ReadAsSURT (Archive): decoded escapes of dots and slashes,
	// and session ids cut out of it, must not make a pass per segment.
	{"free-form", func(n int) string { return "file:///" + strings.Repeat("%2e%2E/..//%2F/", n/15) }},
	{"free-form-sessions", func(n int) string {
		return "file:///" + strings.Repeat("..;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA//", n/48)
	}},
	{"path-sessions", func(n int) string {
		return "http://h/" + strings.Repeat("a;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA/(S(4hqa0555fwsecu455xqckv45))/", n/75)
	}},
	// ReadAsSURT's session ids (Archive): ticket segments before a page,
	// which the surt library's patterns remove one at a time (all go
	// where more than one would be left), and query ids of its patterns,
	// with and without an "&" between them; and backslashes in a path.
	{"aspx-tickets", func(n int) string {
		return "http://h/" + strings.Repeat("(S(4hqa0555fwsecu455xqckv45))/a/", n/32) + "x.aspx"
	}},
	{"surt-query-ids", func(n int) string {
		return "http://h/?" + strings.Repeat("jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA&mysid=E85FAC04E331FFCA55549B10B7C7A4FA", n/83)
	}},
	{"backslashes", func(n int) string { return "http://h/" + strings.Repeat(`a\..\`, n/6) }},
	{"www-chain", func(n int) string {
		return "http://" + strings.Repeat("www.", 200) + "example.com/" + strings.Repeat("a", n)
	}},
	// Escapes of "%" side by side, and dot segments spelled with escapes
	// (SafeBrowsing decodes the whole URL until no escape is left, then
	// resolves the dot segments that made), and tabs, which it and
	// WHATWG remove.
	{"pct25-run", func(n int) string { return "http://h/" + strings.Repeat("%25", n/3) }},
	{"pct-dotdot", func(n int) string { return "http://h/" + strings.Repeat("a/%2E%2E/", n/9) }},
	{"tabs", func(n int) string { return "http://h/" + strings.Repeat("a\t", n/2) }},
}

func BenchmarkPathological(b *testing.B) {
	for _, pc := range pathological {
		for _, size := range []int{1 << 10, 64 << 10, 1 << 20} {
			in := pc.make(size)
			b.Run(pc.shape+"/"+sizeName(size), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					for _, p := range allProfiles {
						Normalize(in, p)
					}
				}
			})
		}
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return strconv.Itoa(n>>20) + "MiB"
	}
	return strconv.Itoa(n>>10) + "KiB"
}

// TestNoAllocs checks the allocation promises: nothing for canonical
// input in any profile, nothing for AppendNormalized into a buffer with
// room, one allocation for input that changes.
func TestNoAllocs(t *testing.T) {
	canonical := map[Profile]string{
		WebCapture: "http://example.com/a/b?q=1",
		RFC3986:    "https://example.com/a/b?q=%2F#frag",
		IRI:        "https://example.com/résumé?q=1#frag",
		POWDER:     "http://example.com/a/b?q=1#frag",
		WHATWG:     "https://example.com/a/b?q=%2F#frag",
	}
	for p, in := range canonical {
		if got := allocsPerRun(100, func() { Normalize(in, p) }); got != 0 {
			t.Errorf("Normalize(%q, %s): %v allocs, want 0", in, name(p), got)
		}
	}
	if got := allocsPerRun(100, func() { Normalize("http://example.com/a#frag", WebCapture) }); got != 0 {
		t.Errorf("Normalize with fragment removal: %v allocs, want 0", got)
	}
	buf := make([]byte, 0, 256)
	for _, in := range []string{"https://example.com/a", "HTTP://EXAMPLE.COM:80/a/./b/%7e"} {
		if got := allocsPerRun(100, func() { AppendNormalized(buf[:0], in, RFC3986) }); got != 0 {
			t.Errorf("AppendNormalized(buf, %q, RFC3986): %v allocs, want 0", in, got)
		}
	}
	for _, in := range []string{"HTTP://EXAMPLE.COM:80/a/./b/%7e", "http://h/a b/%c3%a9?x=%41"} {
		if got := allocsPerRun(100, func() { Normalize(in, RFC3986) }); got != 1 {
			t.Errorf("Normalize(%q, RFC3986): %v allocs, want 1", in, got)
		}
	}
	// The WHATWG profile's general path: one allocation, the key, also
	// for a host it rewrites (an IPv4 number, an IPv6 address).
	for _, in := range []string{"HTTP://EXAMPLE.COM:80/a/%2e/b\\c", "http://0x7f.1/", "https://[0:0::1]/", "foo://H/a/../b", "file:///C|/x"} {
		if got := allocsPerRun(100, func() { Normalize(in, WHATWG) }); got != 1 {
			t.Errorf("Normalize(%q, WHATWG): %v allocs, want 1", in, got)
		}
	}
	if got := allocsPerRun(100, func() { NormalizeRef("https://example.com/d/p", "HTTPS://EXAMPLE.COM/x", WHATWG) }); got != 1 {
		t.Errorf("NormalizeRef of an absolute reference that changes, WHATWG: %v allocs, want 1", got)
	}
	if got := allocsPerRun(100, func() { RemoveDotSegments("/a/b/c") }); got != 0 {
		t.Errorf("RemoveDotSegments on a clean path: %v allocs, want 0", got)
	}
	if got := allocsPerRun(100, func() { Parse("http://u@h:1/p?q#f") }); got != 0 {
		t.Errorf("Parse: %v allocs, want 0", got)
	}
	if got := allocsPerRun(100, func() { Resolve("http://a/b/c", "http://x/y") }); got != 0 {
		t.Errorf("Resolve of an absolute reference: %v allocs, want 0", got)
	}
	// A Base resolves the links of its page without allocating when dst
	// has room, in WHATWG and in the key profiles; Normalize allocates
	// the key (none when the link is a canonical absolute URL).
	for _, p := range []Profile{WHATWG, Crawler, Archive} {
		b, err := NewBase("https://example.com/dir/page?x=1", p)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range []string{"https://example.com/a/b", "?q=1", "/a/b", "c/d", "../e", "#f", ""} {
			if got := allocsPerRun(100, func() { b.AppendNormalized(buf[:0], ref) }); got != 0 {
				t.Errorf("Base(%s).AppendNormalized(buf, %q): %v allocs, want 0", name(p), ref, got)
			}
		}
		// A network-path reference is read as the base's scheme and the
		// reference, one string: that string is the allocation.
		if got := allocsPerRun(100, func() { b.AppendNormalized(buf[:0], "//other.example/x") }); got != 1 {
			t.Errorf("Base(%s).AppendNormalized(buf, %q): %v allocs, want 1", name(p), "//other.example/x", got)
		}
	}
	if b, err := NewBase("https://example.com/dir/page", WHATWG); err == nil {
		if got := allocsPerRun(100, func() { b.Normalize("https://example.com/a/b") }); got != 0 {
			t.Errorf("Base.Normalize of a canonical absolute link: %v allocs, want 0", got)
		}
		if got := allocsPerRun(100, func() { b.Normalize("../x?q") }); got != 1 {
			t.Errorf("Base.Normalize of a relative link: %v allocs, want 1", got)
		}
	}
	// A page encoding adds no allocation where it changes nothing: an
	// ASCII URL, canonical or not, under the zero Encoding (UTF-8) and
	// Shift_JIS alike (the quick scan, and the general path from the
	// path on).
	sjis, _ := LookupEncoding("shift_jis")
	for _, enc := range []Encoding{{}, sjis} {
		for _, in := range []string{"https://example.com/a/b?q=%2F#frag", "HTTP://EXAMPLE.COM:80/a/%2e/b\\c?q=1", "http://example.com/a/b?q=1&r=%e6"} {
			if got := allocsPerRun(100, func() { enc.AppendNormalized(buf[:0], in, WHATWG) }); got != 0 {
				t.Errorf("%s.AppendNormalized(buf, %q, WHATWG): %v allocs, want 0", enc, in, got)
			}
		}
	}
}

// copiesByDesign reports whether normalizing key again under p allocates
// by a rule of its own, which TestCanonicalKeysNoAllocs leaves out:
// POWDER's DecodeAll defines its work on the input decoded (a new string)
// when the key holds an escape, and a host with a non-ASCII character or
// an escape is decoded and goes through golang.org/x/net/idna (IRI's
// labels; in every profile, the reading of a numeric host as a browser
// reads it, hostView), which allocates.
func copiesByDesign(key string, p Profile) bool {
	if p.Has(DecodeAll) && strings.Contains(key, "%") {
		return true
	}
	r, err := Parse(key)
	return err == nil && (!isASCII(r.Host) || strings.Contains(r.Host, "%"))
}

// TestCanonicalKeysNoAllocs holds "return the input when it is already
// canonical" over the corpus (bench/testdata's real and messy URLs;
// every 8th with -short), in every profile: each key, normalized again,
// is the key itself, returned without an allocation. A pass that copies
// the key before it knows it will change it (a path with ";" or "(" but
// no session id, an escape that decoding writes back as it was) fails
// here with the keys it copied. copiesByDesign says which keys are left
// out, and why.
func TestCanonicalKeysNoAllocs(t *testing.T) {
	var inputs []string
	for _, f := range []string{"real.txt", "messy.txt"} {
		b, err := os.ReadFile(filepath.Join("bench", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if !testing.Short() || i%8 == 0 {
				inputs = append(inputs, l)
			}
		}
	}
	on := checkValue != nil
	setValueChecks(false)
	defer setValueChecks(on)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // (as testing.AllocsPerRun: no other goroutine's mallocs)
	var before, after runtime.MemStats
	for _, p := range everyProfile {
		var keys []string
		for _, in := range inputs {
			if key, err := Normalize(in, p); err == nil && !copiesByDesign(key, p) {
				keys = append(keys, key)
			}
		}
		// All the keys in one measurement (two per key cost a minute);
		// where it counts any allocation, each key alone.
		runtime.ReadMemStats(&before)
		same := true
		for _, key := range keys {
			again, _ := Normalize(key, p)
			same = same && unsafe.StringData(again) == unsafe.StringData(key)
		}
		runtime.ReadMemStats(&after)
		if after.Mallocs == before.Mallocs && same {
			continue
		}
		copied := 0
		for _, key := range keys {
			var again string
			// Over 20 runs: one may refill a sync.Pool that a collection
			// emptied.
			n := testing.AllocsPerRun(20, func() { again, _ = Normalize(key, p) })
			if n != 0 || unsafe.StringData(again) != unsafe.StringData(key) {
				if copied++; copied <= 5 {
					t.Errorf("Normalize(%q, %s), a key, allocates %v times (the same string: %v)",
						key, name(p), n, unsafe.StringData(again) == unsafe.StringData(key))
				}
			}
		}
		if copied > 0 {
			t.Errorf("%s: %d of %d keys copied when normalized again", name(p), copied, len(keys))
		}
	}
}

// TestAllocsPerKey holds the fast path to its allocation bound over URLs
// built from every combination of the changes it makes: Normalize
// allocates once when the key differs from the input and not at all when
// it is the input, and AppendNormalized nothing when dst has room for
// the input and one byte more. Each URL is tried short and with a long
// path or query, as Normalize builds keys shorter than scratchSize on
// the stack.
func TestAllocsPerKey(t *testing.T) {
	long := strings.Repeat("p", 300)
	var urls []string
	for _, scheme := range []string{"http", "HTTP", "ftp"} {
		for _, host := range []string{"h", "H", "example.COM"} {
			for _, port := range []string{"", ":80", ":21", ":8080"} {
				for _, path := range []string{"", "/", "/a/./b", "/a/../b", "/%7e", "/%7E", "/%2f", "/a%2Fb/."} {
					for _, query := range []string{"", "?", "?%7e", "?a%2f", "?x"} {
						for _, frag := range []string{"", "#f", "#%7e"} {
							urls = append(urls, scheme+"://"+host+port+path+query+frag)
							if path != "" {
								urls = append(urls, scheme+"://"+host+port+"/"+long+path+query+frag)
							} else {
								urls = append(urls, scheme+"://"+host+port+query+long+frag)
							}
						}
					}
				}
			}
		}
	}
	buf := make([]byte, 0, 2*len(long))
	for _, p := range allocProfiles {
		// All of a profile's URLs are measured together, as measuring
		// stops the world and one at a time took 10 s; the URL to blame
		// is looked for when the sum is off.
		var fastURLs []string
		want := 0.0
		for _, in := range urls {
			if _, end, ok := fast(nil, in, p); ok { // else the engine's, whose bound is not this
				fastURLs = append(fastURLs, in)
				if end < 0 {
					want++ // the key is not the input, or the input less its fragment
				}
			}
		}
		normalizeAll := func() {
			for _, in := range fastURLs {
				Normalize(in, p)
			}
		}
		appendAll := func() {
			for _, in := range fastURLs {
				AppendNormalized(buf[:0], in, p)
			}
		}
		if got := allocsPerRun(10, normalizeAll); got != want {
			t.Errorf("Normalize over %d URLs, %v: %v allocs, want %v", len(fastURLs), p, got, want)
			blame(t, fastURLs, p, buf)
		} else if got := allocsPerRun(10, appendAll); got != 0 {
			t.Errorf("AppendNormalized over %d URLs, %v: %v allocs, want 0", len(fastURLs), p, got)
			blame(t, fastURLs, p, buf)
		}
	}
}

// allocProfiles are the predefined profiles and one for each step, which
// between them take every branch of fast that writes. (The key steps,
// which fast does not run, are held to their bound by TestKeyNoAllocs.)
var allocProfiles = func() []Profile {
	ps := append([]Profile{{}}, allProfiles...)
	for s := Step(0); s < firstKeyStep; s++ {
		ps = append(ps, profileOf(1<<s, nil))
	}
	return ps
}()

// blame reports the URLs whose key takes more allocations than it should.
func blame(t *testing.T, urls []string, p Profile, buf []byte) {
	t.Helper()
	for _, in := range urls {
		_, end, _ := fast(nil, in, p)
		want := 1.0
		if end >= 0 {
			want = 0
		}
		if got := allocsPerRun(20, func() { Normalize(in, p) }); got != want {
			t.Errorf("Normalize(%q, %v): %v allocs, want %v", in, p, got, want)
		}
		if got := allocsPerRun(20, func() { AppendNormalized(buf[:0], in, p) }); got != 0 {
			t.Errorf("AppendNormalized(buf, %q, %v): %v allocs, want 0", in, p, got)
		}
	}
}
