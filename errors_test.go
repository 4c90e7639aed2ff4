package canon

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestErrorMessages asserts the full text of an error for each sentinel,
// netip-style: the operation, the quoted input with its password
// redacted, the component, the reason, and where it failed.
func TestErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		in   string
		p    Profile
		want string
		err  error
	}{
		{"http://h:8x/", RFC3986, `canon.Normalize("http://h:8x/"): port: invalid character (at "x/")`, ErrInvalidPort},
		{"http://user:secret@h:8x/", RFC3986, `canon.Normalize("http://user:xxxxx@h:8x/"): port: invalid character (at "x/")`, ErrInvalidPort},
		{"http://user:s%zzret@h/", RFC3986, `canon.Normalize("http://user:xxxxx@h/"): userinfo: invalid percent-encoding (at "xxxxx@h/")`, ErrInvalidEscape},
		{"http://h:65536/", RFC3986, `canon.Normalize("http://h:65536/"): port: port out of range (at "65536/")`, ErrInvalidPort},
		{"/a/b", RFC3986, `canon.Normalize("/a/b"): scheme: missing scheme (at "/a/b")`, ErrRelative},
		{"http://h/%zz", RFC3986, `canon.Normalize("http://h/%zz"): path: invalid percent-encoding (at "%zz")`, ErrInvalidEscape},
		{"http://h/?q=%4", IRI, `canon.Normalize("http://h/?q=%4"): query: invalid percent-encoding (at "%4")`, ErrInvalidEscape},
		{"1http://x/", RFC3986, `canon.Normalize("1http://x/"): scheme: scheme must start with a letter (at "1http://x/")`, ErrInvalidScheme},
		{"ht tp://x/", RFC3986, `canon.Normalize("ht tp://x/"): scheme: invalid character (at " tp://x/")`, ErrInvalidScheme},
		{"http://h/a\nb", RFC3986, `canon.Normalize("http://h/a\nb"): path: control character (at "\nb")`, ErrInvalidChar},
		{`http://h\x/`, WebCapture, `canon.Normalize("http://h\\x/"): host: backslash (at "\\x/")`, ErrInvalidChar},
		{"http:///x", RFC3986, `canon.Normalize("http:///x"): host: missing host (at "/x")`, ErrInvalidHost},
		{"http://0x7f.1/", RFC3986, `canon.Normalize("http://0x7f.1/"): host: numeric host that is not a canonical IPv4 address (at "0x7f.1/")`, ErrInvalidHost},
		{"http://a%2Fb/", RFC3986, `canon.Normalize("http://a%2Fb/"): host: percent-encoded delimiter or control character (at "%2Fb/")`, ErrInvalidHost},
		{"http://" + strings.Repeat("a", MaxHostLength+1) + "/", RFC3986, "", ErrTooLong},
		{"  http://h:x/", RFC3986, `canon.Normalize("  http://h:x/"): port: invalid character (at "x/")`, ErrInvalidPort},
	} {
		_, err := Normalize(tc.in, tc.p)
		if !errors.Is(err, tc.err) {
			t.Errorf("Normalize(%q, %s): %v, want %v", tc.in, name(tc.p), err, tc.err)
			continue
		}
		if tc.want != "" && err.Error() != tc.want {
			t.Errorf("Normalize(%q, %s) error:\n got  %s\n want %s", tc.in, name(tc.p), err, tc.want)
		}
	}
	// The other entry points name themselves.
	if _, err := Resolve("a/b", "c"); err == nil || !errors.Is(err, ErrRelative) || !strings.HasPrefix(err.Error(), `canon.Resolve(base "a/b"): scheme:`) {
		t.Errorf("Resolve with a relative base: %v", err)
	}
	// Functions of two inputs say which one the error is about, and the
	// offset points into it.
	for _, tc := range []struct {
		base, ref string
		p         Profile
		arg, want string
	}{
		{"http://h:99999/", "x", RFC3986, "base", `canon.NormalizeRef(base "http://h:99999/"): port: port out of range (at "99999/")`},
		{"http://h/", "//h:x/", RFC3986, "ref", `canon.NormalizeRef(ref "//h:x/"): port: invalid character (at "x/")`},
		{"http://h/a/", "%zz", RFC3986, "resolved", `canon.NormalizeRef(resolved "http://h/a/%zz"): path: invalid percent-encoding (at "%zz")`},
		{"http://h/", "///evil.com/x", WebCapture, "ref", `canon.NormalizeRef(ref "///evil.com/x"): host: empty host in a reference against a base that needs one (at "/evil.com/x")`},
		{"/x", "y", WHATWG, "base", `canon.NormalizeRef(base "/x"): scheme: missing scheme (at "/x")`},
		{"non-special:opaque", "x", WHATWG, "ref", `canon.NormalizeRef(ref "x"): url: relative reference against a base with an opaque path (at "x")`},
		{"http://h/", "https://a b/", WHATWG, "ref", `canon.NormalizeRef(ref "https://a b/"): host: forbidden domain code point (at " b/")`},
		{"http://h/", "//a b/", WHATWG, "resolved", `canon.NormalizeRef(resolved "http://a b/"): host: forbidden domain code point (at " b/")`},
	} {
		_, err := NormalizeRef(tc.base, tc.ref, tc.p)
		var e *Error
		if !errors.As(err, &e) || e.Arg != tc.arg || err.Error() != tc.want {
			t.Errorf("NormalizeRef(%q, %q, %s): %v (Arg %q), want %s (Arg %q)", tc.base, tc.ref, name(tc.p), err, e.Arg, tc.want, tc.arg)
		}
	}
	if _, err := Equal("http://h/", "http://h:x/", RFC3986); err == nil || !strings.HasPrefix(err.Error(), `canon.Equal(b "http://h:x/")`) {
		t.Errorf("Equal with a bad second URL: %v", err)
	}
	if _, err := Parse("http://[::1/"); err == nil || err.Error() != `canon.Parse("http://[::1/"): host: missing ']' (at "[::1/")` {
		t.Errorf("Parse: %v", err)
	}
	if _, err := Equal("http://h/", "http://h:x/", RFC3986); err == nil || !strings.HasPrefix(err.Error(), "canon.Equal(") {
		t.Errorf("Equal: %v", err)
	}
}

// TestTooLong checks MaxLength, which is tested before anything else.
func TestTooLong(t *testing.T) {
	in := "http://h/" + strings.Repeat("a", MaxLength)
	for _, p := range everyProfile {
		if got, err := Normalize(in, p); got != "" || !errors.Is(err, ErrTooLong) {
			t.Errorf("Normalize(%d bytes, %s) = %q, %v, want ErrTooLong", len(in), name(p), got, err)
		}
	}
	if _, err := Parse(in); !errors.Is(err, ErrTooLong) {
		t.Errorf("Parse(%d bytes): %v, want ErrTooLong", len(in), err)
	}
}

// TestPathologicalOutputs checks the results and the output bound on the
// shapes of BenchmarkPathological at 64 KiB.
func TestPathologicalOutputs(t *testing.T) {
	for _, pc := range pathological {
		in := pc.make(64 << 10)
		for _, p := range everyProfile {
			out, err := Normalize(in, p)
			if err != nil {
				checkErrorT(t, in, out, err)
				continue
			}
			if len(out) > maxOutput(len(in)) {
				t.Errorf("%s/%s: output of %d bytes for %d bytes of input", pc.shape, name(p), len(out), len(in))
			}
			if again, _ := Normalize(out, p); again != out {
				t.Errorf("%s/%s: not idempotent", pc.shape, name(p))
			}
		}
	}
	if got, _ := Normalize(pathological[0].make(64<<10), RFC3986); got != "http://h/" {
		t.Errorf("dotdot: %q", got)
	}
}

func checkErrorT(t *testing.T, in, out string, err error) {
	t.Helper()
	var e *Error
	if out != "" || !errors.As(err, &e) {
		t.Errorf("Normalize(%.40q...) = %.40q, %v: want \"\" and an *Error", in, out, err)
	}
}

// TestErrorAllocs checks that Error builds its text in one allocation
// for an input of printable ASCII, the common case, and that the text
// with control characters and non-ASCII, which quoting lengthens, is
// still whole.
func TestErrorAllocs(t *testing.T) {
	_, err := Normalize("http://h:8x/a/b?c=d", RFC3986)
	want := `canon.Normalize("http://h:8x/a/b?c=d"): port: invalid character (at "x/a/b?c=d")`
	if err == nil || err.Error() != want {
		t.Fatalf("Normalize(%q, RFC3986) error = %v, want %s", "http://h:8x/a/b?c=d", err, want)
	}
	if n := testing.AllocsPerRun(100, func() { _ = err.Error() }); n != 1 {
		t.Errorf("Error() allocates %v times, want 1", n)
	}
	_, err = Normalize("http://h:8x/\u00e9\x7f", RFC3986)
	want = `canon.Normalize("http://h:8x/é\x7f"): port: invalid character (at "x/é\x7f")`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

// TestPathologicalLinear checks that the time of every pathological shape
// under every profile grows linearly: 16 times the input may take at most
// 64 times as long (a quadratic step would take 256 times), plus 20 ms
// for the machine's noise. Each time is the best of three.
func TestPathologicalLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing: runs without -short")
	}
	best := func(in string, p Profile) time.Duration {
		d := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			_, _ = Normalize(in, p)
			d = min(d, time.Since(start))
		}
		return d
	}
	for _, pc := range pathological {
		small, large := pc.make(32<<10), pc.make(512<<10)
		for _, p := range everyProfile {
			ts, tl := best(small, p), best(large, p)
			if tl > 64*ts+20*time.Millisecond {
				t.Errorf("%s/%s: %v for 512 KiB, %v for 32 KiB: not linear", pc.shape, name(p), tl, ts)
			}
		}
	}
}
