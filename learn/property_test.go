package learn

// The learner's property, over randomly generated capture sets: learned
// rules never merge two captures of the index they came from whose
// digests differ, but where a value seen once excuses it (the rule's
// neutrality: one capture cannot tell a page from noise); and the same
// captures in any order, split or given twice, give the same rules.

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/learn/internal/synth"
)

// randomWorld makes the captures of a few hosts (some subdomains of
// others, in odd spellings), each with parameters that name the page,
// that do not (drawn anew for each capture), or that do for some of
// their values only (the others show one page), some with ids for
// values, and redirects and errors. Every page is captured at least
// twice (so that its digest is no noise: the world has none), in random
// order and at random times.
func randomWorld(r *rand.Rand) []Capture {
	hostPool := []string{"a.test", "news.a.test", "A.TEST.", "b.test", "www.b.test", "x.news.a.test", "c.test", "10.0.0.1", "foo://d.test"}
	var caps []Capture
	r.Shuffle(len(hostPool), func(i, j int) { hostPool[i], hostPool[j] = hostPool[j], hostPool[i] })
	for _, host := range hostPool[:1+r.IntN(3)] {
		scheme := "http://"
		if strings.HasPrefix(host, "foo://") {
			scheme, host = "foo://", strings.TrimPrefix(host, "foo://")
		}
		type param struct {
			name    string
			role    int // 0 names the page, 1 does not, 2 does for some values
			values  int
			minor   map[int]bool // role 2: the values that show pages of their own
			present float64
		}
		var params []param
		names := []string{"id", "p", "lang", "from", "s", "x", "sort", "ref"}
		r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for _, n := range names[:2+r.IntN(4)] {
			// (Half the names name no page: a world with rules to check.)
			p := param{name: n, role: []int{0, 1, 1, 2}[r.IntN(4)], values: 2 + r.IntN(12), present: 0.3 + 0.7*r.Float64()}
			if p.role == 2 {
				p.minor = map[int]bool{}
				for range 1 + r.IntN(2) {
					p.minor[r.IntN(p.values)] = true
				}
			}
			if p.role == 1 && r.IntN(4) == 0 {
				p.values = 100000 // session ids: mostly seen once
			}
			params = append(params, p)
		}
		paths := []string{"/", "/item", "/list"}[:1+r.IntN(3)]
		// The pages: a path and values of the names that name pages;
		// each capture adds values of the others, drawn anew.
		type base struct {
			path   string
			values []int // of each param; -1: absent
		}
		draw := func(p param) int {
			if r.Float64() >= p.present {
				return -1
			}
			return r.IntN(p.values)
		}
		var bases []base
		for range 3 + r.IntN(40) {
			b := base{path: paths[r.IntN(len(paths))]}
			for _, p := range params {
				b.values = append(b.values, draw(p))
			}
			bases = append(bases, b)
		}
		count := map[string]int{}
		var last = map[string]Capture{}
		for range 20 + r.IntN(400) {
			b := bases[r.IntN(len(bases))]
			var q []string
			id := host + b.path
			for k, p := range params {
				v := b.values[k]
				if p.role != 0 {
					v = draw(p)
				}
				if v >= 0 {
					q = append(q, p.name+"="+strconv.Itoa(v))
				}
				switch {
				case p.role == 0, p.role == 2 && v >= 0 && p.minor[v]:
					id += " " + p.name + strconv.Itoa(v) // (-1: absent)
				case p.role == 2:
					id += " " + p.name + "*"
				}
			}
			r.Shuffle(len(q), func(i, j int) { q[i], q[j] = q[j], q[i] })
			u := scheme + host + b.path
			if len(q) > 0 {
				u += "?" + strings.Join(q, "&")
			}
			c := Capture{URL: u, Time: advTime(r), Status: 200, Digest: "sha1:" + pageHash(id)}
			switch r.IntN(20) {
			case 0:
				c.Status, c.Digest = 301, "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"
			case 1:
				c.Status, c.Digest = 404, "sha1:NOTFOUND"
			case 2:
				c.Status = 0 // unknown: taken as 200
				fallthrough
			default:
				count[id]++
				last[id] = c
			}
			caps = append(caps, c)
		}
		// Every page captured twice at least (its digest is no noise).
		for id, n := range count {
			if n == 1 {
				c := last[id]
				c.Time = advTime(r)
				caps = append(caps, c)
			}
		}
	}
	r.Shuffle(len(caps), func(i, j int) { caps[i], caps[j] = caps[j], caps[i] })
	return caps
}

func pageHash(id string) string { return strings.TrimPrefix(synth.Digest(id), "sha1:") }

// checkNoMerge holds rules to the property over caps: two evidence
// captures whose keys base keeps apart and base with the rules merges
// have one digest, unless their keys differ in query parameters only and,
// for every parameter in which they differ, one of the two has a value
// that only it has among the evidence captures of its host. It returns
// the merges checked and those excused.
func checkNoMerge(t *testing.T, world int, caps []Capture, rules canon.Rules, base canon.Profile) (checked, excused int) {
	t.Helper()
	p, err := base.WithRules(rules)
	if err != nil {
		t.Fatalf("the rules %+v do not load: %v", rules, err)
	}
	type ev struct {
		c      Capture
		host   string
		params map[string]string // "" value: absent
		base   string
		path   string // the key before its query
		digest string
	}
	var evs []ev
	seen := map[string]int{} // host NUL name NUL value: evidence captures
	for _, c := range caps {
		d, ok := evidenceDigest(c)
		if !ok {
			continue
		}
		key, err := canon.Normalize(c.URL, base)
		if err != nil {
			continue
		}
		h, _ := Host(c.URL, base)
		path, ps := splitKey(key)
		e := ev{c: c, host: h, params: map[string]string{}, base: key, path: path, digest: d}
		for _, q := range ps {
			e.params[q.name] += "=" + q.value
		}
		evs = append(evs, e)
	}
	names := map[string]map[string]bool{} // by host
	for _, e := range evs {
		if names[e.host] == nil {
			names[e.host] = map[string]bool{}
		}
		for n := range e.params {
			names[e.host][n] = true
		}
	}
	for _, e := range evs {
		for n := range names[e.host] {
			seen[e.host+"\x00"+n+"\x00"+e.params[n]]++
		}
	}
	groups := map[string][]int{}
	for i, e := range evs {
		k, err := canon.Normalize(e.c.URL, p)
		if err != nil {
			t.Fatalf("%s: a key under %v but none with the rules: %v", e.c.URL, base, err)
		}
		groups[k] = append(groups[k], i)
	}
	for _, g := range groups {
		for x := range g {
			for y := x + 1; y < len(g); y++ {
				a, b := evs[g[x]], evs[g[y]]
				if a.base == b.base {
					continue
				}
				checked++
				if a.digest == b.digest {
					continue
				}
				excuse := a.host == b.host && a.path == b.path
				for n := range names[a.host] {
					if a.params[n] != b.params[n] && seen[a.host+"\x00"+n+"\x00"+a.params[n]] > 1 && seen[a.host+"\x00"+n+"\x00"+b.params[n]] > 1 {
						excuse = false
					}
				}
				if !excuse {
					t.Fatalf("world %d: the rules %v merge %s (digest %s) and %s (digest %s)", world, rules.Hosts, a.c.URL, a.digest, b.c.URL, b.digest)
				}
				excused++
			}
		}
	}
	return checked, excused
}

func TestLearnProperty(t *testing.T) {
	worlds := 400
	if testing.Short() {
		worlds = 60
	}
	var checked, excused, withRules int
	start := time.Now()
	dir := t.TempDir()
	for w := range worlds {
		r := rand.New(rand.NewPCG(uint64(w), 0x1ea7))
		caps := randomWorld(r)
		rules, _ := learnAll(t, Options{}, caps)
		want, _ := json.Marshal(rules)
		// The same captures in another order, spilled in small runs,
		// a quarter of them twice: the same rules.
		again := slices.Clone(caps)
		r.Shuffle(len(again), func(i, j int) { again[i], again[j] = again[j], again[i] })
		again = append(again, again[:len(again)/4]...)
		other, _ := learnAll(t, Options{SpillBytes: 16 << 10, TempDir: dir}, again)
		if got, _ := json.Marshal(other); string(got) != string(want) {
			t.Fatalf("world %d: %s in one order, %s in another, split and with captures twice", w, want, got)
		}
		c, e := checkNoMerge(t, w, caps, rules, canon.Crawler)
		checked, excused = checked+c, excused+e
		if len(rules.Hosts) > 0 {
			withRules++
		}
	}
	t.Logf("%d worlds (%d with rules) in %v: %d merges the rules add, of which %d join different digests, each with a value seen once",
		worlds, withRules, time.Since(start).Round(time.Millisecond), checked, excused)
	if checked == 0 || withRules < worlds/4 {
		t.Fatalf("the worlds gave rules %d times and %d merges: the property was hardly checked", withRules, checked)
	}
}
