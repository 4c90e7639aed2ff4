package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// mappedInputs are inputs whose lines end, or fail, around the places
// where readMapped cuts batches.
func mappedInputs() map[string]string {
	var lines strings.Builder
	for lines.Len() < batchBytes-40 {
		lines.WriteString("HTTP://Example.COM:80/a/./b\r\nhttp://h:99999/\n\n")
	}
	short := lines.String()
	tooLong := "http://h/" + strings.Repeat("a", canon.MaxLength)
	return map[string]string{
		"small":                    "HTTP://A/1\r\n\nhttp://h:x/\nHTTP://A/3",
		"long line across cut":     short + "http://h/" + strings.Repeat("b", 1<<20) + "\nHTTP://B/\n",
		"too long across cut":      short + tooLong + "\nHTTP://C/\n",
		"too long at end":          short + "http://x/\n" + tooLong,
		"twice too long":           short + tooLong + tooLong + "\nhttp://G/\n" + tooLong + tooLong,
		"too long first":           tooLong + "\r\nhttp://D/",
		"MaxLength+1 and CR":       tooLong[:canon.MaxLength+1] + "\r\n" + tooLong[:canon.MaxLength] + "\r\nhttp://E/\n",
		"cut on a line end":        strings.Repeat("http://a/234567\n", batchBytes/16*2),
		"without a newline at all": "http://F/" + strings.Repeat("c", batchBytes),
		// More than maxBatchLines lines in a batch's bytes: cut by lines.
		"short lines":            strings.Repeat("x\n", batchBytes/2+3) + "http://H/\n" + strings.Repeat("\r\n", maxBatchLines+1),
		"short lines, then long": strings.Repeat("y\n", 3*maxBatchLines-1) + tooLong + "\nz\n",
	}
}

// TestFileMatchesPipe checks that the command gives the same output,
// errors and exit status for a file (-f FILE, or standard input
// redirected from it), which it maps on Linux, as for a pipe, which it
// reads. Inputs of a MiB or more run with -j 1 and -j 3 only, unless
// -long is set.
func TestFileMatchesPipe(t *testing.T) {
	for name, in := range mappedInputs() {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in.txt")
			if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
				t.Fatal(err)
			}
			argSets := [][]string{{"-j", "1"}, {"-j", "3"}}
			if len(in) < 1<<20 || *longTests {
				argSets = append(argSets, []string{"-j", "2", "-format", "jsonl"}, []string{"-u", "-c"})
			}
			for _, args := range argSets {
				wantOut, wantErr, wantCode := canonCmd(t, in, args...)
				out, errOut, code := canonCmd(t, "", append([]string{"-f", path}, args...)...)
				if out != wantOut || errOut != wantErr || code != wantCode {
					t.Errorf("-f %v: exit %d, %d bytes out, stderr %.200q; from a pipe: exit %d, %d bytes out, stderr %.200q",
						args, code, len(out), errOut, wantCode, len(wantOut), wantErr)
				}
				f, err := os.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				out, errOut, code = runCanon(t, f, args...)
				f.Close()
				if out != wantOut || errOut != wantErr || code != wantCode {
					t.Errorf("%v < file: exit %d, %d bytes out; from a pipe: exit %d, %d bytes out", args, code, len(out), wantCode, len(wantOut))
				}
			}
		})
	}
}

// TestStdinFileOffset checks that standard input redirected from a file
// is read from its offset, as a shell's "(read first; canon) < file"
// expects, and is left at its end.
func TestStdinFileOffset(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.txt")
	in := "HTTP://A/1\nHTTP://A/2\nHTTP://A/3\n"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(int64(len("HTTP://A/1\n")), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCanon(t, f)
	if code != 0 || out != "http://a/2\nhttp://a/3\n" {
		t.Errorf("from offset 11: exit %d, %q", code, out)
	}
	if off, _ := f.Seek(0, io.SeekCurrent); off != int64(len(in)) {
		t.Errorf("offset after the command: %d, want %d", off, len(in))
	}
}

// TestReadMapped checks the batches readMapped cuts: in order, covering
// the input from its start, each ending at a line end (or the end of the
// input), with a line longer than MaxLength+1 that crosses a cut as a long
// batch of its own.
func TestReadMapped(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("files are mapped on Linux only; elsewhere readBatches reads them")
	}
	for name, in := range mappedInputs() {
		path := filepath.Join(t.TempDir(), "in.txt")
		if err := os.WriteFile(path, []byte("skipped\n"+in), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		f.Seek(int64(len("skipped\n")), io.SeekStart)
		m := prepareInput(f)
		if m == nil {
			t.Fatalf("%s: prepareInput did not map a regular file", name)
		}
		seq, pos := 0, m.start
		readMapped(m, canon.MaxLength+1, func() *batch { seq++; return &batch{seq: seq - 1} }, func(b *batch) {
			start := b.mapEnd - len(b.data)
			switch {
			case b.long && (b.mapEnd-pos <= canon.MaxLength+1 || len(b.data) != 0):
				t.Errorf("%s: long batch [%d, %d) of %d bytes", name, pos, b.mapEnd, len(b.data))
			case !b.long && (start != pos || len(b.data) == 0):
				t.Errorf("%s: batch %d covers [%d, %d), want it to start at %d", name, b.seq, start, b.mapEnd, pos)
			case b.mapEnd != len(m.data) && m.data[b.mapEnd-1] != '\n':
				t.Errorf("%s: batch %d ends at %d, inside a line", name, b.seq, b.mapEnd)
			case !b.long && (b.ends != bytes.Count(b.data, []byte{'\n'}) || b.ends > maxBatchLines):
				t.Errorf("%s: batch %d has %d line ends, counted %d: want them counted, at most %d", name, b.seq, bytes.Count(b.data, []byte{'\n'}), b.ends, maxBatchLines)
			}
			pos = b.mapEnd
		})
		if pos != len(m.data) {
			t.Errorf("%s: batches end at %d of %d", name, pos, len(m.data))
		}
		m.close()
		f.Close()
	}
}

// TestFileShrinks checks that a file truncated while the command maps it
// ends the command with an error (exit 2), not a crash: the command
// blocks on a full pipe after its first batch, the test truncates the
// file, and the next batch faults.
func TestFileShrinks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("files are mapped on Linux only")
	}
	path := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(path, bytes.Repeat([]byte("http://example.com/a/b/c/d\n"), 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, j := range []string{"1", "2"} {
		cmd := exec.Command(binary, "-j", j, "-f", path)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		first := make([]byte, 1)
		if _, err := io.ReadFull(stdout, first); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, stdout)
		err = cmd.Wait()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != exitProblem || !strings.Contains(errb.String(), "the file shrank while it was read") {
			t.Errorf("-j %s, file truncated after %d bytes of output: %v, stderr %.300q", j, n+1, err, errb.String())
		}
		if err := os.WriteFile(path, bytes.Repeat([]byte("http://example.com/a/b/c/d\n"), 1<<20), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// chunkReader returns its data size bytes at a time; with eofWithData
// the last read returns io.EOF along with the data, as io.Reader allows.
type chunkReader struct {
	data        string
	size        int
	eofWithData bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.data[:min(r.size, len(r.data))])
	r.data = r.data[n:]
	if len(r.data) == 0 && r.eofWithData {
		return n, io.EOF
	}
	return n, nil
}

// TestReadBatches checks that readBatches, for any read size, passes on
// every line of the input once and in order, whole, with each line
// longer than MaxLength either in a long batch or whole (normalizeBatch
// fails both).
func TestReadBatches(t *testing.T) {
	inputs := mappedInputs()
	// Lines longer than the most the buffer grows to (twice MaxLength),
	// which the reader skips as it reads them.
	inputs["lines, then lines that fill the buffer"] = strings.Repeat("http://a/\n", 100) +
		strings.Repeat("b", 5<<20) + "\nhttp://c/\n" + strings.Repeat("d", 17<<20) + "\r\nhttp://e/\n" + strings.Repeat("f", 17<<20)
	const tooLong = "(too long)"
	for name, in := range inputs {
		want := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
		for i, l := range want {
			if len(strings.TrimSuffix(l, "\r")) > canon.MaxLength {
				want[i] = tooLong
			}
		}
		for _, size := range []int{1000, 64 << 10, 300 << 10} {
			for _, eofWithData := range []bool{false, true} {
				var got []string
				seq := 0
				err := readBatches(&chunkReader{in, size, eofWithData}, canon.MaxLength+1, func() *batch { seq++; return &batch{seq: seq - 1} }, func(b *batch) {
					if b.long {
						got = append(got, tooLong)
						return
					}
					if n := bytes.Count(b.data, []byte{'\n'}); b.ends != n || n > maxBatchLines {
						t.Errorf("%s, reads of %d: a batch has %d line ends, counted %d: want them counted, at most %d", name, size, n, b.ends, maxBatchLines)
					}
					for _, l := range strings.Split(strings.TrimSuffix(string(b.data), "\n"), "\n") {
						if len(strings.TrimSuffix(l, "\r")) > canon.MaxLength {
							l = tooLong
						}
						got = append(got, l)
					}
				})
				if err != nil || !slices.Equal(got, want) {
					t.Errorf("%s, reads of %d, EOF with data %v: error %v, %d lines, want %d", name, size, eofWithData, err, len(got), len(want))
				}
			}
		}
	}
}

// TestGrowPipe checks that prepareInput gives a pipe the larger buffer.
func TestGrowPipe(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("growPipe is a no-op outside Linux")
	}
	b, err := os.ReadFile("/proc/sys/fs/pipe-max-size")
	if max, _ := strconv.Atoi(strings.TrimSpace(string(b))); err != nil || max < 1<<20 {
		t.Skipf("this machine caps pipes below 1 MiB (pipe-max-size %q, %v)", b, err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	prepareInput(r)
	if got := pipeSize(r); got < 1<<20 {
		t.Errorf("pipe buffer after prepareInput: %d bytes, want 1 MiB", got)
	}
}
