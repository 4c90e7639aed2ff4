package canon

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fastProfiles are the profiles the fast path is held to: the
// predefined ones, the zero Profile (which Resolve uses), every
// single-step profile and every predefined profile less one step.
func fastProfiles() []Profile {
	ps := []Profile{WebCapture, RFC3986, IRI, POWDER, WHATWG, {},
		profileOf(WHATWG.plan().steps|1<<RemoveFragment, nil), profileOf(WHATWG.plan().steps|1<<DefaultScheme, nil)}
	for s := Step(0); s < firstKeyStep; s++ { // fast does not run key steps
		ps = append(ps, profileOf(1<<s, nil))
		for _, np := range namedProfiles {
			if np.p.Has(s) {
				ps = append(ps, profileOf(np.p.plan().steps&^(1<<s)&^keyStepBits, nil))
			}
		}
	}
	return ps
}

// fast runs the quick scan alone over s (untrimmed, not rewritten) by
// p, as the fast path of old did: when it keys s whole, it returns the
// key appended to dst, or dst and the key's length when the key is s's
// prefix (end < len(s) when p removes the fragment); ok is false when s
// needs the general writers.
func fast(dst []byte, s string, p Profile) (out []byte, end int, ok bool) {
	pl := p.plan()
	if len(s) > MaxLength {
		return dst, 0, false
	}
	var u url
	u.w.reset(s, dst, len(dst))
	u.w.slack = 1
	var h handover
	if u.scan(s, pl, &h) != scanDone {
		return dst, 0, false
	}
	key, b, clean := u.w.output()
	if clean {
		return dst, len(key), true
	}
	return u.w.buf[:u.w.base+len(b)], -1, true
}

// normalize is Normalize by the general writers alone, without the
// quick scan (and without the key passes).
func normalize(s string, p Profile) (string, error) {
	in, shift, f := trim(s)
	if f == nil {
		e := engine{pl: p.base().plan()}
		e.u.w.reset(in, nil, 0)
		if f = e.normalize(in); f == nil {
			return e.u.result(), nil
		}
	}
	return "", toError("Normalize", s, shift, f)
}

// checkFast asserts that when fast gives a key for s under p, the engine
// gives the same, and that when it does not, it leaves dst as it was. It
// reports whether fast gave a key.
func checkFast(t *testing.T, s string, p Profile) bool {
	t.Helper()
	dst := make([]byte, 1, 8)
	dst[0] = 'x'
	b, end, ok := fast(dst, s, p)
	if !ok {
		if len(b) != 1 || b[0] != 'x' {
			t.Errorf("fast(%q, %v) failed but changed dst to %q", s, p, b)
		}
		return false
	}
	key := string(b[1:])
	if end >= 0 {
		if len(b) != 1 {
			t.Errorf("fast(%q, %v) = %q, %d: wrote to dst for an unchanged key", s, p, b, end)
		}
		key = s[:end]
	} else if key == s {
		t.Errorf("fast(%q, %v) copied an unchanged key", s, p)
	}
	want, err := normalize(s, p)
	if err != nil || key != want {
		t.Errorf("fast(%q, %v) = %q, but the engine gives %q, %v", s, p, key, want, err)
	}
	return true
}

func TestScanAgreesWithEngine(t *testing.T) {
	in := seedInputs(t)
	// Variants that sit on the fast path's edges.
	in = append(in,
		"http://h", "http://h?q", "http://h#f", "foo://h", "foo://h?q", "file://localhost/x",
		"file://localhost", "http://h:80/", "http://h:8080/", "http://h:08080/", "http://h:65536/",
		"http://h:65535/", "http://h:/", "ftp://h:21/", "https://h:443/", "https://h:80/",
		"http://h./", "http://h/.", "http://h/..", "http://h/a/./b", "http://h/a/../b",
		"http://h/.a", "http://h/..a", "http://h/a.", "http://h/a/.?q", "http://h/a/..#f",
		"http://h/%2F", "http://h/%2f", "http://h/%41", "http://h/%C3%A9", "http://h/%",
		"http://h/%4", "http://h?%20", "http://h#%7E", "http://h#a#b", "http://h/#\x01",
		"http://xn--rsum-bpad.example/", "http://1.2.3.4/", "http://1.2.3.04/", "http://0x7f.1/",
		"http://a.b1/", "http://url1/", "http://s3", "http://h.0x1F/", "http://h.0X1F/", "http://H.1/", "http://a_b.c~d/", "http://a$b&c,d/", "HTTP://A*B/", "http://a;b=c/", "http://a!b(c)/x", "http://x.-1/", "http://h/+", "http://h/a+b?c+d", "http:///x", "http://h/a b",
		"HTTP://H/", "Http://Example.COM:80/a/./b/../c?Q=%7e#F", "https://h:443", "HTTPS://H:443?q",
		"ftp://H:21/", "ws://h:80/", "wss://h:443/", "foo://H:80/", "FILE://LOCALHOST/x", "file://LocalHost/",
		"http://h/%7e%41%2f%2F%e9%E9%c3%a9", "http://h/%2e%2E/a/%2e/b", "http://h/a/.%2e/b", "http://h?%7e%2f#%41%2f",
		"http://H.X/a/b/../../../../c", "http://h/./", "http://h/a/..", "HTTP://XN--RSUM-BPAD.EXAMPLE/", "http://1.2.3.4:80/",
		"HTTP://0X7F.1/", "http://H./", "http://h/%zz", "http://h/%E9%", "http://h#%zz", "http://h/x#a#b", "http://h:0/",
		"http://h:00080/", "Foo+Bar.Baz-1://H/", "1http://h/", "+a://h/", "http://h:65536/", "http://h:123456/",
		"svn+ssh://h/x", "a://h", "file:///x", "file://", "file://:80/x", "foo://:1/x", "foo:///", "file:///./x", "http://:80/", "foo://?q", "foo://#f",
		"http://h/ ", " http://h/", "http://h/\\", "http://h/a%2E%2E/",
		// Dot segments removed as the scan meets them.
		"http://h/../../a", "http://h/a/b/../../../c/./d/..", "http://h//../x", "http://h/a//../b",
		"http://h/./../x", "http://h/a/.../b", "http://h/..?q", "http://h/a/..#f/../x", "http://h/a/%2E./b",
		"http://h/a/.%2E", "http://h/%2E/../b", "http://h/a/../%2e", "HTTP://H:80/a/./B/../%7e/./", "http://h/./.",
		"http://h/a/b/c/./../../g", "http://h/a/b/..%2F..", "http://h/.../..", "http://h/a/..b/../c",
	)
	ps := fastProfiles()
	accepted := 0
	for _, s := range in {
		for _, p := range ps {
			if checkFast(t, s, p) {
				accepted++
			}
		}
	}
	if accepted == 0 {
		t.Fatal("fast took no input")
	}
}

// TestScanCoverage keeps the fast path useful: of the corpus sample's
// URLs that a predefined profile accepts, fast must take nearly all.
func TestScanCoverage(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "corpus-sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		lines = append(lines, sc.Text())
	}
	for _, np := range namedProfiles {
		if np.p.Has(ParseSafeBrowsing) {
			continue // its own reader: keyInto never runs the scan for it
		}
		accepted, taken := 0, 0
		for _, s := range lines {
			if _, err := normalize(s, np.p); err != nil {
				continue
			}
			accepted++
			if _, _, ok := fast(nil, s, np.p); ok {
				taken++
			} else if accepted-taken <= 5 {
				t.Logf("%s: not fast: %q", np.name, s)
			}
		}
		// POWDER sends every input with an escape or a "+" to the
		// engine (DecodeAll and PlusToSpace rewrite the input first).
		want := 95
		if np.p == POWDER {
			want = 85
		}
		if taken*100 < accepted*want {
			t.Errorf("%s: fast took %d of %d URLs, want at least %d%%", np.name, taken, accepted, want)
		}
		t.Logf("%s: fast took %d of %d URLs", np.name, taken, accepted)
	}
}

// TestAppendLower checks appendLower against a byte-at-a-time lowercase
// for every pair of bytes side by side, in the eight-byte words and in
// the tail, so that no byte's carry or top bit leaks into its neighbour.
func TestAppendLower(t *testing.T) {
	lower := func(c byte) byte {
		if 'A' <= c && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	var in [11]byte
	for c := 0; c < 256; c++ {
		for d := 0; d < 256; d++ {
			for i := range in {
				in[i] = byte(c)
				if i%2 == 1 || i == 6 {
					in[i] = byte(d)
				}
			}
			got := appendLower([]byte("x"), string(in[:]))
			for i, b := range in {
				if got[1+i] != lower(b) {
					t.Fatalf("appendLower(%q)[%d] = %q, want %q", in[:], i, got[1+i], lower(b))
				}
			}
		}
	}
}

// TestKindOf compares kindOf, which reads a scheme as words, with a plain
// case-insensitive comparison, over every scheme of up to five bytes
// drawn from the letters of the known schemes, their capitals and other
// scheme bytes.
func TestKindOf(t *testing.T) {
	want := func(scheme string) schemeKind {
		switch strings.ToLower(scheme) {
		case "http":
			return schemeHTTP
		case "https":
			return schemeHTTPS
		case "ws":
			return schemeWS
		case "wss":
			return schemeWSS
		case "ftp":
			return schemeFTP
		case "file":
			return schemeFile
		}
		return schemeOther
	}
	const alphabet = "htpsfilewHTPSWFIE.+0"
	var check func(prefix string)
	check = func(prefix string) {
		if got := kindOf(prefix); got != want(prefix) {
			t.Fatalf("kindOf(%q) = %d, want %d", prefix, got, want(prefix))
		}
		if len(prefix) == 5 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			check(prefix + alphabet[i:i+1])
		}
	}
	check("")
}

// TestHasExtraDots compares hasExtraDots, which looks at every second
// byte, with the plain reading of its rule, over every string of up to
// eleven bytes of "a" and ".", as a string and as bytes.
func TestHasExtraDots(t *testing.T) {
	want := func(d string) bool {
		return d != "" && (d[0] == '.' || d[len(d)-1] == '.' || strings.Contains(d, ".."))
	}
	for n := 0; n <= 11; n++ {
		for bits := 0; bits < 1<<n; bits++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = "a."[bits>>i&1]
			}
			d := string(b)
			if got := hasExtraDots(d); got != want(d) {
				t.Fatalf("hasExtraDots(%q) = %v, want %v", d, got, want(d))
			}
			if got := hasExtraDots(b); got != want(d) {
				t.Fatalf("hasExtraDots([]byte(%q)) = %v, want %v", d, got, want(d))
			}
		}
	}
}

// TestScanPort holds scanPort to RFC 3986 §3.2.3 read the scan's way,
// over every string of up to six digits, with a byte after it or none:
// the port's value when it is 1 to 5 digits without a leading zero and at
// most 65535, and -1 (the engine's) otherwise, ending at the first byte
// that is not a digit.
func TestScanPort(t *testing.T) {
	for n := 0; n <= 6; n++ {
		limit := 1
		for i := 0; i < n; i++ {
			limit *= 10
		}
		for v := 0; v < limit; v++ {
			digits := ""
			if n > 0 {
				digits = strconv.Itoa(v)
				digits = strings.Repeat("0", n-len(digits)) + digits
			}
			want := -1
			if n > 0 && digits[0] != '0' && v <= 65535 {
				want = v
			}
			for _, rest := range []string{"", "/", "a"} {
				s := "h:" + digits + rest
				end, got := scanPort(s, 1)
				if end != 2+n || got != want {
					t.Fatalf("scanPort(%q, 1) = %d, %d, want %d, %d", s, end, got, 2+n, want)
				}
			}
		}
	}
}
