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
		{"a:0/x", "#f", Archive, "resolved", `canon.NormalizeRef(resolved "a:0/x"): scheme: key reads as host and port (at "a:0/x")`},
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
	lc := newLinearCheck(t)
	defer lc.report()
	for _, pc := range pathological {
		small, large := pc.make(linearSmall), pc.make(linearLarge)
		for _, p := range everyProfile {
			lc.check(pc.shape+"/"+name(p), small, large, p)
		}
	}
}

// TestKeyStepPairsLinear checks, as TestPathologicalLinear does, every
// key step alone and every pair of them (a profile runs its steps in one
// order, so a pair is ordered), on WHATWG's steps: the input repeats
// what each of the two steps edits, in the host, the path and the query,
// and has a query and a fragment after the path, which a step that cuts
// the path once per round would move each time ("/index.php/" repeated
// under RemoveDirectoryIndex and RemoveTrailingSlash was quadratic).
func TestKeyStepPairsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing: runs without -short")
	}
	lc := newLinearCheck(t)
	defer lc.report()
	base := WHATWG.Steps() // (some key steps need its percent-encode sets)
	for a := firstKeyStep; a < keyStepsEnd; a++ {
		for b := a; b < keyStepsEnd; b++ {
			p, err := NewProfile(append(base[:len(base):len(base)], a, b)...)
			if err != nil {
				t.Fatalf("%v+%v: %v", a, b, err)
			}
			make := func(n int) string { return keyStepInput(a, b, n) }
			lc.check(a.String()+"+"+b.String(), make(linearSmall), make(linearLarge), p)
		}
	}
}

// keyStepUnits are, for each key step, what it edits: a prefix of the
// host (at most once: a host is short), a unit of the path and one of
// the query, each repeated to the input's size.
var keyStepUnits = map[Step]struct{ host, path, query string }{
	RemoveUserinfo:        {host: "user:pass@"},
	HTTPSAsHTTP:           {},
	StripWWW:              {host: "www.www."},
	StripWWWN:             {host: "www1.www2."},
	DecodePathRepeatedly:  {path: "%2525%41/"},
	DecodeQueryRepeatedly: {query: "%2525%41&"},
	CollapseSlashes:       {path: "a//"},
	LowercasePath:         {path: "Ab/"},
	RemoveSessionIDs:      {path: "a;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA/..;jsessionid=1/", query: "jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA&"},
	RemoveDirectoryIndex:  {path: "index.php/"},
	RemoveTrailingSlash:   {path: "/"},
	LowercaseQuery:        {query: "Q=A&"},
	RemoveTrackingParams:  {query: "utm_source=x&"},
	RemoveEmptyParams:     {query: "e=&"},
	RemoveEmptyQuery:      {},
	SortQuery:             {query: "b=1&a=2&"},
	SortQueryPairs:        {query: "a=2&a=1&"},
}

// keyStepInput returns an input of about n bytes for the key steps a and
// b (see keyStepUnits): half of n in the path, half in the query, and a
// fragment.
func keyStepInput(a, b Step, n int) string {
	ua, ub := keyStepUnits[a], keyStepUnits[b]
	repeat := func(x, y string, n int) string {
		if x+y == "" {
			return strings.Repeat("a", n)
		}
		return strings.Repeat(x+y, max(1, n/len(x+y)))
	}
	return "https://" + ua.host + ub.host + "h/" + repeat(ua.path, ub.path, n/2) + "?" + repeat(ua.query, ub.query, n/2) + "#f"
}

// The sizes the linear checks compare: 16 times the input.
const linearSmall, linearLarge = 32 << 10, 512 << 10

// linearCheck compares the memory and time Normalize takes on a large
// and a small input. Memory: the bytes Normalize allocates, which no
// load on the machine changes, after two collections have emptied the
// package's sync.Pool: at most 32 times as much, plus 256 KiB for the
// runtime's span-sized accounting of small objects. A step that copies
// the rest of the input at each of its runs allocates hundreds of times
// as much.
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
type linearCheck struct {
	t                          *testing.T
	pairs, retried, mostRounds int
	worst                      float64
	worstPair                  string
}

const (
	allocRatio   = 32
	allocSlack   = 256 << 10
	timeRatio    = 64
	timeSlack    = time.Millisecond
	minRounds    = 3
	linearRounds = 30
	// linearBudget bounds the retries of a pair by the time its large
	// runs took, so that quadratic code fails in seconds: linear code
	// takes at most 20 ms a run.
	linearBudget = 2 * time.Second
)

// newLinearCheck locks the test to its thread (threadTime) until the
// test ends.
func newLinearCheck(t *testing.T) *linearCheck {
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	return &linearCheck{t: t}
}

func (lc *linearCheck) report() {
	clock := "CPU time"
	if !threadTimeIsCPU {
		clock = "wall time"
	}
	lc.t.Logf("%d pairs of shape and profile; %d ran more than %d rounds (at most %d); the largest ratio of %s passed: %.1f (%s)",
		lc.pairs, lc.retried, minRounds, lc.mostRounds, clock, lc.worst, lc.worstPair)
}

func linearAllocated(in string, p Profile) uint64 {
	runtime.GC() // twice: a pooled buffer survives one collection
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _ = Normalize(in, p)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func linearTimed(in string, p Profile) time.Duration {
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	start := threadTime()
	_, _ = Normalize(in, p)
	return threadTime() - start
}

// check compares Normalize(large, p) with Normalize(small, p), the case
// named what.
func (lc *linearCheck) check(what, small, large string, p Profile) {
	t := lc.t
	lc.pairs++
	// Memory first: the timed runs have the collector off, which
	// quadratic garbage would turn into running out of memory.
	if as, al := linearAllocated(small, p), linearAllocated(large, p); al > allocRatio*as+allocSlack {
		t.Errorf("%s: %d bytes allocated for %d bytes, %d for %d: not linear", what, al, len(large), as, len(small))
		return
	}
	ts, tl, spent := time.Duration(1<<62), time.Duration(1<<62), time.Duration(0)
	for round := 1; ; round++ {
		ts = min(ts, linearTimed(small, p))
		d := linearTimed(large, p)
		tl, spent = min(tl, d), spent+d
		if round >= minRounds && tl <= timeRatio*ts+timeSlack {
			if round > minRounds {
				lc.retried++
			}
			lc.mostRounds = max(lc.mostRounds, round)
			if r := float64(tl) / float64(max(ts, 1)); r > lc.worst {
				lc.worst, lc.worstPair = r, what
			}
			return
		}
		if round == linearRounds || spent > linearBudget {
			t.Errorf("%s: %v for %d bytes, %v for %d (the least of %d runs each): %.0f times as long for 16 times the input, want at most %d: not linear",
				what, tl, len(large), ts, len(small), round, float64(tl)/float64(max(ts, 1)), timeRatio)
			return
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

// TestKeyHostLengthFixedPoint checks, as a class, that the host length
// rule applies to the host as the key writes it, in every profile: for
// hosts whose spelling as written fits MaxHostLength and whose key's host
// may not (Unicode labels the key writes as longer A-labels, escaped
// Unicode, fullwidth letters the mapping shortens, an opaque host whose
// non-ASCII the key escapes, control characters, a "www." the key
// strips), at every length across the limit, each input is either
// refused with ErrTooLong or an error of its own, or gives a key that is
// a fixed point, in Normalize and as an absolute reference in
// NormalizeRef.
func TestKeyHostLengthFixedPoint(t *testing.T) {
	shapes := []struct{ scheme, prefix, fill string }{
		{"http://", "éé", "z"}, {"http://", "é.", "z"}, {"http://", "%C3%A9", "z"}, {"http://", "ＡＢ", "z"},
		{"http://", "ß", "z"}, {"http://", "www.éé", "z"}, {"foo://", "é", "é"}, {"foo://", "a", "é"},
		{"http://", "\b", "\b"}, {"", "éé", "z"}, {"https://", "xn--rsum-bpad.", "z"}, {"http://", "a", "%41"},
	}
	profiles := append(append([]Profile(nil), everyProfile...),
		mustProfile(append(WHATWG.Steps(), StripWWW)...), mustProfile(append(RFC3986.Steps(), DefaultScheme)...))
	accepted, refused := 0, 0
	for _, sh := range shapes {
		for target := MaxHostLength - 12; target <= MaxHostLength; target++ {
			host := sh.prefix
			for len(host)+len(sh.fill) <= target {
				host += sh.fill
			}
			in := sh.scheme + host + "/p"
			for _, p := range profiles {
				key, err := Normalize(in, p)
				if err != nil {
					var e *Error
					if !errors.As(err, &e) {
						t.Fatalf("Normalize(%.30q…, %v): %v, want an *Error", in, p, err)
					}
					refused++
					continue
				}
				accepted++
				if again, err := Normalize(key, p); again != key || err != nil {
					t.Errorf("Normalize(%.30q… (host %d bytes), %v) = %.40q… (%d bytes), which reads back as %.40q…, %v: not a fixed point",
						in, len(host), p, key, len(key), again, err)
				}
				if p.Has(ParseWHATWG) && sh.scheme != "" { // (without one, a reference is a path)
					if got, err := NormalizeRef("http://base.example/", in, p); err == nil && got != key {
						t.Errorf("NormalizeRef(base, %.30q…, %v) = %.40q…, want Normalize's %.40q…", in, p, got, key)
					}
				}
			}
		}
	}
	t.Logf("%d keys, %d refused", accepted, refused)
	if accepted < 1000 || refused < 500 {
		t.Errorf("%d keys and %d refusals: the class did not straddle the limit", accepted, refused)
	}
}
