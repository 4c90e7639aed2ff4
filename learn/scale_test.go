package learn

import (
	"cmp"
	"flag"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

var scale = flag.Int("learn-scale", 0, "TestLearnScale: learn this many synthetic captures (bench/README's figure: 10000000)")

// TestLearnScale learns N synthetic captures (-learn-scale N) host by
// host, as a CDX index sorted by SURT gives them (HostRuns), and reports
// the time and the largest heap seen: the learner holds one host's
// captures. It is a measurement, not a check of a bound (the machine's
// speed is not the test's to know): it runs only when asked, and its
// figures are in bench/README.md.
func TestLearnScale(t *testing.T) {
	if *scale == 0 {
		t.Skip("a measurement: go test -run TestLearnScale -learn-scale 10000000 ./learn/ (bench/README.md)")
	}
	l := New(Options{HostRuns: true})
	var ms runtime.MemStats
	peak, n, hosts := uint64(0), 0, 0
	var gen, learnTime time.Duration
	for seed := uint64(1); n < *scale; seed++ {
		t0 := time.Now()
		s := generateSites(1_000_000 + seed)
		gen += time.Since(t0)
		t1 := time.Now()
		for _, c := range s.captures {
			if n == *scale {
				break
			}
			l.Add(c.Capture)
			n++
			if n%200_000 == 0 {
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
		learnTime += time.Since(t1)
		hosts += len(s.hosts)
	}
	t1 := time.Now()
	rules := l.Rules()
	learnTime += time.Since(t1)
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapInuse)
	t.Logf("%d captures of %d hosts (runs): learned in %v (%.1f µs a capture; generating them took %v more), %d hosts with rules, largest heap in use seen %.0f MiB, GOMAXPROCS %d",
		n, hosts, learnTime.Round(time.Millisecond), float64(learnTime.Microseconds())/float64(n), gen.Round(time.Millisecond), len(rules.Hosts), float64(peak)/(1<<20), runtime.GOMAXPROCS(0))
}

var synthCDX = flag.String("synth-cdx", "", "TestWriteSynthCDX: write the captures to learn from of the first tuning seed as a CDX index to this file")

// TestWriteSynthCDX writes the captures TestSyntheticSites learns from
// for its first seed as a CDX index sorted as an archive sorts one (by
// host, then URL and time), for the command: docs/learn.md's example is
// canon -learn on that file. It runs only when asked (-synth-cdx FILE).
func TestWriteSynthCDX(t *testing.T) {
	if *synthCDX == "" {
		t.Skip("writes a file when asked: go test -run TestWriteSynthCDX ./learn/ -args -synth-cdx=FILE (docs/learn.md)")
	}
	learnSet, _ := generateSites(synthTuningSeeds[0]).split()
	slices.SortStableFunc(learnSet, func(a, b synthCapture) int {
		ha, _ := url.Parse(a.URL)
		hb, _ := url.Parse(b.URL)
		return cmp.Or(strings.Compare(ha.Host, hb.Host), strings.Compare(a.URL, b.URL), a.Time.Compare(b.Time))
	})
	var b strings.Builder
	b.WriteString(" CDX N b a m s k r M S V g\n")
	for _, c := range learnSet {
		fmt.Fprintf(&b, "- %s %s text/html %d %s - - - - synth.warc.gz\n", c.Time.UTC().Format("20060102150405"), c.URL, c.Status, strings.TrimPrefix(c.Digest, "sha1:"))
	}
	if err := os.WriteFile(*synthCDX, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d captures written to %s", len(learnSet), *synthCDX)
}
