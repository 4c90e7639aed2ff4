package canon

import (
	"errors"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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
		{"a:0/x", "#f", Archive, "resolved", `canon.NormalizeRef(resolved "a:0/x"): scheme: resolved URI reads as host and port (at "a:0/x")`},
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
	if n := allocsPerRun(100, func() { _ = err.Error() }); n != 1 {
		t.Errorf("Error() allocates %v times, want 1", n)
	}
	_, err = Normalize("http://h:8x/\u00e9\x7f", RFC3986)
	want = `canon.Normalize("http://h:8x/é\x7f"): port: invalid character (at "x/é\x7f")`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

// TestPathologicalLinear checks that every pathological shape under every
// profile costs memory and time linear in its size, comparing 512 KiB of
// it with 32 KiB (16 times the input). A quadratic step costs 256 times as
// much; the bounds leave linear code room for the machine's noise and the
// large input's cache misses, and quadratic code none.
//
// Memory: the bytes Normalize allocates, which no load on the machine
// changes, after two collections have emptied the package's sync.Pool:
// at most 32 times as much, plus 256 KiB for the runtime's span-sized
// accounting of small objects. A step that copies the rest of the input
// at each of its runs allocates hundreds of times as much.
//
// Time: at most 64 times as long, plus 1 ms. A quadratic step passes only
// when it is under a fifth of the work at 32 KiB. Three things keep a
// loaded machine from failing linear code. Measured on the development
// machine (two cores) with four memory-bound processes beside the test,
// the largest ratio of the 128 pairs was 122 in wall time (32 without
// them), 41 to 522 in wall time with the collector off, and 23 to 27 in
// the thread's CPU time with the collector off (17 to 25 without them);
// the former form of this test (wall time, the best of three, 20 ms of
// slack) failed 8 runs in 10 under that load, this one none in 13.
//
//   - the time is the thread's CPU time (threadTime; wall time outside
//     Linux), so the time other processes hold the CPU is not counted;
//   - the collector is off while a run is timed, and runs before it: a
//     collection started by the large input's garbage would otherwise
//     land in its run, and its workers compete with the load;
//   - each size's time is the fastest of its runs, the two sizes run in
//     turn, and a pair that looks superlinear runs again, up to
//     linearRounds times (or linearBudget), before it fails: noise can
//     only slow a run.
func TestPathologicalLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing: runs without -short")
	}
	const (
		smallSize, largeSize = 32 << 10, 512 << 10
		allocRatio           = 32
		allocSlack           = 256 << 10
		timeRatio            = 64
		timeSlack            = time.Millisecond
		minRounds            = 3
		linearRounds         = 30
		// linearBudget bounds the retries of a pair by the time its large
		// runs took, so that quadratic code fails in seconds: linear code
		// takes at most 20 ms a run.
		linearBudget = 2 * time.Second
	)
	allocated := func(in string, p Profile) uint64 {
		runtime.GC() // twice: a pooled buffer survives one collection
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _ = Normalize(in, p)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	timed := func(in string, p Profile) time.Duration {
		runtime.GC()
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		start := threadTime()
		_, _ = Normalize(in, p)
		return threadTime() - start
	}
	clock := "CPU time"
	if !threadTimeIsCPU {
		clock = "wall time"
	}
	pairs, retried, mostRounds, worst, worstPair := 0, 0, 0, 0.0, ""
	defer func() {
		t.Logf("%d pairs of shape and profile; %d ran more than %d rounds (at most %d); the largest ratio of %s passed: %.1f (%s)",
			pairs, retried, minRounds, mostRounds, clock, worst, worstPair)
	}()
	for _, pc := range pathological {
		small, large := pc.make(smallSize), pc.make(largeSize)
		for _, p := range everyProfile {
			pairs++
			// Memory first: the timed runs have the collector off, which
			// quadratic garbage would turn into running out of memory.
			if as, al := allocated(small, p), allocated(large, p); al > allocRatio*as+allocSlack {
				t.Errorf("%s/%s: %d bytes allocated for 512 KiB, %d for 32 KiB: not linear", pc.shape, name(p), al, as)
				continue
			}
			ts, tl, spent := time.Duration(1<<62), time.Duration(1<<62), time.Duration(0)
			for round := 1; ; round++ {
				ts = min(ts, timed(small, p))
				d := timed(large, p)
				tl, spent = min(tl, d), spent+d
				if round >= minRounds && tl <= timeRatio*ts+timeSlack {
					if round > minRounds {
						retried++
					}
					mostRounds = max(mostRounds, round)
					if r := float64(tl) / float64(max(ts, 1)); r > worst {
						worst, worstPair = r, pc.shape+"/"+name(p)
					}
					break
				}
				if round == linearRounds || spent > linearBudget {
					t.Errorf("%s/%s: %v for 512 KiB, %v for 32 KiB (%s, the least of %d runs each): %.0f times as long for 16 times the input, want at most %d: not linear",
						pc.shape, name(p), tl, ts, clock, round, float64(tl)/float64(max(ts, 1)), timeRatio)
					break
				}
			}
		}
	}
}

// TestErrorTextBounded checks that an error's text quotes at most
// errorQuoteMax bytes of the input and of its rest, cut at a character
// boundary and marked, however long the input: a 4 MiB line must not
// make a 4 MiB log line. Input keeps the whole input.
func TestErrorTextBounded(t *testing.T) {
	for _, c := range []struct {
		in string
		p  Profile
	}{
		{"http://h/" + strings.Repeat("a", MaxLength), RFC3986},
		{"http://h/" + strings.Repeat("é", 200) + "%zz" + strings.Repeat("b", 1000), RFC3986},
		{"http://h:" + strings.Repeat("9", 300) + "/", WHATWG},
		{"http://" + strings.Repeat("ü", 300) + "%/", IRI},
		{"http://h/" + strings.Repeat("\x80\xe2\x82", 100) + "%zz", RFC3986}, // bytes that are no UTF-8 across the limit
	} {
		for _, shift := range []int{0, 1, 2} { // move a multi-byte character across the limit
			in := c.in[:9] + strings.Repeat("x", shift) + c.in[9:]
			_, err := Normalize(in, c.p)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Normalize(%.40q...): %v, want an *Error", in, err)
			}
			if e.Input != in {
				t.Errorf("Normalize(%.40q...): Input is not the whole input (%d of %d bytes)", in, len(e.Input), len(in))
			}
			msg := e.Error()
			if len(msg) > 2*4*errorQuoteMax+200 {
				t.Errorf("Normalize(%.40q...): error text of %d bytes", in, len(msg))
			}
			if want := errorTextReference(e); msg != want {
				t.Errorf("Normalize(%.40q...): error text %q, want %q", in, msg, want)
			}
			if utf8.ValidString(in) && !utf8.ValidString(msg) {
				t.Errorf("Normalize(%.40q...): error text %q cuts a character", in, msg)
			}
			if len(in) > errorQuoteMax && !strings.Contains(msg, `"...): `) {
				t.Errorf("Normalize(%.40q...): error text %q does not mark the cut input", in, msg)
			}
		}
	}
	if msg := (&Error{Op: "Normalize", Input: "http://h:8x/", Component: ComponentPort, Offset: 10, Err: ErrInvalidPort,
		reason: "invalid character"}).Error(); msg != `canon.Normalize("http://h:8x/"): port: invalid character (at "x/")` {
		t.Errorf("short input: %q", msg)
	}
}
