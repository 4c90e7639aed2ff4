package bench

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// BenchmarkLibraryStream is the yardstick for the canon command: the
// library alone, AppendNormalized with the RFC3986 profile, over the same
// lines the command is timed on (real.txt repeated CANON_REPEAT times,
// default 18, which is 1,023,624 lines, held in one string as the command
// holds a batch), writing each key and a newline into a reused buffer. One
// op is one pass over all the lines; lines/s is the figure to compare
// with the command's (cli.sh).
func BenchmarkLibraryStream(b *testing.B) {
	data, err := os.ReadFile("testdata/real.txt")
	if err != nil {
		b.Fatal(err)
	}
	repeat := 18
	if n, err := strconv.Atoi(os.Getenv("CANON_REPEAT")); err == nil && n > 0 {
		repeat = n
	}
	all := strings.Repeat(string(data), repeat)
	lines := strings.Split(strings.TrimSuffix(all, "\n"), "\n")
	out := make([]byte, 0, 1<<20)
	b.SetBytes(int64(len(all)))
	for b.Loop() {
		out = out[:0]
		for _, l := range lines {
			var err error
			n := len(out)
			if out, err = canon.AppendNormalized(out, l, canon.RFC3986); err != nil {
				out = out[:n] // the command writes an empty line
			}
			out = append(out, '\n')
			if len(out) > 1<<20-4096 {
				out = out[:0]
			}
		}
	}
	b.ReportMetric(float64(len(lines))*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}
