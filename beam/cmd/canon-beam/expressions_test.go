package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// expressionsInput writes the input of TestExpressions and returns its
// lines as the command reads them: URLs from the bench corpus, URLs with
// many expressions (five hosts, a query, deep paths), an IP address and
// an IP literal (one host each), inputs whose key differs from the input
// (case, a default port, dot segments, a password, a fragment), inputs
// holding a TAB, a CR inside the line and a backslash (which the input
// field writes as -mode tsv writes them), lines that fail, and blank
// lines.
func expressionsInput(t *testing.T, dir string) (string, []string) {
	t.Helper()
	data, err := os.ReadFile("../../../bench/testdata/real.txt")
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var lines []string
	for i := 0; i < 60; i++ {
		lines = append(lines, all[i*len(all)/60])
	}
	lines = append(lines,
		"http://a.b.c/1/2.html?param=1", "HTTP://A.B.C.D.E.F.G:80/1/./2/../3/4/5.html?x=1#frag",
		"http://10.1.2.3/a/b", "http://[2001:db8::1]:8080/a?b", "http://u:pw@www.example.com/p/",
		"http://h.example/a\tb/c", "http://h.example/a\rb/c?q", `http://h.example\x\y`, "http://www.example.com/?",
		"", "  \t", "/relative", "http://h:8x/", "ftp:",
	)
	path := filepath.Join(dir, "exprs.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, lines
}

// TestExpressions runs -mode expressions with each kind of -hash, with
// -base and with -pairs, and compares the output with the library's for
// the same lines, as multisets: a line "input TAB expression" (-pairs:
// "page TAB href TAB expression") for each of canon.LookupExpressions of
// the line's SafeBrowsing key, and with -hash N a third column, the first
// N bytes of the expression's SHA-256 in lowercase hex, computed here
// with crypto/sha256 and checked against canon.LookupHashes of the key
// (and of the line, where it is a URL alone). The failures' inputs and
// the summary too (the failures' texts are the transforms', which
// TestMatchesCommand checks).
func TestExpressions(t *testing.T) {
	dir := t.TempDir()
	input, lines := expressionsInput(t, dir)
	prof := canon.SafeBrowsing
	const base = "https://www.example.com/docs/a/b.html?q=1"
	pages := []string{"http://site.example/dir/page.html", "https://A.example:443/x/y/"}
	pairsPath := filepath.Join(dir, "pairs.txt")
	var pairLines []string
	for i, l := range lines {
		if !strings.Contains(l, "\t") || blank(l) {
			pairLines = append(pairLines, pages[i%len(pages)]+"\t"+l)
		}
	}
	pairLines = append(pairLines, "../relative/page\tx", "no tab")
	if err := os.WriteFile(pairsPath, []byte(strings.Join(pairLines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		hash   int
		base   string
		pairs  bool
		shards int
	}{
		{0, "", false, 2},
		{4, "", false, 1},
		{32, "", false, 3},
		{13, base, false, 2},
		{4, "", true, 2},
		{0, "", true, 1},
	} {
		name := fmt.Sprintf("hash%d", tc.hash)
		switch {
		case tc.base != "":
			name += "-base"
		case tc.pairs:
			name += "-pairs"
		}
		t.Run(name, func(t *testing.T) {
			in := lines
			if tc.pairs {
				in = pairLines
			}
			var want, failures []string
			nblank, hashed, escaped := 0, 0, 0
			for _, l := range in {
				page, href := "", l
				if tc.pairs {
					var ok bool
					if page, href, ok = strings.Cut(l, "\t"); !ok {
						failures = append(failures, "\t"+tsvField(l))
						continue
					}
				}
				if blank(href) {
					nblank++
					continue
				}
				var key string
				var err error
				switch {
				case tc.pairs:
					key, err = canon.NormalizeRef(page, href, prof)
				case tc.base != "":
					key, err = canon.NormalizeRef(tc.base, href, prof)
				default:
					key, err = canon.Normalize(href, prof)
				}
				field := tsvField(href)
				if tc.pairs {
					field = tsvField(page) + "\t" + field
				}
				if err != nil {
					failures = append(failures, field)
					continue
				}
				exprs, err := canon.LookupExpressions(key)
				if err != nil {
					t.Fatalf("LookupExpressions(%q): %v", key, err)
				}
				if !tc.pairs && tc.base == "" {
					// The key's expressions are the line's: the
					// command may hand LookupExpressions either.
					if fromLine, _ := canon.LookupExpressions(href); !slices.Equal(fromLine, exprs) {
						t.Fatalf("LookupExpressions(%q) = %q, of its key %q: %q", href, fromLine, key, exprs)
					}
				}
				var hashes, lineHashes [][]byte
				if tc.hash > 0 {
					hashes, err = canon.LookupHashes(key, tc.hash)
					if err != nil || len(hashes) != len(exprs) {
						t.Fatalf("LookupHashes(%q, %d) = %d hashes, %v; want %d", key, tc.hash, len(hashes), err, len(exprs))
					}
					if !tc.pairs && tc.base == "" {
						lineHashes, _ = canon.LookupHashes(href, tc.hash)
					}
				}
				if field != l {
					escaped++
				}
				for i, x := range exprs {
					w := field + "\t" + x
					if tc.hash > 0 {
						sum := sha256.Sum256([]byte(x))
						h := sum[:tc.hash]
						if !bytes.Equal(h, hashes[i]) || lineHashes != nil && !bytes.Equal(h, lineHashes[i]) {
							t.Fatalf("%q: SHA-256 of expression %d, %q, starts %x; LookupHashes: %x, of the line: %x", href, i, x, h, hashes[i], lineHashes)
						}
						w += "\t" + hex.EncodeToString(h)
						hashed++
					}
					want = append(want, w)
				}
			}
			if len(failures) < 2 || nblank < 2 || len(want) < 4*(len(in)-len(failures)-nblank) || tc.hash > 0 && hashed != len(want) || !tc.pairs && escaped < 2 {
				t.Fatalf("%d failures, %d blank, %d expressions of %d lines, %d escaped inputs: the input should give all", len(failures), nblank, len(want), len(in), escaped)
			}

			cfg := &config{
				input: input, output: filepath.Join(dir, name, "exprs"), profile: "safebrowsing", base: tc.base, pairs: tc.pairs,
				mode: "expressions", hash: tc.hash, shards: tc.shards, failuresFormat: "tsv",
			}
			if tc.pairs {
				cfg.input = pairsPath
			}
			var summary bytes.Buffer
			if err := run(context.Background(), cfg, &summary); err != nil {
				t.Fatal(err)
			}
			got := readShards(t, cfg.output, tc.shards)
			sameLines(t, "output", got, want)
			gotFailures := readShards(t, cfg.failuresPrefix(), tc.shards)
			for i, l := range gotFailures {
				// The input (-pairs: page TAB href) without the
				// message, which holds no TAB.
				gotFailures[i] = l[:max(0, strings.LastIndexByte(l, '\t'))]
			}
			sameLines(t, "failures", gotFailures, failures)
			wantSummary := fmt.Sprintf("canon-beam: %d lines (%d blank), %d failed (%s-*)\n", len(in), nblank, len(failures), cfg.failuresPrefix())
			if summary.String() != wantSummary {
				t.Errorf("summary %q, want %q", summary.String(), wantSummary)
			}
		})
	}
}
