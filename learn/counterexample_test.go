package learn

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
)

// counterHost is the background of TestCounterexampleShapes: 20 items of
// a.test, each captured 3 times with a parameter v that names nothing
// (4 values), which every profile learns on it alone.
func counterHost() []Capture {
	tags := []string{"a", "b", "c", "d"}
	var cs []Capture
	for p := 0; p < 20; p++ {
		for k := 0; k < 3; k++ {
			cs = append(cs, Capture{URL: fmt.Sprintf("http://a.test/item?id=%d&v=%s", p, tags[(p+k)%4]),
				Time: t0.Add(time.Duration(len(cs)) * time.Hour), Status: 200, Digest: fmt.Sprintf("sha1:ITEM%d", p)})
		}
	}
	return cs
}

// alternate appends captures of u1 and u2, one after the other an hour
// apart, times times: u1 always with digest d1, u2 with d2.
func alternate(cs []Capture, times int, u1, d1, u2, d2 string) []Capture {
	for range times {
		for _, c := range [][2]string{{u1, d1}, {u2, d2}} {
			cs = append(cs, Capture{URL: c[0], Time: t0.Add(time.Duration(len(cs)) * time.Hour), Status: 200, Digest: c[1]})
		}
	}
	return cs
}

// counterMerges returns the pairs of captures that p keeps apart, that p
// with rules merges, and whose digests differ while each is shown by two
// captures or more: a counterexample by the package's rule (not noise,
// no value seen once, as the shapes have none).
func counterMerges(t *testing.T, p canon.Profile, caps []Capture, rules canon.Rules) []string {
	t.Helper()
	q, err := p.WithRules(rules)
	if err != nil {
		t.Fatalf("%v: the rules %+v do not load: %v", p, rules, err)
	}
	seen := map[string]int{}
	for _, c := range caps {
		seen[c.Digest]++
	}
	var out []string
	for i, a := range caps {
		for _, b := range caps[i+1:] {
			if a.Digest == b.Digest || seen[a.Digest] < 2 || seen[b.Digest] < 2 {
				continue
			}
			ka, err1 := canon.Normalize(a.URL, p)
			kb, err2 := canon.Normalize(b.URL, p)
			if err1 != nil || err2 != nil || ka == kb {
				continue
			}
			ra, _ := canon.Normalize(a.URL, q)
			rb, _ := canon.Normalize(b.URL, q)
			if ra == rb {
				out = append(out, fmt.Sprintf("%s (%s) and %s (%s) as %s", a.URL, a.Digest, b.URL, b.Digest, ra))
			}
		}
	}
	return out
}

// TestCounterexampleShapes adds to a host whose parameter v names
// nothing two URLs that differ only in v, in some spelling or position,
// whose captures, again and again, show two digests: a counterexample in
// every shape, which no rule may merge, under every profile the learner
// writes rules for. The control: the host alone learns v.
func TestCounterexampleShapes(t *testing.T) {
	profiles := map[string]canon.Profile{"crawler": canon.Crawler, "archive": canon.Archive, "aggressive": canon.Aggressive}
	for name, p := range profiles {
		rules, _ := learnAll(t, Options{Profile: p}, counterHost())
		if r := rules.Hosts["a.test"]; !slices.Contains(r.TrackingParams, "v") && !slices.Contains(r.SessionParams, "v") {
			t.Fatalf("%s: the host alone does not learn v (%+v): the shapes would test nothing", name, rules)
		}
	}
	shapes := []struct {
		name string
		add  func([]Capture) []Capture
	}{
		// A SessionParams rule (archive, aggressive) drops ";v=…" from
		// the path too.
		{"path parameter", func(cs []Capture) []Capture {
			return alternate(cs, 3, "http://a.test/doc;v=1", "sha1:DOC1", "http://a.test/doc;v=2", "sha1:DOC2")
		}},
		{"path parameter in a middle segment", func(cs []Capture) []Capture {
			return alternate(cs, 3, "http://a.test/a;v=1/b", "sha1:DOC1", "http://a.test/a;v=2/b", "sha1:DOC2")
		}},
		{"path parameter, upper case", func(cs []Capture) []Capture {
			return alternate(cs, 3, "http://a.test/doc;V=1", "sha1:DOC1", "http://a.test/doc;V=2", "sha1:DOC2")
		}},
		{"path parameter on a subdomain", func(cs []Capture) []Capture {
			return alternate(cs, 3, "http://news.a.test/doc;v=1", "sha1:DOC1", "http://news.a.test/doc;v=2", "sha1:DOC2")
		}},
		{"path parameter on a subdomain, no evidence", func(cs []Capture) []Capture {
			cs = append(cs, Capture{URL: "http://news.a.test/doc;v=1", Status: 301})
			return alternate(cs, 3, "http://news.a.test/doc;v=1", "sha1:DOC1", "http://news.a.test/doc;v=2", "sha1:DOC2")
		}},
		// Values of a name given twice, in the key's order (Crawler
		// sorts by name only).
		{"values in another order", func(cs []Capture) []Capture {
			return alternate(cs, 3, "http://a.test/doc?v=1&v=2", "sha1:DOC1", "http://a.test/doc?v=2&v=1", "sha1:DOC2")
		}},
		{"no = and an empty value", func(cs []Capture) []Capture {
			return alternate(cs, 3, "http://a.test/doc?v", "sha1:DOC1", "http://a.test/doc?v=", "sha1:DOC2")
		}},
		{"no = and an empty value, given twice", func(cs []Capture) []Capture {
			return alternate(cs, 3, "http://a.test/doc?v&v=x", "sha1:DOC1", "http://a.test/doc?v=&v=x", "sha1:DOC2")
		}},
		// The pages' history explains a disagreement only where the
		// change can lie between the two captures: one capture of the
		// other's digest, long before or after, does not explain them
		// all.
		{"history: the other's digest once, before", func(cs []Capture) []Capture {
			cs = alternate(cs, 1, "http://a.test/doc?v=2", "sha1:DOC1", "http://a.test/doc?v=3", "sha1:DOC3")
			return alternate(cs, 10, "http://a.test/doc?v=1", "sha1:DOC1", "http://a.test/doc?v=2", "sha1:DOC2")
		}},
		{"history: the other's digest once, after", func(cs []Capture) []Capture {
			cs = alternate(cs, 10, "http://a.test/doc?v=1", "sha1:DOC1", "http://a.test/doc?v=2", "sha1:DOC2")
			return alternate(cs, 1, "http://a.test/doc?v=1", "sha1:DOC2", "http://a.test/doc?v=3", "sha1:DOC3")
		}},
		{"history: each showed the other's digest once", func(cs []Capture) []Capture {
			cs = alternate(cs, 1, "http://a.test/doc?v=1", "sha1:DOC2", "http://a.test/doc?v=2", "sha1:DOC1")
			return alternate(cs, 10, "http://a.test/doc?v=1", "sha1:DOC1", "http://a.test/doc?v=2", "sha1:DOC2")
		}},
	}
	for _, s := range shapes {
		for name, p := range profiles {
			caps := s.add(counterHost())
			rules, _ := learnAll(t, Options{Profile: p}, caps)
			if m := counterMerges(t, p, caps, rules); len(m) > 0 {
				t.Errorf("%s, %s: the rules %v merge %d pairs of a counterexample, e.g. %s", s.name, name, rules.Hosts, len(m), m[0])
			}
		}
	}
}

// TestHistoryExplains holds the pages' history to what it explains: a
// page that changed once, its captures before the change under some
// values of v and after it under others, still learns v.
func TestHistoryExplains(t *testing.T) {
	tags := []string{"a", "b", "c", "d"}
	var cs []Capture
	for p := 0; p < 20; p++ {
		for k := 0; k < 4; k++ {
			d := fmt.Sprintf("sha1:ITEM%d", p)
			if k >= 2 {
				d += "-new" // each page changed once, between its second and third capture
			}
			cs = append(cs, Capture{URL: fmt.Sprintf("http://a.test/item?id=%d&v=%s", p, tags[(p+k)%4]),
				Time: t0.Add(time.Duration(k*1000+p) * time.Hour), Status: 200, Digest: d})
		}
	}
	rules, fs := learnAll(t, Options{}, cs)
	if !slices.Contains(rules.Hosts["a.test"].TrackingParams, "v") {
		t.Fatalf("v is not learned across one change of every page: %+v", fs)
	}
}

// pairedTags is a host whose pages take two tags, from and src, that
// always change together: learned as one set.
func pairedTags() []Capture {
	tags := []string{"a", "b", "c", "d"}
	var cs []Capture
	for p := 0; p < 20; p++ {
		for k := 0; k < 3; k++ {
			tag := tags[(p+k)%4]
			cs = append(cs, Capture{URL: fmt.Sprintf("http://a.test/item?id=%d&from=%s&src=%s", p, tag, tag),
				Time: t0.Add(time.Duration(len(cs)) * time.Hour), Status: 200, Digest: fmt.Sprintf("sha1:ITEM%d", p)})
		}
	}
	return cs
}

// TestReportAgreesWithRules holds the findings to the rules: the names
// of the sets whose last finding in the report says learned, host by
// host, are the names of the rules, whatever leaves a set out of them
// (and Stats counts the last findings), and a pipeline that learns each
// host apart (Hosts, Merge) writes the same rules.
func TestReportAgreesWithRules(t *testing.T) {
	withSub := func(cs []Capture, u string) []Capture {
		return append(cs, Capture{URL: u, Status: 301})
	}
	cases := []struct {
		name string
		p    canon.Profile
		caps []Capture
	}{
		{"the host alone", canon.Crawler, counterHost()},
		{"the host alone, archive", canon.Archive, counterHost()},
		{"a name in another letter case", canon.Crawler,
			alternate(counterHost(), 1, "http://a.test/x?V=1", "sha1:X1", "http://a.test/x?V=2", "sha1:X2")},
		{"a path parameter", canon.Archive,
			alternate(counterHost(), 1, "http://a.test/x;v=1", "sha1:X1", "http://a.test/x;v=2", "sha1:X2")},
		{"a path parameter, crawler", canon.Crawler,
			alternate(counterHost(), 1, "http://a.test/x;v=1", "sha1:X1", "http://a.test/x;v=2", "sha1:X2")},
		{"a subdomain uses the name", canon.Crawler, withSub(counterHost(), "http://news.a.test/x?v=1")},
		{"a subdomain uses the name as a path parameter", canon.Archive, withSub(counterHost(), "http://news.a.test/x;v=1")},
		{"a set of two", canon.Crawler, pairedTags()},
		{"a subdomain uses a name of a set of two", canon.Crawler, withSub(pairedTags(), "http://news.a.test/x?src=1")},
	}
	for _, c := range cases {
		l := New(Options{Profile: c.p})
		for _, cp := range c.caps {
			if err := l.Add(cp); err != nil {
				t.Fatal(err)
			}
		}
		last := map[string]Finding{}
		var order []string
		rules, err := l.Learn(func(f Finding) {
			k := f.Host + "\x00" + fmt.Sprint(f.Params)
			if _, ok := last[k]; !ok {
				order = append(order, k)
			}
			last[k] = f
		})
		if err != nil {
			t.Fatal(err)
		}
		reported := map[string][]string{}
		learnedSets := 0
		for _, k := range order {
			if f := last[k]; f.Verdict == Learned {
				reported[f.Host] = append(reported[f.Host], f.Params...)
				learnedSets++
			}
		}
		for h := range reported {
			slices.Sort(reported[h])
		}
		got := map[string][]string{}
		for h, r := range rules.Hosts {
			got[h] = append(slices.Clone(r.TrackingParams), r.SessionParams...)
		}
		if fmt.Sprint(reported) != fmt.Sprint(got) {
			t.Errorf("%s: the report learned %v, the rules hold %v", c.name, reported, got)
		}
		if st := l.Stats(); st.Learned != learnedSets {
			t.Errorf("%s: Stats.Learned %d, the report's last findings learn %d sets", c.name, st.Learned, learnedSets)
		}
		// Host by host, merged.
		byHost := map[string][]Capture{}
		for _, cp := range c.caps {
			if h, ok := Host(cp.URL, c.p); ok {
				byHost[h] = append(byHost[h], cp)
			}
		}
		var hrs []HostRules
		for _, cs := range byHost {
			hl := New(Options{Profile: c.p})
			for _, cp := range cs {
				if err := hl.Add(cp); err != nil {
					t.Fatal(err)
				}
			}
			hr, err := hl.Hosts(nil)
			if err != nil {
				t.Fatal(err)
			}
			hrs = append(hrs, hr...)
		}
		if a, b := fmt.Sprint(Merge(hrs, c.p).Hosts), fmt.Sprint(rules.Hosts); a != b {
			t.Errorf("%s: merged host by host %s, learned at once %s", c.name, a, b)
		}
	}
}

// TestMergeHostInParts: learners of parts of one host's captures, merged,
// keep only what none of them refused: one part learns v, the other
// shows a counterexample (or only uses v); the merged rules never merge
// the counterexample, and the control, the first part alone, learns v.
func TestMergeHostInParts(t *testing.T) {
	hostsOf := func(cs []Capture) []HostRules {
		l := New(Options{})
		for _, c := range cs {
			if err := l.Add(c); err != nil {
				t.Fatal(err)
			}
		}
		hr, err := l.Hosts(nil)
		if err != nil {
			t.Fatal(err)
		}
		return hr
	}
	first := hostsOf(counterHost())
	if r := Merge(first, canon.Crawler); !slices.Contains(r.Hosts["a.test"].TrackingParams, "v") {
		t.Fatalf("the first part alone learns %+v, not v", r)
	}
	counter := alternate(nil, 3, "http://a.test/doc?v=1", "sha1:DOC1", "http://a.test/doc?v=2", "sha1:DOC2")
	for _, second := range [][]Capture{counter, {{URL: "http://a.test/doc?V=1", Status: 404}}} {
		for _, parts := range [][]HostRules{append(slices.Clone(first), hostsOf(second)...), append(hostsOf(second), first...)} {
			r := Merge(parts, canon.Crawler)
			if len(r.Hosts) != 0 {
				t.Errorf("parts %+v: merged %v, want no rule (the second part uses v and does not learn it)", parts, r.Hosts)
			}
			if m := counterMerges(t, canon.Crawler, append(counterHost(), second...), r); len(m) > 0 {
				t.Errorf("parts %+v: %s", parts, m[0])
			}
		}
	}
}
