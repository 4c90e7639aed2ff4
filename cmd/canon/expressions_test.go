package main

import (
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// TestFormatExpressions runs -format expressions: each input's lookup
// expressions, a line each after the input and a TAB, as
// canon.LookupExpressions gives them; blank and failing lines give none
// (the failure on standard error); -base resolves first; on one worker
// and on three.
func TestFormatExpressions(t *testing.T) {
	in := "http://a.b.c/1/2.html?param=1\n" +
		"\n" +
		"http://h:8x/\n" +
		"HTTP://user:pw@1.2.3.4:80/1/#f\r\n" +
		"http%3A%2F%2Fwackyurl.com:80/"
	lines := func(in string, xs ...string) string {
		var b strings.Builder
		for _, x := range xs {
			b.WriteString(in + "\t" + x + "\n")
		}
		return b.String()
	}
	want := lines("http://a.b.c/1/2.html?param=1", "a.b.c/1/2.html?param=1", "a.b.c/1/2.html", "a.b.c/", "a.b.c/1/",
		"b.c/1/2.html?param=1", "b.c/1/2.html", "b.c/", "b.c/1/") +
		lines("HTTP://user:pw@1.2.3.4:80/1/#f", "1.2.3.4/1/", "1.2.3.4/") +
		lines("http%3A%2F%2Fwackyurl.com:80/", "wackyurl.com/")
	for _, j := range []string{"1", "3"} {
		out, errOut, code := canonCmd(t, in, "-p", "safebrowsing", "-format", "expressions", "-j", j)
		if out != want || code != exitFailed || !strings.HasPrefix(errOut, "line 3: port: invalid character") {
			t.Errorf("canon -p safebrowsing -format expressions -j %s:\n got %q, stderr %q, exit %d\nwant %q, a port error, exit 1", j, out, errOut, code, want)
		}
	}
	// The library's expressions and hashes, for each line of a larger
	// list, with -hash 4 (the v4 and v5 prefixes) and 32 (full hashes),
	// the header and an input with a TAB (escaped with -header).
	inputs := []string{"http://a.b.c.d.e.f.g/1.html", "www.google.com", "http://[::ffff:10.0.0.1]/x/y?z", "https://x.example/a/b/c/d/e?", "http://h.example/a\tb"}
	for _, n := range []int{0, 4, 32} {
		for _, header := range []bool{false, true} {
			var exp strings.Builder
			args := []string{"-p", "safebrowsing", "-format", "expressions"}
			if n > 0 {
				args = append(args, "-hash", strconv.Itoa(n))
			}
			if header {
				args = append(args, "-header")
				exp.WriteString("#canon " + canon.SafeBrowsing.KeyVersion() + " expressions\n")
			}
			for _, u := range inputs {
				xs, err := canon.LookupExpressions(u)
				if err != nil {
					t.Fatal(err)
				}
				hashes, err := canon.LookupHashes(u, max(n, 4))
				if err != nil || len(hashes) != len(xs) {
					t.Fatalf("LookupHashes(%q): %d hashes, %v; %d expressions", u, len(hashes), err, len(xs))
				}
				field := strings.ReplaceAll(u, "\t", " ") // (as -format tsv writes it)
				if header {
					field = strings.ReplaceAll(u, "\t", `\t`)
				}
				for i, x := range xs {
					exp.WriteString(field + "\t" + x)
					if n > 0 {
						exp.WriteString("\t" + hex.EncodeToString(hashes[i]))
					}
					exp.WriteString("\n")
				}
			}
			if out, errOut, code := canonCmd(t, strings.Join(inputs, "\n"), args...); out != exp.String() || code != 0 || errOut != "" {
				t.Errorf("canon %s: %q, stderr %q, exit %d; want %q", strings.Join(args, " "), out, errOut, code, exp.String())
			}
		}
	}
	// -base: the reference resolved as a browser resolves it, then read.
	if out, _, code := canonCmd(t, "../x/%79?q\n", "-p", "safebrowsing", "-format", "expressions", "-base", "http://h.example/a/b/"); out != lines("../x/%79?q", "h.example/a/x/y?q", "h.example/a/x/y", "h.example/", "h.example/a/", "h.example/a/x/") || code != 0 {
		t.Errorf("canon -format expressions -base: %q, exit %d", out, code)
	}
	// -hash: only with expressions, and 4 to 32 bytes.
	for _, args := range [][]string{
		{"-p", "safebrowsing", "-hash", "4"},
		{"-p", "safebrowsing", "-format", "expressions", "-hash", "3"},
		{"-p", "safebrowsing", "-format", "expressions", "-hash", "33"},
		{"-p", "safebrowsing", "-format", "expressions", "-hash", "-1"},
	} {
		if out, errOut, code := canonCmd(t, "http://h/\n", args...); code != exitUsage || out != "" || !strings.HasPrefix(errOut, "canon: -hash ") {
			t.Errorf("canon %q: %q, stderr %q, exit %d; want a usage error", args, out, errOut, code)
		}
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
