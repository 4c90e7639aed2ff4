package learn

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// realDir holds indexes of real crawls (see its README.md): Heritrix
// crawl logs and CDX indexes of public test ARC/WARC files.
const realDir = "testdata/real"

// realFixtures returns the index files of realDir, sorted.
func realFixtures(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(realDir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range ents {
		switch filepath.Ext(e.Name()) {
		case ".log", ".cdx", ".cdxj", ".tsv":
			files = append(files, e.Name())
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("%s: no fixtures", realDir)
	}
	return files
}

// evidenceDigest returns the digest of a capture as the learner compares
// them (upper case, without "sha1:"), and whether the capture can be
// evidence of a merge: status 200 (0, unknown, is taken as 200) and a
// digest that is neither missing nor the empty payload's.
func evidenceDigest(c Capture) (string, bool) {
	if c.Status != 0 && c.Status != 200 {
		return "", false
	}
	if c.Digest == "" || c.Digest == "-" {
		return "", false
	}
	d := strings.ToUpper(c.Digest)
	if i := strings.IndexByte(d, ':'); i >= 0 {
		d = d[i+1:]
	}
	if emptyPayload[d] {
		return "", false
	}
	return d, true
}

// TestRealFixtures learns rules from each real index and holds them to
// the property that matters: every merge the learned rules add (two
// evidence captures whose keys differ under canon.Crawler but are equal
// under canon.Crawler with the rules) joins captures with one digest.
// There is no expected rule list: the check is the property. A fixture
// that yields no capture fails (a broken reader or fixture must not pass
// silently).
func TestRealFixtures(t *testing.T) {
	controlBad := 0
	defer func() {
		if controlBad == 0 && !t.Failed() {
			t.Error("the control (rules that drop every parameter) merged no captures of different digests on any fixture: the check would find nothing")
		}
	}()
	for _, name := range realFixtures(t) {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(realDir, name))
			if err != nil {
				t.Fatal(err)
			}
			var caps []Capture
			var malformed []string
			for c, err := range ReadCaptures(bytes.NewReader(b), "") {
				switch {
				case errors.Is(err, ErrMalformed):
					malformed = append(malformed, err.Error())
				case err != nil:
					t.Fatalf("ReadCaptures: %v", err)
				default:
					caps = append(caps, c)
				}
			}
			if len(caps) == 0 {
				t.Fatalf("no captures read (%d malformed lines)", len(malformed))
			}

			l := New(Options{})
			hosts := map[string]bool{}
			var report []Finding
			for _, c := range caps {
				if err := l.Add(c); err != nil {
					t.Fatal(err)
				}
				if k, err := canon.Normalize(c.URL, canon.Crawler); err == nil {
					if h, ok := keyHost(k); ok {
						hosts[h] = true
					}
				}
			}
			rules, err := l.Learn(func(f Finding) { report = append(report, f) })
			if err != nil {
				t.Fatal(err)
			}

			t.Logf("captures read: %d; malformed lines skipped: %d; hosts: %d", len(caps), len(malformed), len(hosts))
			for i, m := range malformed {
				if i == 3 {
					t.Logf("  … %d more", len(malformed)-3)
					break
				}
				t.Logf("  malformed: %s", m)
			}
			st := l.Stats()
			t.Logf("left out by the learner: status %d, no digest %d, empty payload %d, invalid %d, no host %d",
				st.Status, st.NoDigest, st.EmptyPayload, st.Invalid, st.NoHost)
			ruleHosts := make([]string, 0, len(rules.Hosts))
			for h := range rules.Hosts {
				ruleHosts = append(ruleHosts, h)
			}
			sort.Strings(ruleHosts)
			if len(ruleHosts) == 0 {
				t.Logf("learned rules: none")
			}
			for _, h := range ruleHosts {
				t.Logf("learned rule %s: %s", h, strings.Join(rules.Hosts[h].TrackingParams, ", "))
			}
			for _, f := range report {
				t.Logf("  %s %s {%s}: pairs %d, agree %d, explained %d, unexplained %d, counterexamples %d; %s",
					f.Verdict, f.Host, strings.Join(f.Params, ","), f.Pairs, f.Agree, f.Explained, f.Unexplained, f.Counter, f.Why)
			}

			withRules, err := canon.Crawler.WithRules(rules)
			if err != nil {
				t.Fatalf("canon.Crawler.WithRules(learned rules): %v", err)
			}
			m := checkMerges(caps, withRules)
			t.Logf("merges added: %d keys folded into others, %d pairs of captures joined", m.keys, m.pairs)
			for _, v := range m.violations {
				t.Errorf("the learned rules merge %s", v)
			}

			// A control, so that a fixture on which nothing is learned
			// still shows the check has something to find: rules that
			// drop every query parameter seen on each host (whose name
			// canon.Rules takes). Over the fixtures, it must find a merge
			// of different digests (see the end of the test).
			all := canon.Rules{Hosts: map[string]canon.Rules{}}
			for _, c := range caps {
				k, err := canon.Normalize(c.URL, canon.Crawler)
				if err != nil {
					continue
				}
				h, ok := keyHost(k)
				if !ok {
					continue
				}
				_, ps := splitKey(k)
				for _, p := range ps {
					if p.name == "" || strings.ContainsFunc(p.name, func(r rune) bool {
						return r <= ' ' || r >= 0x7f || strings.ContainsRune("&=;#?/,", r)
					}) {
						continue // not a name canon.Rules takes
					}
					r := all.Hosts[h]
					if !slices.Contains(r.TrackingParams, p.name) {
						r.TrackingParams = append(r.TrackingParams, p.name)
					}
					all.Hosts[h] = r
				}
			}
			if ctl, err := canon.Crawler.WithRules(all); err != nil {
				t.Logf("control (drop every query parameter): not applicable: %v", err)
			} else {
				c := checkMerges(caps, ctl)
				controlBad += len(c.violations)
				t.Logf("control (drop every query parameter of %d hosts): %d keys folded, %d pairs joined, %d merges joining different digests",
					len(all.Hosts), c.keys, c.pairs, len(c.violations))
			}
		})
	}
}

// merges is what a profile's rules add to canon.Crawler's keys.
type merges struct {
	keys, pairs int      // Crawler keys folded into others; pairs of captures joined
	violations  []string // per merged key with more than one digest: two captures
}

// checkMerges groups the evidence captures by their key under
// withRules and, within a group, by their key under canon.Crawler: a
// group of more than one Crawler key is a merge the rules add, and all
// its captures must have one digest (any two across its Crawler keys
// must agree, and a capture's Crawler-key mates agree with the same
// capture of another key). For each group where they do not, it names
// two captures of different Crawler keys and digests.
func checkMerges(caps []Capture, withRules canon.Profile) merges {
	type ev struct {
		c      Capture
		digest string
	}
	var m merges
	groups := map[string]map[string][]ev{} // rules key → Crawler key → captures
	for _, c := range caps {
		d, ok := evidenceDigest(c)
		if !ok {
			continue
		}
		base, err := canon.Normalize(c.URL, canon.Crawler)
		if err != nil {
			continue
		}
		rk, err := canon.Normalize(c.URL, withRules)
		if err != nil {
			m.violations = append(m.violations, fmt.Sprintf("%s: a key under canon.Crawler (%s) but none with the rules: %v", c.URL, base, err))
			continue
		}
		if groups[rk] == nil {
			groups[rk] = map[string][]ev{}
		}
		groups[rk][base] = append(groups[rk][base], ev{c, d})
	}
	rks := make([]string, 0, len(groups))
	for rk := range groups {
		rks = append(rks, rk)
	}
	sort.Strings(rks)
	for _, rk := range rks {
		g := groups[rk]
		if len(g) < 2 {
			continue
		}
		bases := make([]string, 0, len(g))
		n, same := 0, 0
		for b, evs := range g {
			bases = append(bases, b)
			n += len(evs)
			same += len(evs) * (len(evs) - 1) / 2
		}
		sort.Strings(bases)
		m.keys += len(bases) - 1
		m.pairs += n*(n-1)/2 - same
	find:
		for i, b1 := range bases {
			for _, b2 := range bases[i+1:] {
				for _, x := range g[b1] {
					for _, y := range g[b2] {
						if x.digest != y.digest {
							m.violations = append(m.violations, fmt.Sprintf("%s (digest %s) and %s (digest %s) into %s, whose digests differ",
								x.c.URL, x.c.Digest, y.c.URL, y.c.Digest, rk))
							break find
						}
					}
				}
			}
		}
	}
	return m
}

// TestRealFixturesREADME holds testdata/real/README.md to the fixtures:
// each has a row in its table that gives its line count.
func TestRealFixturesREADME(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(realDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range realFixtures(t) {
		b, err := os.ReadFile(filepath.Join(realDir, name))
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Count(b, []byte("\n"))
		if len(b) > 0 && b[len(b)-1] != '\n' {
			lines++
		}
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(name) + "` \\|.*$").Find(readme)
		if row == nil {
			t.Errorf("README.md: no table row for %s", name)
			continue
		}
		cells := strings.Split(string(row), "|")
		if !slices.Contains(cells, fmt.Sprintf(" %d ", lines)) {
			t.Errorf("README.md: the row of %s does not give its %d lines: %s", name, lines, row)
		}
	}
}
