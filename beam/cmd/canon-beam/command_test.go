package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// goBuild builds the package pkg (an import path, or a directory) into
// dir and returns the binary's path, with the go command that runs the
// tests: in this module, whose go.work puts the repository's library in
// place of the version go.mod requires.
func goBuild(t *testing.T, dir, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// runCanon runs the canon command with args; it returns standard output
// and error. Exit status 1 (some line failed) is not an error.
func runCanon(t *testing.T, canonBin string, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(canonBin, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("canon %q: %v\n%s", args, err, e.String())
	}
	return o.String(), e.String()
}

// commandInput is a file of the shapes the two commands must read
// alike: CRLF and LF line ends, blank lines of each kind (empty, spaces,
// a TAB, a lone CR, VT and FF), lines that fail in each component, a
// password, a TAB inside a line, a line longer than canon.MaxLength,
// failing lines longer than the 256 bytes an error quotes, invalid UTF-8,
// URLs from the bench corpus, and no newline after the last line.
func commandInput(t *testing.T, dir string) (path string, lines []string) {
	t.Helper()
	data, err := os.ReadFile("../../../bench/testdata/real.txt")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i := 0; i < 300; i++ {
		lines = append(lines, all[i*len(all)/300])
	}
	lines = append(lines,
		"", " ", "\t", "\v\f", "  \t  ",
		"/relative", "../up", "?q", "#f", "g;x", "http://h:8x/", "http://h:99999/", "http://u:secret@h:8x/p",
		"http://h/%zz", "http://h/a%2", "http://h/a\tb", "http://h/a\x01b", "http://[::1/", "http://0x7f.1/",
		"1http://h/", "ht%74p://h/", "http://h/?a=%", "http://xn--a.example/", "http://h/#%zz",
		"HTTP://Example.COM:80/a/./b/../c?b=2&a=1#x", "https://www.example.com/?utm_source=x&ref=1&sid=abc",
		"http://"+strings.Repeat("a", canon.MaxLength)+"/",
		"mailto:x@example.com", "file:///C|/x", "http://h/x y", `http://h\x`, "http:/h", "http:h",
		// Longer than the 256 bytes an error quotes, failing in each
		// component, before and after the cut; invalid UTF-8.
		"http://h:8x/"+strings.Repeat("a", 300), "http://h:8"+strings.Repeat("a", 300)+"x/",
		"http://u:pw@h:8x/"+strings.Repeat("é", 200), "http://h/"+strings.Repeat("é", 200)+"%zz",
		"http://h/%zz"+strings.Repeat("\xff", 300), strings.Repeat("a", 300)+"%zz", "http://[::1/"+strings.Repeat("a", 255)+"日本",
		"http://h/a\xffb", "http://h:8x/\xfe", "http://h/\xc3\tb",
	)
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		switch {
		case i == len(lines)-1:
		case i%3 == 0:
			b.WriteString("\r\n")
		default:
			b.WriteString("\n")
		}
	}
	path = filepath.Join(dir, "input.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, lines
}

var (
	lineMessage = regexp.MustCompile(`^line (\d+): (.*)$`)
	summaryLine = regexp.MustCompile(`^canon: (\d+) of (\d+) lines failed$`)
)

// TestMatchesCommand checks that canon-beam reads a file as the canon
// command does: its tsv output is that of canon -format tsv
// -skip-invalid, line for line (as multisets: the order is the
// runner's); each failure line is the input and the text the command
// prints after "line N: " for it; the summary counts the command's lines
// and failures; and with -failures-format jsonl, each failure is the
// record canon -format jsonl writes, less "line" (with "in" where the
// command, which does not keep a line over canon.MaxLength, writes "").
func TestMatchesCommand(t *testing.T) {
	dir := t.TempDir()
	input, lines := commandInput(t, dir)
	canonBin := goBuild(t, dir, "github.com/seed15588f71/canon/cmd/canon", "canon")
	const base = "https://example.com/docs/a/b?q=1"
	for _, tc := range []struct {
		profile, base string
		jsonl         bool
	}{
		{"rfc3986", "", true},
		{"webcapture", base, false},
		{"whatwg", base, true},
		{"crawler", "", false},
		{"powder", "", false},
	} {
		name := tc.profile
		if tc.base != "" {
			name += "-base"
		}
		t.Run(name, func(t *testing.T) {
			args := []string{"-p", tc.profile, "-f", input}
			if tc.base != "" {
				args = append(args, "-base", tc.base)
			}
			stdout, stderr := runCanon(t, canonBin, append(args, "-format", "tsv", "-skip-invalid")...)
			wantOut := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			wantFailures, failed, total := commandFailures(t, stderr, lines)
			if total != len(lines) || failed != len(wantFailures) || failed < 5 || len(wantOut) < 250 {
				t.Fatalf("canon: %d of %d lines failed, %d failure messages, %d keys: the input should give failures and keys", failed, total, len(wantFailures), len(wantOut))
			}

			cfg := &config{
				input: input, output: filepath.Join(dir, name, "out"), profile: tc.profile, base: tc.base,
				mode: "tsv", shards: 2, failuresFormat: "tsv",
			}
			var summary bytes.Buffer
			if err := run(context.Background(), cfg, &summary); err != nil {
				t.Fatal(err)
			}
			sameLines(t, "tsv output", readShards(t, cfg.output, 2), wantOut)
			sameLines(t, "failures", readShards(t, cfg.failuresPrefix(), 2), wantFailures)
			if want := fmt.Sprintf("canon-beam: %d lines (", total); !strings.HasPrefix(summary.String(), want) ||
				!strings.Contains(summary.String(), fmt.Sprintf("), %d failed (", failed)) {
				t.Errorf("summary %q, want %d lines and %d failed", summary.String(), total, failed)
			}
			if !tc.jsonl {
				return
			}

			stdout, _ = runCanon(t, canonBin, append(args, "-format", "jsonl")...)
			var wantRecords []string
			for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
				var rec map[string]any
				if err := json.Unmarshal([]byte(l), &rec); err != nil {
					t.Fatalf("canon -format jsonl wrote %q: %v", l, err)
				}
				if _, ok := rec["error"]; !ok {
					continue // a key, or a blank line
				}
				n := int(rec["line"].(float64))
				delete(rec, "line")
				rec["in"] = jsonText(t, lines[n-1])
				wantRecords = append(wantRecords, canonicalJSON(t, rec))
			}
			if len(wantRecords) != failed {
				t.Fatalf("canon -format jsonl: %d failure records, want %d", len(wantRecords), failed)
			}
			cfg.output, cfg.failuresFormat = filepath.Join(dir, name+"-jsonl", "out"), "jsonl"
			if err := run(context.Background(), cfg, &bytes.Buffer{}); err != nil {
				t.Fatal(err)
			}
			var gotRecords []string
			for _, l := range readShards(t, cfg.failuresPrefix(), 2) {
				var rec map[string]any
				if err := json.Unmarshal([]byte(l), &rec); err != nil {
					t.Fatalf("canon-beam -failures-format jsonl wrote %.200q: %v", l, err)
				}
				gotRecords = append(gotRecords, canonicalJSON(t, rec))
			}
			sameLines(t, "jsonl failures", gotRecords, wantRecords)
		})
	}
}

// commandFailures reads the canon command's standard error for the
// input lines: each failure as canon-beam writes it in a tsv failures
// file (the input, a TAB, the text after "line N: "), and the numbers of
// the summary, failed lines and lines.
func commandFailures(t *testing.T, stderr string, lines []string) (failures []string, failed, total int) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if m := lineMessage.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			failures = append(failures, spaced(lines[n-1])+"\t"+m[2])
			continue
		}
		m := summaryLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("canon wrote %q on standard error", l)
		}
		failed, _ = strconv.Atoi(m[1])
		total, _ = strconv.Atoi(m[2])
	}
	return failures, failed, total
}

// TestSURTMatchesCommand checks -mode surt against the command it
// stands for, canon -format surt -skip-invalid, on the same input: the
// SURTs line for line (as multisets), the failure texts and the counts.
// archive is the profile of CDX keys; the command takes every profile
// for -format surt, and so does canon-beam (whatwg, whose keys keep the
// query's order and the fragment; rfc3986, which keeps "www."), with and
// without -base. An archive SURT differs from its key on every line of
// the input that has a host, so output equal to the command's is not
// the keys.
func TestSURTMatchesCommand(t *testing.T) {
	dir := t.TempDir()
	input, lines := commandInput(t, dir)
	canonBin := goBuild(t, dir, "github.com/seed15588f71/canon/cmd/canon", "canon")
	const base = "https://www.example.com/docs/a/b?q=1"
	for _, tc := range []struct {
		profile, base string
		shards        int
	}{
		{"archive", "", 2},
		{"archive", base, 1},
		{"whatwg", base, 3},
		{"rfc3986", "", 1},
	} {
		name := tc.profile
		if tc.base != "" {
			name += "-base"
		}
		t.Run(name, func(t *testing.T) {
			args := []string{"-p", tc.profile, "-f", input, "-format", "surt", "-skip-invalid"}
			if tc.base != "" {
				args = append(args, "-base", tc.base)
			}
			stdout, stderr := runCanon(t, canonBin, args...)
			wantOut := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			wantFailures, failed, total := commandFailures(t, stderr, lines)
			if total != len(lines) || failed != len(wantFailures) || failed < 5 || len(wantOut) < 250 {
				t.Fatalf("canon: %d of %d lines failed, %d failure messages, %d SURTs: the input should give failures and SURTs", failed, total, len(wantFailures), len(wantOut))
			}
			if tc.profile == "archive" && tc.base == "" && !slices.Contains(wantOut, "com,example)/a/c?a=1&b=2") {
				t.Fatalf("canon -p archive -format surt does not write the CDX key of HTTP://Example.COM:80/a/./b/../c?b=2&a=1#x")
			}

			cfg := &config{
				input: input, output: filepath.Join(dir, name, "surts"), profile: tc.profile, base: tc.base,
				mode: "surt", shards: tc.shards, failuresFormat: "tsv",
			}
			var summary bytes.Buffer
			if err := run(context.Background(), cfg, &summary); err != nil {
				t.Fatal(err)
			}
			sameLines(t, "surt output", readShards(t, cfg.output, tc.shards), wantOut)
			sameLines(t, "failures", readShards(t, cfg.failuresPrefix(), tc.shards), wantFailures)
			if want := fmt.Sprintf("canon-beam: %d lines (", total); !strings.HasPrefix(summary.String(), want) ||
				!strings.Contains(summary.String(), fmt.Sprintf("), %d failed (", failed)) {
				t.Errorf("summary %q, want %d lines and %d failed", summary.String(), total, failed)
			}
		})
	}
}

// canonicalJSON writes v with sorted keys, so that two records compare
// as strings whatever order and escapes they were written with.
func canonicalJSON(t *testing.T, v map[string]any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// jsonText returns s as a JSON string holds it: each byte of invalid
// UTF-8 a U+FFFD, as encoding/json and the canon command write it.
func jsonText(t *testing.T, s string) string {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back string
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	return back
}
