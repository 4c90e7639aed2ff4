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
	"github.com/seed15588f71/canon/learn/internal/synth"
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

// learnAll learns the captures with a Learner of the options o, and
// returns its rules and findings.
func learnAll(t testing.TB, o Options, cs []Capture) (canon.Rules, []Finding) {
	t.Helper()
	l := New(o)
	defer l.Close()
	for _, c := range cs {
		if err := l.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	var fs []Finding
	r, err := l.Learn(func(f Finding) { fs = append(fs, f) })
	if err != nil {
		t.Fatal(err)
	}
	return r, fs
}

func learned(t *testing.T, o Options, cs []Capture) map[string][]string {
	t.Helper()
	r, _ := learnAll(t, o, cs)
	got := map[string][]string{}
	for h, r := range r.Hosts {
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
// with its pairs, and a refused parameter with counterexamples that are
// captures of the host differing in it.
func TestLearnReport(t *testing.T) {
	tags := []string{"home", "nav", "mail"}
	_, fs := learnAll(t, Options{}, site(10, 3, func(p, n int) string {
		return fmt.Sprintf("http://a.test/item?id=%d&from=%s", p, tags[n%3])
	}, pageDigest))
	var sawLearned, sawRefused bool
	for _, f := range fs {
		switch {
		case f.Verdict == Learned && slices.Equal(f.Params, []string{"from"}):
			sawLearned = f.Agree >= 5 && f.Counter == 0 && f.Pairs == f.Agree
		case f.Verdict == Refused && slices.Equal(f.Params, []string{"id"}):
			sawRefused = f.Counter+f.Unexplained > 0 && len(f.Counterexamples) > 0 && f.Why != ""
		}
	}
	if !sawLearned || !sawRefused {
		t.Errorf("report %+v: want from learned with its agreeing pairs, id refused with counterexamples", fs)
	}
}

// TestLearnStats counts what Add leaves out, by reason, and ends the
// Learner with Learn.
func TestLearnStats(t *testing.T) {
	l := New(Options{})
	defer l.Close()
	for _, c := range []Capture{
		{URL: "http://a.test/", Status: 404, Digest: "sha1:X"},
		{URL: "http://a.test/", Status: 200, Digest: "-"},
		{URL: "http://a.test/", Status: 200, Digest: ""},
		{URL: "http://a.test/", Status: 200, Digest: "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
		{URL: "http://a.test/", Status: 200, Digest: "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"},
		{URL: "http://[::1/", Status: 200, Digest: "sha1:X"},
		{URL: "foo:/x", Status: 200, Digest: "sha1:X"},
		{URL: "http://a.test/x", Status: 200, Digest: "sha1:X"},
	} {
		if err := l.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Learn(nil); err != nil {
		t.Fatal(err)
	}
	if want := (Stats{Captures: 8, Status: 1, NoDigest: 2, EmptyPayload: 2, Invalid: 1, NoHost: 1, Hosts: 1}); l.Stats() != want {
		t.Errorf("Stats = %+v, want %+v", l.Stats(), want)
	}
	if _, err := l.Learn(nil); err != ErrLearned {
		t.Errorf("a second Learn: %v, want ErrLearned", err)
	}
	if err := l.Add(Capture{URL: "http://a.test/"}); err != ErrLearned {
		t.Errorf("Add after Learn: %v, want ErrLearned", err)
	}
}

// TestLearnOrder: the same captures in any order, split into spill runs
// of any size, and with some given twice, give the same rules and
// report, byte for byte.
func TestLearnOrder(t *testing.T) {
	site := synth.Generate(synth.TuningSeeds[0])
	learnSet, _ := site.Split()
	caps := make([]Capture, len(learnSet))
	for i, c := range learnSet {
		caps[i] = learnCapture(c)
	}
	run := func(o Options, cs []Capture) []byte {
		r, fs := learnAll(t, o, cs)
		b, err := json.Marshal(struct {
			R canon.Rules
			F []Finding
		}{r, fs})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	want := run(Options{}, caps)
	rng := rand.New(rand.NewPCG(1, 2))
	shuffled := slices.Clone(caps)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	byTime := slices.Clone(caps)
	slices.SortStableFunc(byTime, func(a, b Capture) int { return a.Time.Compare(b.Time) })
	reversed := slices.Clone(caps)
	slices.Reverse(reversed)
	twice := append(slices.Clone(shuffled[:len(shuffled)/3]), caps...)
	for _, c := range []struct {
		name string
		o    Options
		cs   []Capture
	}{
		{"shuffled", Options{}, shuffled},
		{"by time", Options{}, byTime},
		{"reversed, spilled", Options{SpillBytes: 1 << 16, TempDir: t.TempDir()}, reversed},
		{"shuffled, spilled often", Options{SpillBytes: 4 << 10, TempDir: t.TempDir()}, shuffled},
		{"a third twice, spilled", Options{SpillBytes: 1 << 18, TempDir: t.TempDir()}, twice},
	} {
		if got := run(c.o, c.cs); string(got) != string(want) {
			t.Errorf("%s: other rules or another report:\n%.2000s\nwant\n%.2000s", c.name, got, want)
		}
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
		rules, _ := learnAll(t, Options{Profile: p}, cs)
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

// TestHost: Host is the host Rules match a capture's key as, the one a
// Learner files it under.
func TestHost(t *testing.T) {
	for _, c := range []struct {
		url, want string
		ok        bool
	}{
		{"HTTP://WWW.A.test:8080/x?y", "www.a.test", true},
		{"http://u:p@[::1]:80/", "[::1]", true},
		{"http://example.com./x", "example.com", true},
		{"foo://EXAMPLE.com./x", "example.com", true},
		{"foo://h..example/", "h..example", true},
		{"http://%zz/", "", false},
		{"foo:/x", "", false},
	} {
		h, ok := Host(c.url, canon.Profile{})
		if h != c.want || ok != c.ok {
			t.Errorf("Host(%q) = %q, %v, want %q, %v", c.url, h, ok, c.want, c.ok)
		}
	}
	rules, _ := learnAll(t, Options{}, site(20, 3, func(p, n int) string {
		return fmt.Sprintf("HTTP://WWW.A.test:8080/item?id=%d&from=%d", p, n)
	}, pageDigest))
	if h, _ := Host("HTTP://WWW.A.test:8080/", canon.Profile{}); len(rules.Hosts[h].TrackingParams) == 0 {
		t.Errorf("the Learner filed no rule under %q: %+v", h, rules)
	}
}

// TestLearnLargeHost: a host with more captures than the learner judges
// is sampled by path, and within the last path by URL, never to
// nothing: one path of more than maxHostCaptures captures still learns,
// in any order.
func TestLearnLargeHost(t *testing.T) {
	if testing.Short() {
		t.Skip("learns 300,000 captures")
	}
	tags := []string{"home", "nav", "mail", "footer"}
	many := site(maxHostCaptures/3+5000, 3, func(p, n int) string {
		return fmt.Sprintf("http://a.test/p%d?from=%s", p, tags[n%4])
	}, pageDigest)
	onePath := site(maxHostCaptures/4+1000, 4, func(p, n int) string {
		return fmt.Sprintf("http://b.test/p?id=%d&from=%s", p, tags[n%4])
	}, pageDigest)
	for _, c := range []struct {
		name string
		caps []Capture
		host string
	}{{"many paths", many, "a.test"}, {"one path", onePath, "b.test"}} {
		t.Run(c.name, func(t *testing.T) {
			l := New(Options{})
			defer l.Close()
			for i := len(c.caps) - 1; i >= 0; i-- {
				l.Add(c.caps[i])
			}
			rules, err := l.Learn(nil)
			if err != nil {
				t.Fatal(err)
			}
			if st := l.Stats(); st.Sampled != len(c.caps)-maxHostCaptures {
				t.Errorf("%d captures: %d sampled out, want %d", len(c.caps), st.Sampled, len(c.caps)-maxHostCaptures)
			}
			if got := rules.Hosts[c.host].TrackingParams; !slices.Equal(got, []string{"from"}) {
				t.Errorf("learned %q, want from", got)
			}
		})
	}
}

// TestMerge: learning each host with a Learner of its own and merging
// their Hosts gives one Learner's rules, the subdomain rule included.
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
	want, _ := learnAll(t, Options{}, cs)
	each := map[string][]Capture{}
	for _, c := range cs {
		h, _ := Host(c.URL, canon.Profile{})
		each[h] = append(each[h], c)
	}
	var hosts []HostRules
	for _, hc := range each {
		l := New(Options{})
		for _, c := range hc {
			l.Add(c)
		}
		hs, err := l.Hosts(nil)
		if err != nil {
			t.Fatal(err)
		}
		hosts = append(hosts, hs...)
	}
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

// TestHostsMatchRules holds the learner's reading of hosts to the
// library's: over URLs of hosts in odd spellings (case, final dots,
// empty labels, Unicode, percent-encoding, addresses, subdomains), under
// Crawler and a profile that keeps Unicode hosts, a rule the learner
// names for a URL's host (hostRule) applies to it, and a rule for one
// URL's host applies to another URL's key exactly when governs says so
// (which the subdomain rule of Learn and Merge reads).
func TestHostsMatchRules(t *testing.T) {
	urls := []string{
		"http://example.com/", "http://Example.COM./", "http://example.com../", "http://news.example.com/",
		"http://a.news.example.com./", "http://www.example.com/", "http://notexample.com/", "http://com/",
		"foo://EXAMPLE.com/", "foo://h..example/", "foo://.example/", "foo://example/", "foo://a_b!$/",
		"foo://1.2.3.4.5/", "http://10.0.0.1/", "foo://evil.10.0.0.1/", "foo://0.0.1/", "foo://0.1/",
		"http://[::1]/", "foo://[::1]/", "http://b\u00fccher.example/", "http://xn--bcher-kva.example/",
		"foo://b%C3%BCcher.example/", "http://B\u00dcCHER.example./", "http://www.b\u00fccher.example/",
		"http://faß.de/", "http://xn--fa-hia.de/", "http://fass.de/", "foo://%41.example/", "http://localhost/",
		"http://a.b.c.d.e.example.com/", "foo://e.xample.com/",
	}
	unicode, err := canon.NewProfile(canon.LowercaseScheme, canon.LowercaseHost, canon.HostToUnicode, canon.RemoveTrackingParams)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []canon.Profile{canon.Crawler, unicode} {
		type host struct {
			url, rh string
			key     []byte
		}
		var hosts []host
		for _, u := range urls {
			rh, ok := Host(u, p)
			if !ok {
				continue
			}
			k, ok := hostKey(nil, rh)
			if !ok {
				t.Fatalf("%v: hostKey(%q) refused", p, rh)
			}
			hosts = append(hosts, host{u, rh, k})
		}
		if len(hosts) < len(urls)-4 {
			t.Fatalf("%v: only %d of the URLs have a host", p, len(hosts))
		}
		checked := 0
		for _, a := range hosts {
			if hostRule(p, a.rh, []string{"zz"}, a.url+"?zz=1") == nil {
				continue // no rule names a's host
			}
			checked++
			q, err := p.WithRules(rulesOf(p, map[string][]string{a.rh: {"zz"}}))
			if err != nil {
				t.Fatalf("%v: a rule for %q: %v", p, a.rh, err)
			}
			for _, b := range hosts {
				plain, err1 := canon.Normalize(b.url+"?zz=1", p)
				ruled, err2 := canon.Normalize(b.url+"?zz=1", q)
				if err1 != nil || err2 != nil {
					t.Fatalf("%v: %s: %v %v", p, b.url, err1, err2)
				}
				if applies := plain != ruled; applies != governs(a.rh, a.key, b.rh, b.key) {
					t.Errorf("%v: the rule of %s (%q) applies to %s (%q): %v; governs says %v", p, a.url, a.rh, b.url, b.rh, applies, !applies)
				}
			}
		}
		t.Logf("%v: %d of %d hosts named, each checked against all", p, checked, len(hosts))
		if checked < 10 {
			t.Errorf("%v: only %d hosts can be named", p, checked)
		}
	}
}

// TestLearnTempDir: the captures past SpillBytes go to a directory of
// TempDir that Learn, or Close, removes.
func TestLearnTempDir(t *testing.T) {
	tags := []string{"home", "nav", "mail", "footer"}
	cs := site(200, 3, func(p, n int) string {
		return fmt.Sprintf("http://a.test/item?id=%d&from=%s", p, tags[n%4])
	}, pageDigest)
	for _, learnIt := range []bool{true, false} {
		dir := t.TempDir()
		l := New(Options{SpillBytes: 8 << 10, TempDir: dir})
		for _, c := range cs {
			if err := l.Add(c); err != nil {
				t.Fatal(err)
			}
		}
		if runs, _ := filepath.Glob(filepath.Join(dir, "canon-learn-*", "run-*")); len(runs) < 2 {
			t.Fatalf("%d run files in %s, want several", len(runs), dir)
		}
		if learnIt {
			if r, err := l.Learn(nil); err != nil || !slices.Equal(r.Hosts["a.test"].TrackingParams, []string{"from"}) {
				t.Fatalf("Learn: %v, %v", r, err)
			}
		} else if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Errorf("learned %v: %s holds %v", learnIt, dir, left)
		}
		if err := l.Add(cs[0]); err != ErrLearned {
			t.Errorf("learned %v: Add after: %v, want ErrLearned", learnIt, err)
		}
	}
}

// TestSpillLetsGo: the records written to a run file are let go: no
// element of the array the next records are held in still points into
// their memory (the array outlives them).
func TestSpillLetsGo(t *testing.T) {
	l := New(Options{SpillBytes: 16 << 10, TempDir: t.TempDir()})
	defer l.Close()
	for i := range 2000 {
		if err := l.Add(Capture{URL: fmt.Sprintf("http://a.test/p?id=%d", i), Status: 200, Digest: "sha1:X"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(l.sp.runs) < 2 {
		t.Fatalf("%d runs, want several", len(l.sp.runs))
	}
	for i, r := range l.sp.recs[len(l.sp.recs):cap(l.sp.recs)] {
		if r != nil {
			t.Fatalf("element %d past the records held still points to %q", len(l.sp.recs)+i, r)
		}
	}
}
