package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// TestSchemes checks -schemes: a line whose key has another scheme gives
// what a blank line gives in each format, is not a failure, and is
// counted at the end of standard error; the scheme is the key's (after
// -base and the profile), compared in any case.
func TestSchemes(t *testing.T) {
	in := "http://a/\nmailto:x@y\njavascript:void(0)\nHTTPS://B/\n\ndata:,x\n"
	for _, c := range []struct {
		args []string
		out  string
	}{
		{[]string{"-p", "whatwg", "-schemes", "http,HTTPS"}, "http://a/\n\n\nhttps://b/\n\n\n"},
		{[]string{"-p", "whatwg", "-schemes", "https", "-skip-invalid"}, "https://b/\n"},
		{[]string{"-p", "whatwg", "-schemes", "http,https", "-format", "tsv"},
			"http://a/\thttp://a/\nmailto:x@y\t\njavascript:void(0)\t\nHTTPS://B/\thttps://b/\n\t\ndata:,x\t\n"},
		{[]string{"-p", "whatwg", "-schemes", "mailto,data", "-format", "jsonl"},
			`{"in":"http://a/","skipped":"scheme"}` + "\n" + `{"in":"mailto:x@y","out":"mailto:x@y"}` + "\n" +
				`{"in":"javascript:void(0)","skipped":"scheme"}` + "\n" + `{"in":"HTTPS://B/","skipped":"scheme"}` + "\n" +
				`{"in":"","blank":true}` + "\n" + `{"in":"data:,x","out":"data:,x"}` + "\n"},
		{[]string{"-p", "whatwg", "-schemes", "http,https", "-u"}, "http://a/\nhttps://b/\n"},
		{[]string{"-p", "whatwg", "-schemes", "https", "-base", "https://h/d/"}, "\n\n\nhttps://b/\n\n\n"},
	} {
		out, errOut, code := canonCmd(t, in, c.args...)
		if out != c.out || code != 0 {
			t.Errorf("canon %s: %q, exit %d, want %q, exit 0; stderr %q", strings.Join(c.args, " "), out, code, c.out, errOut)
		}
		if !strings.Contains(errOut, " of 6 lines skipped: their scheme is not one of -schemes\n") {
			t.Errorf("canon %s: stderr %q lacks the count of skipped lines", strings.Join(c.args, " "), errOut)
		}
	}
	// A relative reference resolved against -base takes the base's scheme.
	if out, _, code := canonCmd(t, "x\nmailto:y\n", "-p", "whatwg", "-schemes", "https", "-base", "https://h/d/"); out != "https://h/d/x\n\n" || code != 0 {
		t.Errorf("-base with -schemes: %q, exit %d", out, code)
	}
	// Failures stay failures, and the exit status says so.
	if _, errOut, code := canonCmd(t, "bad url\nmailto:x\n", "-schemes", "http"); code != 1 ||
		!strings.Contains(errOut, "canon: 1 of 2 lines skipped") || !strings.Contains(errOut, "canon: 1 of 2 lines failed") {
		t.Errorf("a failing and a skipped line: exit %d, stderr %q", code, errOut)
	}
	for _, bad := range [][]string{{"-schemes", ""}, {"-schemes", "1http"}, {"-schemes", "ht tp"}, {"-schemes", "a_b"},
		{"-schemes", "http", "-equal", "http://a/", "http://b/"}, {"-schemes", "http", "-rekey"}} {
		if _, errOut, code := canonCmd(t, "", bad...); code != 2 || !strings.Contains(errOut, "schemes") {
			t.Errorf("canon %s: exit %d, stderr %q, want a usage error about -schemes", strings.Join(bad, " "), code, errOut)
		}
	}
}

// TestRulesFile checks -rules: the JSON form of canon.Rules, per host
// too, applied to the profile; a file that is not one such object, or
// that WithRules refuses, is a usage error naming the file.
func TestRulesFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string { return writeTestFile(t, dir, name, body) }
	good := write("good.json", `{"TrackingParams": ["ref"], "Hosts": {"shop.example": {"KeepParams": ["item"]}}}`)
	in := "https://www.shop.example/p?item=7&color=red&ref=x\nhttps://other.example/p?color=red&ref=x\n"
	out, errOut, code := canonCmd(t, in, "-p", "crawler", "-rules", good)
	if want := "https://www.shop.example/p?item=7\nhttps://other.example/p?color=red\n"; out != want || code != 0 {
		t.Errorf("-rules: %q, exit %d, want %q; stderr %q", out, code, want, errOut)
	}
	list, _, _ := canonCmd(t, "", "-list-profiles", "-p", "crawler", "-rules", good)
	if !strings.Contains(list, "host=shop.example{keep=item}") || !strings.Contains(list, "+rules-") {
		t.Errorf("-list-profiles -rules does not show the rules and their key version:\n%s", list)
	}
	for name, body := range map[string]string{
		"unknown.json":   `{"TrackParams": ["ref"]}`,
		"two.json":       `{} {}`,
		"badname.json":   `{"TrackingParams": ["a=b"]}`,
		"nested.json":    `{"Hosts": {"a.example": {"Hosts": {"b.a.example": {}}}}}`,
		"baddomain.json": `{"Hosts": {"a..example": {}}}`,
		"notjson.json":   `TrackingParams: ref`,
	} {
		p := write(name, body)
		if _, errOut, code := canonCmd(t, "http://h/\n", "-p", "crawler", "-rules", p); code != 2 || !strings.Contains(errOut, "-rules "+p+": ") {
			t.Errorf("-rules %s (%s): exit %d, stderr %q, want a usage error naming the file", name, body, code, errOut)
		}
	}
	if _, errOut, code := canonCmd(t, "", "-rules", filepath.Join(dir, "missing.json")); code != 2 || !strings.Contains(errOut, "missing.json") {
		t.Errorf("-rules of a missing file: exit %d, stderr %q", code, errOut)
	}
}

// TestRulesUnused checks that -rules the profile would never use are a
// usage error naming the file, the field and the step that would read
// it: the same rules apply under -p crawler, and under -p whatwg,
// rfc3986 and archive (which lacks RemoveTrackingParams) exit 2, as does
// a host that is never a key's host under StripWWWN; -steps adding the
// step makes them apply.
func TestRulesUnused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string { return writeTestFile(t, dir, name, body) }
	tracking := write("tracking.json", `{"TrackingParams": ["ref"]}`)
	www := write("www.json", `{"Hosts": {"www.example.com": {"SessionParams": ["s"]}}}`)
	in := "https://example.com/p?a=1&ref=x\n"
	if out, errOut, code := canonCmd(t, in, "-p", "crawler", "-rules", tracking); code != 0 || out != "https://example.com/p?a=1\n" {
		t.Errorf("-p crawler -rules: %q, exit %d, stderr %q", out, code, errOut)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-p", "whatwg", "-rules", tracking}, []string{"Rules.TrackingParams", "RemoveTrackingParams"}},
		{[]string{"-p", "rfc3986", "-rules", tracking}, []string{"Rules.TrackingParams", "RemoveTrackingParams"}},
		{[]string{"-p", "archive", "-rules", tracking}, []string{"Rules.TrackingParams", "RemoveTrackingParams"}},
		{[]string{"-p", "archive", "-rules", www}, []string{`Rules.Hosts["www.example.com"]`, "example.com"}},
		{[]string{"-p", "crawler", "-steps", "-RemoveTrackingParams", "-rules", tracking}, []string{"RemoveTrackingParams"}},
		{[]string{"-keyversion", "-p", "whatwg", "-rules", tracking}, []string{"RemoveTrackingParams"}},
	} {
		out, errOut, code := canonCmd(t, in, c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "-rules "+c.args[len(c.args)-1]+": ") {
			t.Errorf("canon %s: %q, exit %d, stderr %q, want a usage error naming the file", strings.Join(c.args, " "), out, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("canon %s: stderr %q does not name %s", strings.Join(c.args, " "), errOut, w)
			}
		}
	}
	if out, errOut, code := canonCmd(t, in, "-p", "whatwg", "-steps", "+RemoveTrackingParams", "-rules", tracking); code != 0 || out != "https://example.com/p?a=1\n" {
		t.Errorf("-p whatwg -steps +RemoveTrackingParams -rules: %q, exit %d, stderr %q", out, code, errOut)
	}
}

// TestKeyVersionFlag checks -keyversion: the KeyVersion of the profile
// -p, -steps and -rules make, the one the keys are made under (as the
// library computes it), and a usage error with URLs.
func TestKeyVersionFlag(t *testing.T) {
	rules := writeTestFile(t, t.TempDir(), "rules.json", `{"TrackingParams": ["ref"], "Hosts": {"example.com": {"SessionParams": ["s"]}}}`)
	withRules, err := canon.Crawler.WithRules(canon.Rules{TrackingParams: []string{"ref"},
		Hosts: map[string]canon.Rules{"example.com": {SessionParams: []string{"s"}}}})
	if err != nil {
		t.Fatal(err)
	}
	steps := canon.MustProfile(append(canon.Archive.Steps(), canon.RemoveDirectoryIndex)...)
	for _, c := range []struct {
		args []string
		p    canon.Profile
	}{
		{[]string{"-keyversion"}, canon.RFC3986},
		{[]string{"-keyversion", "-p", "crawler"}, canon.Crawler},
		{[]string{"-p", "Archive", "-keyversion"}, canon.Archive},
		{[]string{"-keyversion", "-p", "crawler", "-rules", rules}, withRules},
		{[]string{"-keyversion", "-p", "archive", "-steps", "+RemoveDirectoryIndex"}, steps},
	} {
		out, errOut, code := canonCmd(t, "", c.args...)
		if want := c.p.KeyVersion() + "\n"; out != want || code != 0 || errOut != "" {
			t.Errorf("canon %s: %q, exit %d, stderr %q, want %q", strings.Join(c.args, " "), out, code, errOut, want)
		}
	}
	if _, _, code := canonCmd(t, "", "-keyversion", "http://example.com/"); code != 2 {
		t.Errorf("canon -keyversion URL: exit %d, want 2", code)
	}
}

// writeTestFile writes body to the file name in dir and returns its path.
func writeTestFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
