package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// fromPipeAndFile runs canon with in on a pipe, then with in in a file
// given as standard input (mapped) and with -f: the three must give the
// same output, standard error and exit status, which it returns.
func fromPipeAndFile(t *testing.T, in string, args ...string) (string, string, int) {
	t.Helper()
	out, errOut, code := canonCmd(t, in, args...)
	file := filepath.Join(t.TempDir(), "index")
	if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fOut, fErr, fCode := runCanon(t, f, args...)
	dOut, dErr, dCode := canonCmd(t, "", append(args, "-f", file)...)
	if fOut != out || fErr != errOut || fCode != code || dOut != out || dErr != errOut || dCode != code {
		t.Errorf("canon %q on %.200q: from a pipe %.300q, %.300q, exit %d; from a file %.300q, %.300q, exit %d; with -f %.300q, %.300q, exit %d",
			args, in, out, errOut, code, fOut, fErr, fCode, dOut, dErr, dCode)
	}
	return out, errOut, code
}

// archiveSURT is the key -rekey makes of a CDX record's URL under Archive:
// the SURT of its key, or "-" when it has none.
func archiveSURT(u string) (string, error) {
	key, err := canon.Normalize(u, canon.Archive)
	if err != nil {
		return noKey, err
	}
	return canon.SURT(key)
}

// cdxFixtures are the real CDX indexes of learn/testdata (a 2008 crawl,
// written without keys, and one with keys), read by -rekey here.
var cdxFixtures = []string{
	"../../learn/testdata/real/aut-example-arc.cdx",
	"../../learn/testdata/real/aut-example-warc.cdx",
	"../../learn/testdata/read/sample.cdx",
}

// TestRekeyCDX rekeys the real CDX fixtures under Archive, from a pipe
// and from a file, with one worker and three: the output is the header,
// then each record whose key is not the SURT of Archive's key of its URL
// (the a field, which the header places), in input order, with that SURT
// in place of its key; and the same as a CDXJ index made of the same
// records. -rekey's keys are those -format surt writes for the URLs.
func TestRekeyCDX(t *testing.T) {
	for _, name := range cdxFixtures {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		codes := strings.Fields(lines[0])[1:]
		keyAt, urlAt := -1, -1
		for i, c := range codes {
			switch c {
			case "N":
				keyAt = i
			case "a":
				urlAt = i
			}
		}
		if keyAt != 0 || urlAt < 0 {
			t.Fatalf("%s: header %q", name, lines[0])
		}
		var want, cdxj, wantJ, urls strings.Builder
		want.WriteString(lines[0] + "\n")
		changed := 0
		for _, l := range lines[1:] {
			f := strings.Split(l, " ")
			if len(f) != len(codes) {
				t.Fatalf("%s: %q has %d fields", name, l, len(f))
			}
			key, err := archiveSURT(f[urlAt])
			if err != nil {
				t.Fatalf("%s: %q: %v", name, f[urlAt], err)
			}
			urls.WriteString(f[urlAt] + "\n")
			js, _ := json.Marshal(map[string]string{"url": f[urlAt], "mime": f[3], "digest": f[5]})
			rec := f[0] + " " + f[1] + " " + string(js)
			cdxj.WriteString(rec + "\n")
			if key != f[0] {
				f[0] = key
				want.WriteString(strings.Join(f, " ") + "\n")
				wantJ.WriteString(key + " " + f[1] + " " + string(js) + "\n")
				changed++
			}
		}
		for _, j := range []string{"1", "3"} {
			out, errOut, code := fromPipeAndFile(t, string(b), "-p", "archive", "-rekey", "-j", j)
			if out != want.String() || errOut != "" || code != 0 {
				t.Errorf("%s: canon -p archive -rekey -j %s: stderr %q, exit %d\n%s", name, j, errOut, code, firstDiff(out, want.String()))
			}
			out, errOut, code = fromPipeAndFile(t, cdxj.String(), "-p", "archive", "-rekey", "-j", j)
			if out != wantJ.String() || errOut != "" || code != 0 {
				t.Errorf("%s as CDXJ: canon -p archive -rekey -j %s: stderr %q, exit %d\n%s", name, j, errOut, code, firstDiff(out, wantJ.String()))
			}
		}
		// The same keys as -format surt writes for the URLs.
		surts, _, _ := canonCmd(t, urls.String(), "-p", "archive", "-format", "surt")
		for i, s := range strings.Split(strings.TrimSuffix(surts, "\n"), "\n") {
			if k, _ := archiveSURT(strings.Fields(lines[i+1])[urlAt]); k != s {
				t.Errorf("%s line %d: -format surt writes %q, -rekey %q", name, i+2, s, k)
			}
		}
		if strings.Contains(name, "aut-") && changed != len(lines)-1 {
			t.Errorf("%s: %d of %d records rekeyed; its keys are all \"-\"", name, changed, len(lines)-1)
		}
		t.Logf("%s: %d records, %d rekeyed", name, len(lines)-1, changed)
	}
}

// TestRekeyCDXRecords checks, record by record, what -rekey makes of a
// CDX index, with its header and without, and of a CDXJ index: records
// that change, that do not, that had no key ("-") or lose theirs, that
// have no URL, that are no records; CRLF; a header that puts the key and
// the URL elsewhere.
func TestRekeyCDXRecords(t *testing.T) {
	const hdr = " CDX N b a m s k r M S V g\n"
	rec := func(key, url string) string {
		return key + " 20240501120001 " + url + " text/html 200 KZQ3PJDBUFLKWC6GBUE7ZZNEBR3EM55J - - 1043 333 x.warc.gz"
	}
	rec9 := func(key, url string) string {
		return key + " 20240501120001 " + url + " text/html 200 KZQ3PJDBUFLKWC6GBUE7ZZNEBR3EM55J - 333 x.warc.gz"
	}
	rec7 := func(key, url string) string { // the Wayback CDX server's default fields
		return key + " 20240501120001 " + url + " text/html 200 KZQ3PJDBUFLKWC6GBUE7ZZNEBR3EM55J 1043"
	}
	jrec := func(key, js string) string { return key + " 20240501120001 " + js }
	for _, tc := range []struct {
		name   string
		args   []string
		in     string
		out    string
		stderr []string
		code   int
	}{
		{"unchanged", nil, hdr + rec("com,example)/a?a=1&b=2", "http://www.example.com/a?b=2&a=1") + "\n", hdr, nil, 0},
		{"changed", nil, hdr + rec("com,example,www)/a", "http://www.example.com/A") + "\n",
			hdr + rec("com,example)/a", "http://www.example.com/A") + "\n", nil, 0},
		{"no key then", nil, hdr + rec("-", "http://example.com/") + "\n", hdr + rec("com,example)/", "http://example.com/") + "\n", nil, 0},
		{"key gone", nil, hdr + rec("com,example)/", "http://exa%20mple.com/") + "\n", hdr + rec("-", "http://exa%20mple.com/") + "\n",
			[]string{`line 2: host: forbidden domain code point (at "exa%20mple.com/")`}, exitFailed},
		{"no key then, none now", nil, hdr + rec("-", "http://exa%20mple.com/") + "\n", hdr,
			[]string{`line 2: host: forbidden domain code point (at "exa%20mple.com/")`}, exitFailed},
		{"no URL", nil, hdr + rec("com,example)/", "-") + "\n" + rec("-", "-") + "\n", hdr,
			[]string{`line 2: CDX record without a URL (its "a" field is "-")`, `line 3: CDX record without a URL (its "a" field is "-")`}, exitFailed},
		{"fields", nil, hdr + "com,example)/ 20240501120001 http://example.com/\n" + rec("a", "http://a/") + " extra\n", hdr,
			[]string{"line 2: not a record of the CDX index: 3 fields, its header names 11", "line 3: not a record of the CDX index: 12 fields, its header names 11"}, exitFailed},
		{"empty field", nil, hdr + strings.Replace(rec("x", "http://a/"), " text/html", "  text/html", 1) + "\n", hdr,
			[]string{"line 2: not a record of the CDX index: 12 fields, its header names 11"}, exitFailed},
		{"CRLF", nil, strings.ReplaceAll(hdr+rec("x", "http://a/")+"\n"+rec("a)/", "http://a/")+"\n"+rec("y", "http://a/")+"\n", "\n", "\r\n"),
			strings.ReplaceAll(hdr+rec("a)/", "http://a/")+"\n"+rec("a)/", "http://a/")+"\n", "\n", "\r\n"), nil, 0},
		{"CRLF and LF", nil, hdr + rec("x", "http://a/") + "\r\n" + rec("y", "http://a/") + "\n" + rec("z", "http://a/") + "\r",
			hdr + rec("a)/", "http://a/") + "\r\n" + rec("a)/", "http://a/") + "\n" + rec("a)/", "http://a/") + "\r\n", nil, 0},
		{"cdxj CRLF", nil, jrec("x", `{"url":"http://a/"}`) + "\r\n", jrec("a)/", `{"url":"http://a/"}`) + "\r\n", nil, 0},
		{"cdxj TAB in the JSON", []string{"-index-format", "cdxj"}, jrec("x", "{\"url\":\t\"http://a/\"}") + "\n", jrec("a)/", "{\"url\":\t\"http://a/\"}") + "\n", nil, 0},
		{"cdxj url in a string", nil, jrec("x", `{"a":"\"url\":\"http://b/\"","url":"http://a/","b":["url",{"url":"http://c/"}]}`) + "\n",
			jrec("a)/", `{"a":"\"url\":\"http://b/\"","url":"http://a/","b":["url",{"url":"http://c/"}]}`) + "\n", nil, 0},
		{"trailing spaces", nil, hdr + rec("x", "http://a/") + "  \n", hdr + rec("a)/", "http://a/") + "  \n", nil, 0},
		{"blank lines", nil, "\n \n" + hdr + "\n" + rec("x", "http://a/") + "\n\n", hdr + rec("a)/", "http://a/") + "\n", nil, 0},
		{"no header, 11 fields", nil, rec("x", "http://a/") + "\n" + rec("a)/", "http://a/") + "\n", rec("a)/", "http://a/") + "\n", nil, 0},
		{"no header, 9 fields", nil, rec9("x", "http://a/") + "\n" + rec9("a)/", "http://a/") + "\n" + rec("x", "http://a/") + "\n",
			rec9("a)/", "http://a/") + "\n" + rec("a)/", "http://a/") + "\n", nil, 0},
		{"no header, 7 fields", nil, rec7("x", "http://a/") + "\n" + rec7("a)/", "http://a/") + "\n" + rec9("x", "http://a/") + "\n",
			rec7("a)/", "http://a/") + "\n" + rec9("a)/", "http://a/") + "\n", nil, 0},
		{"no header, 7 fields, -index-format cdx", []string{"-index-format", "cdx"}, rec7("x", "http://www.a/B") + "\n",
			rec7("a)/b", "http://www.a/B") + "\n", nil, 0},
		{"no header, a record of 8 fields", nil, rec7("x", "http://a/") + "\n" + rec7("x", "http://a/") + " 1\n", rec7("a)/", "http://a/") + "\n",
			[]string{"line 2: not a CDX record: 8 fields (a CDX index without a header has 7, 9 or 11, the key first and the URL third)"}, exitFailed},
		{"no header, a record of 10 fields", nil, rec9("x", "http://a/") + "\n" + rec9("x", "http://a/") + " 1\n", rec9("a)/", "http://a/") + "\n",
			[]string{"line 2: not a CDX record: 10 fields (a CDX index without a header has 7, 9 or 11, the key first and the URL third)"}, exitFailed},
		{"header elsewhere", nil, " CDX a b N\nhttp://www.a.com/B 20240501120001 x\nhttp://a.com/b 1 a,)/b\n",
			" CDX a b N\nhttp://www.a.com/B 20240501120001 com,a)/b\nhttp://a.com/b 1 com,a)/b\n", nil, 0},
		{"other profile", []string{"-p", "crawler"}, hdr + rec("com,example)/a", "http://www.example.com/a") + "\n",
			hdr + rec("com,example,www)/a", "http://www.example.com/a") + "\n", nil, 0},
		{"-format surt", []string{"-format", "surt"}, hdr + rec("x", "http://a/") + "\n", hdr + rec("a)/", "http://a/") + "\n", nil, 0},
		{"cdxj", nil, jrec("x", `{"url": "http://a/B", "status": "200"}`) + "\n" + jrec("a)/b", `{"url":"http://a/b"}`) + "\n",
			jrec("a)/b", `{"url": "http://a/B", "status": "200"}`) + "\n", nil, 0},
		{"cdxj escapes", nil, jrec("x", `{"URL":"http://b/","u\u0072l":"http:\/\/a\/\u00e9\ud83d\ude00?b&a","n":{"url":1}}`) + "\n",
			jrec("a)/%c3%a9%f0%9f%98%80?a&b", `{"URL":"http://b/","u\u0072l":"http:\/\/a\/\u00e9\ud83d\ude00?b&a","n":{"url":1}}`) + "\n", nil, 0},
		{"cdxj no url", nil, jrec("x", `{"URL":"http://a/"}`) + "\n" + jrec("x", `{"url":null}`) + "\n" + jrec("x", `{"url":""}`) + "\n" + jrec("x", `{"u":{"url":"http://a/"}}`) + "\n", "",
			[]string{`line 1: CDXJ record without a URL (its JSON has no "url" string)`, `line 2: CDXJ record without a URL (its JSON has no "url" string)`,
				`line 3: CDXJ record without a URL (its JSON has no "url" string)`, `line 4: CDXJ record without a URL (its JSON has no "url" string)`}, exitFailed},
		{"cdxj bad", nil, jrec("x", `{"url":"http://a/"}`) + "\n" + jrec("x", `{"url":"http://a/",}`) + "\n" + jrec("x", `{"url":"http://a/","url":"http://b/"}`) + "\n" + "x {}\n",
			jrec("a)/", `{"url":"http://a/"}`) + "\n",
			[]string{"line 2: not a CDXJ record: its JSON is not valid", `line 3: not a CDXJ record: its JSON has two "url" members`, `line 4: not a CDXJ record ("key timestamp {json}")`}, exitFailed},
		{"cdxj key gone", nil, jrec("a)/", `{"url":"http://a b/"}`) + "\n", jrec("-", `{"url":"http://a b/"}`) + "\n",
			[]string{`line 1: host: forbidden domain code point (at " b/")`}, exitFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-rekey", "-p", "archive"}, tc.args...)
			out, errOut, code := fromPipeAndFile(t, tc.in, args...)
			var wantErr string
			for _, l := range tc.stderr {
				wantErr += l + "\n"
			}
			if code == exitFailed {
				wantErr += fmt.Sprintf("canon: %d of %d lines failed\n", len(tc.stderr), strings.Count(tc.in, "\n"))
			}
			if out != tc.out || errOut != wantErr || code != tc.code {
				t.Errorf("canon %q < %q:\nstdout %q\nstderr %q\nexit %d\nwant %q\n%q\nexit %d", args, tc.in, out, errOut, code, tc.out, wantErr, tc.code)
			}
		})
	}
}

// TestRekeyFirstLine checks the one design for every first line -rekey
// meets, from a pipe, a file on standard input and -f: a line with a TAB
// is a tsv index line whatever it starts with ("#canon ", " CDX", a CDXJ
// or CDX record); a record is a record whatever its key ("#canon",
// "CDX"); then "#canon " is the tsv header and "CDX" the CDX header;
// anything else is a usage error, which -index-format settles; and
// -index-format reads the first line as the format it names.
func TestRekeyFirstLine(t *testing.T) {
	kv := canon.Archive.KeyVersion()
	cdxRec := func(key string) string {
		return key + " 20240501120001 http://a/ text/html 200 KZQ3PJDBUFLKWC6GBUE7ZZNEBR3EM55J - - 1043 333 x.warc.gz"
	}
	const usage = "canon: -rekey: cannot tell the index's format from its first line"
	crawler := []string{"-p", "crawler"}
	for _, tc := range []struct {
		name   string
		args   []string
		in     string
		out    string
		stderr string // its start
		code   int
	}{
		// Index lines that look like headers or records.
		{"tsv input #canon", crawler, "#canon x\tx\n", "#canon x\tx\t\n", "line 1: scheme: missing scheme", exitFailed},
		{"tsv input #canon, no key", crawler, "#canon x\t\nHTTP://A/\tx\n", "HTTP://A/\tx\thttp://a/\n", "", 0},
		{"tsv input CDX header", crawler, " CDX N b a\tx\n", " CDX N b a\tx\t\n", "line 1: scheme: missing scheme", exitFailed},
		{"tsv input CDX record", crawler, cdxRec("#canon") + "\tx\n", cdxRec("#canon") + "\tx\t\n", "line 1: scheme: missing scheme", exitFailed},
		{"tsv input CDXJ record", crawler, `a)/ 2024 {"url":"http://a/"}` + "\ta)/\n", `a)/ 2024 {"url":"http://a/"}` + "\ta)/\t\n", "line 1: scheme: missing scheme", exitFailed},
		{"tsv blank input", nil, "\t\nhttp://A/\thttp://a/\n", "", "", 0},
		{"tsv -format surt", []string{"-p", "crawler", "-format", "surt"}, "#canon x\tx\n", "#canon x\tx\t\n", "line 1: scheme: missing scheme", exitFailed},
		// Records whose key looks like a header.
		{"CDX record #canon", nil, cdxRec("#canon") + "\n", cdxRec("a)/") + "\n", "", 0},
		{"CDX record CDX", nil, cdxRec("CDX") + "\n", cdxRec("a)/") + "\n", "", 0},
		{"CDX record of 7 fields", nil, "#canon 20240501120001 http://a/ text/html 200 D 1\n", "a)/ 20240501120001 http://a/ text/html 200 D 1\n", "", 0},
		{"CDXJ record #canon", nil, `#canon 2024 {"url":"http://a/"}` + "\n", `a)/ 2024 {"url":"http://a/"}` + "\n", "", 0},
		{"CDXJ record CDX", nil, `CDX 2024 {"url":"http://a/"}` + "\n", `a)/ 2024 {"url":"http://a/"}` + "\n", "", 0},
		// Headers.
		{"tsv header", nil, "#canon " + kv + "\nhttp://a/\\tb\ta)/\n", "#canon " + kv + "\nhttp://a/\\tb\ta)/\thttp://a/b\n", "canon: -rekey: the index was made under", 0},
		// A header holds no TAB: what -format tsv writes for the input
		// "#canon <key version>", which has no key, is an index line, and
		// so is the header an awk gave a TAB, which the command says.
		{"tsv header and a TAB", nil, "#canon " + kv + "\t\nhttp://a/\\tb\ta)/\n", "http://a/\\tb\ta)/\thttp://a/%5ctb\n", `canon: -rekey: the first line "#canon ` + kv + `\t" holds a TAB: it is read as an index line`, 0},
		{"tsv header and TABs, CRLF", nil, "#canon " + kv + "\t\t\t\r\nhttp://a/\\tb\ta)/\r\n", "http://a/\\tb\ta)/\thttp://a/%5ctb\n", `canon: -rekey: the first line "#canon ` + kv + `\t\t\t" holds a TAB: it is read as an index line`, exitFailed},
		{"tsv header and a field", nil, "#canon " + kv + "\tx\nhttp://a/\\tb\ta)/\n", "#canon " + kv + "\tx\t\nhttp://a/\\tb\ta)/\thttp://a/%5ctb\n", "line 1: ", exitFailed},
		{"tsv header and fields, -index-format tsv", []string{"-index-format", "tsv"}, "#canon " + kv + "\t\tx\t\n", "", `line 1: not an "input TAB key" line`, exitFailed},
		{"CDX header", nil, " CDX N b a m s k r M S V g\n" + cdxRec("x") + "\n", " CDX N b a m s k r M S V g\n" + cdxRec("a)/") + "\n", "", 0},
		{"CDX header without its space", nil, "CDX N b a m s k r M S V g\n" + cdxRec("x") + "\n", "CDX N b a m s k r M S V g\n" + cdxRec("a)/") + "\n", "", 0},
		{"CDX header alone", nil, " CDX N b a", " CDX N b a\n", "", 0},
		{"blank lines, then the header", nil, "\n  \r\n#canon " + kv + "\nhttp://a/\\tb\ta)/\n", "#canon " + kv + "\nhttp://a/\\tb\ta)/\thttp://a/b\n", "canon: -rekey: the index was made under", 0},
		{"blank lines only", nil, "\n \r\n", "", "", 0},
		{"empty", nil, "", "", "", 0},
		// What is none of them.
		{"a URL", nil, "http://a/\nhttp://a/\ta)/\n", "", usage + ` ("http://a/")`, exitUsage},
		{"a URL with a password", nil, "http://user:sekrit@host/\n", "", usage + ` ("http:xxxxx@host/")`, exitUsage},
		{"a comment", nil, "# an index\n" + cdxRec("x") + "\n", "", usage, exitUsage},
		{"a CDX header without N", nil, " CDX b a m s\n", "", `canon: -rekey: the CDX header " CDX b a m s" names no key field (N, the massaged URL)`, exitUsage},
		{"a CDX header without a", nil, " CDX N b m s\n", "", `canon: -rekey: the CDX header " CDX N b m s" names no original URL field (a)`, exitUsage},
		{"a CDX header with two N", nil, " CDX N b a N\n", "", `canon: -rekey: the CDX header " CDX N b a N" names two key fields (N)`, exitUsage},
		{"a CDX header with a word", nil, " CDX N b a mime\n", "", `canon: -rekey: the CDX header " CDX N b a mime" has a field code of 4 bytes (field 4): each field is named by one letter`, exitUsage},
		{"-format tsv on a CDX index", []string{"-format", "tsv"}, " CDX N b a\n", "", "canon: -rekey: the index is CDX (its first line is \" CDX N b a\"), not -format tsv's", exitUsage},
		{"-format tsv on a CDXJ index", []string{"-format", "tsv"}, `a 2024 {"url":"http://a/"}` + "\n", "", "canon: -rekey: the index is CDXJ", exitUsage},
		// -index-format names the format.
		{"-index-format tsv, a URL", []string{"-index-format", "tsv"}, "http://a/\nhttp://a/\tx\n", "http://a/\tx\thttp://a/\n",
			`line 1: not an "input TAB key" line`, exitFailed},
		{"-index-format tsv, #canon", []string{"-index-format", "tsv"}, `#canon 2024 {"url":"http://a/"}` + "\n", "#canon " + kv + "\n", "canon: -rekey: the index was made under \"2024 {", 0},
		{"-index-format cdx, a comment", []string{"-index-format", "cdx"}, "# an index\n" + cdxRec("x") + "\n", cdxRec("a)/") + "\n",
			"line 1: not a CDX record: 3 fields", exitFailed},
		{"-index-format cdx, #canon", []string{"-index-format", "cdx"}, "#canon " + kv + "\n", "", "line 1: not a CDX record: 3 fields", exitFailed},
		{"-index-format cdxj, CDX header", []string{"-index-format", "cdxj"}, " CDX N b a\n", "", `line 1: not a CDXJ record ("key timestamp {json}")`, exitFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-rekey", "-p", "archive"}, tc.args...)
			out, errOut, code := fromPipeAndFile(t, tc.in, args...)
			if out != tc.out || !strings.HasPrefix(errOut, tc.stderr) || tc.stderr == "" && errOut != "" || code != tc.code {
				t.Errorf("canon %q < %q:\nstdout %q\nstderr %q\nexit %d\nwant %q\n%q...\nexit %d", args, tc.in, out, errOut, code, tc.out, tc.stderr, tc.code)
			}
		})
	}
	if _, errOut, code := canonCmd(t, "", "-rekey", "-index-format", "warc"); code != exitUsage || errOut != "canon: -index-format \"warc\": want tsv, cdx or cdxj\n" {
		t.Errorf("-index-format warc: %q, exit %d", errOut, code)
	}
	if _, errOut, code := canonCmd(t, "", "-index-format", "cdx"); code != exitUsage || errOut != "canon: -index-format needs -rekey or -inputs\n" {
		t.Errorf("-index-format without -rekey: %q, exit %d", errOut, code)
	}
	if _, errOut, code := canonCmd(t, "", "-rekey", "-index-format", "cdx", "-format", "tsv"); code != exitUsage || !strings.Contains(errOut, "a CDX index is keyed by SURTs") {
		t.Errorf("-index-format cdx -format tsv: %q, exit %d", errOut, code)
	}
}

// TestRekeyLongFirstLine checks a first line longer than any line -rekey
// reads, from just over the limit to past the 32 MiB a pipe's buffer once
// grew to: a reading error when it would be a header, a usage error when
// the format is to be told from it, a failing line (exit 1) when
// -index-format says it is a record, and the next line read as it is;
// from a pipe, a file and -f alike. A first record at the limit is read.
func TestRekeyLongFirstLine(t *testing.T) {
	const next = "a 20240501120001 http://a/ m s k r M S V g"
	const nextOut = "a)/ 20240501120001 http://a/ m s k r M S V g\n"
	for _, n := range []int{maxIndexLineBytes, maxIndexLineBytes + 1, maxIndexLineBytes + 300<<10, 24 << 20, 32<<20 + 1} {
		over := n > maxIndexLineBytes
		for _, tc := range []struct {
			name, first string
			args        []string
			out, stderr string
			code        int
		}{
			{"tsv header", indexHeader + "x", nil, "", "canon: reading input: the header line (", exitProblem},
			{"CDX header", " CDX N b a m s k r M S V g ", nil, "", "canon: reading input: the header line (", exitProblem},
			{"no format", "http://a/", nil, "", "canon: -rekey: cannot tell the index's format from its first line (", exitUsage},
			{"a CDX record", "x 20240501120001 http://a/ m s k r M S V g", []string{"-index-format", "cdx"}, nextOut, "line 1: line longer than", exitFailed},
			{"a tsv line", "http://a/\tx", []string{"-index-format", "tsv"}, "", "line 1: line longer than", exitFailed},
		} {
			pad := strings.Repeat("y", n-len(tc.first))
			first := tc.first[:len(tc.first)-1] + pad + tc.first[len(tc.first)-1:] // (the last byte stays last)
			rest := next + "\n"
			if strings.HasPrefix(tc.name, "a tsv") {
				rest = "http://b/\tx\n"
				tc.out = "http://b/\tx\thttp://b/\n"
			}
			if !over {
				switch tc.name {
				case "a CDX record":
					tc.out, tc.stderr, tc.code = "a)/"+first[1:]+"\n"+nextOut, "", exitOK
				case "a tsv line":
					tc.out, tc.stderr, tc.code = first+"\thttp://a/\n"+tc.out, "", exitOK
				default:
					continue // (a header or a URL of 20 MiB: the same as over it)
				}
			}
			args := append([]string{"-rekey", "-p", "archive"}, tc.args...)
			out, errOut, code := fromPipeAndFile(t, first+"\n"+rest, args...)
			if code != tc.code || out != tc.out || !strings.HasPrefix(errOut, tc.stderr) || tc.stderr == "" && errOut != "" || len(errOut) > 2000 {
				t.Errorf("%s of %d bytes: canon %q: %.200q, stderr %.300q, exit %d; want %.200q, %q..., exit %d", tc.name, n, args, out, errOut, code, tc.out, tc.stderr, tc.code)
			}
		}
	}
}

// TestIndexLineLimit checks the one limit of a line -rekey and -inputs
// read, maxIndexLineBytes without its line end: a tsv line and a CDXJ
// record at it are read, with an LF or a CR LF after them, and one a
// byte over it fails, between two lines that are read, from a pipe, a
// file and -f alike (the readers kept lines up to 32 MiB from a pipe, and
// a few hundred KiB over the limit from a file).
func TestIndexLineLimit(t *testing.T) {
	tsv := func(n int) string {
		const in = "http://example.com/\t"
		return in + strings.Repeat("k", n-len(in))
	}
	cdxj := func(n int) string {
		const start, end = `k 2024 {"url":"http://example.com/","pad":"`, `"}`
		return start + strings.Repeat("p", n-len(start)-len(end)) + end
	}
	const msg = "line 2: line longer than 20971537 bytes (an input of canon.MaxLength, escaped, a TAB and its key)\n"
	if !strings.Contains(msg, strconv.Itoa(maxIndexLineBytes)) {
		t.Fatalf("the limit is %d bytes, the test's message %q", maxIndexLineBytes, msg)
	}
	for _, tc := range []struct {
		name, before, line, after string
		eol                       string
		ok                        bool
		rekeyed                   string // -rekey's line for it
	}{
		{"tsv at the limit", "http://a/\tx", tsv(maxIndexLineBytes), "http://b/\tx", "\n", true, "\thttp://example.com/"},
		{"tsv at the limit, CRLF", "http://a/\tx", tsv(maxIndexLineBytes), "http://b/\tx", "\r\n", true, "\thttp://example.com/"},
		{"tsv over it", "http://a/\tx", tsv(maxIndexLineBytes + 1), "http://b/\tx", "\n", false, ""},
		{"cdxj at the limit", `a 2024 {"url":"http://a/"}`, cdxj(maxIndexLineBytes), `b 2024 {"url":"http://b/"}`, "\n", true, ""},
		{"cdxj over it", `a 2024 {"url":"http://a/"}`, cdxj(maxIndexLineBytes + 1), `b 2024 {"url":"http://b/"}`, "\n", false, ""},
	} {
		in := tc.before + tc.eol + tc.line + tc.eol + tc.after + tc.eol
		wantInputs, wantErr, wantCode := "http://a/\nhttp://b/\n", msg+"canon: 1 of 3 lines failed\n", exitFailed
		if tc.ok {
			wantInputs, wantErr, wantCode = "http://a/\nhttp://example.com/\nhttp://b/\n", "", exitOK
		}
		out, errOut, code := fromPipeAndFile(t, in, "-inputs")
		if out != wantInputs || errOut != wantErr || code != wantCode {
			t.Errorf("%s: canon -inputs: %.200q, stderr %q, exit %d; want %q, %q, exit %d", tc.name, out, errOut, code, wantInputs, wantErr, wantCode)
		}
		var want string
		switch {
		case strings.HasPrefix(tc.name, "tsv"):
			want = "http://a/\tx\thttp://a/\n"
			if tc.ok {
				want += tc.line + tc.rekeyed + "\n"
			}
			want += "http://b/\tx\thttp://b/\n"
		default:
			eol := strings.TrimSuffix(tc.eol, "\n") + "\n"
			want = `a)/ 2024 {"url":"http://a/"}` + eol
			if tc.ok {
				want += "com,example)/" + tc.line[1:] + eol
			}
			want += `b)/ 2024 {"url":"http://b/"}` + eol
		}
		out, errOut, code = fromPipeAndFile(t, in, "-rekey", "-p", "archive")
		if out != want || errOut != wantErr || code != wantCode {
			t.Errorf("%s: canon -rekey: %d bytes, stderr %q, exit %d; want %d bytes, %q, exit %d\n%.300s", tc.name, len(out), errOut, code, len(want), wantErr, wantCode, firstDiff(out, want))
		}
	}
}

// TestInputs checks -inputs: the inputs of an index -format tsv -header
// wrote are the lines it was given (every byte but the LF, the CR of a
// CRLF line end and an input's last CR, which it writes again), from a
// pipe and a file; an index without the header gives its fields; a CDX
// index its URLs, a CDXJ index its "url"s; what it cannot write as a
// line, and what is no record, fails.
func TestInputs(t *testing.T) {
	inputs := []string{"http://h/a\tb", "http://h/a\\b", "", " ", "  \t", "http://h/\rz?\\", "x\r", "\r", "#canon crawler/6", " CDX N b a", "http://a b/", "\\t", "\xff\xfe"}
	var in strings.Builder // a line each, an input's last CR followed by the CR canon reads as the line's end
	for _, s := range inputs {
		in.WriteString(s)
		if strings.HasSuffix(s, "\r") {
			in.WriteString("\r")
		}
		in.WriteString("\n")
	}
	index, _, _ := canonCmd(t, in.String(), "-p", "crawler", "-format", "tsv", "-header", "-q")
	for i, l := range strings.Split(strings.TrimSuffix(index, "\n"), "\n")[1:] {
		if f, _, _ := strings.Cut(l, "\t"); strings.ContainsAny(f, "\r") || i >= len(inputs) {
			t.Fatalf("index line %q of %d inputs: the input field is not escaped", l, len(inputs))
		}
	}
	out, errOut, code := fromPipeAndFile(t, index, "-inputs")
	if code != 0 || errOut != "" {
		t.Errorf("canon -inputs: stderr %q, exit %d", errOut, code)
	}
	if out != in.String() {
		t.Errorf("canon -inputs of the index of %q:\n%s", inputs, firstDiff(out, in.String()))
	}
	// With a TAB after the header, as an awk that assigns a field writes
	// it: an index line (the input "#canon <key version>", without a
	// key, as -format tsv writes it) and the lines after it unescaped,
	// which the command says.
	withTab := strings.Replace(index, "\n", "\t\n", 1)
	var raw strings.Builder
	for _, l := range strings.SplitAfter(withTab, "\n") {
		if field, _, ok := strings.Cut(l, "\t"); ok {
			raw.WriteString(field + "\n")
		}
	}
	if tabOut, tabErr, tabCode := fromPipeAndFile(t, withTab, "-inputs"); tabOut != raw.String() || !strings.HasPrefix(tabErr, `canon: -inputs: the first line "#canon `) || !strings.Contains(tabErr, "holds a TAB: it is read as an index line") || tabCode != 0 {
		t.Errorf("canon -inputs of the index, its header followed by a TAB: stderr %q, exit %d\n%s", tabErr, tabCode, firstDiff(tabOut, raw.String()))
	}
	// Read again, they make the same index.
	if again, _, _ := canonCmd(t, out, "-p", "crawler", "-format", "tsv", "-header", "-q"); again != index {
		t.Errorf("the index of -inputs' lines is not the index:\n%s", firstDiff(again, index))
	}
	// Without the header: the fields as they are.
	plain, _, _ := canonCmd(t, "http://h/a\tb\nhttp://h/\\x\n", "-format", "tsv")
	if out, _, _ := fromPipeAndFile(t, plain, "-inputs"); out != "http://h/a b\nhttp://h/\\x\n" {
		t.Errorf("canon -inputs of an index without the header: %q", out)
	}
	// CDX and CDXJ: the URLs.
	for _, name := range cdxFixtures {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var urls strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")[1:] {
			urls.WriteString(strings.Fields(l)[2] + "\n")
		}
		if out, errOut, code := fromPipeAndFile(t, string(b), "-inputs"); out != urls.String() || errOut != "" || code != 0 {
			t.Errorf("canon -inputs < %s: stderr %q, exit %d\n%s", name, errOut, code, firstDiff(out, urls.String()))
		}
	}
	// The Wayback CDX server's 7 fields.
	if out, errOut, code := fromPipeAndFile(t, "a 20240501120001 http://a/x text/html 200 D 10\nb 20240501120001 http://b/ text/html 200 D 10\n", "-inputs"); out != "http://a/x\nhttp://b/\n" || errOut != "" || code != 0 {
		t.Errorf("canon -inputs of a CDX index of 7 fields: %q, stderr %q, exit %d", out, errOut, code)
	}
	cdxj := `a 2024 {"url":"http:\/\/a\/\u00e9\r"}` + "\n" + `b 2024 {"url":"http://b/\nc"}` + "\n" + `c 2024 {"x":1}` + "\n" + `d 2024 {"url":"http://d/"}` + "\n"
	out, errOut, code = fromPipeAndFile(t, cdxj, "-inputs")
	if want := "http://a/é\r\r\nhttp://d/\n"; out != want || code != exitFailed ||
		errOut != "line 2: input with a line feed: it cannot be written as a line\nline 3: CDXJ record without a URL (its JSON has no \"url\" string)\ncanon: 2 of 4 lines failed\n" {
		t.Errorf("canon -inputs < %q: %q, stderr %q, exit %d", cdxj, out, errOut, code)
	}
	// An LF in an input (escaped) and a line that is no index line.
	index = "#canon rfc3986/1 unicode-15.0.0\nhttp://a/\\nb\thttp://a/%0Ab\n"
	out, errOut, code = fromPipeAndFile(t, index+"http://c/\n", "-inputs")
	if out != "" || code != exitFailed || errOut != "line 2: input with a line feed: it cannot be written as a line\nline 3: not an \"input TAB key\" line (-rekey reads what -format tsv writes, without -u -c)\ncanon: 2 of 3 lines failed\n" {
		t.Errorf("canon -inputs < %q: %q, stderr %q, exit %d", index, out, errOut, code)
	}
	// An index of expressions (-format expressions -header): its header
	// says so; -inputs prints the input of each line, once per expression
	// (an input's with a TAB and a "\\" unescaped, none for a failing
	// one), and -rekey refuses it, which it cannot migrate.
	exprInputs := []string{"http://a.b.c/1/2.html?p=1", "http://h.example/a\tb\\", "http://a b/", "http://[::1]/"}
	exprIndex, _, _ := canonCmd(t, strings.Join(exprInputs, "\n")+"\n", "-p", "safebrowsing", "-format", "expressions", "-header", "-q")
	if h := "#canon " + canon.SafeBrowsing.KeyVersion() + " expressions\n"; !strings.HasPrefix(exprIndex, h) {
		t.Fatalf("-format expressions -header wrote %.100q, want the header %q", exprIndex, h)
	}
	var want strings.Builder
	for _, u := range exprInputs {
		xs, _ := canon.LookupExpressions(u)
		for range xs {
			want.WriteString(u + "\n")
		}
	}
	if out, errOut, code := fromPipeAndFile(t, exprIndex, "-inputs"); out != want.String() || errOut != "" || code != 0 || strings.Count(out, "\n") < 10 {
		t.Errorf("canon -inputs of an index of expressions: %q, stderr %q, exit %d; want %q", out, errOut, code, want.String())
	}
	if out, errOut, code := fromPipeAndFile(t, exprIndex, "-rekey", "-p", "safebrowsing"); out != "" || code != exitUsage || !strings.HasPrefix(errOut, "canon: -rekey: the index is of lookup expressions") {
		t.Errorf("canon -rekey of an index of expressions: %q, stderr %q, exit %d; want a usage error", out, errOut, code)
	}
	// An input longer than canon.MaxLength, just over it (in a batch) and
	// far over it (a batch of its own), from a pipe and a file, with one
	// worker and three: -format tsv -header writes \L for it, which -inputs
	// and -rekey report again (exit 1) instead of reading a blank input.
	for _, n := range []int{canon.MaxLength + 1, canon.MaxLength + 1<<20} {
		long := "http://a/\n" + "http://h/" + strings.Repeat("a", n-len("http://h/")) + "\nhttp://b/\n"
		for _, j := range []string{"1", "3"} {
			index, errOut, code := fromPipeAndFile(t, long, "-format", "tsv", "-header", "-j", j)
			want := "#canon " + canon.RFC3986.KeyVersion() + "\nhttp://a/\thttp://a/\n\\L\t\nhttp://b/\thttp://b/\n"
			if index != want || code != exitFailed || errOut != "line 2: line longer than 4194304 bytes\ncanon: 1 of 3 lines failed\n" {
				t.Errorf("canon -format tsv -header -j %s on an input of %d bytes: %q, stderr %q, exit %d; want %q", j, n, index, errOut, code, want)
			}
		}
	}
	const notKept = "line 3: input longer than 4194304 bytes, not kept in the index (-format tsv -header wrote \\L in its place)\n"
	tooLong := "#canon " + canon.RFC3986.KeyVersion() + "\nhttp://a/\thttp://a/\n\\L\t\nhttp://b/\thttp://b/\n"
	if out, errOut, code := fromPipeAndFile(t, tooLong, "-inputs"); out != "http://a/\nhttp://b/\n" || code != exitFailed || errOut != notKept+"canon: 1 of 4 lines failed\n" {
		t.Errorf("canon -inputs of an index with \\L: %q, stderr %q, exit %d", out, errOut, code)
	}
	if out, errOut, code := fromPipeAndFile(t, tooLong, "-rekey", "-q"); out != "#canon "+canon.RFC3986.KeyVersion()+"\n" || code != exitFailed {
		t.Errorf("canon -rekey of an index with \\L: %q, stderr %q, exit %d", out, errOut, code)
	}
	keyed := strings.Replace(tooLong, "\\L\t", "\\L\tx", 1)
	if out, errOut, code := fromPipeAndFile(t, keyed, "-rekey"); out != "#canon "+canon.RFC3986.KeyVersion()+"\n\\L\tx\t\n" || code != exitFailed || !strings.Contains(errOut, notKept) {
		t.Errorf("canon -rekey of an index with \\L and a key: %q, stderr %q, exit %d", out, errOut, code)
	}
	// Without the header, no \L: an empty field, as the field is not the
	// input there.
	if out, _, _ := canonCmd(t, "http://h/"+strings.Repeat("a", canon.MaxLength)+"\n", "-format", "tsv"); out != "\t\n" {
		t.Errorf("canon -format tsv on an input over canon.MaxLength: %q", out)
	}
	// Flags that do not apply.
	for _, args := range [][]string{{"-p", "crawler"}, {"-rekey"}, {"-format", "tsv"}, {"-u"}, {"-base", "http://a/"}, {"-header", "-format", "tsv"}, {"http://a/"}} {
		args = append([]string{"-inputs"}, args...)
		if out, errOut, code := canonCmd(t, "", args...); out != "" || code != exitUsage || !strings.HasPrefix(errOut, "canon: -inputs ") {
			t.Errorf("canon %q: %q, stderr %q, exit %d; want a usage error", args, out, errOut, code)
		}
	}
}

// TestIndexMessagesMaskPasswords checks every message of -rekey and
// -inputs that quotes a line of the index itself (the library's errors
// come redacted): the first line of no format, the CDX index -format tsv
// does not read, a header too long, a CDX header that names no key, a
// key version of another profile (a "#canon" line with a TAB is an index
// line, whose messages quote its input field alone, redacted); with a
// password at the start of the line, after its scheme, escaped, across
// the 256th byte, where the quote is cut, and past it, in a line of a few
// bytes and one longer than any line: none shows a byte of it, and one
// the quote shows is written xxxxx.
func TestIndexMessagesMaskPasswords(t *testing.T) {
	const pw = "PW7Q9Z"
	long := strings.Repeat("a", maxLineBytes(&config{rekey: true})+1)
	urls := []string{
		"u:" + pw + "@h",
		"http://u:" + pw + "@h/",
		"http://u%3A" + pw + "%40h/",
		"http://u%253A" + pw + "%2540h/",
		"http://h/" + strings.Repeat("a", 240) + "?u:" + pw + pw + pw + pw + pw + pw + pw + pw + "@h/",
		"http://h/" + strings.Repeat("a", 300) + "?u:" + pw + "@h/",
		"http://u:" + pw + "@h/" + long,
	}
	cdx := func(u string) string {
		return "- 20240501120001 " + u + " text/html 200 KZQ3PJDBUFLKWC6GBUE7ZZNEBR3EM55J - - 1043 333 x.warc.gz"
	}
	for _, u := range urls {
		for _, tc := range []struct {
			name  string
			args  []string
			first string
			want  string // the start of standard error
		}{
			{"no format", nil, u, "canon: -rekey: cannot tell the index's format from its first line ("},
			{"-format tsv, a CDX record", []string{"-format", "tsv"}, cdx(u), "canon: -rekey: the index is CDX (its first line is "},
			{"-format tsv, a CDXJ record", []string{"-format", "tsv"}, `- 2024 {"url":"` + u + `"}`, "canon: -rekey: the index is CDXJ (its first line is "},
			{"-format tsv, a CDX header", []string{"-format", "tsv"}, " CDX N b a " + u, "canon: -rekey: the index is CDX (its first line is "},
			{"CDX header without N", nil, " CDX b a " + u, "canon: -rekey: the CDX header "},
			{"CDX header with a word", nil, " CDX N b a " + u, "canon: -rekey: the CDX header "},
			{"key version", nil, indexHeader + u, "canon: -rekey: the index was made under "},
			{"key version, -index-format tsv", []string{"-index-format", "tsv"}, indexHeader + u, "canon: -rekey: the index was made under "},
		} {
			code := exitUsage
			switch {
			case strings.HasSuffix(u, long) && (strings.HasPrefix(tc.name, "key version") || strings.HasPrefix(tc.name, "CDX header")):
				tc.want, code = "canon: reading input: the header line (", exitProblem
			case strings.HasPrefix(tc.name, "key version"):
				code = exitOK // (said, not refused)
			}
			for _, mode := range []string{"-rekey", "-inputs"} {
				args := append([]string{mode}, tc.args...)
				if mode == "-rekey" && strings.HasPrefix(tc.name, "CDX header") {
					args = append(args, "-p", "archive") // (without it, -rekey first says an archive's keys are -p archive's)
				}
				if mode == "-inputs" {
					if slices.Contains(tc.args, "-format") || strings.HasPrefix(tc.name, "key version") && !strings.HasSuffix(u, long) {
						continue // -rekey's alone
					}
					tc.want = strings.Replace(tc.want, "-rekey", "-inputs", 1)
				}
				_, errOut, got := canonCmd(t, tc.first+"\nhttp://a/\tb\n", args...)
				for i := 0; i+3 <= len(pw); i++ {
					if strings.Contains(errOut, pw[i:i+3]) {
						t.Errorf("%s, canon %q on %.300q: stderr shows the password: %.600q", tc.name, args, tc.first, errOut)
						break
					}
				}
				if !strings.HasPrefix(errOut, tc.want) || got != code {
					t.Errorf("%s, canon %q on %.300q: stderr %.600q, exit %d; want %q..., exit %d", tc.name, args, tc.first, errOut, got, tc.want, code)
				}
				if at := strings.Index(tc.first, pw); at+len(pw) < 200 && !strings.Contains(errOut, passwordMask) {
					t.Errorf("%s, canon %q on %.300q: stderr %.600q: want the password written %s", tc.name, args, tc.first, errOut, passwordMask)
				}
			}
		}
	}
}

// TestMaskPasswords checks maskPasswords on the readings the library's
// redaction makes, against the library: wherever it masks a password of
// an input, maskPasswords masks it too.
func TestMaskPasswords(t *testing.T) {
	const pw = "PW7Q9Z"
	for _, tc := range []struct{ in, want string }{
		{"http://h/", "http://h/"},
		{"http://h/a%20b", "http://h/a%20b"},
		{"http://u@h/", "http:xxxxx@h/"}, // (more than the library: no harm)
		{"http://u:" + pw + "@h/", "http:xxxxx@h/"},
		{"u:" + pw + "@h", "u:xxxxx@h"},
		{"http:/\t/u:" + pw + "@h/", "http:xxxxx@h/"},
		{"http%3A%2F%2Fu%3A" + pw + "%40h/", "http%xxxxx%40h/"},
		{"http://u%3A" + pw + "%4\t0h/", "http:xxxxx%4\t0h/"},
		{"blob:https://u:" + pw + "@h/", "blob:xxxxx@h/"},
		{"mailto:joe:" + pw + "@example.com", "mailto:xxxxx@example.com"},
		{"http://u:" + pw + "@h/\thttp://u:" + pw + "@h/", "http:xxxxx@h/"},
		{"a)/ 20240501120001 http://u:" + pw + "@h/ text/html", "a)/ 20240501120001 http:xxxxx@h/ text/html"},
	} {
		if got := string(maskPasswords([]byte(tc.in))); got != tc.want {
			t.Errorf("maskPasswords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// The library's readings: each input fails under some profile, and
	// where its error's Input lacks the password, the mask lacks it.
	for _, in := range []string{
		"http://u:" + pw + "@h:8x/", "http:u:" + pw + "@h:8x", "http:\\\\u:" + pw + "@h:8x/", "//u:" + pw + "@h:8x/",
		"http%3A//u:" + pw + "@h:8x/", "http://u%3A" + pw + "%40h:8x/", "http://u%253A" + pw + "%2540h:8x/",
		"h\tttp://u:" + pw + "@h:8x/", "blob:https://u:" + pw + "@h:8x/", "http://u:" + pw + "%4\t0h:8x/",
		"http://a:b@c:" + pw + "@h:8x/", "http://u:" + pw + "@h/%zz", "u:" + pw + "@h:8x",
	} {
		for _, np := range profiles {
			p, _ := canon.LookupProfile(np.name)
			_, err := canon.Normalize(in, p)
			var e *canon.Error
			if !errors.As(err, &e) || strings.Contains(e.Input, pw) {
				continue
			}
			if m := string(maskPasswords([]byte(in))); strings.Contains(m, pw[1:4]) {
				t.Errorf("-p %s: the library masks %q as %q, maskPasswords as %q", np.name, in, e.Input, m)
			}
		}
	}
}

// TestRekeyHeaderNotFirst checks a header after the first line, from a
// pipe and a file, for -rekey and -inputs: the same header again (two
// indexes joined with cat) is skipped; another one, or one after the
// lines of an index that had none at its start (an index sorted whole),
// is a failing line that says so, tsv and CDX alike.
func TestRekeyHeaderNotFirst(t *testing.T) {
	kv := "#canon " + canon.Archive.KeyVersion()
	const cdxHdr = " CDX N b a m s k r M S V g"
	cdxRec := func(key, url string) string {
		return key + " 20240501120001 " + url + " text/html 200 KZQ3PJDBUFLKWC6GBUE7ZZNEBR3EM55J - - 1043 333 x.warc.gz"
	}
	notFirst := `a "#canon" header that is not the first line (it must stay first`
	for _, tc := range []struct {
		name   string
		in     string
		rekey  string // -rekey -p archive's output
		inputs string // -inputs' output
		failed []string
	}{
		{"tsv, cat", kv + "\nhttp://a/\\tb\tx\n" + kv + "\nhttp://c/\\\\\tx\n",
			kv + "\nhttp://a/\\tb\tx\thttp://a/b\nhttp://c/\\\\\tx\thttp://c/%5c\n", "http://a/\tb\nhttp://c/\\\n", nil},
		{"tsv, cat, the second with a TAB: an input", kv + "\nhttp://a/\\tb\tx\n" + kv + "\t\nhttp://c/\tx\n",
			kv + "\nhttp://a/\\tb\tx\thttp://a/b\nhttp://c/\tx\thttp://c/\n", "http://a/\tb\n" + kv + "\nhttp://c/\n", nil},
		{"tsv, another header", kv + "\nhttp://a/\tx\n#canon crawler/1 unicode-1\nhttp://c/\tx\n",
			kv + "\nhttp://a/\tx\thttp://a/\nhttp://c/\tx\thttp://c/\n", "http://a/\nhttp://c/\n", []string{"line 3: a \"#canon\" header other than the index's first"}},
		{"tsv, sorted", "\tx\n http://a/\tx\n" + kv + "\nhttp://c/\tx\n",
			"\tx\t\n http://a/\tx\thttp://a/\nhttp://c/\tx\thttp://c/\n", "\n http://a/\nhttp://c/\n",
			[]string{"line 1: blank input with a key", "line 3: " + notFirst}},
		{"tsv, sorted, with a TAB: an input", " http://a/\tx\n" + kv + "\t\nhttp://c/\tx\n",
			" http://a/\tx\thttp://a/\nhttp://c/\tx\thttp://c/\n", " http://a/\n" + kv + "\nhttp://c/\n", nil},
		{"CDX, cat", cdxHdr + "\n" + cdxRec("x", "http://a/") + "\n" + cdxHdr + "\n" + cdxRec("y", "http://c/") + "\n",
			cdxHdr + "\n" + cdxRec("a)/", "http://a/") + "\n" + cdxRec("c)/", "http://c/") + "\n", "http://a/\nhttp://c/\n", nil},
		{"CDX, another header", cdxHdr + "\n" + cdxRec("x", "http://a/") + "\n CDX N b a m s k r M S V\n" + cdxRec("y", "http://c/") + "\n",
			cdxHdr + "\n" + cdxRec("a)/", "http://a/") + "\n" + cdxRec("c)/", "http://c/") + "\n", "http://a/\nhttp://c/\n",
			[]string{"line 3: a \" CDX\" header other than the index's first"}},
		{"CDX, a header after records", cdxRec("x", "http://a/") + "\n" + cdxHdr + "\n" + cdxRec("y", "http://c/") + "\n",
			cdxRec("a)/", "http://a/") + "\n" + cdxRec("c)/", "http://c/") + "\n", "http://a/\nhttp://c/\n",
			[]string{"line 2: a \" CDX\" header after records of an index without one (it must come first"}},
	} {
		for _, mode := range []string{"-rekey", "-inputs"} {
			args, want := []string{mode}, tc.inputs
			if mode == "-rekey" {
				args, want = []string{mode, "-p", "archive", "-q"}, tc.rekey
			}
			failed := tc.failed
			if mode == "-inputs" && len(failed) > 0 && strings.Contains(failed[0], "blank input") {
				failed = failed[1:] // (-inputs prints a blank input)
			}
			out, errOut, code := fromPipeAndFile(t, tc.in, args...)
			lines := strings.Split(errOut, "\n")
			ok := out == want && (code == exitOK) == (len(failed) == 0)
			for _, f := range failed {
				if mode == "-rekey" {
					continue // (-q)
				}
				ok = ok && slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, f) })
			}
			if !ok {
				t.Errorf("%s: canon %q < %q:\nstdout %q\nstderr %q\nexit %d\nwant %q and %q", tc.name, args, tc.in, out, errOut, code, want, failed)
			}
		}
	}
}

// TestRekeyFieldTooLong checks the message of a record whose input is
// longer than canon.MaxLength, in each format: it names the field (a tsv
// line's input field, a CDX record's URL, a CDXJ record's "url"), not the
// line, which may be longer than the input by far; the key is gone.
func TestRekeyFieldTooLong(t *testing.T) {
	u := "http://h/" + strings.Repeat("a", canon.MaxLength-len("http://h/")+1)
	for _, tc := range []struct{ name, in, out, msg string }{
		{"tsv", u + "\tx", u + "\tx\t", "input field"},
		{"cdx", "k 20240501120001 " + u + " m s k r M S V g", "- 20240501120001 " + u + " m s k r M S V g", `URL (the "a" field)`},
		{"cdxj", `k 2024 {"url":"` + u + `"}`, `- 2024 {"url":"` + u + `"}`, `URL (the JSON's "url")`},
	} {
		out, errOut, code := fromPipeAndFile(t, tc.in+"\n", "-rekey", "-p", "archive")
		want := "line 1: " + tc.msg + " longer than 4194304 bytes\ncanon: 1 of 1 lines failed\n"
		if out != tc.out+"\n" || errOut != want || code != exitFailed {
			t.Errorf("%s: canon -rekey on a record whose input is %d bytes: %.100q, stderr %q, exit %d; want %.100q, %q, exit 1", tc.name, len(u), out, errOut, code, tc.out, want)
		}
	}
}

// TestRekeyCDXWithoutProfile checks that -rekey of a CDX or CDXJ index
// without -p says on standard error that it keys under the default
// profile, as a tsv index's header says a forgotten -p, and rekeys all
// the same; with -p, or for a tsv index, it says nothing.
func TestRekeyCDXWithoutProfile(t *testing.T) {
	const cdx = " CDX N b a m s k r M S V g\nx 20240501120001 http://a/ text/html 200 D - - 1 2 w.gz\n"
	const cdx9 = "x 20240501120001 http://a/ text/html 200 D - 2 w.gz\n"
	const cdxj = `x 2024 {"url":"http://a/"}` + "\n"
	warn := "canon: -rekey: a %s index rekeyed without -p, under \"" + canon.RFC3986.KeyVersion() + "\": an archive's keys are -p archive's; a forgotten -p lists every key the profiles make differently as changed\n"
	for _, tc := range []struct {
		name, in string
		args     []string
		stderr   string
	}{
		{"CDX", cdx, nil, fmt.Sprintf(warn, "CDX")},
		{"CDX without a header", cdx9, nil, fmt.Sprintf(warn, "CDX")},
		{"CDXJ", cdxj, nil, fmt.Sprintf(warn, "CDXJ")},
		{"CDX, -steps", cdx, []string{"-steps", "+RemoveFragment"}, "canon: -rekey: a CDX index rekeyed without -p, under \"custom-"},
		{"CDX, -p rfc3986", cdx, []string{"-p", "rfc3986"}, ""},
		{"CDXJ, -p archive", cdxj, []string{"-p", "archive"}, ""},
		{"tsv", "http://a/\tx\n", nil, ""},
	} {
		args := append([]string{"-rekey"}, tc.args...)
		out, errOut, code := fromPipeAndFile(t, tc.in, args...)
		if !strings.HasPrefix(errOut, tc.stderr) || tc.stderr == "" && errOut != "" || code != exitOK || !strings.Contains(out, "a)/ ") && !strings.Contains(out, "\thttp://a/") {
			t.Errorf("%s: canon %q: %q, stderr %q, exit %d; want stderr %q", tc.name, args, out, errOut, code, tc.stderr)
		}
	}
}
