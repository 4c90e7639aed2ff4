package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// pairsInput writes links as a crawl gives them, page TAB href, and
// returns the lines: hrefs relative to their pages (the same href on
// pages that resolve it differently), absolute ones, hrefs that fail,
// a page that fails, blank hrefs and lines, a line without a TAB, and a
// TAB inside an href.
func pairsInput(t *testing.T, dir string) (string, []string) {
	t.Helper()
	pages := []string{"https://a.example/docs/x/y.html", "http://b.example/", "https://c.example/p/q/?s=1#f"}
	hrefs := []string{"../z", "./z?b=2&a=1", "z#frag", "//d.example/%7e", "https://E.example:443/a/./b", "?utm_source=x&ref=1",
		"http://h:8x/", "http://h/a%zz", "", " ", "mailto:x@example.com", "a\tb"}
	var lines []string
	for _, p := range pages {
		for _, h := range hrefs {
			lines = append(lines, p+"\t"+h)
		}
	}
	lines = append(lines, "/not/absolute\tz", "no tab here", "", "  ", "\t")
	path := filepath.Join(dir, "pairs.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, lines
}

// TestPairs runs -pairs in each mode, with tsv and jsonl failures, and
// compares the output with canon.NormalizeRef(page, href) for each line
// (-mode surt: page TAB canon.SURT of it; TestExpressions runs -pairs
// with -mode expressions).
func TestPairs(t *testing.T) {
	dir := t.TempDir()
	input, lines := pairsInput(t, dir)
	prof := canon.Crawler
	var pageKeys, pageSURTs, tsv, failurePages []string
	counts := map[string]int{}
	nblank := 0
	for _, l := range lines {
		page, href, ok := strings.Cut(l, "\t")
		switch {
		case blank(l) || ok && blank(href):
			nblank++
			continue
		case !ok:
			failurePages = append(failurePages, "\t"+l)
			continue
		}
		k, err := canon.NormalizeRef(page, href, prof)
		if err != nil {
			failurePages = append(failurePages, page+"\t"+tsvField(href))
			continue
		}
		pageKeys = append(pageKeys, page+"\t"+k)
		surt, err := canon.SURT(k)
		if err != nil {
			t.Fatalf("SURT(%q): %v", k, err)
		}
		pageSURTs = append(pageSURTs, page+"\t"+surt)
		tsv = append(tsv, page+"\t"+tsvField(href)+"\t"+k)
		counts[k]++
	}
	if len(failurePages) < 5 || nblank < 9 || len(counts) < 15 {
		t.Fatalf("%d failures, %d blank, %d distinct keys: the input should give all", len(failurePages), nblank, len(counts))
	}
	for _, mode := range []string{"keys", "tsv", "dedup", "count", "surt"} {
		t.Run(mode, func(t *testing.T) {
			var want []string
			switch mode {
			case "keys":
				want = pageKeys
			case "tsv":
				want = tsv
			case "surt":
				want = pageSURTs
			case "dedup":
				for k := range counts {
					want = append(want, k)
				}
			case "count":
				for k, n := range counts {
					want = append(want, strconv.Itoa(n)+"\t"+k)
				}
			}
			format := "tsv"
			if mode == "count" {
				format = "jsonl"
			}
			cfg := &config{input: input, output: filepath.Join(dir, mode, "out"), profile: "crawler", pairs: true, mode: mode, shards: 2, failuresFormat: format}
			var summary bytes.Buffer
			if err := run(context.Background(), cfg, &summary); err != nil {
				t.Fatal(err)
			}
			sameLines(t, "output", readShards(t, cfg.output, 2), want)
			got := readShards(t, cfg.failuresPrefix(), 2)
			var gotPages []string
			for _, l := range got {
				if format == "tsv" {
					f := strings.Split(l, "\t")
					if len(f) != 3 {
						t.Fatalf("failure line %q: want page TAB href TAB error", l)
					}
					gotPages = append(gotPages, f[0]+"\t"+f[1])
					continue
				}
				var rec struct {
					In, Page, Error, Kind string
				}
				if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Error == "" || rec.Kind == "" {
					t.Fatalf("failure record %q: %v", l, err)
				}
				gotPages = append(gotPages, rec.Page+"\t"+tsvField(rec.In))
			}
			sameLines(t, "failures", gotPages, failurePages)
			wantSummary := fmt.Sprintf("canon-beam: %d lines (%d blank), %d failed (%s-*)\n", len(lines), nblank, len(failurePages), cfg.failuresPrefix())
			if summary.String() != wantSummary {
				t.Errorf("summary %q, want %q", summary.String(), wantSummary)
			}
		})
	}
}

// TestRulesFlag checks -rules: the file's rules reach the workers (the
// keys are those of the profile WithRules, and differ from the
// profile's own), and every kind of bad file is refused before the job
// starts, with a usage error.
func TestRulesFlag(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	urls := []string{"http://h/x?ref=abc&a=1", "https://h/?Source=1&b=2&pk_x=3", "http://h/p;visit=123?q", "http://h/?a=1"}
	if err := os.WriteFile(in, []byte(strings.Join(urls, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	rulesFile := write("rules.json", `{"TrackingParams": ["ref", "source"], "TrackingPrefixes": ["pk_"], "SessionParams": ["visit"]}`)
	withRules, err := canon.Crawler.WithRules(canon.Rules{TrackingParams: []string{"ref", "source"}, TrackingPrefixes: []string{"pk_"}, SessionParams: []string{"visit"}})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	changed := 0
	for _, u := range urls {
		k, err := canon.Normalize(u, withRules)
		if err != nil {
			t.Fatal(err)
		}
		if k0, _ := canon.Normalize(u, canon.Crawler); k0 != k {
			changed++
		}
		want = append(want, k)
	}
	if changed != 3 {
		t.Fatalf("the rules change %d keys, want 3", changed)
	}
	cfg := &config{input: in, output: filepath.Join(dir, "out"), profile: "crawler", rules: rulesFile, mode: "keys", shards: 1, failuresFormat: "tsv"}
	if err := run(context.Background(), cfg, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	sameLines(t, "keys", readShards(t, cfg.output, 1), want)

	for _, tc := range []struct{ what, text, says string }{
		{"not JSON", `TrackingParams: ref`, "invalid character"},
		{"an unknown field", `{"TrackingParam": ["ref"]}`, `unknown field "TrackingParam"`},
		{"a field of the wrong type", `{"TrackingParams": "ref"}`, "cannot unmarshal"},
		{"a second object", `{"TrackingParams": ["ref"]} {}`, "more after the JSON object"},
		{"a name WithRules refuses", `{"TrackingParams": ["a=b"]}`, "cannot be in a parameter name"},
		{"an empty name", `{"SessionParams": [""]}`, "empty name"},
	} {
		c := *cfg
		c.rules = write("bad.json", tc.text)
		_, err := buildPipeline(context.Background(), &c)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: err %v, want a usage error saying %q", tc.what, err, tc.says)
		}
	}
	// Rules the profile never uses: archive has no RemoveTrackingParams.
	c := *cfg
	c.profile = "archive"
	if _, err := buildPipeline(context.Background(), &c); !errors.Is(err, errUsage) || !errors.Is(err, canon.ErrUnusedRules) {
		t.Errorf("tracking rules under archive: err %v, want a usage error wrapping canon.ErrUnusedRules", err)
	}
}
