package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
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
