package learn

import (
	"flag"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/seed15588f71/canon/learn/internal/synth"
)

var benchCaptures = flag.Int("learn-captures", 200_000, "BenchmarkLearn: the captures a run learns (bench/README.md's figures: 10000000)")

// BenchmarkLearn learns -learn-captures synthetic captures (seeds
// 1,000,001 on, every capture of each, each seed's hosts named apart),
// in host order (as a CDX index sorted by SURT gives them) and shuffled
// (each 10 seeds' captures together), with a Learner of the default
// options, which writes what it cannot hold to a temporary directory.
// The time is Add and Learn's (not the generator's); it reports the time
// a capture and the largest heap in use seen (sampled every 100,000
// captures; with the generator's batch). The figures of bench/README.md:
//
//	go test -run '^$' -bench BenchmarkLearn -benchtime 1x ./learn/ -args -learn-captures=10000000
func BenchmarkLearn(b *testing.B) {
	for _, order := range []string{"host", "shuffled"} {
		b.Run(order, func(b *testing.B) {
			var ms runtime.MemStats
			var peak uint64
			for range b.N {
				b.StopTimer()
				l := New(Options{TempDir: b.TempDir()})
				n := 0
				step := uint64(1)
				if order == "shuffled" {
					step = 10
				}
				for seed := uint64(1_000_001); n < *benchCaptures; seed += step {
					var batch []synth.Capture
					for s := seed; s < seed+step; s++ {
						batch = append(batch, synth.Generate(s).Distinct().Captures...)
					}
					// (The first captures in host order, whatever the
					// order: both learn the same ones.)
					batch = batch[:min(len(batch), *benchCaptures-n)]
					if order == "shuffled" {
						rand.New(rand.NewPCG(seed, 1)).Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
					}
					b.StartTimer()
					for _, c := range batch {
						if err := l.Add(learnCapture(c)); err != nil {
							b.Fatal(err)
						}
						if n++; n%100_000 == 0 {
							runtime.ReadMemStats(&ms)
							peak = max(peak, ms.HeapInuse)
						}
					}
					b.StopTimer()
				}
				b.StartTimer()
				rules, err := l.Learn(nil)
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
				st := l.Stats()
				b.Logf("%d captures, %d hosts judged, rules for %d hosts, %d sets learned, %d refused, %d near misses",
					st.Captures, st.Hosts, len(rules.Hosts), st.Learned, st.Refused, st.NearMisses)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(*benchCaptures), "µs/capture")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}
