package canonbeam

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/seed15588f71/canon"
)

// The pipelines run on prism, Beam's in-process runner: the SDK harness
// talks to it over loopback, so the tests need no network and no Docker.
func TestMain(m *testing.M) {
	ptest.MainWithDefault(m, "prism")
}

func init() {
	register.Function2x1(formatKV)
	register.Function2x1(formatCount)
	register.Function1x1(formatFailure)
}

// The PCollections are compared as strings: passert compares elements by
// their encoding, and a string per KV or Failure gives readable diffs.

func formatKV(k, v string) string        { return k + "\t" + v }
func formatCount(k string, n int) string { return strconv.Itoa(n) + "\t" + k }
func formatFailure(f Failure) string     { return f.Input + "\t" + f.Error }

// badLines are rejected by RFC3986: a relative reference, an empty line,
// a bad port, a bad escape, a control character, a bad IPv4 host, a port
// out of range.
var badLines = []string{
	"/relative/path", "", "http://h:8x/", "http://h/%zz", "http://h/a\x01b",
	"http://0x7f.1/", "http://user:secret@h:99999/",
}

// sample returns n lines spread over bench/testdata/real.txt (a crawl's
// URLs), the first dup of them again with the scheme in upper case (the
// same key under RFC3986, another input), and badLines.
func sample(t *testing.T, n, dup int) []string {
	t.Helper()
	data, err := os.ReadFile("../../bench/testdata/real.txt")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(all) < n {
		t.Fatalf("real.txt has %d lines, want at least %d", len(all), n)
	}
	var lines []string
	for i := 0; i < n; i++ {
		lines = append(lines, all[i*len(all)/n])
	}
	for _, l := range lines[:dup] {
		if scheme, rest, ok := strings.Cut(l, ":"); ok {
			lines = append(lines, strings.ToUpper(scheme)+":"+rest)
		}
	}
	return append(lines, badLines...)
}

// expect splits lines as the library does: the keys (with repeats), the
// formatted KVs and the formatted failures.
func expect(t *testing.T, lines []string, key func(string) (string, error)) (keys, kvs, failures []string) {
	t.Helper()
	for _, l := range lines {
		k, err := key(l)
		if err != nil {
			failures = append(failures, formatFailure(Failure{Input: l, Error: err.Error()}))
			continue
		}
		keys = append(keys, k)
		kvs = append(kvs, formatKV(k, l))
	}
	return keys, kvs, failures
}

// TestNormalizeMatchesLibrary checks, on 2,000 real URLs, some of them
// twice, and lines that fail: the keys are the library's as a multiset,
// each failure is counted once, and KeyBy, Dedup and CountByKey agree
// with Go maps built from the library's keys.
func TestNormalizeMatchesLibrary(t *testing.T) {
	lines := sample(t, 2000, 300)
	keys, kvs, failures := expect(t, lines, func(l string) (string, error) { return canon.Normalize(l, canon.RFC3986) })
	if len(failures) < len(badLines) || len(keys)+len(failures) != len(lines) {
		t.Fatalf("%d keys and %d failures from %d lines: the bad lines should fail", len(keys), len(failures), len(lines))
	}
	counts := map[string]int{}
	for _, k := range keys {
		counts[k]++
	}
	if len(counts) > len(keys)-300 {
		t.Fatalf("only %d duplicate keys; the upper-case copies should give 300", len(keys)-len(counts))
	}
	var countLines []string
	for k, n := range counts {
		countLines = append(countLines, formatCount(k, n))
	}

	p, s := beam.NewPipelineWithRoot()
	in := beam.CreateList(s, lines)
	gotKeys, gotFailures := Normalize(s, in, canon.RFC3986)
	passert.Equals(s, gotKeys, toAny(keys)...)
	passert.Count(s, gotFailures, "failures", len(failures))
	passert.Equals(s, beam.ParDo(s, formatFailure, gotFailures), toAny(failures)...)

	keyed, keyedFailures := KeyBy(s, in, canon.RFC3986)
	passert.Equals(s, beam.ParDo(s, formatKV, keyed), toAny(kvs)...)
	passert.Count(s, keyedFailures, "KeyBy failures", len(failures))

	passert.Count(s, Dedup(s, gotKeys), "distinct keys", len(counts))
	passert.Equals(s, beam.ParDo(s, formatCount, CountByKey(s, gotKeys)), toAny(countLines)...)
	ptest.RunAndValidate(t, p)
}

// TestNormalizeRef checks the variants that resolve against a base, with
// WebCapture (RFC 1808 resolution) and WHATWG, on relative references
// and absolute URLs; and that an invalid base fails every element rather
// than dropping any.
func TestNormalizeRef(t *testing.T) {
	const base = "https://Example.com/docs/a/b?q#f"
	refs := append([]string{
		"../x", "./y?z", "g;p", "#frag", "?q2", "//other.example/p", "..//x", "a b",
		`c\d`, "http:e", "http://h:8x/", "%zz",
	}, sample(t, 200, 0)...)

	p, s := beam.NewPipelineWithRoot()
	in := beam.CreateList(s, refs)
	for _, prof := range []canon.Profile{canon.WebCapture, canon.WHATWG} {
		keys, kvs, failures := expect(t, refs, func(r string) (string, error) { return canon.NormalizeRef(base, r, prof) })
		gotKeys, gotFailures := NormalizeRef(s, base, in, prof)
		passert.Equals(s, gotKeys, toAny(keys)...)
		passert.Equals(s, beam.ParDo(s, formatFailure, gotFailures), toAny(failures)...)
		keyed, keyedFailures := KeyByRef(s, base, in, prof)
		passert.Equals(s, beam.ParDo(s, formatKV, keyed), toAny(kvs)...)
		passert.Count(s, keyedFailures, "KeyByRef failures "+prof.String(), len(failures))
	}
	badKeys, badFailures := NormalizeRef(s, "/no/scheme", in, canon.RFC3986)
	passert.Empty(s, badKeys)
	passert.Count(s, badFailures, "failures against a relative base", len(refs))
	ptest.RunAndValidate(t, p)
}

// TestProfileTravels checks that a profile of one's own, and the zero
// Profile, reach the workers intact: the DoFns carry them by step names.
func TestProfileTravels(t *testing.T) {
	custom, err := canon.NewProfile(append(canon.RFC3986.Steps(), canon.RemoveFragment)...)
	if err != nil {
		t.Fatal(err)
	}
	lines := append(sample(t, 300, 0), "HTTP://H/%7Ea#frag", "http://h/p#x", "foo:/a/..//b")
	p, s := beam.NewPipelineWithRoot()
	in := beam.CreateList(s, lines)
	for _, prof := range []canon.Profile{custom, {}, canon.POWDER} {
		keys, _, failures := expect(t, lines, func(l string) (string, error) { return canon.Normalize(l, prof) })
		gotKeys, gotFailures := Normalize(s, in, prof)
		passert.Equals(s, gotKeys, toAny(keys)...)
		passert.Count(s, gotFailures, "failures "+prof.String(), len(failures))
	}
	ptest.RunAndValidate(t, p)
}

// TestStepNames checks the serialized form of every predefined profile
// without a pipeline: stepNames and profileOf are inverses, and a name
// that is no step is refused in Setup rather than ignored.
func TestStepNames(t *testing.T) {
	for _, name := range []string{"rfc3986", "iri", "webcapture", "powder", "whatwg"} {
		p, ok := canon.LookupProfile(name)
		if !ok {
			t.Fatalf("no profile %q", name)
		}
		got, err := profileOf(stepNames(p))
		if err != nil || got != p {
			t.Errorf("%s: round trip gave %v, %v", name, got, err)
		}
	}
	if err := (&normalizeFn{Steps: []string{"LowercaseHost", "NoSuchStep"}}).Setup(); err == nil {
		t.Error("Setup accepted an unknown step")
	}
	if err := (&keyByFn{Steps: []string{"HostToASCII", "HostToUnicode"}}).Setup(); err == nil {
		t.Error("Setup accepted conflicting steps")
	}
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
