package canon

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// seedInputs returns every input of the test vectors, the hostile table
// and the corpus sample: the seed corpus of the fuzz targets.
func seedInputs(t testing.TB) []string {
	var in []string
	var v struct{ Cases []vector }
	loadJSON(t, "canon.json", &v)
	for _, c := range v.Cases {
		in = append(in, c.In)
	}
	var h struct{ Cases []hostileCase }
	loadJSON(t, "hostile.json", &h)
	for _, c := range h.Cases {
		in = append(in, c.In)
	}
	var ex []resolutionExample
	loadJSON(t, "rfc-resolution.json", &ex)
	for _, c := range ex {
		in = append(in, c.Base, c.Ref)
	}
	f, err := os.Open(filepath.Join("testdata", "corpus-sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		in = append(in, sc.Text())
	}
	return in
}

// MaxGrowth bounds the output: len(Normalize(x, p)) <= 3*len(x)+16 for
// every profile. Percent-encoding triples a byte at most; DefaultScheme
// adds "http://" and a "/"; IDNA output is at most three times its
// UTF-8 input per label plus "xn--".
func maxOutput(n int) int { return 3*n + 16 }

var (
	uriGrammar = func() *regexp.Regexp {
		const (
			pct        = `%[0-9A-F]{2}`
			unreserved = `A-Za-z0-9\-._~`
			subDelims  = `!$&'()*+,;=`
			pchar      = `(?:[` + unreserved + subDelims + `:@]|` + pct + `)`
			segment    = pchar + `*`
			userinfo   = `(?:[` + unreserved + subDelims + `:]|` + pct + `)*`
			regName    = `(?:[a-z0-9\-._~` + subDelims + `]|` + pct + `)*`
			ipLiteral  = `\[[0-9a-f:.]+(?:%25(?:[` + unreserved + `]|` + pct + `)+)?\]|\[v[0-9a-f]+\.[` + unreserved + subDelims + `:]+\]`
			authority  = `(?:` + userinfo + `@)?(?:` + ipLiteral + `|` + regName + `)(?::[1-9][0-9]*|:0)?`
			hierPart   = `(?://` + authority + `(?:/` + segment + `)*|/(?:` + pchar + `+(?:/` + segment + `)*)?|` + pchar + `+(?:/` + segment + `)*|)`
			query      = `(?:` + pchar + `|[/?])*`
		)
		return regexp.MustCompile(`^[a-z][a-z0-9+.\-]*:` + hierPart + `(?:\?` + query + `)?(?:#` + query + `)?$`)
	}()
	encodedUnreserved = regexp.MustCompile(`%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2D|2E|5F|7E)`)
)

// checkRFC3986Output asserts what RFC3986 promises of its output, with a
// grammar checker that shares no code with the normalizer.
func checkRFC3986Output(t *testing.T, in, out string) {
	t.Helper()
	if !uriGrammar.MatchString(out) {
		t.Fatalf("Normalize(%q, RFC3986) = %q: not an RFC 3986 URI with uppercase hex and lowercase scheme and host", in, out)
	}
	if encodedUnreserved.MatchString(out) {
		t.Fatalf("Normalize(%q, RFC3986) = %q: percent-encoded unreserved character", in, out)
	}
	r, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(Normalize(%q, RFC3986) = %q): %v", in, out, err)
	}
	path := r.Path
	if !r.HasAuthority && strings.HasPrefix(path, "/.//") {
		path = path[2:] // the documented "/." prefix (RemoveDots)
	}
	if oracleHasDotSegment(path) {
		t.Fatalf("Normalize(%q, RFC3986) = %q: dot segment left", in, out)
	}
	if r.HasPort {
		if r.Port == "" || (len(r.Port) > 1 && r.Port[0] == '0') || oracleIsDefaultPort(r.Scheme, r.Port) {
			t.Fatalf("Normalize(%q, RFC3986) = %q: empty, zero-padded or default port", in, out)
		}
	}
}

// checkError asserts the error contract: "" and an *Error naming a
// component, with an offset inside the quoted input, wrapping a sentinel.
func checkError(t *testing.T, op, in, out string, err error) {
	t.Helper()
	if out != "" {
		t.Fatalf("%s(%q) = %q with error %v", op, in, out, err)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s(%q): error %T %v is not *Error", op, in, err, err)
	}
	if e.Offset < -1 || e.Offset > len(e.Input) || e.Component > ComponentFragment {
		t.Fatalf("%s(%q): error %#v has a bad offset or component", op, in, e)
	}
	known := false
	for _, s := range sentinels {
		known = known || errors.Is(err, s)
	}
	if !known {
		t.Fatalf("%s(%q): error %v wraps no sentinel", op, in, err)
	}
	if got, want := e.Error(), errorTextReference(e); got != want {
		t.Fatalf("%s(%q): Error() = %q, want %q", op, in, got, want)
	}
}

// errorTextReference is Error's text built the plain way.
func errorTextReference(e *Error) string {
	reason := e.reason
	if reason == "" {
		reason = e.Err.Error()
	}
	arg := ""
	if e.Arg != "" {
		arg = e.Arg + " "
	}
	s := "canon." + e.Op + "(" + arg + quoteCut(e.Input) + "): " + e.Component.String() + ": " + reason
	if e.Offset >= 0 && e.Offset < len(e.Input) {
		s += " (at " + quoteCut(e.Input[e.Offset:]) + ")"
	}
	return s
}

// quoteCut quotes s, or, when it is longer than 256 bytes, its longest
// prefix of at most 256 bytes that ends where range over s would start
// its next character, followed by "...".
func quoteCut(s string) string {
	if len(s) <= 256 {
		return strconv.Quote(s)
	}
	cut := 0
	for i := range s {
		if i > 256 {
			break
		}
		cut = i
	}
	return strconv.Quote(s[:cut]) + "..."
}

// isNFCRunsStrict reports whether every run of s is NFC, by the full
// check (isNFCRuns answers with QuickSpan, which may say "maybe" for text
// that is NFC). Runs end where IRI's NFC step has barriers: at every
// ASCII byte that is not a letter or digit, and at every "%XX" triplet,
// hex digits included. Nothing composes across a barrier ("=" and U+0338
// must not become U+2260 and lose the "="), so the string as a whole
// need not be NFC, but each run must be.
func isNFCRunsStrict(s string) bool {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		var barrier int
		switch {
		case isTriplet(s, i):
			barrier = 3
		case c < utf8.RuneSelf && !isASCIILetter(c) && !isASCIIDigit(c):
			barrier = 1
		default:
			i++
			continue
		}
		if !norm.NFC.IsNormalString(s[start:i]) {
			return false
		}
		i += barrier
		start = i
	}
	return norm.NFC.IsNormalString(s[start:])
}

// FuzzNormalize checks the core invariants of the predefined profiles
// (those with key steps: idempotence and AppendNormalized): no panic, the error contract, the output bound, idempotence,
// AppendNormalized agreeing with Normalize, the RFC3986 output grammar,
// NFC UTF-8 IRI output, and IRI(RFC3986(x)) == IRI(x). The costlier
// oracles have targets of their own (FuzzFastPath, FuzzNoFalseMerge), so
// that each target spends its time executing inputs rather than
// re-running one input under many profiles.
func FuzzNormalize(f *testing.F) {
	for i, s := range seedInputs(f) {
		f.Add(s, seedProfileBits(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, in string, steps uint64, rules uint8) {
		// A profile of random steps, when NewProfile accepts them, with
		// random Rules: every combination must keep the invariants.
		if p, ok := profileFromBits(steps, rules); ok {
			checkKeyInvariants(t, in, p)
		}
		keys := make([]string, len(allProfiles))
		for i, p := range allProfiles {
			out, err := Normalize(in, p)
			if err != nil {
				checkError(t, "Normalize", in, out, err)
				continue
			}
			keys[i] = out
			if len(out) > maxOutput(len(in)) {
				t.Fatalf("Normalize(%q, %s) = %q: longer than %d", in, name(p), out, maxOutput(len(in)))
			}
			again, err := Normalize(out, p)
			if again != out || err != nil {
				t.Fatalf("Normalize(%q, %s) = %q, %v; Normalize of that = %q: not idempotent", in, name(p), out, err, again)
			}
			if b, err := AppendNormalized([]byte("x"), in, p); string(b) != "x"+out || err != nil {
				t.Fatalf("AppendNormalized(%q, %s) = %q, %v, want %q", in, name(p), b, err, "x"+out)
			}
			switch p {
			case RFC3986:
				checkRFC3986Output(t, in, out)
			case IRI:
				if !utf8.ValidString(out) || !isNFCRunsStrict(out) {
					t.Fatalf("Normalize(%q, IRI) = %q: not NFC UTF-8", in, out)
				}
			}
		}
		// The key profiles: idempotence, and AppendNormalized and
		// Explain agreeing with Normalize.
		for _, p := range keyProfiles {
			out, err := Normalize(in, p)
			if err != nil {
				checkError(t, "Normalize", in, out, err)
				continue
			}
			if again, err := Normalize(out, p); again != out || err != nil {
				t.Fatalf("Normalize(%q, %s) = %q, %v; Normalize of that = %q: not idempotent", in, name(p), out, err, again)
			}
			if b, err := AppendNormalized([]byte("x"), in, p); string(b) != "x"+out || err != nil {
				t.Fatalf("AppendNormalized(%q, %s) = %q, %v, want %q", in, name(p), b, err, "x"+out)
			}
		}
		// SafeBrowsing, which has its own reader (FuzzLookupExpressions
		// holds it to the document's algorithm).
		checkKeyInvariants(t, in, SafeBrowsing)
		// IRI(RFC3986(x)) == IRI(x) wherever both succeed (RFC 3987 §3.1
		// mapping commutes with the IRI ladder).
		if keys[1] != "" && keys[2] != "" {
			if k, err := Normalize(keys[1], IRI); err == nil && k != keys[2] {
				t.Fatalf("Normalize(Normalize(%q, RFC3986) = %q, IRI) = %q, want Normalize(x, IRI) = %q", in, keys[1], k, keys[2])
			}
		}
	})
}

// FuzzFastPath holds the fast path to the engine: whenever fast gives a
// key, under any of fastProfiles, it is the engine's. It runs
// on the input and on its keys under the predefined profiles, which are
// the inputs the fast path takes most.
func FuzzFastPath(f *testing.F) {
	for _, s := range seedInputs(f) {
		f.Add(s)
	}
	ps := fastProfiles()
	f.Fuzz(func(t *testing.T, in string) {
		for _, p := range ps {
			checkFast(t, in, p)
		}
		seen := []string{in}
	keys:
		for _, p := range allProfiles {
			k, err := Normalize(in, p)
			if err != nil {
				continue
			}
			for _, s := range seen {
				if k == s {
					continue keys // checked already
				}
			}
			seen = append(seen, k)
			for _, q := range ps {
				checkFast(t, k, q)
			}
		}
	})
}

// FuzzNoFalseMerge checks the promise of RFC3986, IRI and WebCapture
// never to give two resources one key, metamorphically: by changing one
// character of the RFC3986 key (checkNoFalseMerge) or of the input
// (checkInputMutations) and comparing keys, and by comparing the ASCII
// delimiters of input and key (checkDelimiterSkeleton).
func FuzzNoFalseMerge(f *testing.F) {
	for i, s := range seedInputs(f) {
		f.Add(s, seedProfileBits(i)&keyStepBits, uint8(i))
	}
	for _, s := range []string{
		// NFC maps U+1FEF to "`" and U+037E to ";"; "=" and U+0338
		// compose to U+2260: delimiters made or lost by IRI.
		"http://h/a\u1fefb", "http://h/a\u037eb", "http://h/a%CD%BEb",
		"http://h/?a=\u0338b", "http://h/?a=%CC%B8b",
		// Characters outside the URI grammar, which RFC3986 and IRI encode.
		"http://h/a[b", "http://h/?a]b", "http://h/#a#b",
	} {
		f.Add(s, uint64(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, in string, steps uint64, rules uint8) {
		// ParseWHATWG with random key steps, the escape steps and Rules:
		// no merge that no step of the profile claims. (SafeBrowsing is in
		// no oracle here: it merges by design, every escape with its
		// character, "%2F" with "/"; keyStepBits leaves its step out.)
		if p, ok := profileFromBits(1<<ParseWHATWG|steps&(keyStepBits|1<<UppercaseEscapes|1<<DecodeUnreserved), rules); ok {
			if key, err := Normalize(in, p); err == nil {
				checkKeyStepsNoFalseMerge(t, in, key, p)
			}
		}
		if key, err := Normalize(in, RFC3986); err == nil {
			checkNoFalseMerge(t, in, key)
		}
		checkInputMutations(t, in)
		checkDelimiterSkeleton(t, in)
		if key, err := Normalize(in, Crawler); err == nil {
			checkCrawlerNoFalseMerge(t, in, key)
		}
	})
}

// checkNoFalseMerge is the metamorphic oracle of the hostile catalogue
// (invariant 8) on the path and query of x: percent-encoding an
// unreserved character leaves the RFC3986 key unchanged; percent-encoding
// a reserved one, or flipping the case of a letter, changes it.
func checkNoFalseMerge(t testing.TB, in, key string) {
	t.Helper()
	r, err := Parse(key)
	if err != nil {
		return
	}
	prefix := key[:len(key)-len(r.Path)-len(r.Query)-len(r.Fragment)]
	if r.HasQuery {
		prefix = prefix[:len(prefix)-1]
	}
	if r.HasFragment {
		prefix = prefix[:len(prefix)-1]
	}
	rest := key[len(prefix):]
	for i := 0; i < len(rest) && i < 64; i++ {
		c := rest[i]
		if c == '#' {
			break
		}
		if c == '%' {
			i += 2
			continue
		}
		var variant string
		var wantSame bool
		switch {
		case abnfUnreserved[c] && c != '.':
			variant = prefix + rest[:i] + pctEncode(rest[i:i+1]) + rest[i+1:]
			wantSame = true
		case abnfSubDelims[c] || c == ':' || c == '@' || (c == '/' && i > 0) || (c == '?' && i > 0 && strings.IndexByte(rest[:i], '?') >= 0):
			variant = prefix + rest[:i] + pctEncode(rest[i:i+1]) + rest[i+1:]
		default:
			continue
		}
		got, err := Normalize(variant, RFC3986)
		if err != nil {
			continue
		}
		if (got == key) != wantSame {
			t.Fatalf("no-false-merge: Normalize(%q, RFC3986) = %q, and for %q: %q (same = %v, want %v)", key, key, variant, got, got == key, wantSame)
		}
		if abnfALPHA[c] {
			flipped := prefix + rest[:i] + string(c^0x20) + rest[i+1:]
			if got, err := Normalize(flipped, RFC3986); err == nil && got == key {
				t.Fatalf("no-false-merge: case flip %q has the same key as %q", flipped, key)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range seedInputs(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r, err := Parse(in)
		if err != nil {
			checkError(t, "Parse", in, "", err)
			return
		}
		trimmed := oracleTrim(in)
		if s := r.String(); s != trimmed {
			t.Fatalf("Parse(%q).String() = %q, want %q", in, s, trimmed)
		}
		r2, err := Parse(r.String())
		if err != nil || r2 != r {
			t.Fatalf("Parse(Parse(%q).String()) = %+v, %v, want %+v", in, r2, err, r)
		}
	})
}

func FuzzResolve(f *testing.F) {
	var ex []resolutionExample
	loadJSON(f, "rfc-resolution.json", &ex)
	for i, c := range ex {
		f.Add(c.Base, c.Ref, seedProfileBits(i), uint8(i))
	}
	for i, s := range seedInputs(f)[:200] {
		f.Add("http://a/b/c/d;p?q", s, seedProfileBits(i), uint8(i))
	}
	// References whose resolution could make a path read back as an
	// authority.
	f.Add("foo:/a/b", "..//x", uint64(0), uint8(0))
	f.Add("file:/a/b", "c/../..//evil.com/x", uint64(0), uint8(0))
	f.Add("http://good.com/", "///evil.com/x", uint64(0), uint8(0))
	f.Add("foo:", "%2F%2Fx", uint64(0), uint8(0))
	f.Fuzz(func(t *testing.T, base, ref string, steps uint64, rules uint8) {
		checkRefAuthority(t, base, ref)
		// A profile of random steps, when NewProfile accepts them, with
		// random Rules: its NormalizeRef keeps the error contract and
		// gives a fixed point of the profile.
		if p, ok := profileFromBits(steps, rules); ok {
			if got, err := NormalizeRef(base, ref, p); err != nil {
				checkError(t, "NormalizeRef", base+" "+ref, got, err)
			} else if again, err := Normalize(got, p); again != got || err != nil {
				t.Fatalf("NormalizeRef(%q, %q, %v) = %q; Normalize of that = %q, %v: not idempotent", base, ref, p, got, again, err)
			}
		}
		got, err := Resolve(base, ref)
		if err != nil {
			checkError(t, "Resolve", base+" "+ref, got, err)
			return
		}
		tb, tr := oracleTrim(base), oracleTrim(ref)
		if want := resolveSlow(tb, tr); got != want {
			t.Fatalf("Resolve(%q, %q) = %q, want %q (slow)", base, ref, got, want)
		}
		if _, err := Parse(got); err != nil {
			t.Fatalf("Parse(Resolve(%q, %q) = %q): %v", base, ref, got, err)
		}
		b1808, _, f1 := parseInput(base)
		r1808, _, f2 := parseInput(ref)
		if f1 == nil && f2 == nil {
			got, pr, f := resolve1808(&b1808, &r1808)
			if want, ok := resolve1808Slow(tb, tr); got != want || (f == nil) != ok {
				t.Fatalf("resolve1808(%q, %q) = %q, %v, want %q, %v (slow)", base, ref, got, f, want, ok)
			}
			if f == nil {
				checkComposedParts(t, "resolve1808", base, ref, got, &pr)
			}
			got, pr = resolve3986(&b1808, &r1808)
			checkComposedParts(t, "resolve3986", base, ref, got, &pr)
		}
	})
}

func FuzzRemoveDotSegments(f *testing.F) {
	for _, p := range dotPaths {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, path string) {
		if got, want := RemoveDotSegments(path), removeDotSegmentsSlow(path); got != want {
			t.Fatalf("RemoveDotSegments(%q) = %q, want %q (slow)", path, got, want)
		}
		if got, want := string(removeDotSegments1808([]byte(path))), removeDots1808Slow(path); got != want {
			t.Fatalf("removeDotSegments1808(%q) = %q, want %q (slow)", path, got, want)
		}
	})
}
