package main

import (
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// TestFormatExpressions runs -format expressions: each input's lookup
// expressions, one a line, as canon.LookupExpressions gives them; blank
// and failing lines give none (the failure on standard error); -base
// resolves first; on one worker and on three.
func TestFormatExpressions(t *testing.T) {
	in := "http://a.b.c/1/2.html?param=1\n" +
		"\n" +
		"http://h:8x/\n" +
		"HTTP://user:pw@1.2.3.4:80/1/#f\r\n" +
		"http%3A%2F%2Fwackyurl.com:80/"
	want := strings.Join([]string{
		"a.b.c/1/2.html?param=1", "a.b.c/1/2.html", "a.b.c/", "a.b.c/1/",
		"b.c/1/2.html?param=1", "b.c/1/2.html", "b.c/", "b.c/1/",
		"1.2.3.4/1/", "1.2.3.4/",
		"wackyurl.com/",
	}, "\n") + "\n"
	for _, j := range []string{"1", "3"} {
		out, errOut, code := canonCmd(t, in, "-p", "safebrowsing", "-format", "expressions", "-j", j)
		if out != want || code != exitFailed || !strings.HasPrefix(errOut, "line 3: port: invalid character") {
			t.Errorf("canon -p safebrowsing -format expressions -j %s:\n got %q, stderr %q, exit %d\nwant %q, a port error, exit 1", j, out, errOut, code, want)
		}
	}
	// The library's expressions, for each line of a larger list.
	var lines []string
	var exp strings.Builder
	for _, u := range []string{"http://a.b.c.d.e.f.g/1.html", "www.google.com", "http://[::ffff:10.0.0.1]/x/y?z", "https://x.example/a/b/c/d/e?"} {
		lines = append(lines, u)
		xs, err := canon.LookupExpressions(u)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range xs {
			exp.WriteString(x + "\n")
		}
	}
	if out, errOut, code := canonCmd(t, strings.Join(lines, "\n"), "-p", "safebrowsing", "-format", "expressions"); out != exp.String() || code != 0 || errOut != "" {
		t.Errorf("canon -p safebrowsing -format expressions: %q, stderr %q, exit %d; want %q", out, errOut, code, exp.String())
	}
	// -base: the reference resolved as a browser resolves it, then read.
	if out, _, code := canonCmd(t, "../x/%79?q\n", "-p", "safebrowsing", "-format", "expressions", "-base", "http://h.example/a/b/"); out != "h.example/a/x/y?q\nh.example/a/x/y\nh.example/\nh.example/a/\nh.example/a/x/\n" || code != 0 {
		t.Errorf("canon -format expressions -base: %q, exit %d", out, code)
	}
	// Usage errors: another profile, and the modes of one line an input.
	for _, args := range [][]string{
		{"-format", "expressions"},
		{"-p", "whatwg", "-format", "expressions"},
		{"-p", "safebrowsing", "-format", "expressions", "-u"},
		{"-p", "safebrowsing", "-format", "expressions", "-explain"},
		{"-p", "safebrowsing", "-format", "expressions", "-rekey"},
		{"-p", "safebrowsing", "-format", "expressions", "-equal", "http://a/", "http://b/"},
	} {
		out, errOut, code := canonCmd(t, "http://h/\n", args...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, "canon: -format expressions ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("canon %q: %q, stderr %q, exit %d; want a usage error", args, out, errOut, code)
		}
	}
}

// TestSafeBrowsingProfileFlag runs -p safebrowsing in the other formats:
// its key, and its key beside the input.
func TestSafeBrowsingProfileFlag(t *testing.T) {
	in := "http://host/%25%32%35\nhttp://www.GOOgle.com.../\n"
	if out, _, code := canonCmd(t, in, "-p", "safebrowsing"); out != "http://host/%25\nhttp://www.google.com/\n" || code != 0 {
		t.Errorf("canon -p safebrowsing: %q, exit %d", out, code)
	}
	if out, _, code := canonCmd(t, in, "-p", "safebrowsing", "-format", "tsv"); out != "http://host/%25%32%35\thttp://host/%25\nhttp://www.GOOgle.com.../\thttp://www.google.com/\n" || code != 0 {
		t.Errorf("canon -p safebrowsing -format tsv: %q, exit %d", out, code)
	}
	if out, _, code := canonCmd(t, "", "-explain", "-p", "safebrowsing", "http://3279880203/blah"); out != "http://3279880203/blah\n  ParseSafeBrowsing: http://3279880203/blah -> http://195.127.0.11/blah\n\n" || code != 0 {
		t.Errorf("canon -explain -p safebrowsing: %q, exit %d", out, code)
	}
}
