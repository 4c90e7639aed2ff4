package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// TestFormatSURT runs -format surt over a list with every kind of line
// (a name with a port, userinfo and an IPv4 address, which the CDX form
// reverses, an IPv6 literal, whose brackets it drops, a URL without a
// host, lowercased as the surt library writes it, a fragment, which it
// drops, a blank line, a failing line) and with the flags that change
// what is printed, on one worker and on three.
func TestFormatSURT(t *testing.T) {
	in := "HTTP://WWW.Example.COM:8080/a?b#c\n" +
		"http://user:pw@10.1.2.3/x\n" +
		"mailto:Joe@Example.COM\n" +
		"\n" +
		"http://h:8x/\n" +
		"http://[::1]:81/\n" +
		"http://example.com./\r\n" +
		"whois://whois.isoc.org.il/shaveh.co.il"
	dup := "http://a.example/\nhttp://u:pw@a.example/\nhttp://b.example/\nHTTP://A.example:80/\n"
	for _, tc := range []struct {
		name    string
		in      string
		args    []string
		profile string // "" for any; else the test needs it
		want    string
		code    int
	}{
		{"lines", in, nil, "",
			"com,example,www:8080)/a?b\n3,2,1,10)/x\nmailto:joe@example.com\n\n\n::1:81)/\n,com,example)/\nil,org,isoc,whois)/shaveh.co.il\n", 1},
		{"skip-invalid", in, []string{"-skip-invalid"}, "",
			"com,example,www:8080)/a?b\n3,2,1,10)/x\nmailto:joe@example.com\n::1:81)/\n,com,example)/\nil,org,isoc,whois)/shaveh.co.il\n", 1},
		{"nofragment", "http://www.example.com/a#b\n", []string{"-steps", "+RemoveFragment"}, "", "com,example,www)/a\n", 0},
		{"whatwg", "https://EXAMPLE.com:443/a b\n", []string{"-p", "whatwg"}, "", "com,example)/a%20b\n", 0},
		{"base", "../x\ny?q\n", []string{"-base", "http://www.example.com/dir/sub/"}, "",
			"com,example,www)/dir/x\ncom,example,www)/dir/sub/y?q\n", 0},
		// -u prints each SURT once: the userinfo, which the SURT drops,
		// does not make another line.
		{"unique", dup, []string{"-u"}, "", "example,a)/\nexample,b)/\n", 0},
		{"unique-count", dup, []string{"-u", "-c"}, "", "      3 example,a)/\n      1 example,b)/\n", 0},
		{"unique-base", "/x\nhttp://u@h.example/x\n", []string{"-u", "-c", "-base", "http://h.example/"}, "", "      2 example,h)/x\n", 0},
		// The CDX key of the Internet Archive's surt library tests, an
		// IPv4 address reversed as it reverses it by default.
		{"archive", "http://www.archive.org/goo/?a=2&b&a=1\nhttp://archive.org/index.php?PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile;u=4221\nhttp://192.168.1.254/info/\n",
			[]string{"-p", "archive"}, "archive", "org,archive)/goo?a=1&a=2&b\norg,archive)/index.php?action=profile;u=4221\n254,1,168,192)/info\n", 0},
	} {
		if tc.profile != "" {
			if _, ok := canon.LookupProfile(tc.profile); !ok {
				t.Logf("%s: not run: no profile %s", tc.name, tc.profile)
				continue
			}
		}
		for _, j := range []string{"1", "3"} {
			args := append([]string{"-format", "surt", "-j", j}, tc.args...)
			out, errOut, code := canonCmd(t, tc.in, args...)
			if out != tc.want || code != tc.code {
				t.Errorf("%s: canon %q = %q, exit %d; want %q, exit %d", tc.name, args, out, code, tc.want, tc.code)
			}
			if (code != 0) != strings.Contains(errOut, "line 5: port: invalid character") {
				t.Errorf("%s: canon %q: stderr %q", tc.name, args, errOut)
			}
		}
	}
	// URL arguments.
	if out, _, code := canonCmd(t, "", "-format", "surt", "http://www.example.com/a?b", "dns:example.com"); out != "com,example,www)/a?b\ndns:example.com\n" || code != 0 {
		t.Errorf("canon -format surt URL URL: %q, exit %d", out, code)
	}
}

// TestFormatSURTRejected checks that a key that SURT rejects is reported
// like any other failing line: on standard error with its line number,
// as an empty output line (none with -skip-invalid or -u), and in the
// summary and the exit status. No profile makes such a key,
// so the test replaces appendSURT with one that drops the scheme of a
// key that holds "bad", and runs the command in process.
func TestFormatSURTRejected(t *testing.T) {
	defer func(f func([]byte, string, canon.SURTForm) ([]byte, error)) { appendSURT = f }(appendSURT)
	appendSURT = func(dst []byte, key string, form canon.SURTForm) ([]byte, error) {
		if strings.Contains(key, "bad") {
			key = key[strings.IndexByte(key, ':')+1:]
		}
		return canon.AppendSURT(dst, key, form)
	}
	const in = "http://a.example/\nhttp://bad.example/x\nhttp://b.example/\n"
	const msg = `line 2: SURT of the key: scheme: missing scheme (at "//bad.example/x")` + "\n" + "canon: 1 of 3 lines failed\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "example,a)/\n\nexample,b)/\n"},
		{[]string{"-skip-invalid"}, "example,a)/\nexample,b)/\n"},
		{[]string{"-u"}, "example,a)/\nexample,b)/\n"},
		{[]string{"-u", "-c"}, "      1 example,a)/\n      1 example,b)/\n"},
		{[]string{"-base", "http://x.example/"}, "example,a)/\n\nexample,b)/\n"},
	} {
		args := append([]string{"-format", "surt", "-j", "1"}, tc.args...)
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(in), &out, &errb)
		if out.String() != tc.want || errb.String() != msg || code != exitFailed {
			t.Errorf("canon %q: stdout %q, stderr %q, exit %d; want %q, %q, exit 1", args, out.String(), errb.String(), code, tc.want, msg)
		}
	}
}

// TestFormatSURTUsage checks that the usage names the format and that a
// misspelt one lists it.
func TestFormatSURTUsage(t *testing.T) {
	help, _, _ := canonCmd(t, "", "-h")
	if !strings.Contains(help, "  surt ") || !strings.Contains(help, "-format surt") {
		t.Errorf("canon -h does not describe -format surt")
	}
	if _, errOut, code := canonCmd(t, "", "-format", "SURT", "http://h/"); code != exitUsage || errOut != "canon: unknown format \"SURT\": want text, tsv, jsonl, surt or expressions\n" {
		t.Errorf("canon -format SURT: exit %d, stderr %q", code, errOut)
	}
}
