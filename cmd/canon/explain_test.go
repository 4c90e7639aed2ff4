package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// TestExplain runs -explain over inputs with every kind of line, in text
// and jsonl, with the flags that combine with it, on one worker and on
// three.
func TestExplain(t *testing.T) {
	const dots = "HTTP://Example.COM/a/./b\n" +
		"  LowercaseScheme: HTTP://Example.COM/a/./b -> http://Example.COM/a/./b\n" +
		"  LowercaseHost: http://Example.COM/a/./b -> http://example.com/a/./b\n" +
		"  RemoveDots: http://example.com/a/./b -> http://example.com/a/b\n\n"
	const upperA = "HTTP://A/\n" +
		"  LowercaseScheme: HTTP://A/ -> http://A/\n" +
		"  LowercaseHost: http://A/ -> http://a/\n\n"
	const mixed = "http://h:8x/\n\n  \nHTTP://A/\r\nhttp://example.com/" // a failure, two blanks, a CRLF, no final LF
	const failed = "line 1: port: invalid character (at \"x/\")\ncanon: 1 of 5 lines failed\n"
	for _, tc := range []struct {
		name   string
		in     string
		args   []string
		want   string
		stderr string
		code   int
	}{
		{"steps", "HTTP://Example.COM/a/./b\n", nil, dots, "", 0},
		{"canonical", "http://example.com/\n", nil, "http://example.com/\n\n", "", 0},
		{"format text", "HTTP://Example.COM/a/./b\n", []string{"-format", "text"}, dots, "", 0},
		// A failing or blank line gives no block; the failure is
		// reported and counted as in the other modes.
		{"mixed", mixed, nil, upperA + "http://example.com/\n\n", failed, 1},
		{"skip-invalid", mixed, []string{"-skip-invalid"}, upperA + "http://example.com/\n\n", failed, 1},
		{"quiet", mixed, []string{"-q"}, upperA + "http://example.com/\n\n", "canon: 1 of 5 lines failed\n", 1},
		// -p and -steps choose the steps explained.
		{"whatwg", "HTTP://Example.COM/a/./b\n", []string{"-p", "whatwg"},
			"HTTP://Example.COM/a/./b\n  ParseWHATWG: HTTP://Example.COM/a/./b -> http://example.com/a/b\n\n", "", 0},
		{"whatwg +SortQuery", "http://h/?b=1&a=2\n", []string{"-p", "whatwg", "-steps", "+SortQuery"},
			"http://h/?b=1&a=2\n  SortQuery: http://h/?b=1&a=2 -> http://h/?a=2&b=1\n\n", "", 0},
		{"crawler", "HTTP://Example.com/?utm_source=x&b=2&a=1#f\n", []string{"-p", "crawler"},
			"HTTP://Example.com/?utm_source=x&b=2&a=1#f\n" +
				"  ParseWHATWG: HTTP://Example.com/?utm_source=x&b=2&a=1#f -> http://example.com/?utm_source=x&b=2&a=1#f\n" +
				"  RemoveFragment: http://example.com/?utm_source=x&b=2&a=1#f -> http://example.com/?utm_source=x&b=2&a=1\n" +
				"  RemoveTrackingParams: http://example.com/?utm_source=x&b=2&a=1 -> http://example.com/?b=2&a=1\n" +
				"  SortQuery: http://example.com/?b=2&a=1 -> http://example.com/?a=1&b=2\n\n", "", 0},
		{"crawler -SortQuery", "http://h/?b=1&a=2#f\n", []string{"-p", "crawler", "-steps", "-SortQuery"},
			"http://h/?b=1&a=2#f\n  RemoveFragment: http://h/?b=1&a=2#f -> http://h/?b=1&a=2\n\n", "", 0},
		// jsonl: one record a line as usual, each key's with its changes.
		{"jsonl", mixed, []string{"-format", "jsonl"},
			`{"in":"http://h:8x/","line":1,"error":"port: invalid character (at \"x/\")","kind":"ErrInvalidPort","component":"port","offset":10}` + "\n" +
				`{"in":"","blank":true}` + "\n" +
				`{"in":"  ","blank":true}` + "\n" +
				`{"in":"HTTP://A/","out":"http://a/","changes":[{"step":"LowercaseScheme","before":"HTTP://A/","after":"http://A/"},{"step":"LowercaseHost","before":"http://A/","after":"http://a/"}]}` + "\n" +
				`{"in":"http://example.com/","out":"http://example.com/","changes":[]}` + "\n",
			failed, 1},
		{"jsonl skip-invalid", mixed, []string{"-format", "jsonl", "-skip-invalid"},
			`{"in":"HTTP://A/","out":"http://a/","changes":[{"step":"LowercaseScheme","before":"HTTP://A/","after":"http://A/"},{"step":"LowercaseHost","before":"http://A/","after":"http://a/"}]}` + "\n" +
				`{"in":"http://example.com/","out":"http://example.com/","changes":[]}` + "\n",
			failed, 1},
	} {
		for _, j := range []string{"1", "3"} {
			args := append([]string{"-explain", "-j", j}, tc.args...)
			out, errOut, code := canonCmd(t, tc.in, args...)
			if out != tc.want || errOut != tc.stderr || code != tc.code {
				t.Errorf("%s: canon %q:\nstdout %q\nstderr %q\nexit %d\nwant\nstdout %q\nstderr %q\nexit %d",
					tc.name, args, out, errOut, code, tc.want, tc.stderr, tc.code)
			}
		}
	}
	// URL arguments, a blank one among them.
	out, _, code := canonCmd(t, "", "-explain", "HTTP://Example.COM/a/./b", "", "HTTP://A/")
	if out != dots+upperA || code != 0 {
		t.Errorf("canon -explain URL '' URL: %q, exit %d; want %q", out, code, dots+upperA)
	}
}

// TestExplainMatchesKey checks, for every profile, that what -explain
// -format jsonl reports ends at the key canon prints: "out" is the key,
// the first change starts from the input (trimmed), each starts where
// the last ended and the last ends at the key, and every step named is
// in the profile.
func TestExplainMatchesKey(t *testing.T) {
	inputs := []string{
		"HTTP://www.Example.COM:80/a/./b/../%7Ec?utm_source=x&B=2&a=1&jsessionid=0123456789abcdef0123456789abcdef#frag",
		"https://user:pw@WWW2.example.com:443//x//index.html?",
		"http://xn--rsum-bpad.example/%C3%A9?q=%2541",
		"example.com/a b",
		"http://example.com/",
	}
	for _, np := range profiles {
		p, _ := canon.LookupProfile(np.name)
		in := strings.Join(inputs, "\n") + "\n"
		keys, _, _ := canonCmd(t, in, "-p", np.name)
		out, _, _ := canonCmd(t, in, "-p", np.name, "-explain", "-format", "jsonl")
		keyLines := strings.Split(strings.TrimSuffix(keys, "\n"), "\n")
		recs := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(recs) != len(inputs) || len(keyLines) != len(inputs) {
			t.Fatalf("-p %s: %d records, %d keys for %d inputs:\n%s", np.name, len(recs), len(keyLines), len(inputs), out)
		}
		for i, line := range recs {
			var r struct {
				In      string
				Out     *string
				Changes []struct{ Step, Before, After string }
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("-p %s: record %q: %v", np.name, line, err)
			}
			if r.Out == nil {
				if keyLines[i] != "" {
					t.Errorf("-p %s: %q: no key in %s, but canon prints %q", np.name, inputs[i], line, keyLines[i])
				}
				continue
			}
			if *r.Out != keyLines[i] {
				t.Errorf("-p %s: %q: out %q, canon prints %q", np.name, inputs[i], *r.Out, keyLines[i])
			}
			prev := strings.TrimSpace(r.In)
			for _, c := range r.Changes {
				s, err := canon.ParseStep(c.Step)
				if err != nil || !p.Has(s) {
					t.Errorf("-p %s: %q: step %q is not in the profile", np.name, inputs[i], c.Step)
				}
				if c.Before != prev || c.Before == c.After {
					t.Errorf("-p %s: %q: change %+v does not follow %q", np.name, inputs[i], c, prev)
				}
				prev = c.After
			}
			if prev != *r.Out {
				t.Errorf("-p %s: %q: the changes end at %q, the key is %q", np.name, inputs[i], prev, *r.Out)
			}
		}
	}
}

// TestExplainUsage checks that -explain refuses the modes it has no
// output for, as a usage error before any input is read.
func TestExplainUsage(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"-u"}, "canon: -explain cannot be used with -u\n"},
		{[]string{"-u", "-c"}, "canon: -explain cannot be used with -u\n"},
		{[]string{"-equal", "http://a/", "http://b/"}, "canon: -explain cannot be used with -equal\n"},
		{[]string{"-base", "http://h/"}, "canon: -explain cannot be used with -base: it explains the profile's steps on a URL, not the resolution of a reference\n"},
		{[]string{"-format", "tsv"}, "canon: -explain cannot be used with -format tsv: it writes text blocks, or jsonl records with \"changes\"\n"},
		{[]string{"-format", "surt"}, "canon: -explain cannot be used with -format surt: it writes text blocks, or jsonl records with \"changes\"\n"},
		{[]string{"-c"}, "canon: -c needs -u\n"},
	} {
		args := append([]string{"-explain"}, tc.args...)
		out, errOut, code := canonCmd(t, "http://a/\n", args...)
		if code != exitUsage || out != "" || errOut != tc.stderr {
			t.Errorf("canon %q: exit %d, stdout %q, stderr %q; want exit 2, %q", args, code, out, errOut, tc.stderr)
		}
	}
}

// TestExplainHostRules checks that -explain names the entry of
// Rules.Hosts whose rules a step applied, in text and in jsonl, as
// canon.Explain's Change.Host says, and names none for the top-level
// rules.
func TestExplainHostRules(t *testing.T) {
	rules := writeTestFile(t, t.TempDir(), "rules.json",
		`{"TrackingParams": ["ref"], "Hosts": {"shop.example": {"SessionParams": ["s"], "KeepParams": ["item"]}}}`)
	in := "https://www.shop.example/p?item=7&s=1&color=red\nhttps://other.example/p?ref=x&a=1\n"
	want := "https://www.shop.example/p?item=7&s=1&color=red\n" +
		"  RemoveSessionIDs (rules of shop.example): https://www.shop.example/p?item=7&s=1&color=red -> https://www.shop.example/p?item=7&color=red\n" +
		"  RemoveTrackingParams (rules of shop.example): https://www.shop.example/p?item=7&color=red -> https://www.shop.example/p?item=7\n\n" +
		"https://other.example/p?ref=x&a=1\n" +
		"  RemoveTrackingParams: https://other.example/p?ref=x&a=1 -> https://other.example/p?a=1\n\n"
	if out, errOut, code := canonCmd(t, in, "-explain", "-p", "crawler", "-rules", rules); out != want || code != 0 {
		t.Errorf("canon -explain -rules:\n%s(stderr %q, exit %d)\nwant:\n%s", out, errOut, code, want)
	}
	out, _, code := canonCmd(t, in, "-explain", "-p", "crawler", "-rules", rules, "-format", "jsonl")
	if code != 0 || strings.Count(out, `"host":"shop.example"`) != 2 || strings.Count(out, `"host"`) != 2 {
		t.Errorf("canon -explain -format jsonl -rules: %s, exit %d: want the host on the two changes made with its rules", out, code)
	}
}
