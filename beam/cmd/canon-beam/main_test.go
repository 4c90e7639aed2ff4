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

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/seed15588f71/canon"
)

// The pipelines run on prism in-process (loopback), as the command does
// without --runner. With CANON_BEAM_MAIN=1 the test binary is the
// command itself: TestPortableJobServer runs it so, as a process of its
// own that submits to a job server.
func TestMain(m *testing.M) {
	if os.Getenv("CANON_BEAM_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	ptest.MainWithDefault(m, "prism")
}

// blank reports whether line is blank as the canon command reads one.
func blank(line string) bool { return strings.Trim(line, " \t\r\v\f") == "" }

// inputs writes two input files in dir and returns the lines as the
// command reads them (CRLF line ends gone). They hold 500 URLs from
// bench/testdata/real.txt, some of them twice with the scheme in upper
// case, lines canon rejects (one with a TAB, which the outputs write as
// a space), blank lines, CRLF line ends, and a last line without a
// newline.
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
		if i%97 == 0 {
			a = append(a, "", "  \t")
		}
	}
	for _, l := range a[:100] {
		if scheme, rest, ok := strings.Cut(l, ":"); ok {
			b = append(b, strings.ToUpper(scheme)+":"+rest)
		}
	}
	b = append(b, "", "/relative", "http://h:8x/", "http://h/a\tb", "http://h/%zz", "../up", "HTTP://Example.COM:80/a/./b/../c", " ")
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
			t.Errorf("%s: %d lines, want %d; first difference at sorted line %d: got %.200q, want %.200q", what, len(got), len(want), i, g, w)
			return
		}
	}
}

// firstColumn returns each line up to its first TAB.
func firstColumn(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i], _, _ = strings.Cut(l, "\t")
	}
	return out
}

// TestModes runs the command's pipeline in each mode and compares its
// shards with what the library gives for the same lines, line for line
// as multisets; the failures' inputs too (TestMatchesCommand checks
// their text), and the summary's counts. Blank lines give no output line
// and no failure.
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
		{"keys", "whatwg", base, 1, false},
	} {
		name := fmt.Sprintf("%s-%s-%d", tc.mode, tc.profile, tc.shards)
		if tc.base != "" {
			name += "-base"
		}
		t.Run(name, func(t *testing.T) {
			prof, _ := canon.LookupProfile(tc.profile)
			var keys, tsv, failures []string
			counts := map[string]int{}
			nblank := 0
			for _, l := range lines {
				if blank(l) {
					nblank++
					continue
				}
				var k string
				var err error
				if tc.base != "" {
					k, err = canon.NormalizeRef(tc.base, l, prof)
				} else {
					k, err = canon.Normalize(l, prof)
				}
				if err != nil {
					failures = append(failures, strings.ReplaceAll(l, "\t", " "))
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
			if len(failures) < 2 || len(want) < 400 || nblank < 10 {
				t.Fatalf("%d failures, %d output lines, %d blank lines: the input should give all three", len(failures), len(want), nblank)
			}

			cfg := &config{
				input: filepath.Join(dir, "in", "*.txt"), output: filepath.Join(dir, name, "out"),
				profile: tc.profile, base: tc.base, mode: tc.mode, shards: tc.shards, failuresFormat: "tsv",
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
			sameLines(t, "failures", firstColumn(readShards(t, failPrefix, tc.shards)), failures)
			summary := fmt.Sprintf("canon-beam: %d lines (%d blank), %d failed (%s-*)\n", len(lines), nblank, len(failures), failPrefix)
			if stderr.String() != summary {
				t.Errorf("summary %q, want %q", stderr.String(), summary)
			}
		})
	}
}

// TestKeyFailures checks the failures of -mode surt and expressions
// that come from the key, not the line: a key that canon.AppendSURT or
// canon.LookupExpressions refuses, which no profile makes, and which the
// test makes by replacing the two with functions that refuse a key whose
// host starts with "fail.". Such a line is a failure, worded as the
// canon command words it ("SURT of the key: ..."; the offset in the line
// where the line ends with the quoted text of the key), not a key: it
// gives no output line and the summary counts it among the failures.
func TestKeyFailures(t *testing.T) {
	refuse := func(op, key string) error {
		if at := strings.Index(key, "//fail."); at >= 0 {
			return &canon.Error{Op: op, Input: key, Component: canon.ComponentHost, Offset: at + 2, Err: canon.ErrInvalidHost}
		}
		return nil
	}
	appendSURT = func(dst []byte, key string, form canon.SURTForm) ([]byte, error) {
		if err := refuse("AppendSURT", key); err != nil {
			return dst, err
		}
		return canon.AppendSURT(dst, key, form)
	}
	lookupExpressions = func(key string) ([]string, error) {
		if err := refuse("LookupExpressions", key); err != nil {
			return nil, err
		}
		return canon.LookupExpressions(key)
	}
	t.Cleanup(func() { appendSURT, lookupExpressions = canon.AppendSURT, canon.LookupExpressions })

	dir := t.TempDir()
	urls := []string{"http://fail.example/x", "HTTP://FAIL.example:80/y", "http://ok.example/a?b", "", "http://h:8x/", "https://www.example.com/p/q"}
	const page = "http://page.example/"
	write := func(name string, lines []string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	plain := write("urls.txt", urls)
	var pairLines []string
	for _, u := range urls {
		pairLines = append(pairLines, page+"\t"+u)
	}
	pairs := write("pairs.txt", pairLines)
	for _, tc := range []struct {
		mode, profile string
		pairs         bool
		hash          int
		prefix        string // of the message
		outLines      int
	}{
		{"surt", "whatwg", false, 0, "SURT of the key: ", 2},
		{"surt", "archive", true, 0, "SURT of the key: ", 2},
		{"expressions", "safebrowsing", false, 4, "lookup expressions of the key: ", 3 + 6},
		{"expressions", "safebrowsing", true, 0, "lookup expressions of the key: ", 3 + 6},
	} {
		name := tc.mode + "-" + tc.profile
		if tc.pairs {
			name += "-pairs"
		}
		t.Run(name, func(t *testing.T) {
			cfg := &config{input: plain, output: filepath.Join(dir, name, "out"), profile: tc.profile, pairs: tc.pairs,
				mode: tc.mode, hash: tc.hash, shards: 1, failuresFormat: "jsonl"}
			pagePart, resolved := "", ""
			if tc.pairs {
				cfg.input = pairs
				pagePart, resolved = `"page":"`+page+`",`, "resolved against the page: "
			}
			var summary bytes.Buffer
			if err := run(context.Background(), cfg, &summary); err != nil {
				t.Fatal(err)
			}
			out := readShards(t, cfg.output, 1)
			if len(out) != tc.outLines || strings.Contains(strings.Join(out, "\n"), "fail") {
				t.Errorf("output %q: want %d lines, none of the refused keys", out, tc.outLines)
			}
			sameLines(t, "failures", readShards(t, cfg.failuresPrefix(), 1), []string{
				`{"in":"http://fail.example/x",` + pagePart + `"error":"` + tc.prefix + `host: invalid host (at \"fail.example/x\")","kind":"ErrInvalidHost","component":"host","offset":7}`,
				`{"in":"HTTP://FAIL.example:80/y",` + pagePart + `"error":"` + tc.prefix + `host: invalid host (at \"fail.example/y\")","kind":"ErrInvalidHost","component":"host"}`,
				`{"in":"http://h:8x/",` + pagePart + `"error":"` + resolved + `port: invalid character (at \"x/\")","kind":"ErrInvalidPort","component":"port","offset":10}`,
			})
			want := fmt.Sprintf("canon-beam: 6 lines (1 blank), 3 failed (%s-*)\n", cfg.failuresPrefix())
			if summary.String() != want {
				t.Errorf("summary %q, want %q", summary.String(), want)
			}
		})
	}
}

// TestNoFailures checks that the failures output exists, empty, when
// every line is valid or blank: its absence would look like a job that
// died.
func TestNoFailures(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(in, []byte("HTTP://A/%7e\n\nhttp://a/~\r\n \r\nhttp://b:80/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := &config{input: in, output: filepath.Join(dir, "out"), profile: "rfc3986", mode: "count", shards: 2, failuresFormat: "tsv"}
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
	good := config{input: in, output: filepath.Join(dir, "out"), profile: "rfc3986", mode: "keys", shards: 1, failuresFormat: "tsv"}
	for _, tc := range []struct {
		what   string
		change func(*config)
	}{
		{"no input", func(c *config) { c.input = "" }},
		{"no output", func(c *config) { c.output = "" }},
		{"unknown profile", func(c *config) { c.profile = "nosuch" }},
		{"unknown mode", func(c *config) { c.mode = "uniq" }},
		{"unknown failures format", func(c *config) { c.failuresFormat = "csv" }},
		{"no shard", func(c *config) { c.shards = 0 }},
		{"relative base", func(c *config) { c.base = "/docs/" }},
		{"base with pairs", func(c *config) { c.base = "https://h/"; c.pairs = true }},
		{"glob matching nothing", func(c *config) { c.input = filepath.Join(dir, "nosuch", "*.txt") }},
		{"input on an unregistered file system", func(c *config) { c.input = "hdfs://nn/links/*.txt" }},
		{"output on an unregistered file system", func(c *config) { c.output = "hdfs://nn/out/keys" }},
		{"missing rules file", func(c *config) { c.rules = filepath.Join(dir, "nosuch.json") }},
		{"expressions of another profile", func(c *config) { c.mode = "expressions" }},
		{"expressions of archive", func(c *config) { c.mode, c.profile = "expressions", "archive" }},
		{"hash without expressions", func(c *config) { c.hash = 4 }},
		{"hash with surt", func(c *config) { c.mode, c.hash = "surt", 4 }},
		{"hash of 3 bytes", func(c *config) { c.mode, c.profile, c.hash = "expressions", "safebrowsing", 3 }},
		{"hash of 33 bytes", func(c *config) { c.mode, c.profile, c.hash = "expressions", "safebrowsing", 33 }},
		{"negative hash", func(c *config) { c.mode, c.profile, c.hash = "expressions", "safebrowsing", -4 }},
	} {
		cfg := good
		tc.change(&cfg)
		if _, err := buildPipeline(context.Background(), &cfg); !errors.Is(err, errUsage) {
			t.Errorf("%s: err %v, want a usage error", tc.what, err)
		}
	}
	for _, change := range []func(*config){
		func(c *config) {},
		func(c *config) { c.mode = "surt" },
		func(c *config) { c.mode, c.profile, c.base = "surt", "archive", "https://h/" },
		func(c *config) { c.mode, c.profile, c.pairs = "surt", "safebrowsing", true },
		func(c *config) { c.mode, c.profile = "expressions", "safebrowsing" },
		func(c *config) { c.mode, c.profile, c.hash = "expressions", "SafeBrowsing", 4 },
		func(c *config) { c.mode, c.profile, c.hash, c.pairs = "expressions", "safebrowsing", 32, true },
		func(c *config) { c.mode, c.profile, c.hash, c.base = "expressions", "safebrowsing", 0, "https://h/" },
	} {
		cfg := good
		change(&cfg)
		if _, err := buildPipeline(context.Background(), &cfg); err != nil {
			t.Errorf("good config %+v: %v", cfg, err)
		}
	}
}

// TestFlags checks that the flags reach the config, with their defaults,
// and that Beam's flags parse beside them.
func TestFlags(t *testing.T) {
	own := flag.NewFlagSet("canon-beam", flag.ContinueOnError)
	all := flag.NewFlagSet("all", flag.ContinueOnError)
	runner := all.String("runner", "prism", "Beam's runner flag")
	cfg := registerFlags(own, all)
	if err := all.Parse([]string{"-input", "links/*.txt", "-output", "out/keys", "-mode", "expressions", "-hash", "4", "-pairs", "-rules", "r.json", "--runner=universal", "-failures-format", "jsonl"}); err != nil {
		t.Fatal(err)
	}
	want := config{input: "links/*.txt", output: "out/keys", profile: "rfc3986", rules: "r.json", pairs: true, mode: "expressions", hash: 4, shards: 1, failuresFormat: "jsonl"}
	if *cfg != want || *runner != "universal" {
		t.Errorf("config %+v, runner %q; want %+v, universal", *cfg, *runner, want)
	}
	if got := cfg.failuresPrefix(); got != "out/keys-failures" {
		t.Errorf("failures prefix %q", got)
	}
}

// TestUsage checks canon-beam -h: the usage line first, then every flag
// of the command's own, then Beam's (here --runner and --endpoint, which
// the test binary has as the command has).
func TestUsage(t *testing.T) {
	own := flag.NewFlagSet("canon-beam", flag.ContinueOnError)
	all := flag.NewFlagSet("all", flag.ContinueOnError)
	flag.CommandLine.VisitAll(func(f *flag.Flag) { all.Var(f.Value, f.Name, f.Usage) })
	registerFlags(own, all)
	var out bytes.Buffer
	all.SetOutput(&out)
	if err := all.Parse([]string{"-h"}); err != flag.ErrHelp {
		t.Fatalf("-h: %v", err)
	}
	text := out.String()
	if !strings.HasPrefix(text, "usage: canon-beam -input GLOB -output PREFIX") {
		t.Errorf("usage starts %.80q", text)
	}
	beamAt := strings.Index(text, "\nBeam's flags")
	if beamAt < 0 {
		t.Fatalf("no Beam section in %q", text)
	}
	own.VisitAll(func(f *flag.Flag) {
		at := strings.Index(text, "\n  -"+f.Name+" ")
		if at < 0 {
			at = strings.Index(text, "\n  -"+f.Name+"\n")
		}
		if at < 0 || at > beamAt {
			t.Errorf("-%s at %d, want before Beam's flags at %d", f.Name, at, beamAt)
		}
		if strings.Contains(text[beamAt:], "\n  -"+f.Name+" ") {
			t.Errorf("-%s listed among Beam's flags too", f.Name)
		}
	})
	for _, name := range []string{"runner", "endpoint", "environment_type"} {
		if at := strings.Index(text, "\n  -"+name+" "); at < beamAt {
			t.Errorf("Beam's -%s at %d, want after %d", name, at, beamAt)
		}
	}
}

// TestFileSystems checks that the command can name local paths, gs://
// and s3:// (each registered), and that another scheme is refused.
func TestFileSystems(t *testing.T) {
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	ctx := context.Background()
	for _, path := range []string{"s3://bucket/links/*.txt", filepath.Join(t.TempDir(), "x")} {
		fs, err := filesystem.New(ctx, path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		fs.Close()
	}
	for _, path := range []string{"s3://bucket/out/keys", "gs://bucket/out/keys", "/tmp/out/keys"} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: %v", path, r)
				}
			}()
			filesystem.ValidateScheme(path)
		}()
	}
	if err := checkScheme(ctx, "hdfs://nn/out"); !errors.Is(err, errUsage) {
		t.Errorf("hdfs: err %v, want a usage error", err)
	}
}
