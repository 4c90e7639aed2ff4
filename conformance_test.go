package canon

// The conformance harness of the key profiles: other projects' test
// vectors, each run through the canon profile that is closest to what the
// vector's project does, and every case where canon's answer differs
// counted, listed and explained.
//
//   - testdata/urlcanon/aggressive.json: iipc/urlcanon's "aggressive"
//     canonicalizer, against Aggressive.
//   - testdata/urlcanon/semantic_precise.json: urlcanon's
//     "semantic_precise", against semanticPrecise, a profile built below
//     from the steps.
//   - testdata/urlcanon/surt.json: the sections urlcanon copied from the
//     Internet Archive's surt library (Canonicalizer.IA,
//     Canonicalizer.DefaultIA, alphaRorderQuery, massageHost,
//     stripPathSessionId, unescapeRepeatedly, defaultIASurt), each wrapped
//     as its comment in confSURTSections says. The sections google and
//     googleSupplementalFromSurt are Google Safe Browsing's
//     canonicalization, which no canon profile implements; they are not run.
//   - testdata/crawler-commons/basic_url_normalizer_cases.json:
//     crawler-commons' BasicURLNormalizer, against crawlerCommons (and,
//     for the inline groups that configure the normalizer, that profile
//     with the matching change).
//   - testdata/normalize-url/normalize_url_cases.json: sindresorhus/
//     normalize-url with its default options, against normalizeURL.
//
// testdata/conformance-differences.json lists the cases where canon's
// answer differs from the vector, with canon's answer and the reason.
// Every listed case must still differ, and give the listed answer (so a
// fix, or any change of behaviour, fails the test until the row is
// updated or removed); every case not listed must pass. Run with
// -conformance.update to rewrite the file from the current results (see
// confWriteDiffs): rows that still differ keep their reason, rows that
// pass are dropped, and a case that differs without a row, or whose row
// has no reason, makes the update refuse to write: every row it writes
// carries a reason.

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var conformanceUpdate = flag.Bool("conformance.update", false,
	"rewrite testdata/conformance-differences.json from the current results of TestConformance*: "+
		"rows that still differ keep their reason (and their new answer), rows that pass are dropped; "+
		"a case that differs with no row or no reason makes it write nothing and print the rows to add, "+
		"with \"reason\": \"\" to fill in, after which it runs again")

const conformanceDiffFile = "conformance-differences.json"

// confDiff is one row of testdata/conformance-differences.json. Input,
// Want and Got are written as the vector's file writes strings (for
// urlcanon's files, Latin-1 code points standing for bytes); Want is null
// where the vector expects failure, and Got is "error: " and the
// sentinel error canon returned (see confGot).
type confDiff struct {
	File    string  `json:"file"`
	Section string  `json:"section"`
	Input   string  `json:"input"`
	Want    *string `json:"want"`
	Got     string  `json:"got"`
	Reason  string  `json:"reason"`
}

func confKey(file, section, input string) string { return file + "\x00" + section + "\x00" + input }

// confDiffs is the differences file, loaded once for all the tests.
type confDiffs struct {
	rows  []confDiff
	byKey map[string]*confDiff
}

func loadConfDiffs(t *testing.T) *confDiffs {
	t.Helper()
	var rows []confDiff
	loadJSON(t, conformanceDiffFile, &rows)
	d := &confDiffs{rows: rows, byKey: map[string]*confDiff{}}
	for i := range d.rows {
		r := &d.rows[i]
		k := confKey(r.File, r.Section, r.Input)
		if _, dup := d.byKey[k]; dup {
			t.Errorf("%s: %s [%s] %q listed twice", conformanceDiffFile, r.File, r.Section, r.Input)
		}
		d.byKey[k] = r
	}
	return d
}

// confCase is one vector: in and want are as the file writes them
// (want nil: failure expected); run computes canon's answer from the
// input's bytes, and call names the computation for failure messages.
type confCase struct {
	section, in string
	want        *string
	fix         func(string) string // if non-nil, how want is read before comparing (see confNormalizeURLWant)
	run         func(in string) (string, error)
	call        string // a format with one %q, the input's bytes
}

// confFile is one vector file and how its strings are read.
type confFile struct {
	name   string              // path under testdata/
	bytes  func(string) string // file notation -> bytes
	notate func(string) string // bytes -> file notation
}

func confPlain(s string) string { return s }

// confURLCanonFile is a file of iipc/urlcanon: its strings are Latin-1 code
// points, each standing for one byte (testdata/urlcanon/README.md);
// "\u00e2\u0098\u0083" is the UTF-8 of U+2603.
func confURLCanonFile(name string) confFile {
	return confFile{name: name, bytes: confLatin1Bytes, notate: confBytesLatin1}
}

func confLatin1Bytes(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			panic(fmt.Sprintf("urlcanon string %q holds U+%04X, above U+00FF", s, r))
		}
		b = append(b, byte(r))
	}
	return string(b)
}

func confBytesLatin1(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// confGot is canon's answer as the differences file writes it: the
// string, or for an error "error: " and the sentinel it wraps (its message
// if it wraps none), so that a listed error stays true when only the
// wording of the message changes.
func confGot(s string, err error) string {
	if err == nil {
		return s
	}
	names := make([]string, 0, len(sentinels))
	for n := range sentinels {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if errors.Is(err, sentinels[n]) {
			return "error: " + n
		}
	}
	return "error: " + err.Error()
}

// confTally counts one file's cases: those that pass, those that differ
// as their row in the differences file says, and failures (a case that
// differs unlisted, or a row that no longer tells the truth).
type confTally struct{ cases, pass, listed, fail int }

func (c confTally) String() string {
	return fmt.Sprintf("%d cases, %d pass, %d listed differences, %d failures", c.cases, c.pass, c.listed, c.fail)
}

// confResult is one case's outcome, kept for -conformance.update.
type confResult struct {
	file, section, in string
	want              *string
	got               string
	pass              bool
}

var confResults = map[string][]confResult{} // by file, filled by runConformance

// confUpdateRefused names the test that refused -conformance.update for
// rows without a reason; the tests after it write nothing either.
var confUpdateRefused string

// runConformance runs cases of file against the differences file and
// logs the tally.
func runConformance(t *testing.T, f confFile, cases []confCase) confTally {
	t.Helper()
	diffs := loadConfDiffs(t)
	var tally confTally
	used := map[string]bool{}
	var results []confResult
	ran := 0 // cases whose subtest ran (-run may select some)
	for _, c := range cases {
		tally.cases++
		sub := c.in
		if c.section != "" {
			sub = c.section + "/" + c.in
		}
		t.Run(sub, func(t *testing.T) {
			ran++
			in := f.bytes(c.in)
			got, err := c.run(in)
			gs := f.notate(confGot(got, err))
			var want string // the bytes canon must give
			if c.want != nil {
				want = f.bytes(*c.want)
				if c.fix != nil {
					want = c.fix(want)
				}
			}
			pass := c.want == nil && err != nil || c.want != nil && err == nil && got == want
			results = append(results, confResult{f.name, c.section, c.in, c.want, gs, pass})
			k := confKey(f.name, c.section, c.in)
			d, listed := diffs.byKey[k]
			if listed {
				used[k] = true
				switch {
				case pass:
					tally.fail++
					t.Errorf("%s [%s] %q is listed in %s but now passes: remove the row", f.name, c.section, c.in, conformanceDiffFile)
				case d.Got != gs:
					tally.fail++
					t.Errorf("%s [%s] %q: canon now gives %q, the row in %s says %q: update it", f.name, c.section, c.in, gs, conformanceDiffFile, d.Got)
				case !confPtrEq(d.Want, c.want):
					tally.fail++
					t.Errorf("%s [%s] %q: the row in %s wants %v, the vector %v", f.name, c.section, c.in, conformanceDiffFile, confStrPtr(d.Want), confStrPtr(c.want))
				case strings.TrimSpace(d.Reason) == "":
					tally.fail++
					t.Errorf("%s [%s] %q: the row in %s has no reason", f.name, c.section, c.in, conformanceDiffFile)
				default:
					tally.listed++ // differs, as listed
				}
				return
			}
			if pass {
				tally.pass++
				return
			}
			tally.fail++
			call := fmt.Sprintf(c.call, in)
			switch {
			case c.want == nil:
				t.Errorf("%s = %q, want an error", call, got)
			case err != nil:
				t.Errorf("%s: %v, want %q", call, err, want)
			default:
				t.Errorf("%s = %q, want %q", call, got, want)
			}
		})
	}
	t.Logf("%s: %v", f.name, tally)
	if ran < len(cases) {
		t.Logf("%s: %d of %d cases selected by -run: stale rows not checked", f.name, ran, len(cases))
		return tally
	}
	for _, r := range diffs.rows {
		if r.File == f.name && !used[confKey(r.File, r.Section, r.Input)] {
			t.Errorf("%s: %s [%s] %q matches no case", conformanceDiffFile, r.File, r.Section, r.Input)
		}
	}
	if *conformanceUpdate {
		confResults[f.name] = results
		confWriteDiffs(t, diffs)
	}
	return tally
}

func confPtrEq(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func confStrPtr(p *string) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *p)
}

// confWriteDiffs rewrites the differences file (-conformance.update): the
// rows of files this run did not reach stay as they are; for the others,
// every case that differs gets a row, keeping the reason of its old row.
// A row must carry a reason: when a case that differs has no row, or a
// row with no reason, it writes nothing and fails, printing those rows
// as JSON with an empty reason, to be added to the file with one. A row
// whose answer changed keeps its reason, and is logged to be read again.
func confWriteDiffs(t *testing.T, old *confDiffs) {
	t.Helper()
	if confUpdateRefused != "" {
		t.Logf("-conformance.update: %s not written: %s refused the update (see there); the files of the tests before it are updated", conformanceDiffFile, confUpdateRefused)
		return
	}
	var rows, unexplained []confDiff
	for _, r := range old.rows {
		if _, ran := confResults[r.File]; !ran {
			rows = append(rows, r)
		}
	}
	files := make([]string, 0, len(confResults))
	for f := range confResults {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		seen := map[string]bool{}
		for _, r := range confResults[f] {
			k := confKey(r.file, r.section, r.in)
			if seen[k] {
				continue
			}
			seen[k] = true
			if r.pass {
				continue
			}
			row := confDiff{File: r.file, Section: r.section, Input: r.in, Want: r.want, Got: r.got}
			if o, ok := old.byKey[k]; ok {
				row.Reason = o.Reason
				if o.Got != row.Got {
					t.Logf("-conformance.update: %s [%s] %q now gives %q (was %q); its reason is kept, check it still holds: %s",
						r.file, r.section, r.in, row.Got, o.Got, o.Reason)
				}
			}
			if strings.TrimSpace(row.Reason) == "" {
				unexplained = append(unexplained, row)
			}
			rows = append(rows, row)
		}
	}
	if len(unexplained) > 0 {
		confUpdateRefused = t.Name()
		t.Errorf("-conformance.update: %s not written: %d rows have no reason. Add them to testdata/%s with a reason (why canon's answer differs and why that is right), then run the update again:\n%s",
			conformanceDiffFile, len(unexplained), conformanceDiffFile, confEncodeRows(t, unexplained))
		return
	}
	if err := os.WriteFile(filepath.Join("testdata", conformanceDiffFile), confEncodeRows(t, rows), 0o644); err != nil {
		t.Fatal(err)
	}
}

// confEncodeRows writes rows as the differences file writes them.
func confEncodeRows(t *testing.T, rows []confDiff) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rows); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// confOrderedPairs reads a JSON object of strings (or nulls) in file order. A
// key that repeats must repeat its value (urlcanon's files repeat some),
// and is kept once.
func confOrderedPairs(t *testing.T, file string, raw json.RawMessage) (keys []string, vals map[string]*string) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%s: not an object: %v", file, err)
	}
	vals = map[string]*string{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		k := tok.(string)
		var v *string
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %q: %v", file, k, err)
		}
		if old, dup := vals[k]; dup {
			if !confPtrEq(old, v) {
				t.Fatalf("%s: %q repeated with another value", file, k)
			}
			continue
		}
		keys = append(keys, k)
		vals[k] = v
	}
	return keys, vals
}

func confReadTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// confMapCases makes the cases of a urlcanon {input: expected} object.
func confMapCases(t *testing.T, file, section string, raw json.RawMessage, want int, run func(string) (string, error), call string) []confCase {
	t.Helper()
	keys, vals := confOrderedPairs(t, file, raw)
	if len(keys) != want {
		t.Errorf("%s [%s]: %d cases, want %d", file, section, len(keys), want)
	}
	cases := make([]confCase, len(keys))
	for i, k := range keys {
		cases[i] = confCase{section: section, in: k, want: vals[k], run: run, call: call}
	}
	return cases
}

func confNormalizeWith(p Profile) func(string) (string, error) {
	return func(in string) (string, error) { return Normalize(in, p) }
}

// TestConformanceURLCanonAggressive runs urlcanon's aggressive.json
// against Aggressive.
func TestConformanceURLCanonAggressive(t *testing.T) {
	f := confURLCanonFile("urlcanon/aggressive.json")
	cases := confMapCases(t, f.name, "", confReadTestdata(t, f.name), 42,
		confNormalizeWith(Aggressive), "Normalize(%q, Aggressive)")
	runConformance(t, f, cases)
}

// semanticPrecise is the closest profile to urlcanon's semantic_precise
// canonicalizer (python/urlcanon/canon.py): its WHATWG steps
// (ParseWHATWG), the default scheme http (DefaultScheme), userinfo
// removed (RemoveUserinfo), the path percent-decoded repeatedly and
// encoded again (DecodePathRepeatedly), "//" collapsed (CollapseSlashes)
// and the parameters sorted by their whole bytes (SortQueryPairs: urlcanon
// sorts the "&"-separated parts as byte strings). The query is not decoded
// repeatedly: urlcanon decodes each name and value but keeps "&" and "="
// encoded, which DecodeQueryRepeatedly does not (it merges "%26" with
// "&"). urlcanon's fix_host_dots has no step that can follow ParseWHATWG,
// and urlcanon keeps the fragment.
var semanticPrecise = MustProfile(ParseWHATWG, DefaultScheme, RemoveUserinfo, DecodePathRepeatedly,
	CollapseSlashes, SortQueryPairs)

// TestConformanceURLCanonSemanticPrecise runs urlcanon's
// semantic_precise.json against semanticPrecise.
func TestConformanceURLCanonSemanticPrecise(t *testing.T) {
	f := confURLCanonFile("urlcanon/semantic_precise.json")
	cases := confMapCases(t, f.name, "", confReadTestdata(t, f.name), 280,
		confNormalizeWith(semanticPrecise), "Normalize(%q, semanticPrecise)")
	runConformance(t, f, cases)
}

// Profiles of one key step after the WHATWG parse, for the sections of
// surt.json that test one function of the surt library.
var (
	confSURTSortQuery  = MustProfile(ParseWHATWG, SortQueryPairs)
	confSURTStripWWWN  = MustProfile(ParseWHATWG, StripWWWN)
	confSURTSessionIDs = MustProfile(ParseWHATWG, RemoveSessionIDs)
	confSURTDecodePath = MustProfile(ParseWHATWG, DecodePathRepeatedly)
)

// confAfterAuthority returns what follows the authority of an href with one
// ("http://h/p?q" -> "/p?q").
func confAfterAuthority(href string) string {
	rest := href[strings.Index(href, "://")+3:]
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		return rest[i:]
	}
	return ""
}

// confDecodeOnce decodes every "%XX" once: it undoes the encoding
// DecodePathRepeatedly writes its result with, in which every "%" of the
// decoded text is "%25" and every other "%" starts an escape it wrote.
func confDecodeOnce(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if isTriplet(s, i) {
			b.WriteByte(unhexTest(s[i+1])<<4 | unhexTest(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// confSURTSections are the sections of surt.json run here, each with the
// number of cases it has, how its input is run, and a format naming that.
type confSURTSection struct {
	name  string
	cases int
	run   func(string) (string, error)
	call  string
}

var confSURTSections = []confSURTSection{
	// The surt library's IA canonicalizer on a handyurl; Archive is its
	// canonicalization.
	{"Canonicalizer.IA", 7, confNormalizeWith(Archive), "Normalize(%q, Archive)"},
	// Its default canonicalizer (Google's steps, then IA's): Archive.
	{"Canonicalizer.DefaultIA", 7, confNormalizeWith(Archive), "Normalize(%q, Archive)"},
	// alphaReorderQuery(q) (the section's name is misspelt in the file):
	// q as the query of http://h/, under ParseWHATWG+SortQueryPairs, and
	// the query taken back ("" when there is none).
	{"alphaRorderQuery", 11, func(q string) (string, error) {
		key, err := Normalize("http://h/?"+q, confSURTSortQuery)
		if err != nil {
			return "", err
		}
		_, query, _ := strings.Cut(key, "?")
		return query, nil
	}, `Normalize("http://h/?"+%q, ParseWHATWG|SortQueryPairs) query`},
	// massageHost(host): http://HOST/ under ParseWHATWG+StripWWWN, and the
	// host taken back.
	{"massageHost", 5, func(host string) (string, error) {
		key, err := Normalize("http://"+host+"/", confSURTStripWWWN)
		if err != nil {
			return "", err
		}
		return strings.TrimSuffix(strings.TrimPrefix(key, "http://"), "/"), nil
	}, `Normalize("http://"+%q+"/", ParseWHATWG|StripWWWN) host`},
	// stripPathSessionID(path): http://h + path under
	// ParseWHATWG+RemoveSessionIDs, and what follows the host taken back.
	{"stripPathSessionId", 4, func(path string) (string, error) {
		key, err := Normalize("http://h"+path, confSURTSessionIDs)
		if err != nil {
			return "", err
		}
		return confAfterAuthority(key), nil
	}, `Normalize("http://h"+%q, ParseWHATWG|RemoveSessionIDs) path`},
	// unescapeRepeatedly(s): s as the path of http://h/ under
	// ParseWHATWG+DecodePathRepeatedly, the path taken back without its
	// "/" and decoded once, which undoes the step's final encoding (the
	// step writes a URL: every "%" it leaves is "%25"). The inputs hold no
	// "/", "." or character of the path percent-encode set, so neither
	// the WHATWG parse nor the step's dot removal touches them.
	{"unescapeRepeatedly", 8, func(s string) (string, error) {
		key, err := Normalize("http://h/"+s, confSURTDecodePath)
		if err != nil {
			return "", err
		}
		return confDecodeOnce(strings.TrimPrefix(confAfterAuthority(key), "/")), nil
	}, `confDecodeOnce(path of Normalize("http://h/"+%q, ParseWHATWG|DecodePathRepeatedly))`},
	// surt.surt(x) with its defaults: the SURT of x's Archive key.
	{"defaultIASurt", 16, func(in string) (string, error) {
		key, err := Normalize(in, Archive)
		if err != nil {
			return "", err
		}
		return SURT(key)
	}, "SURT(Normalize(%q, Archive))"},
}

// TestConformanceURLCanonSURT runs the sections of urlcanon's surt.json
// that come from the Internet Archive's surt library's tests.
func TestConformanceURLCanonSURT(t *testing.T) {
	f := confURLCanonFile("urlcanon/surt.json")
	var sections map[string]json.RawMessage
	loadJSON(t, f.name, &sections)
	var cases []confCase
	for _, s := range confSURTSections {
		raw, ok := sections[s.name]
		if !ok {
			t.Fatalf("%s: no section %q", f.name, s.name)
		}
		cases = append(cases, confMapCases(t, f.name, s.name, raw, s.cases, s.run, s.call)...)
	}
	// The two sections not run, named so that a new section is noticed.
	notRun := []string{"google", "googleSupplementalFromSurt"}
	for n := range sections {
		if !slices.Contains(notRun, n) && !slices.ContainsFunc(confSURTSections, func(s confSURTSection) bool { return s.name == n }) {
			t.Errorf("%s: section %q is neither run nor listed as not run", f.name, n)
		}
	}
	runConformance(t, f, cases)
}

// crawlerCommons is the closest profile to crawler-commons'
// BasicURLNormalizer with its default options. Its syntax is RFC 3986's
// (it is built on java.net.URI, not on the WHATWG parser): lowercase
// scheme and host, IDN to A-labels, trailing host dots removed, default
// and empty ports removed, characters outside the URI grammar encoded,
// escapes in uppercase, unreserved ones decoded, dot segments removed,
// "/" for an empty http path; then the key steps: no fragment, no
// userinfo, "//" collapsed, empty parameters and an empty query removed,
// parameters sorted by name with equal names in their order (it sorts a
// list with a stable sort on the name). http:// is added to an input
// without a scheme.
var crawlerCommons = MustProfile(DefaultScheme, RemoveFragment, LowercaseScheme, LowercaseHost,
	HostToASCII, TrimHostDots, RemoveDefaultPort, EncodeToURI, UppercaseEscapes, DecodeUnreserved,
	RemoveDots, AddHTTPRootPath, RemoveUserinfo, CollapseSlashes, RemoveEmptyParams, RemoveEmptyQuery,
	SortQuery)

// confCrawlerCommonsProfile returns the profile for an inline group of
// BasicURLNormalizerTest.java, which names how the test builds its
// normalizer, and that profile's name for failure messages.
func confCrawlerCommonsProfile(t *testing.T, group string) (Profile, string) {
	t.Helper()
	switch {
	case strings.HasPrefix(group, "remove_session_query_params"):
		// builder.queryParamsToRemove([sid, phpsessid, sessionid,
		// jsessionid]): those names removed whatever their value.
		p, err := MustProfile(append(crawlerCommons.Steps(), RemoveSessionIDs)...).WithRules(Rules{
			SessionParams: []string{"sid", "phpsessid", "sessionid", "jsessionid"}})
		if err != nil {
			t.Fatal(err)
		}
		return p, "crawlerCommons+RemoveSessionIDs[session=sid,phpsessid,sessionid,jsessionid]"
	case strings.HasPrefix(group, "idn_to_unicode"):
		// builder.idnNormalization(UNICODE): hosts as Unicode.
		steps := slices.DeleteFunc(crawlerCommons.Steps(), func(s Step) bool { return s == HostToASCII })
		return MustProfile(append(steps, HostToUnicode)...), "crawlerCommons-HostToASCII+HostToUnicode"
	case strings.HasPrefix(group, "no_idn_normalization"):
		// builder.idnNormalization(NONE): hosts left as written. Without
		// HostToASCII, EncodeToURI would percent-encode a non-ASCII host;
		// EncodeToIRI leaves it, as it leaves all of RFC 3987's ucschar.
		steps := slices.DeleteFunc(crawlerCommons.Steps(), func(s Step) bool { return s == HostToASCII || s == EncodeToURI })
		return MustProfile(append(steps, EncodeToIRI)...), "crawlerCommons-HostToASCII-EncodeToURI+EncodeToIRI"
	case strings.Contains(group, "(default normalizer"):
		return crawlerCommons, "crawlerCommons"
	}
	t.Fatalf("crawler-commons: unknown inline group %q", group)
	return Profile{}, ""
}

// TestConformanceCrawlerCommons runs crawler-commons' BasicURLNormalizer
// cases: weird_to_normalized and invalid with crawlerCommons, each inline
// group with the profile confCrawlerCommonsProfile gives it.
func TestConformanceCrawlerCommons(t *testing.T) {
	f := confFile{name: "crawler-commons/basic_url_normalizer_cases.json", bytes: confPlain, notate: confPlain}
	var file struct {
		Weird []struct {
			Input    string  `json:"input"`
			Expected *string `json:"expected"`
		} `json:"weird_to_normalized"`
		Invalid []struct {
			Input    string  `json:"input"`
			Expected *string `json:"expected"`
		} `json:"invalid"`
		Inline []struct {
			Group    string  `json:"group"`
			Input    string  `json:"input"`
			Expected *string `json:"expected"`
		} `json:"inline"`
	}
	loadJSON(t, f.name, &file)
	if len(file.Weird) != 112 || len(file.Invalid) != 2 || len(file.Inline) != 28 {
		t.Errorf("%s: %d+%d+%d cases, want 112+2+28", f.name, len(file.Weird), len(file.Invalid), len(file.Inline))
	}
	var cases []confCase
	for _, c := range file.Weird {
		cases = append(cases, confCase{section: "weird_to_normalized", in: c.Input, want: c.Expected,
			run: confNormalizeWith(crawlerCommons), call: "Normalize(%q, crawlerCommons)"})
	}
	for _, c := range file.Invalid {
		cases = append(cases, confCase{section: "invalid", in: c.Input, want: c.Expected,
			run: confNormalizeWith(crawlerCommons), call: "Normalize(%q, crawlerCommons)"})
	}
	for _, c := range file.Inline {
		p, pname := confCrawlerCommonsProfile(t, c.Group)
		cases = append(cases, confCase{section: "inline/" + c.Group, in: c.Input, want: c.Expected,
			run: confNormalizeWith(p), call: "Normalize(%q, " + pname + ")"})
	}
	runConformance(t, f, cases)
}

// normalizeURL is the closest profile to normalize-url's default options
// (its readme): the WHATWG URL class (ParseWHATWG), defaultProtocol
// "http" (DefaultScheme), stripAuthentication (RemoveUserinfo), stripWWW
// (StripWWW), duplicate slashes removed (CollapseSlashes),
// removeTrailingSlash (RemoveTrailingSlash), removeQueryParameters
// [/^utm_\w+/i] (RemoveTrackingParams), an empty query removed
// (RemoveEmptyQuery), and sortQueryParameters, URLSearchParams.sort(),
// a stable sort by name (SortQuery). The fragment is kept (stripHash is
// off by default).
var normalizeURL = MustProfile(ParseWHATWG, DefaultScheme, RemoveUserinfo, StripWWW, CollapseSlashes,
	RemoveTrailingSlash, RemoveTrackingParams, RemoveEmptyQuery, SortQuery)

// confNormalizeURLWant returns an expected href of normalize-url as the
// WHATWG serializer writes it: normalize-url removes the "/" of a path
// that is only "/" (removeSingleSlash, on by default), which a special
// URL's href always has ("http://h" is "http://h/"). The "/" is put back
// for an http or https URL with an authority and an empty path, which is
// the only change.
func confNormalizeURLWant(want string) string {
	for _, scheme := range []string{"http://", "https://"} {
		if rest, ok := strings.CutPrefix(want, scheme); ok {
			i := strings.IndexAny(rest, "/?#")
			if i < 0 {
				return want + "/"
			}
			if rest[i] != '/' {
				return scheme + rest[:i] + "/" + rest[i:]
			}
		}
	}
	return want
}

// TestConformanceNormalizeURL runs normalize-url's cases whose options
// are the defaults (options null), and its throws cases with default
// options (want: an error).
func TestConformanceNormalizeURL(t *testing.T) {
	f := confFile{name: "normalize-url/normalize_url_cases.json", bytes: confPlain, notate: confPlain}
	var file struct {
		Cases []struct {
			Test     string          `json:"test"`
			Input    string          `json:"input"`
			Options  json.RawMessage `json:"options"`
			Expected *string         `json:"expected"`
		} `json:"cases"`
		Throws []struct {
			Test    string          `json:"test"`
			Input   string          `json:"input"`
			Options json.RawMessage `json:"options"`
		} `json:"throws"`
	}
	loadJSON(t, f.name, &file)
	isDefault := func(o json.RawMessage) bool { return len(o) == 0 || string(o) == "null" }
	var cases []confCase
	restored := 0
	for _, c := range file.Cases {
		if !isDefault(c.Options) {
			continue
		}
		if c.Expected != nil && confNormalizeURLWant(*c.Expected) != *c.Expected {
			restored++
		}
		cases = append(cases, confCase{section: c.Test, in: c.Input, want: c.Expected, fix: confNormalizeURLWant,
			run: confNormalizeWith(normalizeURL), call: "Normalize(%q, normalizeURL)"})
	}
	for _, c := range file.Throws {
		if !isDefault(c.Options) {
			continue
		}
		cases = append(cases, confCase{section: "throws/" + c.Test, in: c.Input,
			run: confNormalizeWith(normalizeURL), call: "Normalize(%q, normalizeURL)"})
	}
	if len(cases) != 95 {
		t.Errorf("%s: %d cases with default options, want 95 (91 + 4 throws)", f.name, len(cases))
	}
	t.Logf("%s: %d expected hrefs had their root \"/\" put back", f.name, restored)
	runConformance(t, f, cases)
}
