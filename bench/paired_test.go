package bench

import (
	"slices"
	"testing"
	"time"
)

// targets are the speed issue's ratio targets: the time of the first
// contender over the second's, on one corpus. The bound is in the
// comment; the benchmark reports the ratio and leaves the judging to the
// reader, as the machine's noise is part of it.
var targets = []struct{ corpus, first, second string }{
	{"real", "canon-RFC3986", "lowercase-loop"},                      // at most 1.3
	{"messy", "canon-RFC3986", "lowercase-loop"},                     // at most 2.5
	{"messy", "canon-RFC3986-append", "lowercase-loop"},              // (the append form, for comparison)
	{"real", "canon-IRI", "canon-RFC3986"},                           // at most 1.5
	{"real", "canon-POWDER", "canon-RFC3986"},                        // at most 1.5
	{"real", "canon-WebCapture", "canon-RFC3986"},                    // at most 1
	{"real", "purell-FlagsSafe", "canon-RFC3986"},                    // at least 15
	{"real", "neturl-Parse-String", "canon-RFC3986"},                 // at least 5
	{"real", "neturl-ResolveReference", "canon-Resolve"},             // at least 5
	{"real", "canon-WHATWG", "canon-RFC3986"},                        // at most 1.15
	{"real", "whatwg-Parse-Href", "canon-WHATWG"},                    // at least 30
	{"real", "neturl-ResolveReference", "canon-WHATWG-ref"},          // at least 5
	{"hrefs", "neturl-ResolveReference", "canon-WHATWG-ref"},         // (NormalizeRef, the base read on each call)
	{"hrefs", "neturl-ResolveReference", "canon-WHATWG-base"},        // at least 5: half absolute, half relative hrefs, each base parsed once
	{"hrefs", "neturl-ResolveReference", "canon-WHATWG-base-append"}, // (the append form, no allocation with room)
	{"messy", "canon-WHATWG", "canon-RFC3986"},                       // (for comparison)
	{"real", "canon-Crawler", "canon-RFC3986"},                       // at most 1.25
	{"real", "canon-Crawler", "canon-WHATWG"},                        // (what the key steps cost)
	{"real", "canon-Archive", "canon-RFC3986"},                       // at most 2.2
	{"real", "canon-Aggressive", "canon-RFC3986"},                    // at most 2.5
	{"real", "canon-SafeBrowsing", "canon-RFC3986"},                  // at most 2
	{"messy", "canon-SafeBrowsing", "canon-RFC3986"},                 // (for comparison)
}

// BenchmarkPaired measures each target as a ratio of two contenders timed
// in alternation, one pass over the corpus each (4 to 100 ms), b.N pairs:
// the shared machine's slow phases last seconds, so they fall on both
// sides of a pair alike, which they do not on contenders run a minute
// apart. It reports the first contender's total time over the second's
// ("ratio") and the spread of the pairs' own ratios between their
// quartiles ("pair-iqr").
//
// Run it with GODEBUG=gcstoptheworld=1, as run.sh does: each garbage
// collection then runs to its end inside the allocation that starts it,
// so that it is charged to the contender that allocates, not in part to
// the next pass, as the background collector would be. (The collections
// make a few pairs slow; the ratio of the totals counts them, where the
// median pair would not.)
func BenchmarkPaired(b *testing.B) {
	for _, tg := range targets {
		urls := corpus(b, tg.corpus)
		first, second := contenderNamed(b, tg.first), contenderNamed(b, tg.second)
		b.Run(tg.corpus+"/"+tg.first+"/"+tg.second, func(b *testing.B) {
			var ratios []float64
			var total1, total2 time.Duration
			for b.Loop() {
				t1, t2 := pass(first, urls), pass(second, urls)
				total1, total2 = total1+t1, total2+t2
				ratios = append(ratios, float64(t1)/float64(t2))
			}
			slices.Sort(ratios)
			n := len(ratios)
			b.ReportMetric(float64(total1)/float64(total2), "ratio")
			b.ReportMetric(ratios[3*n/4]-ratios[n/4], "pair-iqr")
			b.ReportMetric(0, "ns/op") // one op is two passes: not a figure to read
		})
	}
}

func contenderNamed(tb testing.TB, name string) contender {
	for _, c := range contenders {
		if c.name == name {
			return c
		}
	}
	tb.Fatalf("no contender %q", name)
	return contender{}
}

// pass runs c over every URL once and returns the time it took.
func pass(c contender, urls []string) time.Duration {
	start := time.Now()
	for _, u := range urls {
		c.f(u)
	}
	return time.Since(start)
}
