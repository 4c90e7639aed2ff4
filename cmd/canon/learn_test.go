package main

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
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
	// A format's name that holds a password (a URL given to the wrong
	// flag) is quoted without it.
	const pw = "s3cr3tPw"
	for _, name := range []string{"http://u:" + pw + "@h/", "u:" + pw + "@h", "a?b=http://u:" + pw + "@h/", "u:" + pw + "%40h"} {
		_, errOut, code := canonCmd(t, "", "-learn", "-learn-input", name)
		if code != 2 || strings.Contains(errOut, pw) || !strings.Contains(errOut, "want one of") {
			t.Errorf("canon -learn -learn-input %q: exit %d, stderr %q, want 2 and no password", name, code, errOut)
		}
	}
}

// The cases of "What was found" in the review of the learner, each run
// through the command as a user would: the rules it writes must load
// with -rules and never merge two captures of different pages (by the
// planted truth) or, on the real fixture, of different digests. These
// tests use the command and the library's root package only.

// foundCapture is a capture with the page it shows.
type foundCapture struct {
	url, digest, page string
	t                 time.Time
	status            int
}

// foundDigest is the digest of a page's content.
func foundDigest(page string) string {
	sum := sha1.Sum([]byte(page))
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

var foundT0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// foundTime is a random time in 2024.
func foundTime(r *rand.Rand) time.Time {
	return foundT0.Add(time.Duration(r.Int64N(int64(365 * 24 * time.Hour))))
}

// pairsIndex writes captures as "url TAB digest TAB time" lines.
func pairsIndex(cs []foundCapture) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s\t%s\t%s\n", c.url, c.digest, c.t.Format("20060102150405"))
	}
	return b.String()
}

// cdxIndexLines writes captures as CDX lines (11 fields, no header),
// sorted as an archive sorts an index when sorted is set.
func cdxIndexLines(cs []foundCapture, sorted bool) []string {
	var lines []string
	for _, c := range cs {
		key, err := canon.Normalize(c.url, canon.Archive)
		if err != nil {
			key = c.url
		}
		surt, err := canon.SURT(key)
		if err != nil {
			surt = "-"
		}
		status := c.status
		if status == 0 {
			status = 200
		}
		lines = append(lines, fmt.Sprintf("%s %s %s text/html %d %s - - 1000 0 x.warc.gz",
			surt, c.t.Format("20060102150405"), c.url, status, strings.TrimPrefix(c.digest, "sha1:")))
	}
	if sorted {
		slices.Sort(lines)
	}
	return lines
}

// learnCmd runs canon -learn on the index (extra arguments after) and
// returns the rules it wrote, its standard error, its report and its
// exit status.
func learnCmd(t *testing.T, index string, args ...string) (canon.Rules, string, string, int) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report.jsonl")
	out, errOut, code := canonCmd(t, index, append([]string{"-learn", "-learn-report", report}, args...)...)
	var rules canon.Rules
	if code == 0 {
		if err := json.Unmarshal([]byte(out), &rules); err != nil {
			t.Fatalf("canon -learn wrote %q: %v (stderr %q)", out, err, errOut)
		}
	}
	b, _ := os.ReadFile(report)
	return rules, errOut, string(b), code
}

// falseMerges returns the pairs of captures of different pages that the
// rules merge and Crawler keeps apart, with an example; the rules must
// load (as -rules loads them).
func falseMerges(t *testing.T, rules canon.Rules, cs []foundCapture) (int, string) {
	t.Helper()
	p, err := canon.Crawler.WithRules(rules)
	if err != nil {
		t.Fatalf("the learned rules do not load: %v", err)
	}
	byKey := map[string][]foundCapture{}
	for _, c := range cs {
		if c.status != 0 && c.status != 200 || c.page == "" {
			continue
		}
		k, err := canon.Normalize(c.url, p)
		if err != nil {
			continue
		}
		byKey[k] = append(byKey[k], c)
	}
	n, example := 0, ""
	for _, g := range byKey {
		pages := map[string]string{}
		for _, c := range g {
			pages[c.page] = c.url
		}
		if len(pages) > 1 {
			n += len(pages) - 1
			if example == "" {
				for page, u := range pages {
					example += u + " (" + page + ") "
				}
			}
		}
	}
	return n, example
}

// rareLangSite is a host whose "lang" values en, en-us, en-gb, en_gb and
// english show one page but fr and de (rate of the captures each), most
// of their URLs captured once, show others; "from" is a click tag.
func rareLangSite(r *rand.Rand, host string, n int, rate float64) []foundCapture {
	english := []string{"en", "en-us", "en-gb", "en_gb", "english"}
	tags := []string{"home", "nav", "mail", "footer"}
	var cs []foundCapture
	for range n {
		id := r.IntN(n / 4)
		lang, class := english[r.IntN(len(english))], "en"
		switch x := r.Float64(); {
		case x < rate:
			lang, class = "fr", "fr"
		case x < 2*rate:
			lang, class = "de", "de"
		}
		u := fmt.Sprintf("http://%s/doc?id=%d&lang=%s", host, id, lang)
		if r.IntN(2) == 0 {
			u += "&from=" + tags[r.IntN(len(tags))]
		}
		page := fmt.Sprintf("%s %d %s", host, id, class)
		cs = append(cs, foundCapture{url: u, digest: foundDigest(page), page: page, t: foundTime(r)})
	}
	return cs
}

// clampSite is a host of listings whose pages past the first show the
// first, but for paginating of cats listings; each URL captured 1 to 3
// times, mostly 3.
func clampSite(r *rand.Rand, host string, cats, paginating int) []foundCapture {
	var cs []foundCapture
	for c := range cats {
		for p := 1; p <= 3; p++ {
			page := fmt.Sprintf("%s %d 1", host, c)
			if c < paginating {
				page = fmt.Sprintf("%s %d %d", host, c, p)
			}
			for range []int{1, 2, 2, 2, 3, 3, 3, 3, 3, 3}[r.IntN(10)] {
				u := fmt.Sprintf("http://%s/list?cat=%d&page=%d", host, c, p)
				if r.IntN(2) == 0 {
					u += fmt.Sprintf("&ref=t%d", r.IntN(4))
				}
				cs = append(cs, foundCapture{url: u, digest: foundDigest(page), page: page, t: foundTime(r)})
			}
		}
	}
	return cs
}

// TestLearnFoundRareValues (found 1): rare values that name pages veto
// the rule however many pairs agree, and the refusal is in the report
// and on standard error.
func TestLearnFoundRareValues(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 1))
	for _, c := range []struct {
		name, host, param string
		caps              []foundCapture
	}{
		{"rare languages", "lang.test", "lang", rareLangSite(r, "lang.test", 8000, 0.003)},
		{"clamped pagination", "list.test", "page", clampSite(r, "list.test", 300, 3)},
	} {
		t.Run(c.name, func(t *testing.T) {
			rules, errOut, report, code := learnCmd(t, pairsIndex(c.caps))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if n, ex := falseMerges(t, rules, c.caps); n > 0 {
				t.Errorf("the rules %v merge %d pages with others, e.g. %s", rules.Hosts, n, ex)
			}
			if slices.Contains(rules.Hosts[c.host].TrackingParams, c.param) {
				t.Errorf("%s learned on %s", c.param, c.host)
			}
			if !strings.Contains(report, `"Params":["`+c.param+`"],"Verdict":"refused"`) {
				t.Errorf("the report has no refusal of %s:\n%.3000s", c.param, report)
			}
			if !strings.Contains(errOut, "canon: refused "+c.param+" on "+c.host) {
				t.Errorf("standard error does not name the refusal of %s:\n%s", c.param, errOut)
			}
		})
	}
}

// TestLearnFoundOrder (found 2): the same captures sorted, by time,
// shuffled, or as two sorted indexes concatenated give the same rules,
// and a host split over two files is judged on all its captures: one
// file's agreeing pairs do not outvote the other's counterexamples.
func TestLearnFoundOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 2))
	tags := []string{"home", "nav", "mail", "footer"}
	var one, two []foundCapture
	// In one file, "view" agrees on every page; in the other, it names
	// the pages (a list and a grid show other items).
	for p := range 12 {
		for _, view := range []string{"list", "grid", "table", "cards"} {
			page := fmt.Sprintf("v.test %d", p)
			one = append(one, foundCapture{url: fmt.Sprintf("http://v.test/cat?id=%d&view=%s", p, view), digest: foundDigest(page), page: page, t: foundTime(r)})
		}
	}
	for p := 100; p < 180; p++ {
		for _, view := range []string{"list", "grid"} {
			page := fmt.Sprintf("v.test %d %s", p, view)
			two = append(two, foundCapture{url: fmt.Sprintf("http://v.test/cat?id=%d&view=%s", p, view), digest: foundDigest(page), page: page, t: foundTime(r)})
		}
	}
	// And a host whose click tag is learned, in both files.
	for p := range 30 {
		page := fmt.Sprintf("s.test %d", p)
		for k := range 3 {
			c := foundCapture{url: fmt.Sprintf("http://s.test/item?id=%d&from=%s", p, tags[(p+k)%4]), digest: foundDigest(page), page: page, t: foundTime(r)}
			if k == 1 {
				two = append(two, c)
			} else {
				one = append(one, c)
			}
		}
	}
	all := slices.Concat(one, two)
	sorted := cdxIndexLines(all, true)
	byTime := slices.Clone(sorted)
	slices.SortStableFunc(byTime, func(a, b string) int { return strings.Compare(strings.Fields(a)[1], strings.Fields(b)[1]) })
	shuffled := slices.Clone(sorted)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	concatenated := slices.Concat(cdxIndexLines(one, true), cdxIndexLines(two, true))
	want, errOut, _, code := learnCmd(t, strings.Join(sorted, "\n")+"\n")
	if code != 0 || !slices.Equal(want.Hosts["s.test"].TrackingParams, []string{"from"}) {
		t.Fatalf("sorted: rules %v, exit %d, %s; want from on s.test", want.Hosts, code, errOut)
	}
	for name, lines := range map[string][]string{"sorted": sorted, "by time": byTime, "shuffled": shuffled, "two sorted files concatenated": concatenated} {
		rules, errOut, _, code := learnCmd(t, strings.Join(lines, "\n")+"\n")
		if code != 0 || !reflect.DeepEqual(rules, want) {
			t.Errorf("%s: rules %v (exit %d, %s), want %v", name, rules.Hosts, code, errOut, want.Hosts)
		}
		if n, ex := falseMerges(t, rules, all); n > 0 {
			t.Errorf("%s: the rules %v merge %d pages with others, e.g. %s", name, rules.Hosts, n, ex)
		}
	}
}

// TestLearnFoundHostSpellings (found 3): example.com. and example.com,
// or an opaque host in two letter cases, are one host to canon.Rules,
// and are judged as one.
func TestLearnFoundHostSpellings(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 3))
	for _, c := range []struct{ same, other string }{
		{"http://example.com./p?trk=%d", "http://example.com/p?trk=%d"},
		{"foo://EXAMPLE.com/p?trk=%d", "foo://example.com/p?trk=%d"},
		{"http://example.org/p?trk=%d", "http://EXAMPLE.org./p?trk=%d"},
	} {
		var cs []foundCapture
		for n := range 10 {
			cs = append(cs, foundCapture{url: fmt.Sprintf(c.same, n), digest: foundDigest("one"), page: "one", t: foundTime(r)})
			page := fmt.Sprintf("page %d", n)
			cs = append(cs, foundCapture{url: fmt.Sprintf(c.other, n), digest: foundDigest(page), page: page, t: foundTime(r)})
		}
		rules, errOut, _, code := learnCmd(t, pairsIndex(cs))
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.same, code, errOut)
		}
		if n, ex := falseMerges(t, rules, cs); n > 0 {
			t.Errorf("%s and %s: the rules %v merge %d pages with others, e.g. %s", c.same, c.other, rules.Hosts, n, ex)
		}
	}
}

// TestLearnFoundPasswords (found 4): no error text of -learn carries a
// password: not a malformed line's, in any format and field, nor the
// one of a line that shows no format.
func TestLearnFoundPasswords(t *testing.T) {
	const secret = "s3cr3tPw"
	for _, in := range []string{
		"http://user:" + secret + "@h.test/a detected by nothing\nhttp://h.test/\tsha1:AAAA\n",
		"com,h)/ 2024xx01120000 http://user:" + secret + "@h.test/ text/html 200 AAAA - - 1 2 f.warc.gz\n",
		"com,h)/ 20240501120000 http://user:" + secret + "@h.test/ text/html 2OO AAAA - - 1 2 f.warc.gz\n",
		"com,h)/ 20240501120000 http://h.test/ text/html http://user:" + secret + "@h.test/ AAAA - - 1 2 f.warc.gz\n",
		"com,h)/ http://user:" + secret + "@h.test/ http://h.test/ text/html 200 AAAA - - 1 2 f.warc.gz\n",
		`com,h)/ 20240501120000 {"url": "http://user:` + secret + `@h.test/", "status": "two hundred"}` + "\n",
		`com,h)/ 20240501120000 {"url": "http://h.test/", "status": "http://user:` + secret + `@h.test/"}` + "\n",
		`com,h)/ 2024-05-01 {"url": "http://user:` + secret + `@h.test/"}` + "\n",
		`com,h)/ 20240501120000 {"url": "http://user:` + secret + `@h.test/ x"}` + "\n",
		"2024-05-01T12:00:00Z OK 1 http://user:" + secret + "@h.test/ - - text/html #1 - sha1:A - -\n",
		"http://user:" + secret + "@h.test/\tAAAA\tyesterday\n",
		"http://user:" + secret + "@h.test/\tAAAA\thttp://user:" + secret + "@h.test/\n",
		"http://h.test/\tAAAA\n http://user:" + secret + "@h.test/ y\tAAAA\n",
	} {
		_, errOut, code := canonCmd(t, in, "-learn")
		if strings.Contains(errOut, secret) || !strings.Contains(errOut, "line") {
			t.Errorf("canon -learn on %q: exit %d, standard error %q: want the line reported, its password masked", in, code, errOut)
		}
	}
}

// TestLearnFoundUnnamedHosts (found 5): hosts canon.Rules cannot name
// get no rule, and every rules file -learn writes loads with -rules.
func TestLearnFoundUnnamedHosts(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 5))
	tags := []string{"home", "nav", "mail", "footer"}
	var cs []foundCapture
	for _, host := range []string{"foo://h..example", "foo://b\u00fccher.example", "foo://a_b!$", "foo://1.2.3.4.5", "http://ok.test"} {
		for p := range 20 {
			page := fmt.Sprintf("%s %d", host, p)
			for k := range 3 {
				cs = append(cs, foundCapture{url: fmt.Sprintf("%s/item?id=%d&from=%s", host, p, tags[(p+k)%4]), digest: foundDigest(page), page: page, t: foundTime(r)})
			}
		}
	}
	rules, errOut, _, code := learnCmd(t, pairsIndex(cs))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !slices.Equal(rules.Hosts["ok.test"].TrackingParams, []string{"from"}) {
		t.Errorf("rules %v: want from on ok.test", rules.Hosts)
	}
	b, _ := json.Marshal(rules)
	file := writeTestFile(t, t.TempDir(), "rules.json", string(b))
	if out, errOut, code := canonCmd(t, "", "-p", "crawler", "-rules", file, "http://ok.test/item?id=1&from=nav"); code != 0 || out != "http://ok.test/item?id=1\n" {
		t.Errorf("canon -rules (learned): %q, exit %d, %s", out, code, errOut)
	}
}

// TestLearnFoundLongLine (found 6): a capture line over 1 MiB (its URL
// under canon.MaxLength) is read, not the end of the run.
func TestLearnFoundLongLine(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 6))
	tags := []string{"home", "nav", "mail", "footer"}
	var cs []foundCapture
	for p := range 20 {
		page := fmt.Sprintf("page %d", p)
		for k := range 3 {
			cs = append(cs, foundCapture{url: fmt.Sprintf("http://s.test/item?id=%d&from=%s", p, tags[(p+k)%4]), digest: foundDigest(page), page: page, t: foundTime(r)})
		}
	}
	long := "http://long.test/?q=" + strings.Repeat("a", 3<<19) + "\tAAAA\t20240101000000\n"
	rules, errOut, _, code := learnCmd(t, long+pairsIndex(cs)+long)
	if code != 0 || !slices.Equal(rules.Hosts["s.test"].TrackingParams, []string{"from"}) {
		t.Errorf("exit %d, rules %v, stderr %q: want 0 and from on s.test", code, rules.Hosts, errOut)
	}
}

// TestLearnFoundBigHost (found 6): a host with more captures on one path
// than the learner judges is sampled within the path, never to nothing.
func TestLearnFoundBigHost(t *testing.T) {
	if testing.Short() {
		t.Skip("learns 100,001 captures")
	}
	r := rand.New(rand.NewPCG(43, 7))
	var b strings.Builder
	for n := range 100_001 {
		id := n % 50
		fmt.Fprintf(&b, "http://big.test/p?id=%d&sid=%d\t%s\t%s\n", id, r.IntN(1<<30), foundDigest(fmt.Sprint("item ", id)), foundTime(r).Format("20060102150405"))
	}
	rules, errOut, _, code := learnCmd(t, b.String())
	if code != 0 || !slices.Equal(rules.Hosts["big.test"].TrackingParams, []string{"sid"}) {
		t.Errorf("exit %d, rules %v, stderr %q: want sid on big.test", code, rules.Hosts, errOut)
	}
}

// TestLearnFoundManyHosts (found 6): the memory of -learn does not grow
// with the number of hosts of a sorted CDX index, but up to what the
// learner holds before it writes the captures to a temporary file:
// 400,000 hosts of one capture each take less than 200 MB (the starting
// commit: 503 MB here; 318 MB for 250,000).
func TestLearnFoundManyHosts(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("400,000 captures; the peak memory as Linux reports it")
	}
	in := filepath.Join(t.TempDir(), "index.cdx")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(" CDX N b a m s k r M S V g\n")
	for h := range 400_000 { // (in SURT order)
		fmt.Fprintf(w, "test,h%07d)/p?q=1 20240101000000 http://h%07d.test/p?q=1 text/html 200 AAAA - - 1 2 f.warc.gz\n", h, h)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cmd := exec.Command(binary, "-learn", "-f", in)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The process's own high-water mark (VmHWM), read until it ends: its
	// rusage would count this test's memory, which it starts from.
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	var hwm int64
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%v: %s", err, errOut.String())
			}
			running = false
		case <-time.After(2 * time.Millisecond):
			b, _ := os.ReadFile(status)
			for _, l := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
					var kb int64
					fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb)
					hwm = max(hwm, kb<<10)
				}
			}
		}
	}
	t.Logf("400,000 hosts: peak RSS %d MB; %s", hwm>>20, strings.TrimSpace(errOut.String()))
	if hwm == 0 || hwm > 200<<20 {
		t.Errorf("peak RSS %d MB for 400,000 hosts of one capture each, want < 200 MB", hwm>>20)
	}
}

// TestLearnFoundNearMiss (found 7): a set that nothing refuses but that
// has too little evidence is in the report as a near miss:
// playlist_url on www.archive.org, in the real fixture of an archive's
// CDX, 4 agreeing pairs of the 5 a rule needs.
func TestLearnFoundNearMiss(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "learn", "testdata", "real", "aut-example-arc.cdx"))
	if err != nil {
		t.Fatal(err)
	}
	_, errOut, report, code := learnCmd(t, string(b))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(report, `{"Host":"www.archive.org","Params":["playlist_url"],"Verdict":"near miss","Why":"4 agreeing pairs of the 5 a rule needs"`) {
		t.Errorf("no near miss for playlist_url in the report:\n%.4000s", report)
	}
}

// TestLearnInterrupted: the captures -learn cannot hold go to a
// temporary directory of $TMPDIR, which an interrupt removes, as sort(1)
// removes its files; the exit status is 130.
func TestLearnInterrupted(t *testing.T) {
	if testing.Short() || runtime.GOOS == "windows" {
		t.Skip("writes 500,000 captures to a pipe; sends an interrupt")
	}
	tmp := t.TempDir()
	cmd := exec.Command(binary, "-learn", "-learn-input", "pairs")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(stdin)
	for n := range 500_000 {
		fmt.Fprintf(w, "http://h%d.test/page-with-a-longer-path?id=%d&from=home\tsha1:%032d\t20240101000000\n", n%1000, n, n)
	}
	w.Flush() // (stdin stays open: the command is still reading)
	var runs []string
	for start := time.Now(); len(runs) == 0 && time.Since(start) < time.Minute; time.Sleep(20 * time.Millisecond) {
		runs, _ = filepath.Glob(filepath.Join(tmp, "canon-learn-*", "run-*"))
	}
	if len(runs) == 0 {
		t.Fatalf("no spill file in %s after a minute", tmp)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	stdin.Close()
	if code := exitStatus(t, err); code != 130 {
		t.Errorf("exit %d after an interrupt, want 130 (%s)", code, errOut.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("%s holds %v after the interrupt", tmp, left)
	}
}

// TestLearnSummarySampled: the summary's count of the captures a sample
// left out names both bounds of a host's sample (a host of fewer than
// 100000 captures is sampled when they take more than 64 MiB).
func TestLearnSummarySampled(t *testing.T) {
	var b bytes.Buffer
	printLearnSummary(&b, learn.Stats{Captures: 12, Sampled: 3, Hosts: 1}, 12, 0, 0, nil)
	if !strings.Contains(b.String(), ", 3 out of the sample of a host with more than 100000 captures or 64 MiB of them)") {
		t.Errorf("summary %q", b.String())
	}
}
