package learn

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	neturl "net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
)

var t0 = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)

// site makes the captures of one host: pages pages, each captured times
// times an hour apart, its URL from url(page, capture number) and its
// digest from digest(page, capture number).
func site(pages, times int, url func(page, n int) string, digest func(page, n int) string) []Capture {
	var cs []Capture
	n := 0
	for p := 0; p < pages; p++ {
		for k := 0; k < times; k++ {
			n++
			cs = append(cs, Capture{URL: url(p, n), Time: t0.Add(time.Duration(n) * time.Hour), Status: 200, Digest: digest(p, n)})
		}
	}
	return cs
}

func learned(t *testing.T, o Options, cs []Capture) map[string][]string {
	t.Helper()
	l := New(o)
	for _, c := range cs {
		l.Add(c)
	}
	got := map[string][]string{}
	for h, r := range l.Rules().Hosts {
		got[h] = r.TrackingParams
	}
	return got
}

func pageDigest(p, _ int) string { return fmt.Sprintf("sha1:PAGE%04d", p) }

// TestLearnCases holds the learner to the rules of the package
// documentation, one host each: what it learns, and what it must not.
func TestLearnCases(t *testing.T) {
	tags := []string{"home", "nav", "mail", "footer"}
	cases := []struct {
		name string
		caps []Capture
		want []string // the names learned for the host, nil: none
	}{
		{"click tag", site(20, 3, func(p, n int) string {
			return fmt.Sprintf("http://a.test/item?id=%d&from=%s", p, tags[n%4])
		}, pageDigest), []string{"from"}},
		{"two tags always together", site(20, 3, func(p, n int) string {
			return fmt.Sprintf("http://a.test/item?id=%d&from=%s&pos=%d", p, tags[n%4], n)
		}, pageDigest), []string{"from", "pos"}},
		{"relevant id", site(20, 3, func(p, n int) string {
			return fmt.Sprintf("http://a.test/item?id=%d", p*3+n%3)
		}, func(p, n int) string { return fmt.Sprintf("sha1:P%d", p*3+n%3) }), nil},
		{"values 0 and 1 one page, the others not", site(20, 4, func(p, n int) string {
			return fmt.Sprintf("http://a.test/list?cat=%d&page=%d", p, n%4)
		}, func(p, n int) string {
			if n%4 <= 1 {
				return fmt.Sprintf("sha1:C%dP0", p)
			}
			return fmt.Sprintf("sha1:C%dP%d", p, n%4)
		}), nil},
		{"only values 0 and 1 seen", site(20, 2, func(p, n int) string {
			return fmt.Sprintf("http://a.test/list?cat=%d&page=%d", p, n%2)
		}, pageDigest), nil},
		{"too few pairs", site(2, 3, func(p, n int) string {
			return fmt.Sprintf("http://a.test/item?id=%d&from=%s", p, tags[n%4])
		}, pageDigest), nil},
		{"a soft-404 digest is no evidence", site(20, 3, func(p, n int) string {
			return fmt.Sprintf("http://a.test/p%d/x?id=%d", n%5, n)
		}, func(p, n int) string { return "sha1:NOTFOUND" }), nil},
		{"redirects and errors are no evidence", func() []Capture {
			cs := site(20, 3, func(p, n int) string {
				return fmt.Sprintf("http://a.test/item?id=%d&from=%s", n, tags[n%4])
			}, func(p, n int) string { return "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ" })
			for i := range cs {
				cs[i].Status = 301 + i%2
			}
			return cs
		}(), nil},
		{"a name canon.Rules cannot hold", site(20, 3, func(p, n int) string {
			return fmt.Sprintf("http://a.test/item?id=%d&a,b=%s", p, tags[n%4])
		}, pageDigest), nil},
		{"a name another spells in another case", site(20, 3, func(p, n int) string {
			return fmt.Sprintf("http://a.test/item?id=%d&ID=%s", p, tags[n%4])
		}, pageDigest), nil},
		{"a tag whose pages changed at one time", site(30, 3, func(p, n int) string {
			return fmt.Sprintf("http://a.test/item?id=%d&from=%s", p, tags[n%4])
		}, func(p, n int) string {
			// Every page changes at capture 45: the host's churn.
			return fmt.Sprintf("sha1:P%dV%d", p, n/45)
		}), []string{"from"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := learned(t, Options{}, c.caps)["a.test"]
			if !slices.Equal(got, c.want) {
				t.Errorf("learned %q, want %q", got, c.want)
			}
		})
	}
}

// TestLearnSubdomains: a host's rules apply to its subdomains without
// rules of their own, so a name learned for a.test that news.a.test
// uses, where it is not learned, is no rule; a subdomain that does not
// use it leaves it.
func TestLearnSubdomains(t *testing.T) {
	tags := []string{"home", "nav", "mail", "footer"}
	parent := site(20, 3, func(p, n int) string {
		return fmt.Sprintf("http://a.test/item?id=%d&from=%s", p, tags[n%4])
	}, pageDigest)
	news := site(20, 3, func(p, n int) string {
		return fmt.Sprintf("http://news.a.test/list?from=%d", p*3+n%3)
	}, func(p, n int) string { return fmt.Sprintf("sha1:N%d", p*3+n%3) })
	other := site(5, 1, func(p, n int) string { return fmt.Sprintf("http://shop.a.test/p%d", p) }, pageDigest)
	if got := learned(t, Options{}, append(slices.Clone(parent), other...)); !slices.Equal(got["a.test"], []string{"from"}) {
		t.Errorf("with a subdomain that has no from: %v, want from on a.test", got)
	}
	if got := learned(t, Options{}, append(slices.Clone(parent), news...)); len(got) != 0 {
		t.Errorf("with news.a.test, where from names the page: %v, want no rule", got)
	}
}

// TestLearnReport checks the evidence the report gives: a learned set
// with its pairs, and a kept parameter with counterexamples that are
// captures of the host differing in it.
func TestLearnReport(t *testing.T) {
	tags := []string{"home", "nav", "mail"}
	l := New(Options{})
	for _, c := range site(10, 3, func(p, n int) string {
		return fmt.Sprintf("http://a.test/item?id=%d&from=%s", p, tags[n%3])
	}, pageDigest) {
		l.Add(c)
	}
	var sawLearned, sawKept bool
	for _, f := range l.Report() {
		switch {
		case f.Learned && slices.Equal(f.Params, []string{"from"}):
			sawLearned = f.Agree >= 5 && f.Disagree == 0 && f.Pairs == f.Agree
		case !f.Learned && slices.Equal(f.Params, []string{"id"}):
			sawKept = f.Disagree > 0 && len(f.Counterexamples) > 0
		}
	}
	if !sawLearned || !sawKept {
		t.Errorf("report %+v: want from learned with its agreeing pairs, id kept with counterexamples", l.Report())
	}
}

// TestLearnSkipped counts what Add leaves out, by reason.
func TestLearnSkipped(t *testing.T) {
	l := New(Options{})
	l.Add(Capture{URL: "http://a.test/", Status: 404, Digest: "sha1:X"})
	l.Add(Capture{URL: "http://a.test/", Status: 200, Digest: "-"})
	l.Add(Capture{URL: "http://a.test/", Status: 200, Digest: ""})
	l.Add(Capture{URL: "http://a.test/", Status: 200, Digest: "da39a3ee5e6b4b0d3255bfef95601890afd80709"})
	l.Add(Capture{URL: "http://a.test/", Status: 200, Digest: "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"})
	l.Add(Capture{URL: "http://[::1/", Status: 200, Digest: "sha1:X"})
	if want := (Skipped{Status: 1, NoDigest: 2, EmptyPayload: 2, Invalid: 1, Sampled: 0}); l.Skipped != want {
		t.Errorf("Skipped = %+v, want %+v", l.Skipped, want)
	}
}

// TestLearnOrder: without HostRuns the same captures in any order give
// the same rules and report, byte for byte; with HostRuns, captures in
// host runs give the rules of all at once, and only one host's captures
// are held.
func TestLearnOrder(t *testing.T) {
	site := generateSites(synthTuningSeeds[0])
	learnSet, _ := site.split()
	caps := make([]Capture, len(learnSet))
	for i, c := range learnSet {
		caps[i] = c.Capture
	}
	run := func(o Options, cs []Capture) ([]byte, []byte, int) {
		l := New(o)
		most := 0
		for _, c := range cs {
			l.Add(c)
			most = max(most, len(l.pending))
		}
		r, err := json.Marshal(l.Rules())
		if err != nil {
			t.Fatal(err)
		}
		f, err := json.Marshal(l.Report())
		if err != nil {
			t.Fatal(err)
		}
		return r, f, most
	}
	rules, report, _ := run(Options{}, caps)
	shuffled := slices.Clone(caps)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if r, f, _ := run(Options{}, shuffled); string(r) != string(rules) || string(f) != string(report) {
		t.Errorf("shuffled captures give other rules or another report:\n%s\nwant\n%s", r, rules)
	}
	// The generator writes a host's captures together (TestSyntheticSites
	// learns them in that order).
	r, _, most := run(Options{HostRuns: true}, caps)
	if string(r) != string(rules) {
		t.Errorf("HostRuns gives other rules:\n%s\nwant\n%s", r, rules)
	}
	if most > 2 {
		t.Errorf("HostRuns held the captures of %d hosts at once, want at most 2 (the run that ends and the next)", most)
	}
}

// TestLearnedRulesApply: the rules are ones the profile takes
// (WithRules), for Crawler and Aggressive, and a learned name merges the
// URLs it was learned from.
func TestLearnedRulesApply(t *testing.T) {
	tags := []string{"home", "nav", "mail", "footer"}
	cs := site(20, 3, func(p, n int) string {
		return fmt.Sprintf("http://www.a.test/item?id=%d&from=%s", p, tags[n%4])
	}, pageDigest)
	for _, p := range []canon.Profile{canon.Crawler, canon.Aggressive} {
		l := New(Options{Profile: p})
		for _, c := range cs {
			l.Add(c)
		}
		rules := l.Rules()
		if len(rules.Hosts) != 1 {
			t.Fatalf("%v: rules %+v, want one host", p, rules)
		}
		q, err := p.WithRules(rules)
		if err != nil {
			t.Fatalf("%v: WithRules(%+v): %v", p, rules, err)
		}
		a, _ := canon.Normalize(cs[0].URL, q)
		b, _ := canon.Normalize(cs[1].URL, q)
		if a != b {
			t.Errorf("%v with the learned rules: %q and %q have keys %q and %q", p, cs[0].URL, cs[1].URL, a, b)
		}
	}
}

// TestHost: Host is the host Rules names for a capture, the one a
// Learner files it under.
func TestHost(t *testing.T) {
	for _, c := range []struct {
		url, want string
		ok        bool
	}{
		{"HTTP://WWW.A.test:8080/x?y", "www.a.test", true},
		{"http://u:p@[::1]:80/", "[::1]", true},
		{"http://%zz/", "", false},
	} {
		h, ok := Host(c.url, canon.Profile{})
		if h != c.want || ok != c.ok {
			t.Errorf("Host(%q) = %q, %v, want %q, %v", c.url, h, ok, c.want, c.ok)
		}
	}
	l := New(Options{})
	for _, c := range site(20, 3, func(p, n int) string {
		return fmt.Sprintf("HTTP://WWW.A.test:8080/item?id=%d&from=%d", p, n)
	}, pageDigest) {
		l.Add(c)
	}
	if h, _ := Host("HTTP://WWW.A.test:8080/", canon.Profile{}); len(l.Rules().Hosts[h].TrackingParams) == 0 {
		t.Errorf("the Learner filed no rule under %q: %+v", h, l.Rules())
	}
}

// TestLearnLargeHost: a host with more captures than the learner holds
// is sampled by path, to at most maxHostCaptures, the same sample in any
// order, and its rule is still learned.
func TestLearnLargeHost(t *testing.T) {
	tags := []string{"home", "nav", "mail", "footer"}
	cs := site(maxHostCaptures/3+5000, 3, func(p, n int) string {
		return fmt.Sprintf("http://a.test/p%d?from=%s", p, tags[n%4])
	}, pageDigest)
	l := New(Options{})
	for _, c := range cs {
		l.Add(c)
	}
	if n := len(l.pending["a.test"].caps); n > maxHostCaptures || n < maxHostCaptures/4 || l.Skipped.Sampled != len(cs)-n {
		t.Fatalf("%d captures: %d kept, %d sampled out; want at most %d kept and the rest sampled out", len(cs), n, l.Skipped.Sampled, maxHostCaptures)
	}
	if got := l.Rules().Hosts["a.test"].TrackingParams; !slices.Equal(got, []string{"from"}) {
		t.Errorf("learned %q, want from", got)
	}
	r := New(Options{})
	for i := len(cs) - 1; i >= 0; i-- {
		r.Add(cs[i])
	}
	if r.Skipped.Sampled != l.Skipped.Sampled {
		t.Errorf("in reverse order %d sampled out, in order %d", r.Skipped.Sampled, l.Skipped.Sampled)
	}
}

// TestMerge: learning each host with a Learner of its own and merging
// their Hosts gives one Learner's Rules, the subdomain rule included.
func TestMerge(t *testing.T) {
	tags := []string{"home", "nav", "mail", "footer"}
	var cs []Capture
	for _, h := range []string{"a.test", "news.a.test", "b.test"} {
		cs = append(cs, site(20, 3, func(p, n int) string {
			if h == "news.a.test" {
				return fmt.Sprintf("http://%s/list?from=%d", h, p*3+n%3)
			}
			return fmt.Sprintf("http://%s/item?id=%d&from=%s", h, p, tags[n%4])
		}, func(p, n int) string {
			if h == "news.a.test" {
				return fmt.Sprintf("sha1:N%d", p*3+n%3)
			}
			return fmt.Sprintf("sha1:%sP%d", h[:1], p)
		})...)
	}
	one := New(Options{})
	each := map[string]*Learner{}
	for _, c := range cs {
		one.Add(c)
		h, _ := Host(c.URL, canon.Profile{})
		if each[h] == nil {
			each[h] = New(Options{})
		}
		each[h].Add(c)
	}
	var hosts []HostRules
	for _, l := range each {
		hosts = append(hosts, l.Hosts()...)
	}
	want := one.Rules()
	if got := Merge(hosts, canon.Profile{}); !reflect.DeepEqual(got, want) {
		t.Errorf("Merge of each host's = %+v, one Learner's = %+v", got, want)
	}
	if !reflect.DeepEqual(want.Hosts, map[string]canon.Rules{"b.test": {TrackingParams: []string{"from"}}}) {
		t.Errorf("rules %+v, want from on b.test only (news.a.test uses from)", want)
	}
}

// TestKeyHost holds keyHost, which splits a key's authority itself, to
// net/url's reading of the key, over the keys Crawler makes of the
// bench corpus and of a few authorities of every shape.
func TestKeyHost(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "bench", "testdata", "real.txt"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := append(strings.Split(string(b), "\n"), "http://u:p@h:8/x", "http://[::1]:8/", "http://u@[fe80::1]/?a#b", "mailto:a@b", "file:///x", "http://h?q=//x", "foo:/a//b")
	n := 0
	for _, in := range inputs {
		key, err := canon.Normalize(in, canon.Crawler)
		if err != nil {
			continue
		}
		u, err := neturl.Parse(key)
		if err != nil {
			continue // (net/url refuses some keys: "%ht" in a path)
		}
		want, wantOK := "", false
		if u.Host != "" {
			want = u.Hostname()
			if strings.HasPrefix(u.Host, "[") {
				want = "[" + want + "]"
			}
			wantOK = true
		}
		if got, ok := keyHost(key); got != want || ok != wantOK {
			t.Fatalf("keyHost(%q) = %q, %v; net/url reads %q, %v", key, got, ok, want, wantOK)
		}
		n++
	}
	if n < 50000 {
		t.Fatalf("only %d keys compared", n)
	}
}
