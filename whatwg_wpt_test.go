package canon

// The WHATWG conformance harness: web-platform-tests' urltestdata.json,
// toascii.json and IdnaTestV2.json (testdata/wpt/), and urlcanon's
// funky_ipv4.json and path_dots.json (testdata/urlcanon/), run against
// every implementation in whatwgImpls: the slow reference
// (whatwg_reference_test.go) and, appended from another file's init(), the
// production profile. Rows that cannot pass for a documented reason (IDNA
// tables newer than Unicode 15.0.0, which x/net/idna has when built with
// Go 1.26; urlcanon data older than the current standard) are listed in
// testdata/wpt-exceptions.json; each listed row must still fail, or the
// exception is reported as stale. An exception with a "unicode" field
// applies only under that Unicode version (UnicodeVersion): under the
// Unicode 17.0.0 tables of Go 1.27, toascii.json and IdnaTestV2.json pass
// whole.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// whatwgImpl is one implementation of the WHATWG URL Standard under test.
//   - href(input, base) is new URL(input, base).href, with base "" for no
//     base (a base that fails to parse fails the call);
//   - host(domain), if non-nil, is the host parser for a special URL
//     followed by the host serializer (what new URL("https://" + domain +
//     "/x").host gives when domain holds no delimiter).
type whatwgImpl struct {
	name string
	href func(input, base string) (string, bool)
	host func(domain string) (string, bool)
}

var whatwgImpls = []whatwgImpl{
	{name: "slow", href: whatwgSlowHref, host: whatwgSlowHost},
}

// wptException is one row of testdata/wpt-exceptions.json.
type wptException struct {
	File    string  `json:"file"`
	Input   string  `json:"input"`
	Base    *string `json:"base"`
	Unicode string  `json:"unicode"` // the only Unicode version it applies under; "" for all
	Reason  string  `json:"reason"`
}

type wptExceptions struct {
	byKey map[string]wptException
	used  map[string]bool
}

func wptKey(file, input string, base *string) string {
	b := "\x00null"
	if base != nil {
		b = "\x00" + *base
	}
	return file + "\x00" + input + b
}

func loadWPTExceptions(t *testing.T) *wptExceptions {
	t.Helper()
	var list []wptException
	loadJSON(t, "wpt-exceptions.json", &list)
	ex := &wptExceptions{byKey: map[string]wptException{}, used: map[string]bool{}}
	seen := map[string]bool{}
	for _, e := range list {
		if e.Reason == "" {
			t.Errorf("wpt-exceptions.json: %s %q has no reason", e.File, e.Input)
		}
		k := wptKey(e.File, e.Input, e.Base)
		if seen[k] {
			t.Errorf("wpt-exceptions.json: %s %q listed twice", e.File, e.Input)
		}
		seen[k] = true
		if e.Unicode != "" && e.Unicode != UnicodeVersion {
			continue // the row must pass under this Unicode version
		}
		ex.byKey[k] = e
	}
	return ex
}

// checkUnused reports exceptions of file that matched no row.
func (ex *wptExceptions) checkUnused(t *testing.T, file string) {
	t.Helper()
	for k, e := range ex.byKey {
		if e.File == file && !ex.used[k] {
			t.Errorf("wpt-exceptions.json: %s %q (base %v) matches no row", e.File, e.Input, wnStr(e.Base))
		}
	}
}

func wnStr(p *string) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *p)
}

// wptTally counts results of one implementation on one file.
type wptTally struct{ pass, excepted, fail, total int }

func (c wptTally) String() string {
	return fmt.Sprintf("%d/%d pass, %d listed exceptions, %d failures", c.pass, c.total, c.excepted, c.fail)
}

// wptCheck is one expectation: href(input, base) gives want, or fails when
// want is nil.
type wptCheck struct {
	input, base string
	want        *string
}

// run checks one expectation against impl, with the exception list's say,
// and counts the result in tally.
func (c wptCheck) run(t *testing.T, impl whatwgImpl, ex *wptExceptions, key string, tally *wptTally) {
	t.Helper()
	tally.total++
	got, ok := impl.href(c.input, c.base)
	pass := ok == (c.want != nil) && (!ok || got == *c.want)
	e, excepted := ex.byKey[key]
	if excepted {
		ex.used[key] = true
	}
	switch {
	case pass && excepted:
		tally.pass++
		t.Errorf("WHATWG %s: href(%q, base %q) = %q passes: stale exception (%s)", impl.name, c.input, c.base, got, e.Reason)
	case pass:
		tally.pass++
	case excepted:
		tally.excepted++
	default:
		tally.fail++
		want := "failure"
		if c.want != nil {
			want = *c.want
		}
		t.Errorf("WHATWG %s: href(%q, base %q) = %q, %v, want %q", impl.name, c.input, c.base, got, ok, want)
	}
}

// wptRows reads a WPT file: an array of comments (strings) and objects.
func wptRows[T any](t *testing.T, name string) []T {
	t.Helper()
	var raw []json.RawMessage
	loadJSON(t, name, &raw)
	var rows []T
	for _, r := range raw {
		if len(r) > 0 && r[0] == '"' {
			continue // a comment
		}
		var row T
		if err := json.Unmarshal(r, &row); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rows = append(rows, row)
	}
	return rows
}

type urlTestRow struct {
	Input      string  `json:"input"`
	Base       *string `json:"base"`
	Href       string  `json:"href"`
	Failure    bool    `json:"failure"`
	RelativeTo string  `json:"relativeTo"`
}

func wptSubtestName(i int, input string) string {
	return fmt.Sprintf("%d:%s", i, input)
}

// schemeOf returns the scheme of a serialized URL.
func wptSchemeOf(href string) string {
	scheme, _, _ := strings.Cut(href, ":")
	return scheme
}

// TestWHATWGURLTestData runs every row of urltestdata.json: with base null
// as href(input, ""), else as href(input, base); failure rows must fail,
// the others give the row's href. A row with a base whose input is
// absolute is also run without the base, which must give the same href.
// "Absolute" is: it parses without a base, and its scheme is not a special
// scheme equal to the base's (then the standard reads the input relative to
// the base: "http:foo.com" against an http base, "file:x" against a file
// base); otherwise the parser never looks at the base after the scheme.
func TestWHATWGURLTestData(t *testing.T) {
	const file = "urltestdata.json"
	rows := wptRows[urlTestRow](t, "wpt/"+file)
	if len(rows) != 891 {
		t.Errorf("%s: %d rows, want 891", file, len(rows))
	}
	ex := loadWPTExceptions(t)
	for _, impl := range whatwgImpls {
		var tally, noBase wptTally
		for i, r := range rows {
			t.Run(impl.name+"/"+wptSubtestName(i, r.Input), func(t *testing.T) {
				c := wptCheck{input: r.Input}
				if r.Base != nil {
					c.base = *r.Base
				}
				if !r.Failure {
					c.want = &r.Href
				}
				c.run(t, impl, ex, wptKey(file, r.Input, r.Base), &tally)
				if r.Base == nil || r.Failure {
					return
				}
				abs, ok := impl.href(r.Input, "")
				if !ok {
					return
				}
				baseHref, ok := impl.href(*r.Base, "")
				if !ok {
					return
				}
				s := wptSchemeOf(abs)
				if _, special := whatwgSpecialSchemes[s]; special && s == wptSchemeOf(baseHref) {
					return
				}
				nb := wptCheck{input: r.Input, want: &r.Href}
				nb.run(t, impl, ex, wptKey(file+"#nobase", r.Input, r.Base), &noBase)
			})
		}
		t.Logf("WHATWG %s: %s: %v; absolute inputs without their base: %v", impl.name, file, tally, noBase)
	}
	ex.checkUnused(t, file)
	ex.checkUnused(t, file+"#nobase")
}

type idnaRow struct {
	Comment string  `json:"comment"`
	Input   string  `json:"input"`
	Output  *string `json:"output"`
}

// runWPTHostFile runs toascii.json or IdnaTestV2.json as the WPT runners
// do: new URL("https://" + input + "/x") must fail when output is null and
// otherwise have the href "https://" + output + "/x"; and, when the
// implementation has a host function, host(input) must agree.
func runWPTHostFile(t *testing.T, file string, want int) {
	rows := wptRows[idnaRow](t, "wpt/"+file)
	if len(rows) != want {
		t.Errorf("%s: %d rows, want %d", file, len(rows), want)
	}
	ex := loadWPTExceptions(t)
	for _, impl := range whatwgImpls {
		var tally, hostTally wptTally
		for i, r := range rows {
			if r.Input == "" {
				// As in WPT's IdnaTestV2.window.js: the empty input cannot
				// be tested through a URL ("https:///x" has the host "x").
				continue
			}
			t.Run(impl.name+"/"+wptSubtestName(i, r.Input), func(t *testing.T) {
				c := wptCheck{input: "https://" + r.Input + "/x"}
				if r.Output != nil {
					c.want = new("https://" + *r.Output + "/x")
				}
				key := wptKey(file, r.Input, nil)
				c.run(t, impl, ex, key, &tally)
				if impl.host == nil {
					return
				}
				hostTally.total++
				got, ok := impl.host(r.Input)
				pass := ok == (r.Output != nil) && (!ok || got == *r.Output)
				_, excepted := ex.byKey[key]
				switch {
				case pass:
					hostTally.pass++
				case excepted:
					hostTally.excepted++
				default:
					hostTally.fail++
					t.Errorf("WHATWG %s: host(%q) = %q, %v, want %s", impl.name, r.Input, got, ok, wnStr(r.Output))
				}
			})
		}
		if impl.host != nil {
			t.Logf("WHATWG %s: %s: %v; host(): %v", impl.name, file, tally, hostTally)
		} else {
			t.Logf("WHATWG %s: %s: %v", impl.name, file, tally)
		}
	}
	ex.checkUnused(t, file)
}

func TestWHATWGToASCII(t *testing.T) { runWPTHostFile(t, "toascii.json", 87) }

func TestWHATWGIdnaTestV2(t *testing.T) { runWPTHostFile(t, "IdnaTestV2.json", 2671) }

// loadURLCanon reads a urlcanon file. Its strings are Latin-1 code points
// standing for bytes (see testdata/urlcanon/README.md); the two files used
// here are pure ASCII on disk, so the strings are the bytes.
func loadURLCanon(t *testing.T, name string, v any) {
	t.Helper()
	loadJSON(t, "urlcanon/"+name, v)
}

// runURLCanonMap runs a urlcanon {input: expected} map, in sorted order,
// as href(prefix + input + suffix, "") against prefix + fix(expected) +
// suffix (a null expected: failure).
func runURLCanonMap(t *testing.T, file string, m map[string]*string, prefix, suffix string, fix func(string) string, want int) {
	if len(m) != want {
		t.Errorf("%s: %d rows, want %d", file, len(m), want)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ex := loadWPTExceptions(t)
	for _, impl := range whatwgImpls {
		var tally wptTally
		for i, k := range keys {
			t.Run(impl.name+"/"+wptSubtestName(i, k), func(t *testing.T) {
				c := wptCheck{input: prefix + k + suffix}
				if m[k] != nil {
					c.want = new(prefix + fix(*m[k]) + suffix)
				}
				c.run(t, impl, ex, wptKey(file, k, nil), &tally)
			})
		}
		t.Logf("WHATWG %s: %s: %v", impl.name, file, tally)
	}
	ex.checkUnused(t, file)
}

// TestWHATWGURLCanonIPv4 runs urlcanon's funky_ipv4.json: each key as the
// host of "http://" + key + "/", giving the dotted-decimal address or
// failure (null).
func TestWHATWGURLCanonIPv4(t *testing.T) {
	var m map[string]*string
	loadURLCanon(t, "funky_ipv4.json", &m)
	runURLCanonMap(t, "urlcanon/funky_ipv4.json", m, "http://", "/", func(s string) string { return s }, 47)
}

// TestWHATWGURLCanonPathDots runs urlcanon's path_dots.json. The "special"
// section: each key as the path of "http://example.com" + key, giving
// "http://example.com" + the resolved path. urlcanon's dot removal treats
// "\\" as a separator in this section but writes it back as it was
// ("\\foo\\..\\" -> "\\"): turning "\\" into "/" is a separate urlcanon
// step, as it is one with the standard's path state, so every "\\" of the
// expected path is read as "/". The "nonspecial" section ("\\" is no
// separator) runs the same way under "foo://example.com", except its 12
// keys that start with "\\": after a non-special authority that is a
// forbidden host code point, not a path.
func TestWHATWGURLCanonPathDots(t *testing.T) {
	var sections map[string]map[string]*string
	loadURLCanon(t, "path_dots.json", &sections)
	slashes := func(s string) string { return strings.ReplaceAll(s, "\\", "/") }
	runURLCanonMap(t, "urlcanon/path_dots.json", sections["special"], "http://example.com", "", slashes, 376)
	nonspecial := map[string]*string{}
	for k, v := range sections["nonspecial"] {
		if strings.HasPrefix(k, "/") {
			nonspecial[k] = v
		}
	}
	same := func(s string) string { return s }
	runURLCanonMap(t, "urlcanon/path_dots.json#nonspecial", nonspecial, "foo://example.com", "", same, 364)
}
