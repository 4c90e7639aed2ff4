//go:build unix

package bench

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
)

// BenchmarkCommand times the canon command (RFC3986, text output to
// /dev/null) against the library on the same lines: real.txt repeated
// CANON_REPEAT times (default 72, 4,094,496 lines), in a file the command
// reads and in memory for the library. One op is a round: in turn, the
// library on one core over the lines split beforehand (lib1), the library
// on one core over the text, finding each line itself (text1), "canon -j
// 1 -f FILE", the library on two cores (lib2), "canon -j 2 -f FILE" and
// "canon -j 1" reading a pipe that this process feeds, as cat would; the
// order rotates from round to round. Contenders of a round share the
// machine's phase, which on a shared machine moves throughput by up to 2x
// over seconds; the ratios are of totals over all rounds.
//
// Everything is counted in lines per CPU-second (user + system time): the
// command's from its rusage, the library's from this process's. The
// ratios reported are of those:
//
//	j1/lib1    canon -j 1 -f FILE over the library on one core
//	j2/lib2    canon -j 2 -f FILE over the library on two cores
//	j2/lib1    canon -j 2 -f FILE over the library on one core
//	pipe/lib1  canon -j 1 < pipe over the library on one core
//	j1/text1   canon -j 1 -f FILE over the library reading the text
//	text1/lib1 what finding the lines in the text costs the library
//
// The library on two cores is what a Go program gets from two goroutines
// normalizing batches of lines: two busy cores each do less than one alone
// (shared caches and memory bandwidth, and on a virtual machine perhaps a
// shared physical core), and j2/lib2 compares like with like. The
// command's peak memory is not measured here: a child's maximum RSS on
// Linux starts from its parent's (cli.sh measures it with /usr/bin/time).
func BenchmarkCommand(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "canon")
	build := exec.Command("go", "build", "-o", bin, "github.com/seed15588f71/canon/cmd/canon")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	data, err := os.ReadFile("testdata/real.txt")
	if err != nil {
		b.Fatal(err)
	}
	repeat := 72
	if n, err := strconv.Atoi(os.Getenv("CANON_REPEAT")); err == nil && n > 0 {
		repeat = n
	}
	all := strings.Repeat(string(data), repeat)
	file := filepath.Join(dir, "lines.txt")
	if err := os.WriteFile(file, []byte(all), 0o644); err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(all, "\n"), "\n")

	type contender struct {
		name string
		run  func() (cpu, wall time.Duration)
	}
	command := func(pipe bool, args ...string) func() (time.Duration, time.Duration) {
		return func() (time.Duration, time.Duration) {
			warm(b, file)
			cmd := exec.Command(bin, args...)
			var feed sync.WaitGroup
			var feedErr error
			if pipe {
				w, err := cmd.StdinPipe()
				if err != nil {
					b.Fatal(err)
				}
				feed.Add(1)
				go func() {
					defer feed.Done()
					f, err := os.Open(file)
					if err == nil {
						_, err = io.Copy(w, f)
						f.Close()
					}
					feedErr = err
					w.Close()
				}()
			}
			start := time.Now()
			err := cmd.Run()
			wall := time.Since(start)
			feed.Wait()
			if feedErr != nil {
				b.Fatalf("feeding the pipe: %v", feedErr) // the command read fewer lines
			}
			if err != nil {
				// Exit status 1: some lines of real.txt fail, as they should.
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
					b.Fatalf("%v: %v", cmd.Args, err)
				}
			}
			st := cmd.ProcessState
			return st.UserTime() + st.SystemTime(), wall
		}
	}
	// inProcess times a pass of the library in this process on cores
	// cores.
	inProcess := func(cores int, pass func()) func() (time.Duration, time.Duration) {
		return func() (time.Duration, time.Duration) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cores))
			runtime.GC() // not charged to this pass
			cpu0 := processCPU(b)
			start := time.Now()
			pass()
			wall := time.Since(start)
			return processCPU(b) - cpu0, wall
		}
	}
	library := func(cores int) func() (time.Duration, time.Duration) {
		return inProcess(cores, func() { libraryPass(lines, cores) })
	}
	contenders := []contender{
		{"lib1", library(1)},
		{"text1", inProcess(1, func() { libraryText(all) })}, // finding the lines itself
		{"j1", command(false, "-j", "1", "-f", file)},
		{"lib2", library(2)},
		{"j2", command(false, "-j", "2", "-f", file)},
		{"pipe", command(true, "-j", "1")},
	}
	cpu := make([]time.Duration, len(contenders))
	wall := make([]time.Duration, len(contenders))
	rounds := 0
	for b.Loop() {
		for k := range contenders {
			i := (k + rounds) % len(contenders)
			c, w := contenders[i].run()
			cpu[i] += c
			wall[i] += w
		}
		rounds++
	}
	n := float64(len(lines) * rounds)
	perCPU := map[string]float64{}
	for i, c := range contenders {
		perCPU[c.name] = n / cpu[i].Seconds()
		b.ReportMetric(n/wall[i].Seconds()/1e6, "M-lines/s-"+c.name)
		b.ReportMetric(perCPU[c.name]/1e6, "M-lines/CPU-s-"+c.name)
	}
	for _, r := range [][2]string{{"j1", "lib1"}, {"j2", "lib2"}, {"j2", "lib1"}, {"pipe", "lib1"}, {"j1", "text1"}, {"text1", "lib1"}} {
		b.ReportMetric(perCPU[r[0]]/perCPU[r[1]], r[0]+"/"+r[1])
	}
	b.ReportMetric(0, "ns/op") // one op is a round of six runs: not a figure to read
}

// libraryPass normalizes lines as the command does with -j cores: batches
// of consecutive lines taken in turn by cores goroutines, each appending
// the keys and a newline to a buffer of its own, reused as the command
// reuses its batches' buffers.
func libraryPass(lines []string, cores int) {
	const batchLines = 4096 // about the command's 256 KiB batches
	var next atomic.Int64
	var wg sync.WaitGroup
	for range cores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]byte, 0, 512<<10)
			for {
				from := int(next.Add(batchLines)) - batchLines
				if from >= len(lines) {
					return
				}
				out = out[:0]
				for _, l := range lines[from:min(from+batchLines, len(lines))] {
					out = appendKeyLine(out, l)
				}
			}
		}()
	}
	wg.Wait()
}

// libraryText normalizes the lines of text, finding each with strings.Cut
// as a Go program reading a list would, and appends the keys to a reused
// buffer.
func libraryText(text string) {
	out := make([]byte, 0, 512<<10)
	for text != "" {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		out = appendKeyLine(out, line)
		if len(out) > 512<<10-4096 {
			out = out[:0]
		}
	}
}

// appendKeyLine appends the RFC3986 key of line and a newline to out, or
// only the newline when line fails, as the command writes it.
func appendKeyLine(out []byte, line string) []byte {
	n := len(out)
	out, err := canon.AppendNormalized(out, line, canon.RFC3986)
	if err != nil {
		out = out[:n]
	}
	return append(out, '\n')
}

// processCPU is the user and system time this process has used.
func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// warm reads the file, so that the command finds it in the page cache and
// is not charged for the disk (the library's lines are in memory too).
// Some machines page out memory that has been idle for a while.
func warm(tb testing.TB, file string) {
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := io.Copy(io.Discard, f); err != nil {
		tb.Fatal(err)
	}
}
