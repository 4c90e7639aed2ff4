//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
)

// peakRSS runs the command with args on stdin (a pipe) and returns its
// peak resident memory in MiB: the high-water mark of its memory
// (VmHWM in /proc/PID/status), read every few milliseconds while it
// runs. (getrusage's ru_maxrss would count the test's own memory: the
// child shares it between fork and exec.)
func peakRSS(t *testing.T, stdin []byte, args ...string) int {
	t.Helper()
	cmd := exec.Command(binary, args...)
	// GOGC=100: the heap then peaks near twice what is live, where the
	// command's own 400 lets it reach five times, by the collector's
	// timing; what the test measures is what is live.
	cmd.Env = append(os.Environ(), "GOGC=100")
	cmd.Stdin = bytes.NewReader(stdin)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status"
	peak := 0
	for {
		select {
		case err := <-done:
			if code := exitStatus(t, err); code != exitOK && code != exitFailed {
				t.Fatalf("canon %q: exit %d: %.300s", args, code, errb.String())
			}
			if peak == 0 {
				t.Fatalf("canon %q: no VmHWM read from %s", args, status)
			}
			return peak >> 10
		case <-time.After(2 * time.Millisecond):
		}
		data, err := os.ReadFile(status)
		if err != nil {
			continue // exited, and waited for or about to be
		}
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
				if kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB")); err == nil {
					peak = max(peak, kb)
				}
			}
		}
	}
}

// TestMemoryIndependentOfWorkers checks that the command's peak memory
// does not grow with -j on hostile input, where each line's output is
// many times the line: lines of nearly canon.MaxLength of invalid UTF-8
// and control bytes (six bytes each in a jsonl string), lines of two
// bytes that fail (a jsonl record of a hundred bytes and a message
// each), and -rekey of lines of 16 MiB, all from a pipe. A run at -j 8
// must peak within 1.5 times the run at -j 1 (the batch the reader fills
// while another is normalized, the garbage collector's timing) and 16 MiB
// more per worker, and so must -rekey of CDX and CDXJ indexes of such
// URLs and -inputs: the batches in flight are bounded by their bytes
// (window), whatever their number. When only their number was bounded
// (4 a worker), -j 8 peaked here at 4.5, 7 and 2.8 times -j 1.
func TestMemoryIndependentOfWorkers(t *testing.T) {
	long := func(fill byte) []byte {
		return append([]byte("http://h/"), bytes.Repeat([]byte{fill}, canon.MaxLength-64)...)
	}
	var lines, short, rekey bytes.Buffer
	for i := 0; i < 8; i++ {
		lines.Write(long([]byte{0xff, 0x01, 0xfe}[i%3]))
		lines.WriteByte('\n')
	}
	short.Write(bytes.Repeat([]byte("\xff\n"), 1<<20))
	rekey.WriteString(indexHeader + "crawler/0 unicode-0\n")
	in := "http://h/" + strings.Repeat("é", (canon.MaxLength-64)/2)
	key, err := canon.Normalize(in, canon.Crawler)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		rekey.WriteString(in + "\t" + key[:len(key)-1] + "8\n") // an old key that differs in its last byte
	}
	// The same URLs in the indexes -rekey and -inputs read themselves:
	// a CDX index (the key N, the URL a) and a CDXJ one (the URL in the
	// JSON, where "é" is six bytes), each record's old key 4 MiB too.
	var cdx, cdxj bytes.Buffer
	cdx.WriteString(" CDX N b a m s k r M S V g\n")
	oldKey := "h)/" + strings.Repeat("x", canon.MaxLength-64)
	for i := 0; i < 5; i++ {
		cdx.WriteString(oldKey + " 2020010100000" + strconv.Itoa(i) + " " + in + " text/html 200 SHA1 - - 100 0 w.warc.gz\n")
		cdxj.WriteString(oldKey + " 2020010100000" + strconv.Itoa(i) + ` {"url":"http://h/` + strings.Repeat(`\u00e9`, (canon.MaxLength-64)/2) + `","digest":"SHA1"}` + "\n")
	}
	for _, tc := range []struct {
		name  string
		input []byte
		args  []string
	}{
		{"long lines", lines.Bytes(), []string{"-format", "jsonl", "-q"}},
		{"short lines", short.Bytes(), []string{"-format", "jsonl", "-q"}},
		{"rekey", rekey.Bytes(), []string{"-p", "crawler", "-rekey", "-q"}},
		{"rekey CDX", cdx.Bytes(), []string{"-p", "crawler", "-rekey", "-q"}},
		{"rekey CDXJ", cdxj.Bytes(), []string{"-p", "crawler", "-rekey", "-q"}},
		{"inputs", rekey.Bytes(), []string{"-inputs", "-q"}},
		{"inputs CDXJ", cdxj.Bytes(), []string{"-inputs", "-q"}},
	} {
		one := peakRSS(t, tc.input, append(tc.args, "-j", "1")...)
		eight := peakRSS(t, tc.input, append(tc.args, "-j", "8")...)
		t.Logf("%s (%d MiB): peak %d MiB at -j 1, %d MiB at -j 8", tc.name, len(tc.input)>>20, one, eight)
		if limit := one*3/2 + 8*16; eight > limit {
			t.Errorf("%s: peak %d MiB at -j 8, %d MiB at -j 1: want at most %d", tc.name, eight, one, limit)
		}
	}
}
