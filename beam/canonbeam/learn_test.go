package canonbeam

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/learn"
)

func init() {
	register.Function1x1(formatCapture)
}

// formatCapture writes every field of a Capture, for passert.
func formatCapture(c Capture) string {
	return strings.Join([]string{c.URL, strconv.FormatInt(c.UnixNano, 10), strconv.Itoa(c.Status), c.Digest}, "\t")
}

// learnTestCaptures are captures of five hosts, in a shuffled order: on
// shop.test the click tag "from" does not change the page (15 pages, 3
// captures each, one digest a page), on news.test it does (the digest
// changes with it), and on www.blog.test (a host Crawler's keys keep the
// www. of) it does not either; on dom.test it does not, but on its
// subdomain news.dom.test it does, so that dom.test gets no rule (a
// host's rules would apply to its subdomain: learn.Merge); then a status 301 capture of shop.test
// with another digest, a 302 redirect of www.blog.test with the empty
// payload's digest, captures of news.test without a digest or with the
// empty payload's, and captures whose URL canon refuses.
func learnTestCaptures() []learn.Capture {
	tags := []string{"home", "nav", "mail", "footer", "side"}
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	var cs []learn.Capture
	n := 0
	for _, h := range []string{"shop.test", "news.test", "www.blog.test", "dom.test", "news.dom.test"} {
		for p := 0; p < 15; p++ {
			for k := 0; k < 3; k++ {
				n++
				u := fmt.Sprintf("http://%s/item?id=%d&from=%s", h, p, tags[n%len(tags)])
				d := fmt.Sprintf("sha1:%sPAGE%02d", strings.ToUpper(h[:4]), p)
				if strings.HasPrefix(h, "news.") {
					d += strings.ToUpper(tags[n%len(tags)])
				}
				cs = append(cs, learn.Capture{URL: u, Time: t0.Add(time.Duration(n) * time.Minute), Status: 200, Digest: d})
			}
		}
	}
	cs = append(cs,
		learn.Capture{URL: "http://shop.test/item?id=3&from=ad", Time: t0.Add(time.Hour), Status: 301, Digest: "sha1:REDIRECTXXXX"},
		learn.Capture{URL: "http://www.blog.test/item?id=1&from=x", Time: t0.Add(2 * time.Hour), Status: 302, Digest: "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"},
		learn.Capture{URL: "http://news.test/item?id=1&from=home", Time: t0.Add(time.Hour), Status: 200, Digest: "-"},
		learn.Capture{URL: "http://news.test/item?id=2&from=home", Status: 200, Digest: "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"},
		learn.Capture{URL: "http://h:8x/item?from=home", Time: t0, Status: 200, Digest: "sha1:PORT"},
		learn.Capture{URL: "/relative?from=home", Time: t0, Status: 200, Digest: "sha1:REL"},
	)
	rand.New(rand.NewSource(7)).Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	return cs
}

// refusedURLs is the number of learnTestCaptures whose URL learn.Host
// refuses under Crawler and Archive.
const refusedURLs = 2

// wantRules is what canon -learn writes for the captures under p: one
// learner over them all.
func wantRules(t *testing.T, p canon.Profile, cs []learn.Capture) (canon.Rules, string) {
	t.Helper()
	l := learn.New(learn.Options{Profile: p})
	for _, c := range cs {
		l.Add(c)
	}
	r, err := l.Learn(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return r, string(b) + "\n"
}

// learnCounter returns the sum of the canon.learn counter name in res.
func learnCounter(res beam.PipelineResult, name string) int64 {
	var n int64
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "canon.learn" && c.Name() == name {
			n += c.Result()
		}
	}
	return n
}

// TestLearnRules checks LearnRules against one learn.Learner over the
// same captures, under Crawler (TrackingParams), Crawler with rules of
// its own (which must reach the workers: they make a parameter the
// learner no longer sees) and Archive (SessionParams): the one element
// is the library's rules as canon -learn writes them, and the counters
// count the hosts and the refused URLs.
func TestLearnRules(t *testing.T) {
	cs := learnTestCaptures()
	withRules, err := canon.Crawler.WithRules(canon.Rules{Hosts: map[string]canon.Rules{"blog.test": {TrackingParams: []string{"from"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    canon.Profile
		want canon.Rules // nil Hosts: not checked
	}{
		{"crawler", canon.Crawler, canon.Rules{Hosts: map[string]canon.Rules{
			"shop.test": {TrackingParams: []string{"from"}}, "www.blog.test": {TrackingParams: []string{"from"}}}}},
		{"crawler-rules", withRules, canon.Rules{Hosts: map[string]canon.Rules{
			"shop.test": {TrackingParams: []string{"from"}}}}},
		{"archive", canon.Archive, canon.Rules{}},
		{"zero", canon.Profile{}, canon.Rules{Hosts: map[string]canon.Rules{
			"shop.test": {TrackingParams: []string{"from"}}, "www.blog.test": {TrackingParams: []string{"from"}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, want := wantRules(t, tc.p, cs)
			if tc.want.Hosts != nil && !reflect.DeepEqual(r, tc.want) {
				t.Fatalf("the library learned %+v, want %+v: the test's captures do not test what they should", r, tc.want)
			}
			in := make([]Capture, len(cs))
			for i, c := range cs {
				in[i] = CaptureOf(c)
			}
			p, s := beam.NewPipelineWithRoot()
			out := LearnRules(s, tc.p, beam.CreateList(s, in))
			passert.Equals(s, out, want)
			res := ptest.RunAndValidate(t, p)
			if got := learnCounter(res, "no-host"); got != refusedURLs {
				t.Errorf("canon.learn/no-host = %d, want %d", got, refusedURLs)
			}
			if got := learnCounter(res, "hosts"); got != 5 {
				t.Errorf("canon.learn/hosts = %d, want 5", got)
			}
			if got := learnCounter(res, "rule-hosts"); got != int64(len(r.Hosts)) {
				t.Errorf("canon.learn/rule-hosts = %d, want %d", got, len(r.Hosts))
			}
			if got := learnCounter(res, "skipped-status"); got != 2 {
				t.Errorf("canon.learn/skipped-status = %d, want 2", got)
			}
		})
	}
}

// TestLearnRulesEmpty checks that no captures, or none with a host, give
// one element all the same: "{}".
func TestLearnRulesEmpty(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	none := beam.CreateList(s, []Capture{})
	passert.Equals(s, LearnRules(s, canon.Crawler, none), "{}\n")
	refused := beam.CreateList(s, []Capture{{URL: "http://h:8x/", Status: 200, Digest: "sha1:X"}})
	passert.Equals(s, LearnRules(s, canon.Crawler, refused), "{}\n")
	ptest.RunAndValidate(t, p)
}

// TestLearnRulesPanics checks that LearnRules refuses, while the
// pipeline is built, a profile that would not reach the workers intact.
func TestLearnRulesPanics(t *testing.T) {
	p, err := canon.Crawler.WithRules(canon.Rules{TrackingParams: []string{"ref"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		r := recover()
		if msg := fmt.Sprint(r); !strings.HasPrefix(msg, "canonbeam.LearnRules: ") || !strings.Contains(msg, "cannot be carried to the workers") {
			t.Errorf("panic %q", msg)
		}
	}()
	saved := specHook
	specHook = func(spec profileSpec) profileSpec { spec.Rules = ""; return spec }
	defer func() { specHook = saved }()
	_, s := beam.NewPipelineWithRoot()
	LearnRules(s, p, beam.CreateList(s, []Capture{{URL: "http://h/"}}))
}

// TestCaptureConversion checks that a Capture carries what a learner
// reads of a learn.Capture: the time to the nanosecond, the zero time as
// unknown.
func TestCaptureConversion(t *testing.T) {
	for _, c := range []learn.Capture{
		{URL: "http://h/", Time: time.Date(2024, 5, 1, 12, 0, 0, 123456789, time.UTC), Status: 200, Digest: "sha1:X"},
		{URL: "http://h/", Time: time.Date(1999, 1, 1, 0, 0, 0, 0, time.FixedZone("x", 3600))},
		{URL: "http://h/", Status: 404},
	} {
		back := CaptureOf(c).Learn()
		if back.URL != c.URL || back.Status != c.Status || back.Digest != c.Digest || !back.Time.Equal(c.Time) || back.Time.IsZero() != c.Time.IsZero() {
			t.Errorf("%+v came back as %+v", c, back)
		}
	}
}

// indexLines writes the captures as the lines of an index in format f
// (the CDX in its 11 fields), as the indexes write them.
func indexLines(cs []learn.Capture, f learn.Format) []string {
	var lines []string
	for _, c := range cs {
		ts := "-"
		if !c.Time.IsZero() {
			ts = c.Time.Format("20060102150405")
		}
		switch f {
		case learn.CDX:
			lines = append(lines, fmt.Sprintf("- %s %s text/html %d %s - - 100 200 x.warc.gz", ts, c.URL, c.Status, strings.TrimPrefix(c.Digest, "sha1:")))
		case learn.CDXJ:
			if ts == "-" {
				ts = "2024"
			}
			lines = append(lines, fmt.Sprintf("- %s {\"url\": %q, \"status\": \"%d\", \"digest\": %q}", ts, c.URL, c.Status, c.Digest))
		case learn.CrawlLog:
			lt := c.Time
			if lt.IsZero() {
				lt = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
			}
			lines = append(lines, fmt.Sprintf("%s %d 1234 %s L http://x.test/ text/html #001 %s000+12 %s - -",
				lt.Format("2006-01-02T15:04:05.000Z"), c.Status, c.URL, lt.Format("20060102150405"), c.Digest))
		case learn.Pairs:
			lines = append(lines, fmt.Sprintf("%s\t%s\t%s", c.URL, c.Digest, ts))
		}
	}
	return lines
}

// TestParseCaptures checks, in each format, that ParseCaptures reads
// each line as learn.ReadCaptures reads the whole index (the captures,
// and a failure for each line it skips as malformed, with why), skips
// empty lines, comments and CDX headers in the default order, fails a
// CDX header in another, and that the rules learned from what it reads
// are the library's.
func TestParseCaptures(t *testing.T) {
	cs := learnTestCaptures()
	malformedLines := map[learn.Format][]string{
		learn.CDX:      {"- 20240501120000 http://h/ text/html 200", "- 2024xx01120000 http://h/ text/html 200 D - - 1 2 f", " CDX N b a m s k r M S V zz"},
		learn.CDXJ:     {"- 20240501120000 [1]", `- 20240501120000 {"status": "200"}`},
		learn.CrawlLog: {"2024-05-01T12:00:00.000Z 200 1234 http://h/", "yesterday 200 1 http://h/ L - text/html #1 20240501120000000+1 sha1:X - -"},
		learn.Pairs:    {"no tab here", "http://h/\tsha1:X\tlater", "http://h/\tsha1:X\t1\t2"},
	}
	for _, f := range learn.Formats() {
		t.Run(string(f), func(t *testing.T) {
			lines := indexLines(cs, f)
			extra := append([]string{"", "# a comment", "  "}, malformedLines[f]...)
			if f == learn.CDX {
				extra = append(extra, " CDX N b a m s k r M S V g")
			}
			for i, l := range extra {
				at := (i * 17) % len(lines)
				lines = append(lines[:at], append([]string{l}, lines[at:]...)...)
			}
			lines[5] += "\r" // a CRLF line end, as textio leaves it

			var want, wantFailures []string
			var read []learn.Capture
			byLine := map[int]string{}
			for c, err := range learn.ReadCaptures(strings.NewReader(strings.Join(lines, "\n")), f) {
				var le *learn.LineError
				switch {
				case errors.As(err, &le):
					byLine[le.Line] = le.Reason
				case err != nil:
					t.Fatal(err)
				default:
					read = append(read, c)
					want = append(want, formatCapture(CaptureOf(c)))
				}
			}
			if len(read) != len(cs) || len(byLine) != len(malformedLines[f]) {
				t.Fatalf("the library read %d captures of %d and %d malformed lines of %d", len(read), len(cs), len(byLine), len(malformedLines[f]))
			}
			for n, why := range byLine {
				wantFailures = append(wantFailures, strings.Join([]string{lines[n-1], "ErrMalformed", why}, "\t"))
			}
			if f == learn.CDX {
				// The 9-field header in the default order is skipped
				// (the whole index would then want 9 fields a line);
				// a header the lines cannot be read by alone fails.
				lines = append(lines, " CDX N b a m s k r V g", " CDX N a b m s k r M S V g")
				wantFailures = append(wantFailures, " CDX N a b m s k r M S V g\terror\tCDX header with fields in an order other than the default (N b a m s k ...), which canonbeam.ParseCaptures cannot apply: each line is read alone")
			}
			_, wantJSON := wantRules(t, canon.Crawler, read)

			p, s := beam.NewPipelineWithRoot()
			captures, failures := ParseCaptures(s, f, beam.CreateList(s, lines))
			passert.Equals(s, beam.ParDo(s, formatCapture, captures), toAny(want)...)
			passert.Equals(s, beam.ParDo(s, formatMalformed, failures), toAny(wantFailures)...)
			passert.Equals(s, LearnRules(s, canon.Crawler, captures), wantJSON)
			res := ptest.RunAndValidate(t, p)
			for name, n := range map[string]int{"captures": len(want), "malformed": len(wantFailures), "ignored": len(lines) - len(want) - len(wantFailures)} {
				if got := learnCounter(res, name); got != int64(n) {
					t.Errorf("canon.learn/%s = %d, want %d", name, got, n)
				}
			}
		})
	}
}

func init() { register.Function1x1(formatMalformed) }

// formatMalformed writes the fields of a ParseCaptures failure.
func formatMalformed(f Failure) string {
	if f.Offset != -1 || f.Page != "" || f.Component != "" || !strings.HasPrefix(f.Error, "learn: ") && !strings.HasPrefix(f.Error, "canonbeam: ") {
		return "unexpected: " + formatFailure(f)
	}
	return strings.Join([]string{f.Input, f.Kind, f.Message}, "\t")
}

// TestParseCapturesPanics checks that ParseCaptures refuses, while the
// pipeline is built, a format it cannot read line by line.
func TestParseCapturesPanics(t *testing.T) {
	for _, f := range []learn.Format{"", "warc"} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "canonbeam.ParseCaptures: ") {
					t.Errorf("format %q: panic %v", f, r)
				}
			}()
			_, s := beam.NewPipelineWithRoot()
			ParseCaptures(s, f, beam.CreateList(s, []string{"x"}))
		}()
	}
}

// TestParseCapturesRedacts checks that the failures of malformed lines
// carry no password in their Error and Message, whatever field of the
// line holds it (Input is the line itself, the caller's own data).
func TestParseCapturesRedacts(t *testing.T) {
	const secret = "s3cr3tPw"
	lines := map[learn.Format][]string{
		learn.CDX: {
			"com,h)/ 2024xx01120000 http://user:" + secret + "@h.test/ text/html 200 AAAA - - 1 2 f.warc.gz",
			"com,h)/ 20240501120000 http://h.test/ text/html http://user:" + secret + "@h.test/ AAAA - - 1 2 f.warc.gz",
		},
		learn.CDXJ: {
			`com,h)/ 20240501120000 {"url": "http://user:` + secret + `@h.test/", "status": "two hundred"}`,
			`com,h)/ 20240501120000 {"url": "http://h.test/", "status": "http://user:` + secret + `@h.test/"}`,
			`com,h)/ 20240501120000 {"url": "http://user:` + secret + `@h.test/ x"}`,
		},
		learn.CrawlLog: {"2024-05-01T12:00:00Z OK 1 http://user:" + secret + "@h.test/ - - text/html #1 - sha1:A - -"},
		learn.Pairs:    {"http://user:" + secret + "@h.test/\tAAAA\thttp://user:" + secret + "@h.test/"},
	}
	for f, ls := range lines {
		p, s := beam.NewPipelineWithRoot()
		_, failures := ParseCaptures(s, f, beam.CreateList(s, ls))
		want := make([]any, len(ls))
		for i := range ls {
			want[i] = "no password"
		}
		passert.Equals(s, beam.ParDo(s, noPassword, failures), want...)
		ptest.RunAndValidate(t, p)
	}
}

func init() { register.Function1x1(noPassword) }

// noPassword says whether a failure's Error and Message are free of the
// password of TestParseCapturesRedacts.
func noPassword(f Failure) string {
	if strings.Contains(f.Error, "s3cr3tPw") || strings.Contains(f.Message, "s3cr3tPw") || f.Error == "" {
		return "password in " + f.Error
	}
	return "no password"
}
