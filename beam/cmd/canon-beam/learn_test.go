package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// learnIndex writes an index of captures in format f ("pairs", "cdx" in
// its 11 fields, or "crawl-log") and returns its lines: three hosts, on
// shop.test the click tag "from" not changing the page (15 pages, 3
// captures each, one digest a page), on news.test changing it, on
// blog.test not changing it either but with a redirect (301) and an
// empty payload among its captures; then captures without a digest,
// URLs canon refuses, malformed lines, blank lines and a comment. The
// pairs and crawl-log lines are shuffled; the CDX lines are sorted by URL,
// so that a host's captures come together as in a CDX index (canon
// -learn reads a CDX index host by host).
func learnIndex(f string) []string {
	tags := []string{"home", "nav", "mail", "footer", "side"}
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	type capture struct {
		url    string
		t      time.Time
		status int
		digest string
	}
	var cs []capture
	n := 0
	for _, h := range []string{"shop.test", "news.test", "blog.test"} {
		for p := 0; p < 15; p++ {
			for k := 0; k < 3; k++ {
				n++
				d := fmt.Sprintf("sha1:%sPAGE%02d", strings.ToUpper(h[:4]), p)
				if h == "news.test" {
					d += strings.ToUpper(tags[n%len(tags)])
				}
				cs = append(cs, capture{fmt.Sprintf("http://%s/item?id=%d&from=%s", h, p, tags[n%len(tags)]), t0.Add(time.Duration(n) * time.Minute), 200, d})
			}
		}
	}
	cs = append(cs,
		capture{"http://blog.test/item?id=2&from=ad", t0.Add(time.Hour), 301, "sha1:REDIRECT"},
		capture{"http://blog.test/item?id=3&from=x", t0.Add(time.Hour), 200, "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"},
		capture{"http://news.test/item?id=1&from=home", t0.Add(time.Hour), 200, "-"},
		capture{"http://h:8x/item?from=home", t0, 200, "sha1:PORT"},
		capture{"/relative?from=home", t0, 200, "sha1:REL"},
	)
	var lines []string
	for _, c := range cs {
		ts := c.t.Format("20060102150405")
		switch f {
		case "pairs":
			if c.status != 200 {
				continue // (pairs have no status)
			}
			lines = append(lines, c.url+"\t"+c.digest+"\t"+ts)
		case "cdx":
			lines = append(lines, fmt.Sprintf("- %s %s text/html %d %s - - 100 200 x.warc.gz", ts, c.url, c.status, strings.TrimPrefix(c.digest, "sha1:")))
		case "crawl-log":
			lines = append(lines, fmt.Sprintf("%s %d 1234 %s L http://x.test/ text/html #001 %s000+12 %s - -",
				c.t.Format("2006-01-02T15:04:05.000Z"), c.status, c.url, ts, c.digest))
		}
	}
	switch f {
	case "pairs":
		lines = append(lines, "no tab here", "http://h/\tsha1:X\tlater", "http://h/\tsha1:X\t1\t2")
	case "cdx":
		lines = append(lines, "- 20240501120000 http://h/ text/html 200", "- 2024xx01120000 http://h/ text/html 200 D - - 1 2 f")
	case "crawl-log":
		lines = append(lines, "2024-05-01T12:00:00.000Z 200 1234 http://h/", "yesterday 200 1 http://h/ L - text/html #1 20240501120000000+1 sha1:X - -")
	}
	lines = append(lines, "", "# a comment", "  ")
	if f == "cdx" {
		slices.SortStableFunc(lines, func(a, b string) int { return strings.Compare(cdxURL(a), cdxURL(b)) })
		return append([]string{" CDX N b a m s k r M S V g"}, lines...)
	}
	rand.New(rand.NewSource(3)).Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	return lines
}

// cdxURL is the URL field of a CDX line ("" for another line).
func cdxURL(line string) string {
	if fs := strings.Split(line, " "); len(fs) > 2 {
		return fs[2]
	}
	return ""
}

// learnError is a line of canon -learn's standard error about a
// malformed line.
var learnError = regexp.MustCompile(`^canon: line (\d+): learn: malformed index line (\d+) \(([a-z-]+)\): (.*)$`)

// TestLearnMatchesCommand checks -mode learn against canon -learn (built
// from this repository) on the same file, in three formats, under
// crawler, archive and crawler with -rules: the output file is canon's
// standard output, byte for byte; each malformed line canon reports is a
// failure line, the line and learn's reason (jsonl: its record); and the
// summary counts what canon's does.
func TestLearnMatchesCommand(t *testing.T) {
	dir := t.TempDir()
	canonBin := goBuild(t, dir, "github.com/seed15588f71/canon/cmd/canon", "canon")
	rules := filepath.Join(dir, "rules.json")
	if err := os.WriteFile(rules, []byte(`{"Hosts": {"blog.test": {"TrackingParams": ["from"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		format, profile, rules string
		jsonl                  bool
		want                   string // a rule the output must hold
	}{
		{"pairs", "crawler", "", false, `"TrackingParams": [` + "\n" + `        "from"`},
		{"pairs", "archive", "", true, `{`},
		{"pairs", "crawler", rules, false, `"shop.test"`},
		{"cdx", "crawler", "", false, `"blog.test"`},
		{"crawl-log", "aggressive", "", true, `{`},
	} {
		name := tc.format + "-" + tc.profile
		if tc.rules != "" {
			name += "-rules"
		}
		t.Run(name, func(t *testing.T) {
			lines := learnIndex(tc.format)
			input := filepath.Join(dir, name+".txt")
			var b strings.Builder
			for i, l := range lines {
				b.WriteString(l)
				if i%4 == 1 {
					b.WriteString("\r") // CRLF line ends too
				}
				b.WriteString("\n")
			}
			if err := os.WriteFile(input, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"-learn", "-learn-input", tc.format, "-p", tc.profile, "-f", input}
			if tc.rules != "" {
				args = append(args, "-rules", tc.rules)
			}
			stdout, stderr := runCanon(t, canonBin, args...)
			if !strings.Contains(stdout, tc.want) {
				t.Fatalf("canon %q wrote %s, want it to hold %s: the captures do not test what they should", args, stdout, tc.want)
			}
			var wantFailures []string
			var wantSummary string
			for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
				if rest, ok := strings.CutPrefix(l, "canon: "); ok && (strings.Contains(l, " captures (") || strings.Contains(l, " hosts judged: ")) {
					wantSummary += "canon-beam: " + rest + "\n"
					continue
				}
				if strings.HasPrefix(l, "canon: refused ") {
					continue // (the most contested refusals: canon-beam has no findings)
				}
				m := learnError.FindStringSubmatch(l)
				if m == nil || m[1] != m[2] || m[3] != tc.format {
					t.Fatalf("canon: unexpected standard error line %q", l)
				}
				n, _ := strconv.Atoi(m[1])
				line := lines[n-1]
				why := m[4]
				if tc.format == "cdx" {
					// Each line is read alone, in the default order of
					// the fields the header names here.
					why = regexp.MustCompile(`^(\d+) fields, the header names 11$`).ReplaceAllString(why, "$1 fields, want 9 or 11")
				}
				if tc.jsonl {
					wantFailures = append(wantFailures, fmt.Sprintf(`{"in":%s,"error":%s,"kind":"ErrMalformed"}`, strconv.Quote(line), strconv.Quote(why)))
				} else {
					wantFailures = append(wantFailures, tsvField(line)+"\t"+why)
				}
			}
			if len(wantFailures) < 2 || wantSummary == "" {
				t.Fatalf("canon: %d malformed lines, summary %q: want some, and a summary", len(wantFailures), wantSummary)
			}

			cfg := &config{input: input, output: filepath.Join(dir, name, "rules"), profile: tc.profile, rules: tc.rules,
				mode: "learn", learnInput: tc.format, shards: 2, failuresFormat: "tsv"}
			if tc.jsonl {
				cfg.failuresFormat = "jsonl"
			}
			var summary bytes.Buffer
			if err := run(context.Background(), cfg, &summary); err != nil {
				t.Fatal(err)
			}
			readShards(t, cfg.output, 1) // one file, whatever -shards
			got, err := os.ReadFile(shardName(cfg.output, 0, 1))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != stdout {
				t.Errorf("canon-beam -mode learn wrote\n%s\ncanon -learn\n%s", got, stdout)
			}
			sameLines(t, "failures", readShards(t, cfg.failuresPrefix(), 2), wantFailures)
			wantLine := strings.Replace(wantSummary, "\n", " ("+cfg.failuresPrefix()+"-*)\n", 1)
			if summary.String() != wantLine {
				t.Errorf("summary %q, want %q", summary.String(), wantLine)
			}
		})
	}
}

// TestLearnUsageErrors checks the flags -mode learn refuses before any
// pipeline runs, and the ones it takes.
func TestLearnUsageErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "captures.txt")
	if err := os.WriteFile(in, []byte("http://a/\tsha1:X\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rules := filepath.Join(dir, "rules.json")
	if err := os.WriteFile(rules, []byte(`{"TrackingParams": ["ref"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sessionRules := filepath.Join(dir, "session.json")
	if err := os.WriteFile(sessionRules, []byte(`{"SessionParams": ["visit"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	good := config{input: in, output: filepath.Join(dir, "out"), profile: "crawler", mode: "learn", learnInput: "pairs", shards: 1, failuresFormat: "tsv"}
	for _, tc := range []struct {
		what   string
		change func(*config)
	}{
		{"no -learn-input", func(c *config) { c.learnInput = "" }},
		{"unknown -learn-input", func(c *config) { c.learnInput = "warc" }},
		{"a URL as -learn-input", func(c *config) { c.learnInput = "http://u:s3cr3tPw@h/" }},
		{"-learn-input in upper case", func(c *config) { c.learnInput = "CDX" }},
		{"-learn-input without -mode learn", func(c *config) { c.mode = "keys" }},
		{"the default profile", func(c *config) { c.profile = "rfc3986" }},
		{"a profile that reads no rules", func(c *config) { c.profile = "whatwg" }},
		{"-base", func(c *config) { c.base = "https://h/" }},
		{"-pairs", func(c *config) { c.pairs = true }},
		{"-hash", func(c *config) { c.hash = 4 }},
		{"rules the profile does not read", func(c *config) { c.profile, c.rules = "archive", rules }},
		{"no input", func(c *config) { c.input = "" }},
	} {
		cfg := good
		tc.change(&cfg)
		if _, err := buildPipeline(context.Background(), &cfg); !errors.Is(err, errUsage) || strings.Contains(err.Error(), "s3cr3tPw") {
			t.Errorf("%s: err %v, want a usage error without a password", tc.what, err)
		}
	}
	for _, change := range []func(*config){
		func(c *config) {},
		func(c *config) { c.learnInput = "cdx" },
		func(c *config) { c.learnInput, c.profile = "cdxj", "archive" },
		func(c *config) { c.learnInput, c.profile, c.rules = "crawl-log", "aggressive", sessionRules },
		func(c *config) { c.shards, c.failuresFormat = 3, "jsonl" },
	} {
		cfg := good
		change(&cfg)
		if _, err := buildPipeline(context.Background(), &cfg); err != nil {
			t.Errorf("good config %+v: %v", cfg, err)
		}
	}
}
