package learn

// Adversarial sites: hosts shaped to make a learner merge different
// pages (rare values that name pages, pagination that clamps but for a
// few listings, a default page recaptured far more than its variants,
// indexes split, concatenated and in time order, revisit records, digest
// noise), each held to 0 false pageMerges: no two captures of different
// pages, by the site's planted truth, get one key from the rules learned.

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/learn/internal/synth"
)

// truthCapture is a capture with the page it shows, by the site's truth
// ("" for a capture that shows none: an error, a redirect).
type truthCapture struct {
	Capture
	page string
}

// captures returns the captures of tcs.
func captures(tcs []truthCapture) []Capture {
	out := make([]Capture, len(tcs))
	for i, c := range tcs {
		out[i] = c.Capture
	}
	return out
}

// advDigest is the digest of a page's content.
func advDigest(page string) string { return synth.Digest("adversarial " + page) }

// advTime is a random time in 2024.
func advTime(r *rand.Rand) time.Time {
	return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.Int64N(int64(365 * 24 * time.Hour))))
}

// pageMerges counts what the rules add to Crawler's keys over caps: pairs of
// captures of a page (status 200) whose Crawler keys differ and whose
// keys with the rules are equal, and of those the pairs of two different
// pages (false), with an example of one.
type pageMerges struct {
	pairs, false int
	example      string
}

func countMerges(t *testing.T, rules canon.Rules, caps []truthCapture) pageMerges {
	t.Helper()
	p, err := canon.Crawler.WithRules(rules)
	if err != nil {
		t.Fatalf("the rules %+v do not load: %v", rules, err)
	}
	type member struct {
		base, page, url string
	}
	groups := map[string][]member{}
	for _, c := range caps {
		if c.page == "" || c.Status != 200 && c.Status != 0 {
			continue
		}
		base, err1 := canon.Normalize(c.URL, canon.Crawler)
		k, err2 := canon.Normalize(c.URL, p)
		if err1 != nil || err2 != nil {
			continue
		}
		groups[k] = append(groups[k], member{base, c.page, c.URL})
	}
	var m pageMerges
	for _, g := range groups {
		for i := range g {
			for j := i + 1; j < len(g); j++ {
				if g[i].base == g[j].base {
					continue
				}
				m.pairs++
				if g[i].page != g[j].page {
					m.false++
					if m.example == "" {
						m.example = g[i].url + " (" + g[i].page + ") and " + g[j].url + " (" + g[j].page + ")"
					}
				}
			}
		}
	}
	return m
}

// rareValueSite is a host whose "lang" values en, en-us, en-gb, en_gb
// and english (or none) show one page, but fr and de (rate of the
// captures each) show others; "from" is a click tag. Each page is
// captured on its own (most fr and de URLs once).
func rareValueSite(r *rand.Rand, host string, n int, rate float64) []truthCapture {
	english := []string{"en", "en-us", "en-gb", "en_gb", "english", ""}
	tags := []string{"home", "nav", "mail", "footer", "side"}
	var out []truthCapture
	for range n {
		id := r.IntN(n / 4)
		lang := english[r.IntN(len(english))]
		class := "en"
		switch x := r.Float64(); {
		case x < rate:
			lang, class = "fr", "fr"
		case x < 2*rate:
			lang, class = "de", "de"
		}
		u := fmt.Sprintf("https://%s/item?id=%d", host, id)
		if lang != "" {
			u += "&lang=" + lang
		}
		if r.IntN(2) == 0 {
			u += "&from=" + tags[r.IntN(len(tags))]
		}
		page := fmt.Sprintf("%s/item %d %s", host, id, class)
		out = append(out, truthCapture{Capture{URL: u, Time: advTime(r), Status: 200, Digest: advDigest(page)}, page})
	}
	return out
}

// clampedSite is a host of listings "?cat=C&page=P" (P from 1 to 3, or
// none for the first) whose pages past the first show the first page
// (they clamp) but for paginating of cats listings; each URL is captured
// 1 to 3 times (mostly 3, as the synthetic sites' pages), with a click
// tag "ref" on some.
func clampedSite(r *rand.Rand, host string, cats, paginating int) []truthCapture {
	refs := []string{"top", "side", "mail", "feed"}
	var out []truthCapture
	for c := range cats {
		for p := 1; p <= 3; p++ {
			page := fmt.Sprintf("%s/list %d 1", host, c)
			if c < paginating {
				page = fmt.Sprintf("%s/list %d %d", host, c, p)
			}
			for range synth.CaptureCount(r) {
				u := fmt.Sprintf("http://%s/list?cat=c%d", host, c)
				if p > 1 || r.IntN(2) == 0 {
					u += fmt.Sprintf("&page=%d", p)
				}
				if r.IntN(2) == 0 {
					u += "&ref=" + refs[r.IntN(len(refs))]
				}
				out = append(out, truthCapture{Capture{URL: u, Time: advTime(r), Status: 200, Digest: advDigest(page)}, page})
			}
		}
	}
	return out
}

// defaultsSite is a host whose listings "/list?cat=C" are recaptured
// often in their default order, which "sort=new" shows too, while
// "sort=price" and "sort=rating" show other orders and are captured
// rarely; "cmp" is a campaign tag.
func defaultsSite(r *rand.Rand, host string, cats int) []truthCapture {
	var out []truthCapture
	add := func(u, page string) {
		if r.IntN(3) == 0 {
			u += fmt.Sprintf("&cmp=nl%d", r.IntN(40))
		}
		out = append(out, truthCapture{Capture{URL: u, Time: advTime(r), Status: 200, Digest: advDigest(page)}, page})
	}
	for c := range cats {
		for range 20 {
			add(fmt.Sprintf("https://%s/list?cat=c%d", host, c), fmt.Sprintf("%s %d new", host, c))
		}
		for range 3 {
			add(fmt.Sprintf("https://%s/list?cat=c%d&sort=new", host, c), fmt.Sprintf("%s %d new", host, c))
		}
		if c%5 == 0 {
			for _, s := range []string{"price", "rating"} {
				add(fmt.Sprintf("https://%s/list?cat=c%d&sort=%s", host, c, s), fmt.Sprintf("%s %d %s", host, c, s))
			}
		}
	}
	return out
}

// laterValueSite is a host that added French pages ("lang=fr") in the
// middle of the year: before then every capture is of the English page
// (no lang, or lang=en), after it both are captured, each URL 1 to 3
// times; "from" is a click tag. In some listings only French pages are
// captured after the change, which looks like every page changing at
// once.
func laterValueSite(r *rand.Rand, host string, items int) []truthCapture {
	tags := []string{"home", "nav", "mail", "footer", "side"}
	mid := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)
	var out []truthCapture
	for id := range items {
		frOnly := id%4 == 0
		for _, lang := range []string{"", "en", "fr"} {
			for range synth.CaptureCount(r) {
				tm := advTime(r)
				switch {
				case lang == "fr" && tm.Before(mid):
					tm = tm.Add(mid.Sub(tm) + time.Duration(r.Int64N(int64(90*24*time.Hour))))
				case lang != "fr" && frOnly && !tm.Before(mid):
					tm = tm.Add(-time.Duration(r.Int64N(int64(180 * 24 * time.Hour))))
				}
				u := fmt.Sprintf("https://%s/doc?id=%d", host, id)
				if lang != "" {
					u += "&lang=" + lang
				}
				if r.IntN(2) == 0 {
					u += "&from=" + tags[r.IntN(len(tags))]
				}
				class := "en"
				if lang == "fr" {
					class = "fr"
				}
				page := fmt.Sprintf("%s/doc %d %s", host, id, class)
				out = append(out, truthCapture{Capture{URL: u, Time: tm, Status: 200, Digest: advDigest(page)}, page})
			}
		}
	}
	return out
}

// TestAdversarialSites learns each site and holds the rules to 0 false
// pageMerges over all its captures; where the site plants an irrelevant
// parameter, the rules must still learn it (the check is not passed by
// learning nothing).
func TestAdversarialSites(t *testing.T) {
	for _, c := range []struct {
		name  string
		caps  func(r *rand.Rand) []truthCapture
		host  string
		learn []string // names that must be learned
		keep  string   // a name that must not be
	}{
		{"rare values, 0.3 %", func(r *rand.Rand) []truthCapture { return rareValueSite(r, "a.test", 12000, 0.003) }, "a.test", []string{"from"}, "lang"},
		{"rare values, 0.2 %", func(r *rand.Rand) []truthCapture { return rareValueSite(r, "a.test", 8000, 0.002) }, "a.test", []string{"from"}, "lang"},
		{"rare values, 0.5 %", func(r *rand.Rand) []truthCapture { return rareValueSite(r, "a.test", 4000, 0.005) }, "a.test", []string{"from"}, "lang"},
		{"clamped pagination, 1 % paginating", func(r *rand.Rand) []truthCapture { return clampedSite(r, "b.test", 300, 3) }, "b.test", []string{"ref"}, "page"},
		{"clamped pagination, 0.5 % paginating", func(r *rand.Rand) []truthCapture { return clampedSite(r, "b.test", 400, 2) }, "b.test", []string{"ref"}, "page"},
		{"a value added later", func(r *rand.Rand) []truthCapture { return laterValueSite(r, "d.test", 300) }, "d.test", []string{"from"}, "lang"},
		{"recaptured defaults", func(r *rand.Rand) []truthCapture { return defaultsSite(r, "c.test", 60) }, "c.test", []string{"cmp"}, "sort"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for seed := range uint64(5) {
				caps := c.caps(rand.New(rand.NewPCG(seed, 43)))
				rules, fs := learnAll(t, Options{}, captures(caps))
				m := countMerges(t, rules, caps)
				if m.false > 0 {
					t.Errorf("seed %d: %d of %d pageMerges join different pages, e.g. %s; rules %v", seed, m.false, m.pairs, m.example, rules.Hosts)
				}
				got := rules.Hosts[c.host].TrackingParams
				for _, n := range c.learn {
					if !slices.Contains(got, n) {
						t.Errorf("seed %d: %s not learned (rules %v)", seed, n, got)
					}
				}
				if slices.Contains(got, c.keep) {
					t.Errorf("seed %d: %s learned", seed, c.keep)
				}
				refused := false
				for _, f := range fs {
					refused = refused || f.Verdict == Refused && slices.Equal(f.Params, []string{c.keep}) && len(f.Counterexamples) > 0
				}
				if !refused {
					t.Errorf("seed %d: no finding refuses %s with counterexamples", seed, c.keep)
				}
				t.Logf("seed %d: %d captures, %d pageMerges added, rules %v", seed, len(caps), m.pairs, got)
			}
		})
	}
}

// cdxLines writes captures as the lines of a CDX index (11 fields, no
// header); revisit says which are written as revisit records (mime
// warc/revisit, no status), as a deduplicating crawler writes them.
func cdxLines(caps []truthCapture, revisit func(i int) bool) []string {
	var lines []string
	for i, c := range caps {
		status, mime := fmt.Sprint(c.Status), "text/html"
		if revisit != nil && revisit(i) {
			status, mime = "-", "warc/revisit"
		}
		surt, err := canon.SURT(c.URL)
		if err != nil {
			surt = "-"
		}
		lines = append(lines, fmt.Sprintf("%s %s %s %s %s %s - - 1043 %d x.warc.gz",
			surt, c.Time.UTC().Format("20060102150405"), c.URL, mime, status, strings.TrimPrefix(c.Digest, "sha1:"), i))
	}
	return lines
}

// learnIndex reads an index with ReadCaptures, as the command does, and
// learns it.
func learnIndex(t *testing.T, index string, o Options) canon.Rules {
	t.Helper()
	l := New(o)
	defer l.Close()
	for c, err := range ReadCaptures(strings.NewReader(index), "") {
		if err != nil {
			t.Fatalf("ReadCaptures: %v", err)
		}
		if err := l.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	r, err := l.Learn(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAdversarialIndexes: the captures of the adversarial sites as CDX
// indexes shaped as real ones are: sorted by SURT, by time, shuffled,
// split into files each sorted and then concatenated (cat *.cdx) in any
// order, and with revisit records (status "-"; of 404 pages too). Each
// gives the same rules, and 0 false pageMerges.
func TestAdversarialIndexes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 43))
	caps := slices.Concat(rareValueSite(r, "a.test", 6000, 0.004), clampedSite(r, "b.test", 200, 2), defaultsSite(r, "c.test", 30))
	// 404 pages whose revisit records say nothing of the status: one
	// body for every missing translation.
	for i := range 40 {
		caps = append(caps, truthCapture{Capture{URL: fmt.Sprintf("https://a.test/item?id=%d&lang=it", i), Time: advTime(r), Status: 404, Digest: advDigest("a.test 404")}, ""})
	}
	bySURT := cdxLines(caps, nil)
	slices.Sort(bySURT)
	want := learnIndex(t, strings.Join(bySURT, "\n"), Options{})
	if len(want.Hosts) != 3 {
		t.Fatalf("rules %v: want rules for the three hosts", want.Hosts)
	}
	if m := countMerges(t, want, caps); m.false > 0 {
		t.Fatalf("sorted by SURT: %d false pageMerges of %d, e.g. %s", m.false, m.pairs, m.example)
	}
	shuffled := slices.Clone(bySURT)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	byTime := slices.Clone(bySURT)
	slices.SortStableFunc(byTime, func(a, b string) int { return cmp.Compare(strings.Fields(a)[1], strings.Fields(b)[1]) })
	// Three files, each sorted, concatenated in two orders.
	files := make([][]string, 3)
	for i, l := range shuffled {
		files[i%3] = append(files[i%3], l)
	}
	for _, f := range files {
		slices.Sort(f)
	}
	revisits := cdxLines(caps, func(i int) bool { return i%3 == 1 })
	slices.Sort(revisits)
	for _, c := range []struct {
		name  string
		lines []string
		o     Options
	}{
		{"shuffled", shuffled, Options{}},
		{"by time", byTime, Options{}},
		{"three files concatenated", slices.Concat(files[0], files[1], files[2]), Options{}},
		{"three files concatenated, another order, spilled", slices.Concat(files[2], files[0], files[1]), Options{SpillBytes: 64 << 10, TempDir: t.TempDir()}},
		{"overlapping files", slices.Concat(files[0], files[1], files[2], files[1]), Options{}},
		{"revisit records", revisits, Options{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := learnIndex(t, strings.Join(c.lines, "\n")+"\n", c.o)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("rules %v, want %v (sorted by SURT)", got.Hosts, want.Hosts)
			}
			if m := countMerges(t, got, caps); m.false > 0 {
				t.Errorf("%d false pageMerges of %d, e.g. %s", m.false, m.pairs, m.example)
			}
		})
	}
}

// TestDigestNoise: with 1 % and 3 % of the captures given a random
// digest, the synthetic sites keep precision 1 and most of their recall.
func TestDigestNoise(t *testing.T) {
	seeds := synth.TuningSeeds
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		site := synth.Generate(seed)
		learnSet, heldOut := site.Split()
		sc := newSynthScorer(t, site, heldOut)
		clean := sc.score(t, seed, learnSynth(t, learnSet))
		for _, rate := range []float64{0.01, 0.03} {
			noisy, _ := site.WithNoise(rate).Split()
			got := sc.score(t, seed, learnSynth(t, noisy))
			t.Logf("seed %d, noise %.0f %%: %v (clean: recall %.3f)", seed, 100*rate, got, clean.recall())
			if got.precision() < 1 || got.recall() < clean.recall()-0.05 {
				t.Errorf("seed %d, noise %.0f %%: precision %.4f, recall %.4f (clean %.4f): want 1 and within 0.05", seed, 100*rate, got.precision(), got.recall(), clean.recall())
			}
		}
	}
}
