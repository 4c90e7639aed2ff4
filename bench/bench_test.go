package bench

import (
	"bufio"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/PuerkitoBio/purell"
	"github.com/nlnwa/whatwg-url/canonicalizer"
	whatwg "github.com/nlnwa/whatwg-url/url"
	"github.com/seed15588f71/canon"
)

func readLines(tb testing.TB, name string) []string {
	tb.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return lines
}

var corpora = map[string][]string{}

func corpus(tb testing.TB, name string) []string {
	if c, ok := corpora[name]; ok {
		return c
	}
	c := readLines(tb, name+".txt")
	corpora[name] = c
	return c
}

const base = "https://example.com/dir/page.html?x=1"

var baseURL, _ = url.Parse(base)

// pageBase is base prepared once, as baseURL is for net/url.
var pageBase, _ = canon.NewBase(base, canon.WHATWG)

// A contender maps a URL to its key; ok is false when it rejects the URL.
type contender struct {
	name string
	f    func(u string) (string, bool)
}

var buf = make([]byte, 0, 4096)

// wantKeys is set by the tests that compare keys; the benchmarks leave it
// off so that contenders writing to buf do not pay for a string.
var wantKeys bool

func lowerLoop(u string) (string, bool) {
	b := buf[:0]
	for i := 0; i < len(u); i++ {
		c := u[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	buf = b
	return "", true
}

func canonProfile(p canon.Profile) func(string) (string, bool) {
	return func(u string) (string, bool) {
		k, err := canon.Normalize(u, p)
		return k, err == nil
	}
}

var contenders = []contender{
	{"copy", func(u string) (string, bool) { buf = append(buf[:0], u...); return "", true }},
	{"lowercase-loop", lowerLoop},
	{"canon-RFC3986", canonProfile(canon.RFC3986)},
	{"canon-RFC3986-append", func(u string) (string, bool) {
		var err error
		buf, err = canon.AppendNormalized(buf[:0], u, canon.RFC3986)
		if !wantKeys {
			return "", err == nil // the benchmark measures the append alone
		}
		return string(buf), err == nil
	}},
	{"canon-IRI", canonProfile(canon.IRI)},
	{"canon-WebCapture", canonProfile(canon.WebCapture)},
	{"canon-POWDER", canonProfile(canon.POWDER)},
	{"canon-Resolve", func(u string) (string, bool) {
		k, err := canon.Resolve(base, u)
		return k, err == nil
	}},
	{"canon-WHATWG", canonProfile(canon.WHATWG)},
	{"canon-Crawler", canonProfile(canon.Crawler)},
	{"canon-Archive", canonProfile(canon.Archive)},
	{"canon-Aggressive", canonProfile(canon.Aggressive)},
	{"canon-SafeBrowsing", canonProfile(canon.SafeBrowsing)},
	{"canon-WHATWG-ref", func(u string) (string, bool) {
		k, err := canon.NormalizeRef(base, u, canon.WHATWG)
		return k, err == nil
	}},
	{"canon-WHATWG-base", func(u string) (string, bool) {
		k, err := pageBase.Normalize(u)
		return k, err == nil
	}},
	{"canon-WHATWG-base-append", func(u string) (string, bool) {
		var err error
		buf, err = pageBase.AppendNormalized(buf[:0], u)
		return "", err == nil
	}},
	{"neturl-Parse-String", func(u string) (string, bool) {
		p, err := url.Parse(u)
		if err != nil {
			return "", false
		}
		return p.String(), true
	}},
	{"neturl-ResolveReference", func(u string) (string, bool) {
		p, err := url.Parse(u)
		if err != nil {
			return "", false
		}
		return baseURL.ResolveReference(p).String(), true
	}},
	{"purell-FlagsSafe", func(u string) (string, bool) {
		k, err := purell.NormalizeURLString(u, purell.FlagsSafe)
		return k, err == nil
	}},
	{"purell-FlagsUsuallySafeGreedy", func(u string) (string, bool) {
		k, err := purell.NormalizeURLString(u, purell.FlagsUsuallySafeGreedy)
		return k, err == nil
	}},
	{"whatwg-Parse-Href", func(u string) (string, bool) {
		p, err := whatwg.Parse(u)
		if err != nil {
			return "", false
		}
		return p.Href(false), true
	}},
	{"whatwg-canonicalizer-WhatWg", whatwgCanon(canonicalizer.WhatWg)},
	{"whatwg-canonicalizer-Semantic", whatwgCanon(canonicalizer.Semantic)},
}

func whatwgCanon(p whatwg.Parser) func(string) (string, bool) {
	return func(u string) (string, bool) {
		v, err := p.Parse(u)
		if err != nil {
			return "", false
		}
		return v.Href(false), true
	}
}

// BenchmarkCorpus runs every contender over every URL of each corpus;
// one op is one URL, so ns/op is ns/URL and allocs/op is allocs/URL.
func BenchmarkCorpus(b *testing.B) {
	for _, name := range []string{"real", "messy"} {
		urls := corpus(b, name)
		total := 0
		for _, u := range urls {
			total += len(u)
		}
		for _, c := range contenders {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(total / len(urls)))
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					c.f(urls[i])
					if i++; i == len(urls) {
						i = 0
					}
				}
			})
		}
	}
}

// TestMessyRecovery counts, per contender, the messy URLs whose key equals
// the key of their clean original, and checks that canon recovers every
// line whose mutations its profile undoes (the mutation codes are in
// testdata/messy-codes.txt; see the corpus README).
func TestMessyRecovery(t *testing.T) {
	wantKeys = true
	defer func() { wantKeys = false }()
	real, messy, codes := corpus(t, "real"), corpus(t, "messy"), readLines(t, "messy-codes.txt")
	undoes := map[string]func(code, u string) bool{
		"canon-RFC3986":        func(code, u string) bool { return strings.Trim(code, "SHPLEDX") == "" },
		"canon-IRI":            func(code, u string) bool { return strings.Trim(code, "SHPLEDX") == "" },
		"canon-RFC3986-append": func(code, u string) bool { return strings.Trim(code, "SHPLEDX") == "" },
		"canon-WebCapture": func(code, u string) bool {
			http := strings.HasPrefix(u, "http:") || strings.HasPrefix(u, "ftp:")
			return strings.Trim(code, "SHDXF") == "" || (http && strings.Trim(code, "SHDXFP") == "")
		},
	}
	for _, c := range contenders {
		if c.name == "copy" || c.name == "lowercase-loop" || c.name == "canon-Resolve" || c.name == "neturl-ResolveReference" || c.name == "canon-WHATWG-ref" ||
			c.name == "canon-WHATWG-base" || c.name == "canon-WHATWG-base-append" {
			continue
		}
		recovered, eligible, missed, cleanFail := 0, 0, 0, 0
		for i, m := range messy {
			want, ok := c.f(real[i])
			if !ok {
				cleanFail++
				continue
			}
			got, ok := c.f(m)
			same := ok && got == want
			if same {
				recovered++
			}
			if u := undoes[c.name]; u != nil && u(codes[i], real[i]) {
				eligible++
				if !same {
					missed++
					if missed <= 5 {
						t.Errorf("%s: line %d (%s): %q -> %q, clean %q -> %q", c.name, i+1, codes[i], m, got, real[i], want)
					}
				}
			}
		}
		t.Logf("%-30s recovered %5d of %d messy lines (%d clean originals rejected); undoable mutations: %d lines, %d missed",
			c.name, recovered, len(messy), cleanFail, eligible, missed)
	}
}

// TestCrawlerMerges holds Crawler to what it promises a crawl frontier:
// line i of messy.txt is an RFC 3986-equivalent spelling of line i of
// real.txt (the corpus README), so at least 99.5% of the pairs that both
// parse must get one key; and over both files it may leave no more
// distinct keys than RFC3986 with Crawler's key steps, plus one for each
// input that only the WHATWG URL Standard reads (RFC3986 rejects it).
func TestCrawlerMerges(t *testing.T) {
	real, messy := corpus(t, "real"), corpus(t, "messy")
	both, same := 0, 0
	for i, m := range messy {
		want, err1 := canon.Normalize(real[i], canon.Crawler)
		got, err2 := canon.Normalize(m, canon.Crawler)
		if err1 != nil || err2 != nil {
			continue
		}
		both++
		if got == want {
			same++
		} else if both-same <= 10 {
			t.Logf("line %d: %q -> %q, clean %q -> %q", i+1, m, got, real[i], want)
		}
	}
	share := float64(same) / float64(both)
	t.Logf("Crawler: %d of %d pairs that both parse get one key (%.2f%%)", same, both, 100*share)
	if share < 0.995 {
		t.Errorf("Crawler gives one key to %.2f%% of the messy/real pairs, want at least 99.5%%", 100*share)
	}

	rfcKeys := canon.MustProfile(append(canon.RFC3986.Steps(), canon.RemoveFragment, canon.RemoveSessionIDs,
		canon.RemoveTrackingParams, canon.RemoveEmptyParams, canon.RemoveEmptyQuery, canon.SortQuery)...)
	crawler, rfc := map[string]bool{}, map[string]bool{}
	onlyWHATWG := 0
	for _, u := range append(append([]string(nil), real...), messy...) {
		k, err := canon.Normalize(u, canon.Crawler)
		if err == nil {
			crawler[k] = true
		}
		if k, err := canon.Normalize(u, rfcKeys); err == nil {
			rfc[k] = true
		} else if _, err := canon.Normalize(u, canon.WHATWG); err == nil {
			onlyWHATWG++
		}
	}
	t.Logf("distinct keys over real.txt and messy.txt: Crawler %d; RFC3986 with the key steps %d, and %d inputs only WHATWG reads",
		len(crawler), len(rfc), onlyWHATWG)
	if len(crawler) > len(rfc)+onlyWHATWG {
		t.Errorf("Crawler leaves %d distinct keys, more than %d + %d", len(crawler), len(rfc), onlyWHATWG)
	}
}

// TestCorpusIdempotence checks Normalize(Normalize(x)) == Normalize(x) on
// every URL of real.txt and messy.txt for every profile.
func TestCorpusIdempotence(t *testing.T) {
	for _, p := range []canon.Profile{canon.WebCapture, canon.RFC3986, canon.IRI, canon.POWDER, canon.WHATWG,
		canon.Crawler, canon.Archive, canon.Aggressive, canon.SafeBrowsing} {
		bad, failed, n := 0, 0, 0
		for _, name := range []string{"real", "messy"} {
			for _, u := range corpus(t, name) {
				n++
				k, err := canon.Normalize(u, p)
				if err != nil {
					failed++
					continue
				}
				if k2, err := canon.Normalize(k, p); k2 != k || err != nil {
					bad++
					if bad <= 5 {
						t.Errorf("%v: Normalize(%q) = %q, then %q, %v", p, u, k, k2, err)
					}
				}
			}
		}
		t.Logf("%-12s %d URLs, %d rejected, %d idempotence violations", strings.SplitN(p.String(), "(", 2)[0], n, failed, bad)
	}
}
