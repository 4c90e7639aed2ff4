package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/seed15588f71/canon"
)

// The pipelines run on prism in-process (loopback), as the command does
// without --runner.
func TestMain(m *testing.M) {
	ptest.MainWithDefault(m, "prism")
}

// inputs writes two input files in dir and returns the lines as the
// command reads them (CRLF line ends gone). They hold 500 URLs from
// bench/testdata/real.txt, some of them twice with the scheme in upper
// case, lines canon rejects (one with a TAB, which the outputs write as
// a space), CRLF line ends, and a last line without a newline.
func inputs(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile("../../../bench/testdata/real.txt")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var a, b []string
	for i := 0; i < 500; i++ {
		a = append(a, all[i*len(all)/500])
	}
	for _, l := range a[:100] {
		if scheme, rest, ok := strings.Cut(l, ":"); ok {
			b = append(b, strings.ToUpper(scheme)+":"+rest)
		}
	}
	b = append(b, "", "/relative", "http://h:8x/", "http://h/a\tb", "http://h/%zz", "../up", "HTTP://Example.COM:80/a/./b/../c")
	if err := os.MkdirAll(filepath.Join(dir, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	// a.txt has CRLF line ends; b.txt LF, without one after its last line.
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, "in", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", strings.Join(a, "\r\n")+"\r\n")
	write("b.txt", strings.Join(b, "\n"))
	return append(a, b...)
}

// readShards returns the lines of the n shards of prefix, failing if any
// is missing or if there are other shards of prefix.
func readShards(t *testing.T, prefix string, n int) []string {
	t.Helper()
	found, err := filepath.Glob(prefix + "-[0-9]*-of-[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != n {
		t.Fatalf("%s: %d shards %v, want %d", prefix, len(found), found, n)
	}
	var lines []string
	for i := 0; i < n; i++ {
		data, err := os.ReadFile(shardName(prefix, i, n))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 0 {
			lines = append(lines, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
		}
	}
	return lines
}

// sameLines compares two lists of lines as multisets.
func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	if slices.Equal(got, want) {
		return
	}
	for i := 0; i < len(got) || i < len(want); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("%s: %d lines, want %d; first difference at sorted line %d: got %q, want %q", what, len(got), len(want), i, g, w)
			return
		}
	}
}

// TestModes runs the command's pipeline in each mode and compares its
// shards with what the library gives for the same lines, line for line
// as multisets; the failures too, and the summary's counts.
func TestModes(t *testing.T) {
	dir := t.TempDir()
	lines := inputs(t, dir)
	const base = "https://example.com/docs/index.html"
	for _, tc := range []struct {
		mode, profile, base string
		shards              int
		failures            bool // a -failures prefix of its own
	}{
		{"keys", "rfc3986", "", 3, true},
		{"dedup", "whatwg", "", 2, false},
		{"count", "iri", "", 1, true},
		{"tsv", "rfc3986", "", 4, false},
		{"tsv", "webcapture", base, 2, true},
	} {
		name := fmt.Sprintf("%s-%s-%d", tc.mode, tc.profile, tc.shards)
		if tc.base != "" {
			name += "-base"
		}
		t.Run(name, func(t *testing.T) {
			prof, _ := canon.LookupProfile(tc.profile)
			var keys, tsv, failures []string
			counts := map[string]int{}
			for _, l := range lines {
				var k string
				var err error
				if tc.base != "" {
					k, err = canon.NormalizeRef(tc.base, l, prof)
				} else {
					k, err = canon.Normalize(l, prof)
				}
				if err != nil {
					failures = append(failures, strings.ReplaceAll(l, "\t", " ")+"\t"+err.Error())
					continue
				}
				keys = append(keys, k)
				tsv = append(tsv, strings.ReplaceAll(l, "\t", " ")+"\t"+k)
				counts[k]++
			}
			var want []string
			switch tc.mode {
			case "keys":
				want = keys
			case "tsv":
				want = tsv
			case "dedup":
				for k := range counts {
					want = append(want, k)
				}
			case "count":
				for k, n := range counts {
					want = append(want, strconv.Itoa(n)+"\t"+k)
				}
			}
			if len(failures) < 3 || len(want) < 400 {
				t.Fatalf("%d failures and %d output lines: the input should give both", len(failures), len(want))
			}

			cfg := &config{
				input: filepath.Join(dir, "in", "*.txt"), output: filepath.Join(dir, name, "out"),
				profile: tc.profile, base: tc.base, mode: tc.mode, shards: tc.shards,
			}
			failPrefix := cfg.output + "-failures"
			if tc.failures {
				cfg.failures = filepath.Join(dir, name, "errors", "f")
				failPrefix = cfg.failures
			}
			var stderr bytes.Buffer
			if err := run(context.Background(), cfg, &stderr); err != nil {
				t.Fatal(err)
			}
			sameLines(t, "output", readShards(t, cfg.output, tc.shards), want)
			sameLines(t, "failures", readShards(t, failPrefix, tc.shards), failures)
			summary := fmt.Sprintf("canon-beam: %d lines, %d failed (%s-*)\n", len(lines), len(failures), failPrefix)
			if stderr.String() != summary {
				t.Errorf("summary %q, want %q", stderr.String(), summary)
			}
		})
	}
}

// TestNoFailures checks that the failures output exists, empty, when
// every line is valid: its absence would look like a job that died.
func TestNoFailures(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(in, []byte("HTTP://A/%7e\nhttp://a/~\nhttp://b:80/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := &config{input: in, output: filepath.Join(dir, "out"), profile: "rfc3986", mode: "count", shards: 2}
	if err := run(context.Background(), cfg, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	sameLines(t, "output", readShards(t, cfg.output, 2), []string{"2\thttp://a/~", "1\thttp://b/"})
	if f := readShards(t, cfg.output+"-failures", 2); len(f) != 0 {
		t.Errorf("failures %q, want none", f)
	}
}

// TestUsageErrors checks that bad flags are refused before any pipeline
// runs, with errUsage (exit 2).
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(in, []byte("http://a/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := config{input: in, output: filepath.Join(dir, "out"), profile: "rfc3986", mode: "keys", shards: 1}
	for _, tc := range []struct {
		what   string
		change func(*config)
	}{
		{"no input", func(c *config) { c.input = "" }},
		{"no output", func(c *config) { c.output = "" }},
		{"unknown profile", func(c *config) { c.profile = "nosuch" }},
		{"unknown mode", func(c *config) { c.mode = "uniq" }},
		{"no shard", func(c *config) { c.shards = 0 }},
		{"relative base", func(c *config) { c.base = "/docs/" }},
		{"glob matching nothing", func(c *config) { c.input = filepath.Join(dir, "nosuch", "*.txt") }},
	} {
		cfg := good
		tc.change(&cfg)
		if _, err := buildPipeline(context.Background(), &cfg); !errors.Is(err, errUsage) {
			t.Errorf("%s: err %v, want a usage error", tc.what, err)
		}
	}
	if _, err := buildPipeline(context.Background(), &good); err != nil {
		t.Errorf("good config: %v", err)
	}
}

// TestFlags checks that the flags reach the config, with their defaults.
func TestFlags(t *testing.T) {
	fs := flag.NewFlagSet("canon-beam", flag.ContinueOnError)
	cfg := defineFlags(fs)
	if err := fs.Parse([]string{"-input", "links/*.txt", "-output", "out/keys", "-mode", "dedup", "-base", "https://h/"}); err != nil {
		t.Fatal(err)
	}
	want := config{input: "links/*.txt", output: "out/keys", profile: "rfc3986", base: "https://h/", mode: "dedup", shards: 1}
	if *cfg != want {
		t.Errorf("config %+v, want %+v", *cfg, want)
	}
	if got := cfg.failuresPrefix(); got != "out/keys-failures" {
		t.Errorf("failures prefix %q", got)
	}
}
