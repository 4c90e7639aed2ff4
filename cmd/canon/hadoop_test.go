package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// TestHadoopStreamingMapper runs the mapper of the README's Hadoop
// Streaming and Spark paragraph, `sh -c 'canon -format tsv -skip-invalid;
// [ $? -le 1 ]'`, as those run it: the records of an input split written
// to its standard input through a pipe. Its output must be input TAB key
// for each valid line, in input order, with the invalid lines (the test's
// own and the few of real.txt's) left out.
//
// The exit status is checked too, because both frameworks act on it:
// Hadoop Streaming fails a map task whose command exits non-zero
// (stream.non.zero.exit.is.failure, true by default) and Spark's
// RDD.pipe throws "Subprocess exited with status 1". canon exits 1
// whenever a line failed, so the mapper line maps that status to 0 and
// keeps 2, a usage or I/O error, a failure.
func TestHadoopStreamingMapper(t *testing.T) {
	data, err := os.ReadFile("../../bench/testdata/real.txt")
	if err != nil {
		t.Fatal(err)
	}
	real := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	bad := []string{"", "/relative/path", "http://h:8x/", "http://h/%zz", "http://0x7f.1/", "no scheme at all", "http://user:pw@[::1/"}
	var lines, valid, want []string
	for i := 0; i < 400; i++ {
		if i%57 == 3 {
			lines = append(lines, bad[(i/57)%len(bad)])
		}
		lines = append(lines, real[i*len(real)/400])
	}
	failed := 0
	for _, l := range lines {
		key, err := canon.Normalize(l, canon.RFC3986)
		if err != nil {
			failed++
			continue
		}
		valid = append(valid, l)
		want = append(want, l+"\t"+key)
	}
	for _, l := range bad {
		if _, err := canon.Normalize(l, canon.RFC3986); err == nil {
			t.Fatalf("%q is valid; the test needs invalid lines", l)
		}
	}

	mapper := func(stdin string, args ...string) (string, int) {
		line := strings.Join(append([]string{binary}, args...), " ") + "; [ $? -le 1 ]"
		cmd := exec.Command("sh", "-c", line)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.Output()
		return string(out), exitStatus(t, err)
	}
	out, code := mapper(strings.Join(lines, "\n")+"\n", "-format", "tsv", "-skip-invalid")
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d output lines, want %d (%d input lines, %d invalid)", len(got), len(want), len(lines), failed)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("output line %d: %q, want %q", i+1, got[i], want[i])
		}
	}
	if code != 0 {
		t.Errorf("the mapper line exits %d with invalid lines, want 0 (canon's 1 mapped to 0)", code)
	}
	// canon itself still says that lines failed.
	if _, _, code := canonCmd(t, strings.Join(lines, "\n")+"\n", "-format", "tsv", "-skip-invalid"); code != 1 {
		t.Errorf("canon exits %d with invalid lines, want 1", code)
	}
	// A usage or I/O error still fails the task.
	if _, code := mapper("", "-format", "tsv", "-skip-invalid", "-f", "/nonexistent/split"); code == 0 {
		t.Errorf("the mapper line exits 0 when canon cannot read its input")
	}
	if _, code := mapper(strings.Join(valid, "\n")+"\n", "-format", "tsv", "-skip-invalid"); code != 0 {
		t.Errorf("the mapper line exits %d with only valid lines, want 0", code)
	}
}
