package canonbeam

import (
	"encoding/json"
	"fmt"
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
	register.Function2x1(formatLink)
	register.Function2x1(formatCount)
	register.Function1x1(formatFailure)
	register.Function1x2(splitPair)
}

// The PCollections are compared as strings: passert compares elements by
// their encoding, and a string per KV or Failure gives readable diffs.

func formatKV(k, v string) string        { return k + "\t" + v }
func formatLink(k string, l Link) string { return k + "\t" + l.Page + "\t" + l.Href }
func formatCount(k string, n int) string { return strconv.Itoa(n) + "\t" + k }

// formatFailure writes every field of a Failure.
func formatFailure(f Failure) string {
	return strings.Join([]string{f.Page, f.Input, f.Error, f.Message, f.Kind, f.Component, strconv.Itoa(f.Offset)}, "\t")
}

// splitPair reads "page TAB href" as KV<page, href>.
func splitPair(s string) (string, string) {
	page, href, _ := strings.Cut(s, "\t")
	return page, href
}

// badLines are rejected by RFC3986: a relative reference, a bad port, a
// bad escape, a control character, a bad IPv4 host, a port out of range
// (with a password, which Error redacts).
var badLines = []string{
	"/relative/path", "http://h:8x/", "http://h/%zz", "http://h/a\x01b",
	"http://0x7f.1/", "http://user:secret@h:99999/",
}

// blankLines are blank as the canon command reads a line: no key, no
// failure, and no base makes a URL of them.
var blankLines = []string{"", " ", "\t", " \r", "\v\f "}

// sample returns n lines spread over bench/testdata/real.txt (a crawl's
// URLs), the first dup of them again with the scheme in upper case (the
// same key under RFC3986, another input), badLines and blankLines.
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
	lines = append(lines, badLines...)
	return append(lines, blankLines...)
}

// expect splits lines as the library does: the keys (with repeats), the
// formatted KVs and the formatted failures. Blank lines give none; key
// is never called for them.
func expect(t *testing.T, lines []string, key func(string) (string, error), n *normalizer) (keys, kvs, failures []string) {
	t.Helper()
	for _, l := range lines {
		if isBlank(l) {
			continue
		}
		k, err := key(l)
		if err != nil {
			failures = append(failures, formatFailure(n.failure("", l, err)))
			continue
		}
		keys = append(keys, k)
		kvs = append(kvs, formatKV(k, l))
	}
	return keys, kvs, failures
}

// counter returns the sum of the canon counter name in res.
func counter(res beam.PipelineResult, name string) int64 {
	var n int64
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "canon" && c.Name() == name {
			n += c.Result()
		}
	}
	return n
}

// TestNormalizeMatchesLibrary checks, on 2,000 real URLs, some of them
// twice, lines that fail and blank lines: the keys are the library's as a
// multiset, each failure is the library's error, described as the canon
// command describes it, blank lines give nothing, the counters add up,
// and KeyBy, Dedup and CountByKey agree with Go maps built from the
// library's keys.
func TestNormalizeMatchesLibrary(t *testing.T) {
	lines := sample(t, 2000, 300)
	keys, kvs, failures := expect(t, lines, func(l string) (string, error) { return canon.Normalize(l, canon.RFC3986) }, &normalizer{})
	if len(failures) < len(badLines) || len(keys)+len(failures)+len(blankLines) != len(lines) {
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
	res := ptest.RunAndValidate(t, p)
	// Normalize and KeyBy each saw every line.
	for name, want := range map[string]int{"keys": 2 * len(keys), "failures": 2 * len(failures), "blank": 2 * len(blankLines)} {
		if got := counter(res, name); got != int64(want) {
			t.Errorf("counter canon/%s = %d, want %d", name, got, want)
		}
	}
}

// TestNormalizeRef checks the variants that resolve against a base, with
// WebCapture (RFC 1808 resolution) and WHATWG, on relative references
// and absolute URLs; that a blank reference is skipped rather than
// resolved to the base; and that an invalid base fails every other
// element rather than dropping any.
func TestNormalizeRef(t *testing.T) {
	const base = "https://Example.com/docs/a/b?q#f"
	refs := append([]string{
		"../x", "./y?z", "g;p", "#frag", "?q2", "//other.example/p", "..//x", "a b",
		`c\d`, "http:e", "http://h:8x/", "%zz",
	}, sample(t, 200, 0)...)

	p, s := beam.NewPipelineWithRoot()
	in := beam.CreateList(s, refs)
	for _, prof := range []canon.Profile{canon.WebCapture, canon.WHATWG} {
		keys, kvs, failures := expect(t, refs, func(r string) (string, error) { return baseRef(base, r, prof) }, &normalizer{ref: true})
		gotKeys, gotFailures := NormalizeRef(s, base, in, prof)
		passert.Equals(s, gotKeys, toAny(keys)...)
		passert.Equals(s, beam.ParDo(s, formatFailure, gotFailures), toAny(failures)...)
		keyed, keyedFailures := KeyByRef(s, base, in, prof)
		passert.Equals(s, beam.ParDo(s, formatKV, keyed), toAny(kvs)...)
		passert.Count(s, keyedFailures, "KeyByRef failures "+prof.String(), len(failures))
	}
	badKeys, badFailures := NormalizeRef(s, "/no/scheme", in, canon.RFC3986)
	passert.Empty(s, badKeys)
	passert.Count(s, badFailures, "failures against a relative base", len(refs)-len(blankLines))
	ptest.RunAndValidate(t, p)
}

// rulesInputs are URLs whose keys the rules of rulesProfiles change:
// each parameter name of the rules, in the query and as a path parameter,
// in several letter cases, beside parameters the rules leave alone.
func rulesInputs() []string {
	var out []string
	for _, name := range []string{"ref", "REF", "source", "pk_campaign", "Pk_Kwd", "hsa_acc", "sid", "token", "visit", "utm_source", "a"} {
		out = append(out,
			"https://Example.com/p?"+name+"=abc&a=1",
			"http://h/x?b=2&"+name+"=&c=3#frag",
			"http://h/x;"+name+"=abc?z=1",
			"http://www.h.example/dir/?"+name+"=1234567890abcdef&"+name+"=2",
		)
	}
	return append(out, "http://h/x?ref=abc&a=1")
}

// rulesProfiles are profiles with rules, predefined and of one's own.
func rulesProfiles(t *testing.T) []canon.Profile {
	t.Helper()
	own, err := canon.NewProfile(append(canon.RFC3986.Steps(), canon.RemoveTrackingParams, canon.RemoveSessionIDs, canon.SortQuery)...)
	if err != nil {
		t.Fatal(err)
	}
	var out []canon.Profile
	for _, c := range []struct {
		p canon.Profile
		r canon.Rules
	}{
		{canon.Crawler, canon.Rules{TrackingParams: []string{"ref", "source"}}},
		{canon.Crawler, canon.Rules{TrackingPrefixes: []string{"pk_", "hsa_"}, SessionParams: []string{"visit"}}},
		{canon.Archive, canon.Rules{SessionParams: []string{"sid", "token"}}},
		{canon.Aggressive, canon.Rules{SessionParams: []string{"Visit", "token"}}},
		{own, canon.Rules{TrackingParams: []string{"source"}, TrackingPrefixes: []string{"PK_"}, SessionParams: []string{"token"}}},
		// Per-host rules and a keep-only list, which travel as JSON text.
		{canon.Crawler, canon.Rules{TrackingParams: []string{"ref"}, Hosts: map[string]canon.Rules{
			"example.com": {KeepParams: []string{"a"}}, "h": {SessionParams: []string{"visit"}}}}},
	} {
		p, err := c.p.WithRules(c.r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestRulesTravel checks the class of bug where a profile reaches the
// workers without its rules: for several profiles with rules, every
// transform's output on prism equals the library's for the same inputs
// (real URLs, URLs the rules act on, bad and blank lines), and the rules
// change some keys in each, so that a profile stripped of them would
// fail the test.
func TestRulesTravel(t *testing.T) {
	inputs := append(rulesInputs(), sample(t, 300, 0)...)
	pages := []string{"https://example.com/docs/a/b?q", "http://h.example/", "https://www.example.org/x;sid=1/y"}
	var pairs []string
	for i, in := range inputs {
		if !strings.Contains(in, "\t") {
			pairs = append(pairs, pages[i%len(pages)]+"\t"+in)
		}
	}
	const base = "https://example.com/base/page.html?x=1"

	p, s := beam.NewPipelineWithRoot()
	in := beam.CreateList(s, inputs)
	links := beam.ParDo(s, splitPair, beam.CreateList(s, pairs))
	for _, prof := range rulesProfiles(t) {
		bare, _ := prof.WithRules(canon.Rules{})
		changed := 0
		for _, l := range inputs {
			k1, err1 := canon.Normalize(l, prof)
			k2, err2 := canon.Normalize(l, bare)
			if err1 == nil && err2 == nil && k1 != k2 {
				changed++
			}
		}
		if changed < 3 {
			t.Fatalf("%v: the rules change %d keys of the inputs; the test needs inputs they act on", prof, changed)
		}
		name := prof.String()

		keys, kvs, failures := expect(t, inputs, func(l string) (string, error) { return canon.Normalize(l, prof) }, &normalizer{})
		gotKeys, gotFailures := Normalize(s, in, prof)
		passert.Equals(s, gotKeys, toAny(keys)...)
		passert.Equals(s, beam.ParDo(s, formatFailure, gotFailures), toAny(failures)...)
		keyed, keyedFailures := KeyBy(s, in, prof)
		passert.Equals(s, beam.ParDo(s, formatKV, keyed), toAny(kvs)...)
		passert.Count(s, keyedFailures, "KeyBy failures "+name, len(failures))

		keys, kvs, failures = expect(t, inputs, func(l string) (string, error) { return baseRef(base, l, prof) }, &normalizer{ref: true})
		gotKeys, gotFailures = NormalizeRef(s, base, in, prof)
		passert.Equals(s, gotKeys, toAny(keys)...)
		passert.Equals(s, beam.ParDo(s, formatFailure, gotFailures), toAny(failures)...)
		keyed, _ = KeyByRef(s, base, in, prof)
		passert.Equals(s, beam.ParDo(s, formatKV, keyed), toAny(kvs)...)

		var pageKeys, linkKeys, pairFailures []string
		kvn := &normalizer{kv: true}
		for _, pr := range pairs {
			page, href := splitPair(pr)
			if isBlank(href) {
				continue
			}
			k, err := baseRef(page, href, prof)
			if err != nil {
				pairFailures = append(pairFailures, formatFailure(kvn.failure(page, href, err)))
				continue
			}
			pageKeys = append(pageKeys, formatKV(page, k))
			linkKeys = append(linkKeys, formatLink(k, Link{Page: page, Href: href}))
		}
		gotPageKeys, gotPairFailures := NormalizeRefKV(s, links, prof)
		passert.Equals(s, beam.ParDo(s, formatKV, gotPageKeys), toAny(pageKeys)...)
		passert.Equals(s, beam.ParDo(s, formatFailure, gotPairFailures), toAny(pairFailures)...)
		gotLinkKeys, gotLinkFailures := KeyByRefKV(s, links, prof)
		passert.Equals(s, beam.ParDo(s, formatLink, gotLinkKeys), toAny(linkKeys)...)
		passert.Count(s, gotLinkFailures, "KeyByRefKV failures "+name, len(pairFailures))
	}
	ptest.RunAndValidate(t, p)
}

// TestProfileTravels checks that a profile of one's own, the zero
// Profile and POWDER reach the workers intact.
func TestProfileTravels(t *testing.T) {
	custom, err := canon.NewProfile(append(canon.RFC3986.Steps(), canon.RemoveFragment)...)
	if err != nil {
		t.Fatal(err)
	}
	lines := append(sample(t, 300, 0), "HTTP://H/%7Ea#frag", "http://h/p#x", "foo:/a/..//b")
	p, s := beam.NewPipelineWithRoot()
	in := beam.CreateList(s, lines)
	for _, prof := range []canon.Profile{custom, {}, canon.POWDER} {
		keys, _, failures := expect(t, lines, func(l string) (string, error) { return canon.Normalize(l, prof) }, &normalizer{})
		gotKeys, gotFailures := Normalize(s, in, prof)
		passert.Equals(s, gotKeys, toAny(keys)...)
		passert.Count(s, gotFailures, "failures "+prof.String(), len(failures))
	}
	ptest.RunAndValidate(t, p)
}

// TestNormalizeRefKV checks the per-page variants on links whose pages
// differ: the same href gives different keys on different pages, an
// invalid page fails its hrefs (Page set, "page: " in Message, no
// offset), a blank href gives nothing, and a failing href is described
// with its page.
func TestNormalizeRefKV(t *testing.T) {
	pairs := []string{
		"https://a.example/x/y\t../z",
		"https://b.example/p/\t../z",
		"https://a.example/x/y\t",
		"https://a.example/x/y\t \r",
		"https://a.example/x/y\thttp://h:8x/",
		"/not/absolute\tz",
		"http://h/\t%zz",
		"https://b.example/\t//C.example/%7e",
	}
	var wantKeys, wantLinks, wantFailures []string
	n := &normalizer{kv: true}
	for _, pr := range pairs {
		page, href := splitPair(pr)
		if isBlank(href) {
			continue
		}
		k, err := baseRef(page, href, canon.WHATWG)
		if err != nil {
			wantFailures = append(wantFailures, formatFailure(n.failure(page, href, err)))
			continue
		}
		wantKeys = append(wantKeys, formatKV(page, k))
		wantLinks = append(wantLinks, formatLink(k, Link{page, href}))
	}
	if want := []string{"https://a.example/x/y\thttps://a.example/z", "https://b.example/p/\thttps://b.example/z"}; strings.Join(wantKeys[:2], "|") != strings.Join(want, "|") {
		t.Fatalf("library keys %q, want %q", wantKeys[:2], want)
	}
	if len(wantFailures) != 2 || !strings.Contains(wantFailures[1], "\tpage: ") {
		t.Fatalf("library failures %q: want two, the second for the page", wantFailures)
	}

	p, s := beam.NewPipelineWithRoot()
	links := beam.ParDo(s, splitPair, beam.CreateList(s, pairs))
	keys, failures := NormalizeRefKV(s, links, canon.WHATWG)
	passert.Equals(s, beam.ParDo(s, formatKV, keys), toAny(wantKeys)...)
	passert.Equals(s, beam.ParDo(s, formatFailure, failures), toAny(wantFailures)...)
	keyed, keyedFailures := KeyByRefKV(s, links, canon.WHATWG)
	passert.Equals(s, beam.ParDo(s, formatLink, keyed), toAny(wantLinks)...)
	passert.Equals(s, beam.ParDo(s, formatFailure, keyedFailures), toAny(wantFailures)...)
	res := ptest.RunAndValidate(t, p)
	if got := counter(res, "blank"); got != 4 {
		t.Errorf("counter canon/blank = %d, want 4 (two blank hrefs, two transforms)", got)
	}
}

// TestFailureFields checks each field of a Failure on inputs whose
// errors are known, without a pipeline: Kind the sentinel's name,
// Component, Offset into the input (across a redacted password, and
// into a reference whose resolved URL failed), and Message the text the
// canon command prints.
func TestFailureFields(t *testing.T) {
	long := "http://h/" + strings.Repeat("a", canon.MaxLength)
	for _, c := range []struct {
		kv, ref   bool
		page, in  string
		msg, kind string
		comp      string
		off       int
	}{
		{in: "http://h:8x/", msg: `port: invalid character (at "x/")`, kind: "ErrInvalidPort", comp: "port", off: 10},
		{in: "http://u:pw@h:8x/", msg: `port: invalid character (at "x/")`, kind: "ErrInvalidPort", comp: "port", off: 15},
		{in: "/rel", msg: `scheme: missing scheme (at "/rel")`, kind: "ErrRelative", comp: "scheme", off: 0},
		{in: long, msg: "line longer than 4194304 bytes", kind: "ErrTooLong", comp: "url", off: -1},
		// Longer than the 256 bytes an error quotes: the rest cut, as
		// the canon command cuts it.
		{in: "http://h:8x/" + strings.Repeat("a", 300), msg: `port: invalid character (at "x/` + strings.Repeat("a", 254) + `"...)`, kind: "ErrInvalidPort", comp: "port", off: 10},
		{kv: true, page: "http://h/", in: strings.Repeat("é", 200) + "%zz", msg: `resolved against the page: path: invalid percent-encoding (at "%zz")`, kind: "ErrInvalidEscape", comp: "path", off: 400},
		{ref: true, page: "", in: "%zz", msg: `resolved against -base: path: invalid percent-encoding (at "%zz")`, kind: "ErrInvalidEscape", comp: "path", off: 0},
		{kv: true, page: "http://h/", in: "a%zz", msg: `resolved against the page: path: invalid percent-encoding (at "%zz")`, kind: "ErrInvalidEscape", comp: "path", off: 1},
		{kv: true, page: "rel", in: "x", msg: `page: scheme: base has no scheme (at "rel")`, kind: "ErrRelative", comp: "scheme", off: -1},
	} {
		n := &normalizer{p: canon.RFC3986, ref: c.ref, kv: c.kv, base: "http://h/"}
		var err error
		switch {
		case c.kv:
			_, err = baseRef(c.page, c.in, n.p)
		case c.ref:
			_, err = baseRef(n.base, c.in, n.p)
		default:
			_, err = canon.Normalize(c.in, n.p)
		}
		if err == nil {
			t.Fatalf("%.40q: no error", c.in)
		}
		f := n.failure(c.page, c.in, err)
		if f.Message != c.msg || f.Kind != c.kind || f.Component != c.comp || f.Offset != c.off || f.Input != c.in || f.Page != c.page || f.Error != err.Error() {
			t.Errorf("failure(%q, %.40q) = {Message %q Kind %q Component %q Offset %d Page %q}, want {%q %q %q %d %q}",
				c.page, c.in, f.Message, f.Kind, f.Component, f.Offset, f.Page, c.msg, c.kind, c.comp, c.off, c.page)
		}
		if strings.Contains(f.Error, "pw@") || strings.Contains(f.Message, "pw") {
			t.Errorf("%q: password in the failure: %q / %q", c.in, f.Error, f.Message)
		}
		if f.Offset >= 0 {
			// The message quotes the rest from the offset, cut after 256
			// bytes (here ASCII) and marked "...".
			rest, cut := c.in[f.Offset:], ""
			if len(rest) > 256 {
				rest, cut = rest[:256], "..."
			}
			if !strings.Contains(f.Message, "(at "+strconv.Quote(rest)+cut+")") {
				t.Errorf("%.300q: offset %d is not where the message points: %q", c.in, f.Offset, f.Message)
			}
		}
	}
}

// TestNewFailure checks NewFailure on errors of the library's other
// functions, as a pipeline that runs canon.SURT on the keys gets them:
// the input is the line the key was made of, the error names the key.
// The offset maps into the line where the line ends with the text the
// message quotes, and is -1 where it does not.
func TestNewFailure(t *testing.T) {
	for _, c := range []struct {
		in, key   string // the line, and what SURT is given
		msg, kind string
		comp      string
		off       int
	}{
		{"http://h:8x/", "http://h:8x/", `port: invalid character (at "x/")`, "ErrInvalidPort", "port", 10},
		{"HTTP://H:8x/", "http://h:8x/", `port: invalid character (at "x/")`, "ErrInvalidPort", "port", 10},
		{"http://h:8x/p", "http://h:8x/P", `port: invalid character (at "x/P")`, "ErrInvalidPort", "port", -1},
		{"1http://h/", "1http://h/", `scheme: scheme must start with a letter (at "1http://h/")`, "ErrInvalidScheme", "scheme", 0},
		{"x", "", "scheme: missing scheme", "ErrRelative", "scheme", -1},
	} {
		_, err := canon.SURT(c.key)
		if err == nil {
			t.Fatalf("SURT(%q): no error", c.key)
		}
		f := NewFailure(c.in, err)
		want := Failure{Input: c.in, Error: err.Error(), Message: c.msg, Kind: c.kind, Component: c.comp, Offset: c.off}
		if f != want {
			t.Errorf("NewFailure(%q, SURT(%q)'s error) =\n%+v, want\n%+v", c.in, c.key, f, want)
		}
	}
}

// TestCheckProfile checks the profile's serialized form without a
// pipeline: every predefined profile, with and without rules, comes back
// ==, through encoding/json as Beam sends a DoFn; a form that loses the
// rules (the step names alone) is refused, and a transform given such a
// profile would panic while the pipeline is built; Setup refuses an
// unknown step and conflicting steps rather than ignore them.
func TestCheckProfile(t *testing.T) {
	var all []canon.Profile
	for _, name := range []string{"rfc3986", "iri", "webcapture", "powder", "whatwg", "crawler", "archive", "aggressive"} {
		p, ok := canon.LookupProfile(name)
		if !ok {
			t.Fatalf("no profile %q", name)
		}
		all = append(all, p)
	}
	all = append(all, canon.Profile{})
	all = append(all, rulesProfiles(t)...)
	for _, p := range all {
		if err := CheckProfile(p); err != nil {
			t.Errorf("CheckProfile(%v): %v", p, err)
		}
		data, err := json.Marshal(&normalizeFn{Profile: mustSpec("test", p)})
		if err != nil {
			t.Fatal(err)
		}
		var back normalizeFn
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if err := back.Setup(); err != nil || back.n.p != p {
			t.Errorf("%v: the DoFn's JSON %s gave %v, %v", p, data, back.n.p, err)
		}
		if r := p.Rules(); r.TrackingParams == nil && r.SessionParams == nil && r.TrackingPrefixes == nil && r.KeepParams == nil && r.Hosts == nil {
			continue
		}
		stepsOnly := profileSpec{Steps: specOf(p).Steps}
		if err := checkSpec(p, stepsOnly); err == nil || !strings.Contains(err.Error(), "cannot be carried") {
			t.Errorf("%v: the step names alone were accepted: %v", p, err)
		}
	}
	if err := (&normalizeFn{Profile: profileSpec{Steps: []string{"LowercaseHost", "NoSuchStep"}}}).Setup(); err == nil {
		t.Error("Setup accepted an unknown step")
	}
	if err := (&keyByFn{Profile: profileSpec{Steps: []string{"HostToASCII", "HostToUnicode"}}}).Setup(); err == nil {
		t.Error("Setup accepted conflicting steps")
	}
	if err := (&keyByKVFn{Profile: profileSpec{Steps: []string{"ParseWHATWG"}, Rules: `{"TrackingParams":["a&b"]}`}}).Setup(); err == nil {
		t.Error("Setup accepted a rule name WithRules refuses")
	}
	if err := (&keyByKVFn{Profile: profileSpec{Steps: []string{"ParseWHATWG"}, Rules: `{"NoSuchList":["a"]}`}}).Setup(); err == nil {
		t.Error("Setup accepted rules with an unknown field")
	}
}

// TestMustSpecPanics checks that a transform refuses, while the pipeline
// is built, a profile that cannot travel, with an error naming the
// transform: a spec that fails checkSpec is what mustSpec panics on.
func TestMustSpecPanics(t *testing.T) {
	p, err := canon.Crawler.WithRules(canon.Rules{TrackingParams: []string{"ref"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("no panic")
		}
		if msg := fmt.Sprint(r); !strings.HasPrefix(msg, "canonbeam.Normalize: ") || !strings.Contains(msg, "cannot be carried to the workers") {
			t.Errorf("panic %q", msg)
		}
	}()
	saved := specHook
	specHook = func(spec profileSpec) profileSpec { spec.Rules = ""; return spec }
	defer func() { specHook = saved }()
	_, s := beam.NewPipelineWithRoot()
	Normalize(s, beam.CreateList(s, []string{"http://h/"}), p)
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// baseRef is what the ref and KV transforms give for in against page:
// canon.NewBase's Base.Normalize, key and error (whose Op names
// Base.Normalize), or NormalizeRef's for a page NewBase refuses (see
// normalizer.normalizeRef).
func baseRef(page, in string, p canon.Profile) (string, error) {
	b, err := canon.NewBase(page, p)
	if err != nil {
		return canon.NormalizeRef(page, in, p)
	}
	return b.Normalize(in)
}
