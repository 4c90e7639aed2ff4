package learn

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
)

func utc(y int, mo time.Month, d, h, mi, s, ms int) time.Time {
	return time.Date(y, mo, d, h, mi, s, ms*int(time.Millisecond), time.UTC)
}

// readAll reads an index and returns its captures and the lines skip
// was called for.
func readAll(t *testing.T, in string, f Format) ([]Capture, []int, error) {
	t.Helper()
	var got []Capture
	var skipped []int
	for c, err := range ReadCaptures(strings.NewReader(in), f) {
		var le *LineError
		switch {
		case errors.As(err, &le):
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("line %d: %v: not ErrMalformed", le.Line, err)
			}
			skipped = append(skipped, le.Line)
		case err != nil:
			return got, skipped, err
		default:
			got = append(got, c)
		}
	}
	return got, skipped, nil
}

// firstError returns the first error ReadCaptures gives for in.
func firstError(in string, f Format) error {
	for _, err := range ReadCaptures(strings.NewReader(in), f) {
		if err != nil {
			return err
		}
	}
	return nil
}

const (
	d1 = "KZQ3PJDBUFLKWC6GBUE7ZZNEBR3EM55J"
	d2 = "OBQ7CNZ3RXKH2HYR5W3MUPLNQ4GXXPJZ"
)

func TestReadCaptures(t *testing.T) {
	t0 := utc(2024, 5, 1, 12, 0, 1, 0)
	tests := []struct {
		name string
		f    Format // "" and the detected format are both tried
		in   string
		want []Capture
	}{
		// CDX
		{"cdx11-no-header", CDX,
			"com,example)/ 20240501120001 http://example.com/ text/html 200 " + d1 + " - - 1043 333 EX-00000.warc.gz\n",
			[]Capture{{URL: "http://example.com/", Time: t0, Status: 200, Digest: d1}}},
		{"cdx11-header", CDX,
			" CDX N b a m s k r M S V g\n" +
				"com,example)/a?x=1 20240501120001 http://example.com/a?x=1 text/html 200 " + d1 + " - - 1043 333 EX-00000.warc.gz\n" +
				"com,example)/a?x=2 20240501120002 http://example.com/a?x=2 text/html 200 " + d2 + " - - 1044 1376 EX-00000.warc.gz\n",
			[]Capture{
				{URL: "http://example.com/a?x=1", Time: t0, Status: 200, Digest: d1},
				{URL: "http://example.com/a?x=2", Time: t0.Add(time.Second), Status: 200, Digest: d2},
			}},
		{"cdx9-no-header", CDX,
			"com,example)/page?id=1 20090315081522 http://www.example.com/page?id=1 text/html 200 " + d1 + " - 84357 EXAMPLE-20090315081233-00002.arc.gz\n",
			[]Capture{{URL: "http://www.example.com/page?id=1", Time: utc(2009, 3, 15, 8, 15, 22, 0), Status: 200, Digest: d1}}},
		{"cdx9-header", CDX,
			" CDX N b a m s k r V g\n" +
				"com,example)/page?id=1 20090315081522 http://www.example.com/page?id=1 text/html 200 " + d1 + " - 84357 EXAMPLE-20090315081233-00002.arc.gz\n",
			[]Capture{{URL: "http://www.example.com/page?id=1", Time: utc(2009, 3, 15, 8, 15, 22, 0), Status: 200, Digest: d1}}},
		{"cdx-header-without-space", CDX,
			"CDX N b a m s k r V g\n" +
				"com,example)/ 20090315081522 http://www.example.com/ text/html 200 " + d1 + " - 84357 EX.arc.gz\n",
			[]Capture{{URL: "http://www.example.com/", Time: utc(2009, 3, 15, 8, 15, 22, 0), Status: 200, Digest: d1}}},
		{"cdx-header-unusual-order", CDX,
			// The Alexa-era order: canonized URL, date, IP, original URL, mime, status, old checksum, new checksum, …
			" CDX A b e a m s c k r V v D d g M n\n" +
				"example.com/ 20010424210551 209.0.0.1 http://example.com/ text/html 200 - " + d1 + " - 1045 32710 - - DW-20010424.arc.gz - 3120\n",
			[]Capture{{URL: "http://example.com/", Time: utc(2001, 4, 24, 21, 5, 51, 0), Status: 200, Digest: d1}}},
		{"cdx-header-url-first-no-date-status-digest", CDX,
			" CDX a m N\nhttp://example.com/x text/html com,example)/x\n",
			[]Capture{{URL: "http://example.com/x"}}},
		{"cdx-header-digest-before-url", CDX,
			" CDX k s a b\n" + d2 + " 404 http://example.com/gone 20240501120001\n",
			[]Capture{{URL: "http://example.com/gone", Time: t0, Status: 404, Digest: d2}}},
		{"cdx-redirect-dash-digest-dash-status", CDX,
			"com,example)/old 20240501120001 http://example.com/old text/html 301 - http://example.com/new - 412 3887 EX.warc.gz\n" +
				"com,example)/odd 20240501120001 http://example.com/odd unk - - - - 412 3887 EX.warc.gz\n",
			[]Capture{
				{URL: "http://example.com/old", Time: t0, Status: 301, Digest: "-"},
				{URL: "http://example.com/odd", Time: t0, Status: 0, Digest: "-"},
			}},
		{"cdx-short-timestamps", CDX,
			" CDX a b k\nhttp://example.com/1 2024 A\nhttp://example.com/2 20241 B\nhttp://example.com/3 2024053 C\nhttp://example.com/4 202405011 D\nhttp://example.com/5 - E\n",
			[]Capture{
				{URL: "http://example.com/1", Time: utc(2024, 1, 1, 0, 0, 0, 0), Digest: "A"},
				{URL: "http://example.com/2", Time: utc(2024, 10, 1, 0, 0, 0, 0), Digest: "B"},
				{URL: "http://example.com/3", Time: utc(2024, 5, 30, 0, 0, 0, 0), Digest: "C"},
				{URL: "http://example.com/4", Time: utc(2024, 5, 1, 10, 0, 0, 0), Digest: "D"},
				{URL: "http://example.com/5", Digest: "E"},
			}},
		{"cdx-crlf", CDX,
			"# made by hand\r\n\r\ncom,example)/ 20240501120001 http://example.com/ text/html 200 " + d1 + " - 84357 EX.arc.gz\r\n   \n",
			[]Capture{{URL: "http://example.com/", Time: t0, Status: 200, Digest: d1}}},

		// CDXJ
		{"cdxj-pywb", CDXJ,
			`com,example)/ 20240501120001 {"url": "http://example.com/", "mime": "text/html", "status": "200", "digest": "sha1:` + d1 + `", "length": "1043", "offset": "333", "filename": "example.warc.gz"}` + "\n",
			[]Capture{{URL: "http://example.com/", Time: t0, Status: 200, Digest: "sha1:" + d1}}},
		{"cdxj-outbackcdx-number-status", CDXJ,
			`com,example)/a?b=c 20240501120001 {"url":"http://example.com/a?b=c","mime":"text/html","status":200,"digest":"` + d2 + `","length":1043,"offset":333,"filename":"x.warc.gz"}` + "\n",
			[]Capture{{URL: "http://example.com/a?b=c", Time: t0, Status: 200, Digest: d2}}},
		{"cdxj-no-digest-no-status", CDXJ,
			`com,example)/ 20240501120001 {"url": "http://example.com/", "mime": "text/html"}` + "\n",
			[]Capture{{URL: "http://example.com/", Time: t0}}},
		{"cdxj-revisit-dash-status-redirect", CDXJ,
			`com,example)/ 20240501120001 {"url": "http://example.com/", "mime": "warc/revisit", "status": "-", "digest": "sha1:` + d1 + `"}` + "\n" +
				`com,example)/old 20240501120001 {"url": "http://example.com/old", "mime": "text/html", "status": "302", "redirect": "http://example.com/new", "digest": "-"}` + "\r\n",
			[]Capture{
				{URL: "http://example.com/", Time: t0, Digest: "sha1:" + d1},
				{URL: "http://example.com/old", Time: t0, Status: 302, Digest: "-"},
			}},
		{"cdxj-short-timestamp-spaces-in-json", CDXJ,
			`com,example)/ 20240501 {"url" : "http://example.com/?q=a%20b", "title": "a b c", "status" : null}` + "\n",
			[]Capture{{URL: "http://example.com/?q=a%20b", Time: utc(2024, 5, 1, 0, 0, 0, 0)}}},

		// crawl.log
		{"crawl-log-heritrix3", CrawlLog,
			"2024-05-01T12:00:01.902Z   200       9341 https://example.com/ - - text/html #012 20240501120001501+388 sha1:" + d1 + " - content-size:9698,3t\n",
			[]Capture{{URL: "https://example.com/", Time: utc(2024, 5, 1, 12, 0, 1, 501), Status: 200, Digest: "sha1:" + d1}}},
		{"crawl-log-negative-statuses", CrawlLog,
			"2024-05-01T12:00:02.377Z    -6          - https://nosuchhost.example/ L https://example.com/ unknown #007 - - - -\n" +
				"2024-05-01T12:00:02.500Z -9998          - https://example.com/private/ L https://example.com/ unknown #003 - - - -\n" +
				"2024-05-01T12:00:03.000Z  -404          - https://example.com/x LL https://example.com/ unknown #003 20240501120002999+1 - - -\n",
			[]Capture{
				{URL: "https://nosuchhost.example/", Time: utc(2024, 5, 1, 12, 0, 2, 377), Status: -6, Digest: "-"},
				{URL: "https://example.com/private/", Time: utc(2024, 5, 1, 12, 0, 2, 500), Status: -9998, Digest: "-"},
				{URL: "https://example.com/x", Time: utc(2024, 5, 1, 12, 0, 2, 999), Status: -404, Digest: "-"},
			}},
		{"crawl-log-dns-and-extra-columns", CrawlLog,
			"2024-05-01T12:00:00.812Z     1         52 dns:example.com P https://example.com/ text/dns #041 20240501120000795+16 sha1:5HBGFJ4NVKPNBLPDQ6LYFDZKGCEFBT5D - content-size:52 {\"warcFilename\":\"x.warc.gz\"}\n",
			[]Capture{{URL: "dns:example.com", Time: utc(2024, 5, 1, 12, 0, 0, 795), Status: 1, Digest: "sha1:5HBGFJ4NVKPNBLPDQ6LYFDZKGCEFBT5D"}}},
		{"crawl-log-14-digit-fetch-time-ten-columns", CrawlLog,
			"2024-05-01T12:00:09Z 200 12 http://example.com/a?s=1 L http://example.com/ text/html #001 20240501120001+5 sha1:" + d2 + "\n",
			[]Capture{{URL: "http://example.com/a?s=1", Time: t0, Status: 200, Digest: "sha1:" + d2}}},
		{"crawl-log-bad-fetch-time-falls-back", CrawlLog,
			"2024-05-01T12:00:09.5+02:00 200 12 http://example.com/ - - text/html #001 99999999999999+5 sha1:" + d2 + " - -\n",
			[]Capture{{URL: "http://example.com/", Time: utc(2024, 5, 1, 10, 0, 9, 500), Status: 200, Digest: "sha1:" + d2}}},

		// pairs
		{"pairs-two-columns", Pairs,
			"https://example.com/?sid=1\tsha1:" + d1 + "\nhttps://example.com/?sid=2\t-\n",
			[]Capture{
				{URL: "https://example.com/?sid=1", Digest: "sha1:" + d1},
				{URL: "https://example.com/?sid=2", Digest: "-"},
			}},
		{"pairs-timestamps", Pairs,
			"https://example.com/a\t" + d1 + "\t20240501120001\r\n" +
				"https://example.com/b\t" + d1 + "\t2024-05-01T14:00:01+02:00\n" +
				"https://example.com/c\t" + d1 + "\t2024-05-01T12:00:01.25Z\n" +
				"https://example.com/d\t\t\n",
			[]Capture{
				{URL: "https://example.com/a", Time: t0, Digest: d1},
				{URL: "https://example.com/b", Time: t0, Digest: d1},
				{URL: "https://example.com/c", Time: t0.Add(250 * time.Millisecond), Digest: d1},
				{URL: "https://example.com/d"},
			}},
		{"empty", Pairs, "", nil},
		{"only-comments", CDX, "# nothing\n\n#\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []Format{tt.f, ""} {
				got, skipped, err := readAll(t, tt.in, f)
				if err != nil || len(skipped) > 0 {
					t.Fatalf("format %q: err %v, skipped lines %v", f, err, skipped)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("format %q:\n got %+v\nwant %+v", f, got, tt.want)
				}
			}
		})
	}
}

func TestReadCapturesFiles(t *testing.T) {
	tests := []struct {
		file  string
		f     Format
		n     int
		first Capture
	}{
		{"sample.cdx", CDX, 4, Capture{URL: "http://example.com/", Time: utc(2024, 5, 1, 12, 0, 1, 0), Status: 200, Digest: d1}},
		{"sample.cdxj", CDXJ, 3, Capture{URL: "http://example.com/", Time: utc(2024, 5, 1, 12, 0, 1, 0), Status: 200, Digest: "sha1:" + d1}},
		{"crawl.log", CrawlLog, 4, Capture{URL: "dns:example.com", Time: utc(2024, 5, 1, 12, 0, 0, 795), Status: 1, Digest: "sha1:5HBGFJ4NVKPNBLPDQ6LYFDZKGCEFBT5D"}},
		{"pairs.tsv", Pairs, 3, Capture{URL: "https://example.com/", Time: utc(2024, 5, 1, 12, 0, 1, 0), Digest: "sha1:" + d1}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "read", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var first string
			for _, l := range strings.Split(string(b), "\n") {
				if !skippable(l) {
					first = l
					break
				}
			}
			if f, err := DetectFormat(first); f != tt.f || err != nil {
				t.Errorf("DetectFormat = %q, %v; want %q", f, err, tt.f)
			}
			got, skipped, err := readAll(t, string(b), "")
			if err != nil || len(skipped) > 0 {
				t.Fatalf("err %v, skipped %v", err, skipped)
			}
			if len(got) != tt.n {
				t.Fatalf("%d captures, want %d", len(got), tt.n)
			}
			if got[0] != tt.first {
				t.Errorf("first = %+v, want %+v", got[0], tt.first)
			}
		})
	}
}

func TestDetectFormat(t *testing.T) {
	tests := []struct {
		name, line string
		want       Format
	}{
		{"cdx-header", " CDX N b a m s k r M S V g", CDX},
		{"cdx-header-no-space", "CDX N b a m s k r V g", CDX},
		{"cdx-header-crlf", " CDX N b a m s k r V g\r", CDX},
		{"cdx11", "com,example)/ 20240501120001 http://example.com/ text/html 200 " + d1 + " - - 1043 333 EX.warc.gz", CDX},
		{"cdx9", "com,example)/ 20240501120001 http://example.com/ text/html 200 " + d1 + " - 84357 EX.arc.gz", CDX},
		{"cdxj", `com,example)/ 20240501120001 {"url": "http://example.com/", "status": "200"}`, CDXJ},
		{"cdxj-compact", `com,example)/ 20240501120001 {"url":"http://example.com/"}`, CDXJ},
		{"crawl-log", "2024-05-01T12:00:01.902Z   200       9341 https://example.com/ - - text/html #012 20240501120001501+388 sha1:" + d1 + " - content-size:9698", CrawlLog},
		{"crawl-log-negative", "2024-05-01T12:00:02.377Z    -6          - https://nosuchhost.example/ L https://example.com/ unknown #007 - - - -", CrawlLog},
		{"pairs", "https://example.com/\tsha1:" + d1, Pairs},
		{"pairs-timestamp", "https://example.com/\t" + d1 + "\t20240501120001", Pairs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DetectFormat(tt.line)
			if err != nil || got != tt.want {
				t.Errorf("DetectFormat(%q) = %q, %v; want %q", tt.line, got, err, tt.want)
			}
		})
	}
}

func TestDetectFormatError(t *testing.T) {
	long := "x " + strings.Repeat("y", 300)
	tests := []struct{ name, line string }{
		{"word", "hello"},
		{"cdx-8-fields", "com,example)/ 20240501120001 http://example.com/ text/html 200 - - x"},
		{"cdx-short-timestamp", "com,example)/ 2024 http://example.com/ text/html 200 " + d1 + " - 84357 EX.arc.gz"},
		{"crawl-log-too-few-columns", "2024-05-01T12:00:01.902Z 200 9341 https://example.com/ - - text/html"},
		{"long", long},
		{"empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := DetectFormat(tt.line)
			if err == nil {
				t.Fatalf("DetectFormat(%q) = %q, want an error", tt.line, f)
			}
			msg := err.Error()
			for _, want := range []string{"cdx", "cdxj", "crawl-log", "pairs"} {
				if !strings.Contains(msg, want) {
					t.Errorf("%q does not list %s", msg, want)
				}
			}
			if tt.line != "" && strings.Contains(msg, tt.line) {
				t.Errorf("%q quotes the line", msg)
			}
		})
	}
}

func TestReadCapturesMalformed(t *testing.T) {
	good := "com,example)/ 20240501120001 http://example.com/ text/html 200 " + d1 + " - 84357 EX.arc.gz\n"
	tests := []struct {
		name string
		f    Format
		in   string
		line int    // the first malformed line
		why  string // in its message
		n    int    // captures read with skip
		skip []int  // lines skipped
	}{
		{"cdx-field-count", CDX, good + "# c\ncom,example)/ 20240501120001 http://example.com/ text/html 200\n" + good, 3, "5 fields", 2, []int{3}},
		{"cdx-header-field-count", CDX, " CDX N b a\n" + "k 20240501120001 http://x/\nk 20240501120001 http://x/ extra\n", 3, "header names 3", 1, []int{3}},
		{"cdx-bad-timestamp", CDX, "com,example)/ 2024050112000x http://example.com/ text/html 200 - - 84357 EX.arc.gz\n" + good, 1, "timestamp", 1, []int{1}},
		{"cdx-bad-date", CDX, good + "com,example)/ 20240431120001 http://example.com/ text/html 200 - - 84357 EX.arc.gz\n", 2, "timestamp", 1, []int{2}},
		{"cdx-bad-status", CDX, good + "com,example)/ 20240501120001 http://example.com/ text/html OK - - 84357 EX.arc.gz\n", 2, "status", 1, []int{2}},
		{"cdx-no-url", CDX, good + "com,example)/ 20240501120001 - text/html 200 - - 84357 EX.arc.gz\n", 2, "no URL", 1, []int{2}},
		{"cdx-tab-in-url", CDX, good + "com,example)/ 20240501120001 http://example.com/\tx text/html 200 - - 84357 EX.arc.gz\n", 2, "space or control", 1, []int{2}},
		{"cdx-header-without-url", CDX, " CDX N b m\n" + good, 1, "original URL", 1, []int{1}},
		{"cdx-header-long-code", CDX, " CDX N bb a\n" + good, 1, "single letter", 1, []int{1}},
		{"cdxj-bad-json", CDXJ, `k 20240501120001 {"url": "http://x/"` + "\n" + `k 20240501120001 {"url": "http://x/"}` + "\n", 1, "JSON", 1, []int{1}},
		{"cdxj-no-url", CDXJ, `k 20240501120001 {"url": "http://x/"}` + "\n" + `k 20240501120001 {"mime": "text/html"}` + "\n", 2, `no "url"`, 1, []int{2}},
		{"cdxj-space-in-url", CDXJ, `k 20240501120001 {"url": "http://x/a b"}` + "\n", 1, "space", 0, []int{1}},
		{"cdxj-bad-status", CDXJ, `k 20240501120001 {"url": "http://x/", "status": "two hundred"}` + "\n", 1, "status", 0, []int{1}},
		{"cdxj-not-object", CDXJ, `k 20240501120001 {"url": "http://x/"}` + "\n" + `k 20240501120001 [1]` + "\n", 2, "JSON object", 1, []int{2}},
		{"cdxj-two-fields", CDXJ, `k 20240501120001 {"url": "http://x/"}` + "\n" + "k 20240501120001\n", 2, "want urlkey", 1, []int{2}},
		{"cdxj-bad-timestamp", CDXJ, `k 2024-05-01 {"url": "http://x/"}` + "\n", 1, "timestamp", 0, []int{1}},
		{"crawl-log-few-columns", CrawlLog, "2024-05-01T12:00:01Z 200 1 http://x/ - - text/html #1 - sha1:A\n2024-05-01T12:00:01Z 200 1 http://x/ - - text/html\n", 2, "7 columns", 1, []int{2}},
		{"crawl-log-bad-time", CrawlLog, "yesterday 200 1 http://x/ - - text/html #1 - sha1:A - -\n", 1, "log timestamp", 0, []int{1}},
		{"crawl-log-bad-status", CrawlLog, "2024-05-01T12:00:01Z 2OO 1 http://x/ - - text/html #1 - sha1:A - -\n", 1, "fetch status", 0, []int{1}},
		{"pairs-columns", Pairs, "http://x/\tA\nhttp://x/\tA\t20240501120001\textra\n", 2, "columns", 1, []int{2}},
		{"pairs-bad-timestamp", Pairs, "http://x/\tA\tyesterday\nhttp://x/\tA\n", 1, "timestamp", 1, []int{1}},
		{"pairs-space-in-url", Pairs, "http://x/ y\tA\n", 1, "space", 0, []int{1}},
		{"pairs-no-url", Pairs, "\tA\n", 1, "no URL", 0, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := firstError(tt.in, tt.f)
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "line "+strconv.Itoa(tt.line)+" ") || !strings.Contains(msg, tt.why) {
				t.Errorf("err = %q, want line %d and %q", msg, tt.line, tt.why)
			}
			got, skipped, err := readAll(t, tt.in, tt.f)
			if err != nil {
				t.Fatalf("with skip: err = %v", err)
			}
			if len(got) != tt.n || !reflect.DeepEqual(skipped, tt.skip) {
				t.Errorf("with skip: %d captures, skipped %v; want %d, %v", len(got), skipped, tt.n, tt.skip)
			}
		})
	}
}

func TestReadCapturesStops(t *testing.T) {
	in := "u1\tA\nbad\nu2\tB\nu3\tC\n"
	var seen []string
	for c, err := range ReadCaptures(strings.NewReader(in), Pairs) {
		if err == nil {
			seen = append(seen, c.URL)
		}
		if c.URL == "u2" {
			break
		}
	}
	if !reflect.DeepEqual(seen, []string{"u1", "u2"}) {
		t.Errorf("saw %v, want u1 u2 (a malformed line between them, then a break)", seen)
	}
}

// TestReadCapturesDetectionFails: a line that shows no format before
// the format is known is malformed and skipped, quoting nothing of the
// line; the next line that shows one sets it. An unknown format is an
// error that ends the read.
func TestReadCapturesDetectionFails(t *testing.T) {
	got, skipped, err := readAll(t, "# header\n\nwhat is this\nhttp://a/\tsha1:X\n", "")
	if err != nil || !reflect.DeepEqual(skipped, []int{3}) || len(got) != 1 {
		t.Errorf("got %v, skipped %v, err %v; want line 3 skipped and one capture", got, skipped, err)
	}
	err = firstError("# header\n\nwhat is this\n", "")
	var le *LineError
	if !errors.As(err, &le) || le.Line != 3 || le.Format != "" || strings.Contains(err.Error(), "what is this") {
		t.Errorf("err = %v", err)
	}
	_, _, err = readAll(t, "u\td\n", "warc")
	if err == nil || errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "warc") {
		t.Errorf("unknown format: err = %v", err)
	}
}

// TestReadCapturesLongLines: a line of a URL canon takes (up to
// canon.MaxLength) is read whole; a line over maxLine is one malformed
// line, skipped, and reading goes on.
func TestReadCapturesLongLines(t *testing.T) {
	big := "http://example.com/?q=" + strings.Repeat("a", canon.MaxLength-100)
	got, skipped, err := readAll(t, "u\tA\n"+big+"\tB\r\nv\tC", Pairs)
	if err != nil || len(skipped) > 0 || len(got) != 3 || got[1].URL != big || got[2].URL != "v" {
		t.Fatalf("a line with a URL of canon.MaxLength: %d captures, skipped %v, err %v", len(got), skipped, err)
	}
	huge := "http://example.com/?q=" + strings.Repeat("a", maxLine)
	for _, end := range []string{"\n", "\r\n", ""} {
		in := "u\tA\n" + huge + "\tB" + end
		if end != "" {
			in += "v\tC\n"
		}
		got, skipped, err := readAll(t, in, Pairs)
		want := 2
		if end == "" {
			want = 1
		}
		if err != nil || !reflect.DeepEqual(skipped, []int{2}) || len(got) != want {
			t.Errorf("a line over %d bytes (end %q): %d captures, skipped %v, err %v", maxLine, end, len(got), skipped, err)
		}
	}
}

func FuzzReadCaptures(f *testing.F) {
	seeds := []string{
		" CDX N b a m s k r M S V g\ncom,example)/ 20240501120001 http://example.com/ text/html 200 " + d1 + " - - 1043 333 EX.warc.gz\n",
		"com,example)/ 20240501120001 http://example.com/ text/html 200 " + d1 + " - 84357 EX.arc.gz\r\n",
		" CDX k s a b\n" + d2 + " 404 http://example.com/gone 2024\n",
		`com,example)/ 20240501120001 {"url": "http://example.com/", "status": "200", "digest": "sha1:` + d1 + `"}` + "\n",
		`com,example)/ 2024 {"url":"http://example.com/","status":200}` + "\n",
		"2024-05-01T12:00:01.902Z   200       9341 https://example.com/ - - text/html #012 20240501120001501+388 sha1:" + d1 + " - -\n",
		"2024-05-01T12:00:02.377Z    -6          - https://nosuchhost.example/ L https://example.com/ unknown #007 - - - -\n",
		"https://example.com/\t" + d1 + "\t2024-05-01T12:00:01Z\nhttps://example.com/?a=1\t-\n",
		"# c\n\n",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i))
	}
	formats := append([]Format{""}, Formats()...)
	f.Fuzz(func(t *testing.T, data []byte, fi uint8) {
		format := formats[int(fi)%len(formats)]
		last := 0
		for c, err := range ReadCaptures(strings.NewReader(string(data)), format) {
			var le *LineError
			switch {
			case errors.As(err, &le):
				if !errors.Is(err, ErrMalformed) || le.Line <= last || !strings.Contains(err.Error(), "line "+strconv.Itoa(le.Line)+" ") {
					t.Fatalf("%v after line %d", err, last)
				}
				last = le.Line
			case err != nil:
				t.Fatalf("error %v", err)
			case c.URL == "" || strings.ContainsAny(c.URL, " \t\r\n"):
				t.Fatalf("capture with URL %q", c.URL)
			}
		}
	})
}

// TestRedact: whatever reading a URL reader makes of a string (tabs and
// newlines removed, triplets decoded once or more, backslashes, no
// scheme, a scheme of its own), redact masks the password it would take
// from it, and keeps the host after the userinfo.
func TestRedact(t *testing.T) {
	const pw = "Pw0rd"
	for _, s := range []string{
		"http://user:" + pw + "@h.test/x",
		"https://user:" + pw + "@h.test:8080/x?q#f",
		"http:\\\\user:" + pw + "@h.test/",
		"http:/\\user:" + pw + "@h.test/",
		"http:user:" + pw + "@h.test/",
		"user:" + pw + "@h.test/x",
		"//user:" + pw + "@h.test/x",
		"ht\ttp://us\ner:" + pw + "@h.test/",
		"http://user:" + pw + "%40h.test/",
		"http://user:" + pw + "%2540h.test/",
		"http://user:" + pw + "%4\t0h.test/",
		"http%3A%2F%2Fuser:" + pw + "@h.test/",
		"http://user:" + pw + "@evil@h.test/",
		"http://user:" + pw + "\uff20h.test/",
		"mailto:joe:" + pw + "@h.test",
		"foo://user:" + pw + "@h.test/",
		"http://:" + pw + "@h.test/",
	} {
		got := redact(s)
		if strings.Contains(got, pw) || !strings.Contains(got, "h.test") || !strings.Contains(got, passwordMask) {
			t.Errorf("redact(%q) = %q", s, got)
		}
	}
	for _, s := range []string{"http://h.test/a@b", "http://h.test/?q=a@b", "no password here", "http://h.test/%41"} {
		if got := redact(s); got != s {
			t.Errorf("redact(%q) = %q, want it unchanged (no userinfo)", s, got)
		}
	}
}

// TestReadCapturesRedacts: the error of a malformed line, in every
// format, quotes no password, wherever the line holds it.
func TestReadCapturesRedacts(t *testing.T) {
	const pw = "s3cr3tPw"
	u := "http://user:" + pw + "@h.test/"
	for _, c := range []struct {
		f  Format
		in string
	}{
		{"", u + " is no line of any index"},
		{CDX, "com,h)/ 2024xx01120000 " + u + " text/html 200 AAAA - - 1 2 f.warc.gz"},
		{CDX, "com,h)/ " + u + " " + u + " text/html 200 AAAA - - 1 2 f.warc.gz"},
		{CDX, "com,h)/ 20240501120000 http://h.test/ text/html " + u + " AAAA - - 1 2 f.warc.gz"},
		{CDX, " CDX N b a " + u + "\ncom,h)/ 20240501120000 http://h.test/ x"},
		{CDX, "com,h)/ 20240501120000 " + u + " text/html"},
		{CDXJ, `com,h)/ 20240501120000 {"url": "` + u + `", "status": "two hundred"}`},
		{CDXJ, `com,h)/ 20240501120000 {"url": "http://h.test/", "status": "` + u + `"}`},
		{CDXJ, `com,h)/ 20240501120000 {"url": "` + u + ` x"}`},
		{CDXJ, `com,h)/ ` + u + ` {"url": "http://h.test/"}`},
		{CDXJ, `com,h)/ 20240501120000 {"url": "` + u + `", "status": 200, "x": ` + "\n"},
		{CrawlLog, "2024-05-01T12:00:00Z OK 1 " + u + " - - text/html #1 - sha1:A - -"},
		{CrawlLog, u + " 200 1 " + u + " - - text/html #1 - sha1:A - -"},
		{Pairs, u + "\tAAAA\t" + u},
		{Pairs, u + " x\tAAAA"},
		{Pairs, u + "\tAAAA\tyesterday\textra"},
	} {
		n := 0
		for _, err := range ReadCaptures(strings.NewReader(c.in), c.f) {
			if err == nil {
				continue
			}
			n++
			var le *LineError
			if strings.Contains(err.Error(), pw) || errors.As(err, &le) && strings.Contains(le.Reason, pw) {
				t.Errorf("format %q, %q: error %q", c.f, c.in, err)
			}
		}
		if n == 0 {
			t.Errorf("format %q, %q: no error", c.f, c.in)
		}
	}
}

// TestReadCapturesRedactsFields scans the fields a message quotes (a
// timestamp, a status, a CDX header's field code, a format's name), in
// every format, with a password in each shape a field cut out of a URL
// can hold it: after a "?", a "#" or a "/" that ends an authority, after
// a quote, escaped in JSON or in percent-encoding. No message holds it.
func TestReadCapturesRedactsFields(t *testing.T) {
	const pw = "s3cr3tPw"
	shapes := []string{
		"u:" + pw + "@h", "http://u:" + pw + "@h/", "//u:" + pw + "@h", "a?b=http://u:" + pw + "@h/",
		"x/http://u:" + pw + "@h", "#u:" + pw + "@h", "a#http://u:" + pw + "@h", "h?u:" + pw + "@h",
		"u:" + pw + "%40h", "u:" + pw + "%2540h", "u:" + pw + "\uff20h", "http:u:" + pw + "@h",
		"http://u:" + pw + "@h@i/", "u:" + pw + "@",
	}
	jsonShapes := []string{`u:` + pw + `\u0040h`, `//u:` + pw + `@h`, `a?b=http://u:` + pw + `@h/`}
	n := 0
	check := func(f Format, line string) {
		t.Helper()
		for _, err := range ReadCaptures(strings.NewReader(line+"\n"), f) {
			if err == nil {
				continue
			}
			n++
			if strings.Contains(err.Error(), pw) {
				t.Errorf("format %q, %q: error %q", f, line, err)
			}
		}
	}
	for _, s := range shapes {
		for _, f := range []Format{CDX, ""} {
			check(f, "k "+s+" http://a/ t 200 D - - 0")
			check(f, "k 20240101000000 http://a/ t "+s+" D - - 0")
			check(f, " CDX N b a "+s)
		}
		for _, f := range []Format{CDXJ, ""} {
			check(f, "k "+s+` {"url":"http://a/"}`)
		}
		for _, f := range []Format{CrawlLog, ""} {
			check(f, s+" 200 1 http://a/ L - t/h t 2024 D")
			check(f, "2024-01-01T00:00:00Z "+s+" 1 http://a/ L - t/h t 2024 D")
		}
		for _, f := range []Format{Pairs, ""} {
			check(f, "http://a/\tD\t"+s)
			check(f, "http://a/\tD\t"+s+" x")
		}
		check(Format(s), "x")
		if _, err := ParseFormat(s); err == nil || strings.Contains(err.Error(), pw) {
			t.Errorf("ParseFormat(%q): %v", s, err)
		}
		if _, err := DetectFormat(s); err == nil || strings.Contains(err.Error(), pw) {
			t.Errorf("DetectFormat(%q): %v", s, err)
		}
	}
	for _, s := range append(jsonShapes, shapes...) {
		for _, f := range []Format{CDXJ, ""} {
			check(f, `k 20240101000000 {"url":"http://a/","status":"`+s+`"}`)
		}
	}
	if n < 250 {
		t.Fatalf("%d errors: the scan hardly ran", n)
	}
}
