package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/learn"
)

// learnCaptures are the captures of two hosts: on shop.test the click
// tag "from" does not change the page, on news.test it does (it is an
// offset into a list there).
func learnCaptures() []learn.Capture {
	tags := []string{"home", "nav", "mail", "footer"}
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	var cs []learn.Capture
	n := 0
	for _, h := range []string{"news.test", "shop.test"} {
		for p := 0; p < 12; p++ {
			for k := 0; k < 3; k++ {
				n++
				u := fmt.Sprintf("http://%s/item?id=%d&from=%s", h, p, tags[n%4])
				d := fmt.Sprintf("sha1:%sPAGE%02d", strings.ToUpper(h[:4]), p)
				if h == "news.test" {
					d += tags[n%4]
				}
				cs = append(cs, learn.Capture{URL: u, Time: t0.Add(time.Duration(n) * time.Minute), Status: 200, Digest: d})
			}
		}
	}
	return cs
}

// learnInput writes the captures in one of the formats -learn reads.
func learnInput(cs []learn.Capture, f learn.Format) string {
	var b strings.Builder
	switch f {
	case learn.CDX:
		b.WriteString(" CDX N b a m s k r M S V g\n")
	case learn.CrawlLog, learn.CDXJ, learn.Pairs:
	}
	for _, c := range cs {
		ts := c.Time.Format("20060102150405")
		digest := strings.TrimPrefix(c.Digest, "sha1:")
		switch f {
		case learn.CDX:
			fmt.Fprintf(&b, "- %s %s text/html %d %s - - 100 200 x.warc.gz\n", ts, c.URL, c.Status, digest)
		case learn.CDXJ:
			fmt.Fprintf(&b, "- %s {\"url\": %q, \"status\": \"%d\", \"digest\": %q}\n", ts, c.URL, c.Status, c.Digest)
		case learn.CrawlLog:
			fmt.Fprintf(&b, "%s %d 1234 %s L http://x.test/ text/html #001 %s000+12 %s - -\n",
				c.Time.Format("2006-01-02T15:04:05.000Z"), c.Status, c.URL, ts, c.Digest)
		case learn.Pairs:
			fmt.Fprintf(&b, "%s\t%s\t%s\n", c.URL, c.Digest, ts)
		}
	}
	return b.String()
}

// TestLearnFlag holds canon -learn to the library (learn.New fed
// through learn.ReadCaptures) on the same captures in each format, its
// report to Report, and its rules to what -rules then does: the pages of
// shop.test merge, those of news.test do not.
func TestLearnFlag(t *testing.T) {
	cs := learnCaptures()
	l := learn.New(learn.Options{Profile: canon.Crawler})
	for _, c := range cs {
		l.Add(c)
	}
	var findings []learn.Finding
	want, err := l.Learn(func(f learn.Finding) { findings = append(findings, f) })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want, canon.Rules{Hosts: map[string]canon.Rules{"shop.test": {TrackingParams: []string{"from"}}}}) {
		t.Fatalf("the library learned %+v from the test's captures, want from on shop.test", want)
	}
	dir := t.TempDir()
	for _, f := range learn.Formats() {
		t.Run(string(f), func(t *testing.T) {
			in := learnInput(cs, f)
			for _, args := range [][]string{{"-learn"}, {"-learn", "-learn-input", string(f)}} {
				report := filepath.Join(dir, string(f)+".jsonl")
				args = append(args, "-learn-report", report)
				out, errOut, code := canonCmd(t, in, args...)
				var got canon.Rules
				if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
					t.Fatalf("canon %s: %q, exit %d, stderr %q (%v)", strings.Join(args, " "), out, code, errOut, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("canon %s = %+v, want %+v", strings.Join(args, " "), got, want)
				}
				if !strings.Contains(errOut, fmt.Sprintf("canon: %d captures", len(cs))) {
					t.Errorf("canon %s: stderr %q, want the count of captures", strings.Join(args, " "), errOut)
				}
				b, err := os.ReadFile(report)
				if err != nil {
					t.Fatal(err)
				}
				var wantReport strings.Builder
				enc := json.NewEncoder(&wantReport)
				enc.SetEscapeHTML(false)
				for _, fd := range findings {
					if err := enc.Encode(fd); err != nil {
						t.Fatal(err)
					}
				}
				if string(b) != wantReport.String() {
					t.Errorf("canon %s: the report is\n%s\nwant\n%s", strings.Join(args, " "), b, wantReport.String())
				}
			}
		})
	}
	// The workflow: the rules -learn wrote, read by -rules.
	out, _, _ := canonCmd(t, learnInput(cs, learn.Pairs), "-learn")
	rules := writeTestFile(t, dir, "rules.json", out)
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"http://shop.test/item?id=3&from=nav", "http://shop.test/item?from=mail&id=3", true},
		{"http://news.test/item?id=3&from=nav", "http://news.test/item?id=3&from=mail", false},
	} {
		_, _, code := canonCmd(t, "", "-p", "crawler", "-rules", rules, "-equal", c.a, c.b)
		if (code == 0) != c.same {
			t.Errorf("canon -p crawler -rules (learned) -equal %s %s: exit %d, want same %v", c.a, c.b, code, c.same)
		}
	}
}

// TestLearnProfiles: -learn defaults to crawler and writes the list the
// profile reads (SessionParams under archive, which has no
// RemoveTrackingParams); a profile that reads neither is a usage error.
func TestLearnProfiles(t *testing.T) {
	in := learnInput(learnCaptures(), learn.Pairs)
	for _, c := range []struct {
		args []string
		want canon.Rules
	}{
		{[]string{"-learn"}, canon.Rules{Hosts: map[string]canon.Rules{"shop.test": {TrackingParams: []string{"from"}}}}},
		{[]string{"-learn", "-p", "archive"}, canon.Rules{Hosts: map[string]canon.Rules{"shop.test": {SessionParams: []string{"from"}}}}},
	} {
		out, errOut, code := canonCmd(t, in, c.args...)
		var got canon.Rules
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || !reflect.DeepEqual(got, c.want) {
			t.Errorf("canon %s: %q, exit %d, stderr %q; want %+v", strings.Join(c.args, " "), out, code, errOut, c.want)
		}
	}
}

// TestLearnUsage: what -learn cannot be used with exits 2 with a line
// that says why.
func TestLearnUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"-learn", "http://a.test/"}, "not URL arguments"},
		{[]string{"-learn", "-format", "tsv"}, "-format does not apply"},
		{[]string{"-learn", "-u"}, "cannot be used with"},
		{[]string{"-learn", "-p", "rfc3986"}, "neither RemoveTrackingParams nor RemoveSessionIDs"},
		{[]string{"-learn", "-learn-input", "warc"}, `-learn-input "warc": want one of cdx, cdxj, crawl-log, pairs`},
		{[]string{"-learn-report", "x.jsonl"}, "need -learn"},
	} {
		_, errOut, code := canonCmd(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, c.says) {
			t.Errorf("canon %s: exit %d, stderr %q, want 2 and %q", strings.Join(c.args, " "), code, errOut, c.says)
		}
	}
}
