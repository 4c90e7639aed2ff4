package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
)

// TestBadBase checks that a base no line could be resolved against is a
// usage error, reported once and before the input is read: the command
// gets a standard input that never ends, and must exit on its own. A base
// that only some lines fail with stays accepted.
func TestBadBase(t *testing.T) {
	for _, tc := range []struct {
		profile, base string
		msg           string // standard error; "" when the base is fine
	}{
		{"rfc3986", "http://h:99999/", `canon: -base: port: port out of range (at "99999/")`},
		{"rfc3986", "/x", `canon: -base: scheme: base has no scheme (at "/x")`},
		{"rfc3986", "http://[::1/", `canon: -base: host: missing ']' (at "[::1/")`},
		{"rfc3986", "http://user:s3cret@h:99999/", `canon: -base: port: port out of range (at "99999/")`},
		{"webcapture", "http://h:99999/", `canon: -base: port: port out of range (at "99999/")`},
		// POWDER adds "http://" to a line without a scheme, but a base
		// needs its own.
		{"powder", "example.com/", `canon: -base: scheme: base has no scheme (at "example.com/")`},
		{"whatwg", "/x", `canon: -base: scheme: missing scheme (at "/x")`},
		{"whatwg", "http://h:99999/", `canon: -base: port: port out of range (at "99999/")`},
		// Fine as bases: "%zz" fails only the lines that keep the path
		// (RFC 3986 rejects it in a key), a browser reads "\" as "/".
		{"rfc3986", "http://h/%zz", ""},
		{"whatwg", "http://h/a\\b", ""},
	} {
		args := []string{"-p", tc.profile, "-base", tc.base}
		if tc.msg == "" {
			out, errOut, code := canonCmd(t, "/y\n", args...)
			if code != 0 || out == "" || errOut != "" {
				t.Errorf("canon %q: exit %d, stdout %q, stderr %q; want the base accepted", args, code, out, errOut)
			}
			continue
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, binary, args...)
		var out, errb bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = r, &out, &errb
		err = cmd.Run()
		cancel()
		r.Close()
		w.Close()
		var ee *exec.ExitError
		timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
		if !errors.As(err, &ee) || ee.ExitCode() != exitUsage || timedOut {
			t.Errorf("canon %q with an open standard input: %v (timed out: %v), want exit 2 at once", args, err, timedOut)
		}
		if errb.String() != tc.msg+"\n" || out.Len() != 0 {
			t.Errorf("canon %q: stderr %q, stdout %q; want stderr %q", args, errb.String(), out.String(), tc.msg+"\n")
		}
	}
	// -equal checks the base too.
	if _, errOut, code := canonCmd(t, "", "-base", "/x", "-equal", "a", "b"); code != exitUsage || strings.Count(errOut, "\n") != 1 {
		t.Errorf("canon -base /x -equal: exit %d, stderr %q", code, errOut)
	}
}

// TestBlankLines checks that blank lines are neither URLs nor failures
// in any format, with or without -base, and that -u and -skip-invalid
// drop them.
func TestBlankLines(t *testing.T) {
	in := "HTTP://A/\n\n  \t\r\n\t\nhttp://b/\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "http://a/\n\n\n\nhttp://b/\n"},
		{[]string{"-base", "http://base.example/dir/"}, "http://a/\n\n\n\nhttp://b/\n"},
		{[]string{"-p", "whatwg", "-base", "http://base.example/dir/"}, "http://a/\n\n\n\nhttp://b/\n"},
		{[]string{"-skip-invalid"}, "http://a/\nhttp://b/\n"},
		{[]string{"-u"}, "http://a/\nhttp://b/\n"},
		{[]string{"-u", "-c"}, "      1 http://a/\n      1 http://b/\n"},
		{[]string{"-format", "tsv"}, "HTTP://A/\thttp://a/\n\t\n   \t\n \t\nhttp://b/\thttp://b/\n"},
		{[]string{"-format", "tsv", "-base", "http://base.example/"}, "HTTP://A/\thttp://a/\n\t\n   \t\n \t\nhttp://b/\thttp://b/\n"},
		{[]string{"-format", "jsonl"}, `{"in":"HTTP://A/","out":"http://a/"}` + "\n" + `{"in":"","blank":true}` + "\n" +
			`{"in":"  \u0009","blank":true}` + "\n" + `{"in":"\u0009","blank":true}` + "\n" + `{"in":"http://b/","out":"http://b/"}` + "\n"},
		{[]string{"-format", "jsonl", "-skip-invalid"}, `{"in":"HTTP://A/","out":"http://a/"}` + "\n" + `{"in":"http://b/","out":"http://b/"}` + "\n"},
	} {
		for _, j := range []string{"1", "3"} {
			args := append([]string{"-j", j}, tc.args...)
			out, errOut, code := canonCmd(t, in, args...)
			if out != tc.want || errOut != "" || code != 0 {
				t.Errorf("canon %q: stdout %q, stderr %q, exit %d; want %q, nothing, exit 0", args, out, errOut, code, tc.want)
			}
		}
	}
	// A blank argument is a blank line too.
	if out, _, code := canonCmd(t, "", "http://a/", ""); out != "http://a/\n\n" || code != 0 {
		t.Errorf("canon http://a/ '': %q, exit %d", out, code)
	}
	if _, errOut, code := canonCmd(t, "", "-equal", " ", "http://a/"); code != exitUsage || !strings.Contains(errOut, "blank") {
		t.Errorf("canon -equal ' ' http://a/: exit %d, stderr %q; want exit 2, a blank URL", code, errOut)
	}
}

// TestLineMessages checks what standard error says of failing lines: the
// line number and the problem, not the library's function, the input or
// its password; and the fields of the jsonl failure records.
func TestLineMessages(t *testing.T) {
	for _, tc := range []struct {
		in     string
		args   []string
		stderr string
	}{
		{"http://a/\nhttp://h:8x/\n", nil,
			"line 2: port: invalid character (at \"x/\")\ncanon: 1 of 2 lines failed\n"},
		{"http://user:s3cret@h:8x/\n", nil,
			"line 1: port: invalid character (at \"x/\")\ncanon: 1 of 1 lines failed\n"},
		// The problem is in the userinfo: the quoted rest shows the mask.
		{"http://user:s3%zzcret@h/\n", nil,
			"line 1: userinfo: invalid percent-encoding (at \"xxxxx@h/\")\ncanon: 1 of 1 lines failed\n"},
		{"x%zz\n", []string{"-base", "http://h/"},
			"line 1: resolved against -base: path: invalid percent-encoding (at \"%zz\")\ncanon: 1 of 1 lines failed\n"},
		{"http://a/\nhttp://h:8x/\n", []string{"-q"}, "canon: 1 of 2 lines failed\n"},
		{"", []string{"-equal", "http://h:8x/", "http://h/"},
			"canon: -equal: first URL: port: invalid character (at \"x/\")\n"},
	} {
		_, errOut, _ := canonCmd(t, tc.in, tc.args...)
		if errOut != tc.stderr {
			t.Errorf("canon %q < %q: stderr %q, want %q", tc.args, tc.in, errOut, tc.stderr)
		}
	}

	in := "http://a/\nhttp://h:8x/\nhttp://user:s3cret@h/%zz\nrelative\n" + strings.Repeat("x", canon.MaxLength+1) + "\n"
	out, _, code := canonCmd(t, in, "-format", "jsonl")
	type record struct {
		In        string
		Out       *string
		Line      int
		Error     string
		Kind      string
		Component string
		Offset    *int
	}
	var got []record
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var r record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("jsonl line %q: %v", l, err)
		}
		got = append(got, r)
	}
	offset := func(n int) *int { return &n }
	want := []record{
		{In: "http://a/"},
		{Line: 2, Error: `port: invalid character (at "x/")`, Kind: "ErrInvalidPort", Component: "port", Offset: offset(len("http://h:8"))},
		{Line: 3, Error: `path: invalid percent-encoding (at "%zz")`, Kind: "ErrInvalidEscape", Component: "path", Offset: offset(len("http://user:s3cret@h/"))},
		{Line: 4, Kind: "ErrRelative", Component: "scheme", Offset: offset(0)},
		{Line: 5, Error: fmt.Sprintf("line longer than %d bytes", canon.MaxLength), Kind: "ErrTooLong", Component: "url"},
	}
	if code != 1 || len(got) != len(want) {
		t.Fatalf("jsonl: exit %d, %d records; want exit 1, %d", code, len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if i == 0 {
			if g.Out == nil || g.Line != 0 || g.Kind != "" {
				t.Errorf("record 1: %+v, want a key alone", g)
			}
			continue
		}
		if g.Out != nil || g.Line != w.Line || g.Kind != w.Kind || g.Component != w.Component ||
			(w.Error != "" && g.Error != w.Error) || (g.Offset == nil) != (w.Offset == nil) || (g.Offset != nil && *g.Offset != *w.Offset) {
			t.Errorf("record %d: %+v (offset %v), want %+v (offset %v)", i+1, g, g.Offset, w, w.Offset)
		}
	}
	// The offset points into "in" at the text the message quotes.
	if r := got[2]; !strings.HasPrefix(r.In[*r.Offset:], "%zz") {
		t.Errorf("record 3: offset %d points at %q", *r.Offset, r.In[*r.Offset:])
	}
}

// TestErrorText checks that errorText keeps what follows the quoted input
// whatever the input holds, quotes and "): " included.
func TestErrorText(t *testing.T) {
	rfc3986, _ := canon.LookupProfile("rfc3986")
	for _, in := range []string{"http://h:8x/", `http://h:8x/"): x`, "http://h:8x/\\\"", "http://h:8x/\x00é\xff"} {
		_, err := canon.Normalize(in, rfc3986)
		if err == nil {
			t.Fatalf("%q normalized", in)
		}
		if got := errorText(err); !strings.HasPrefix(got, "port: invalid character (at ") {
			t.Errorf("errorText(%q) = %q", err, got)
		}
	}
	if got := errorText(errors.New("plain")); got != "plain" {
		t.Errorf("errorText of another error: %q", got)
	}
}

// TestLongLineMessages checks, as a class, the message of a failing line
// whatever its length: "line N: " and the error's component, reason and
// quoted rest, never the library's function or the quoted input, in
// text (standard error), in jsonl ("error") and under -base (after
// "resolved against -base: "), for failures in each component with the
// line and the rest shorter and longer than the 256 bytes Error quotes,
// ASCII, multi-byte characters and invalid UTF-8 across the cut, and a
// password. The expected text is the library's error text less the
// function and the input, cut here by a reading of its own (quoteRef).
func TestLongLineMessages(t *testing.T) {
	const base = "http://b/dir/"
	page, err := canon.NewBase(base, canon.RFC3986)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, fill := range []string{"", "a", strings.Repeat("a", 250), strings.Repeat("a", 256), strings.Repeat("a", 257),
		strings.Repeat("é", 129), strings.Repeat("\xff", 300), strings.Repeat("a", 255) + "日本", strings.Repeat("a", 5000)} {
		lines = append(lines, "http://h:8x/"+fill, "http://h:8"+fill+"x/", "http://u:pw@h:8x/"+fill, "http://h/"+fill+"%zz",
			"http://h/%zz"+fill, "http://[::1/"+fill, "http://h/?"+fill+"%", fill+"%zz", "1http://h/"+fill)
	}
	in := strings.Join(lines, "\n") + "\n"
	for _, mode := range []string{"text", "jsonl", "base"} {
		var args []string
		switch mode {
		case "jsonl":
			args = []string{"-format", "jsonl"}
		case "base":
			args = []string{"-base", base}
		}
		out, errOut, _ := canonCmd(t, in, args...)
		got := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		var records []string
		if mode == "jsonl" {
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				var r struct{ Error *string }
				if err := json.Unmarshal([]byte(l), &r); err != nil {
					t.Fatal(err)
				}
				if r.Error != nil {
					records = append(records, *r.Error)
				}
			}
		}
		k := 0
		for n, line := range lines {
			var err error
			if mode == "base" {
				_, err = page.Normalize(line)
			} else {
				_, err = canon.Normalize(line, canon.RFC3986)
			}
			if err == nil {
				continue
			}
			e := err.(*canon.Error)
			arg := ""
			if e.Arg != "" {
				arg = e.Arg + " "
			}
			prefix := "canon." + e.Op + "(" + arg + quoteRef(e.Input) + "): "
			want, ok := strings.CutPrefix(e.Error(), prefix)
			if !ok {
				t.Fatalf("%q does not start with %q", e.Error(), prefix)
			}
			if e.Arg == "resolved" {
				want = "resolved against -base: " + want
			}
			if strings.Contains(want, "pw") {
				t.Fatalf("line %d: the expected message %q shows the password", n+1, want)
			}
			wantLine := fmt.Sprintf("line %d: %s", n+1, want)
			if k >= len(got) || got[k] != wantLine {
				g := ""
				if k < len(got) {
					g = got[k]
				}
				t.Errorf("%s: standard error line %d: %.300q,\nwant %.300q", mode, k+1, g, wantLine)
			}
			if mode == "jsonl" && (k >= len(records) || records[k] != want) {
				t.Errorf("jsonl: record %d: error %.300q, want %.300q", k+1, records[min(k, len(records)-1)], want)
			}
			k++
		}
		if k < len(lines)*3/4 {
			t.Fatalf("%s: %d of %d lines failed: not a test of failing lines", mode, k, len(lines))
		}
	}
}

// quoteRef quotes s as canon.Error does, by a reading of its own: s, or
// when it is longer than 256 bytes, its longest prefix of at most 256
// bytes that ends where range over s starts a character, and "...".
func quoteRef(s string) string {
	if len(s) <= 256 {
		return strconv.Quote(s)
	}
	cut := 0
	for i := range s {
		if i > 256 {
			break
		}
		cut = i
	}
	return strconv.Quote(s[:cut]) + "..."
}

// TestHelp checks that asked-for help goes to standard output with exit
// 0, and that a mistake in the flags costs one line on standard error.
func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		out, errOut, code := canonCmd(t, "", arg)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: canon") || !strings.Contains(out, "-skip-invalid") {
			t.Errorf("canon %s: exit %d, stderr %q, stdout %.100q...; want the usage on stdout, exit 0", arg, code, errOut, out)
		}
		if !strings.Contains(out, "whatwg") {
			t.Errorf("canon %s does not list the whatwg profile", arg)
		}
	}
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"-x"}, "canon: flag provided but not defined: -x (see canon -h)\n"},
		{[]string{"-j", "many"}, "canon: invalid value \"many\" for flag -j: parse error (see canon -h)\n"},
	} {
		out, errOut, code := canonCmd(t, "", tc.args...)
		if code != exitUsage || out != "" || errOut != tc.stderr {
			t.Errorf("canon %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.stderr)
		}
	}
}

// totalsLine is the last plain progress line for the input of
// TestProgressNotTerminal.
var totalsLine = regexp.MustCompile(`^canon: 2000 lines, \d+ lines/s, 1000 failed$`)

// TestProgressNotTerminal checks that -progress writes plain lines, with
// the totals last, to a standard error that is not a terminal (here a
// pipe), and that -q keeps the summary.
func TestProgressNotTerminal(t *testing.T) {
	in := strings.Repeat("http://a/\nhttp://h:8x/\n", 1000)
	for _, args := range [][]string{{"-progress"}, {"-progress", "-j", "1"}, {"-progress", "-q"}} {
		_, errOut, code := canonCmd(t, in, args...)
		if code != 1 || strings.ContainsAny(errOut, "\r\x1b") {
			t.Errorf("canon %q: exit %d, stderr has a terminal escape or CR: %.200q", args, code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		n := len(lines)
		if n < 2 || !totalsLine.MatchString(lines[n-2]) || lines[n-1] != "canon: 1000 of 2000 lines failed" {
			t.Errorf("canon %q: stderr ends %q; want the totals, then the summary", args, lines[max(n-2, 0):])
		}
		if quiet := args[len(args)-1] == "-q"; quiet != (n == 2) {
			t.Errorf("canon %q: %d lines on stderr", args, n)
		}
	}
	// Without -progress, standard error (not a terminal) has no report.
	if _, errOut, _ := canonCmd(t, in, "-q"); errOut != "canon: 1000 of 2000 lines failed\n" {
		t.Errorf("canon -q: stderr %q", errOut)
	}
}

// TestProgressTerminal checks the report on a terminal: one line,
// rewritten in place and erased at the end.
func TestProgressTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, on: true, tty: true, start: time.Now().Add(-time.Second)}
	p.update(10, 1)
	p.clear()
	p.update(20, 1) // within 250 ms: nothing
	p.finish(20, 1)
	if want := "\r\033[K10 lines, "; !strings.HasPrefix(buf.String(), want) || !strings.HasSuffix(buf.String(), " failed\r\033[K") || strings.Contains(buf.String(), "\n") {
		t.Errorf("terminal progress: %q", buf.String())
	}
}

// TestTSVInputField checks what the tsv input field holds for an input
// with a TAB or CR inside, which a browser's reading removes: a space for
// each, so that the columns hold.
func TestTSVInputField(t *testing.T) {
	out, _, code := canonCmd(t, "HTTP://H/a\tb\rc\r\n", "-p", "whatwg", "-format", "tsv")
	if want := "HTTP://H/a b c\thttp://h/abc\n"; out != want || code != 0 {
		t.Errorf("tsv: %q, exit %d; want %q", out, code, want)
	}
}

// TestDocListsFlags checks that the package documentation, as go doc
// shows it, and -h name every flag, and that go doc shows the formats,
// blank lines and exit codes.
func TestDocListsFlags(t *testing.T) {
	doc, err := exec.Command("go", "doc", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go doc: %v\n%s", err, doc)
	}
	help, _, _ := canonCmd(t, "", "-h")
	var cfg config
	var profile, steps string
	newFlagSet(&cfg, &profile, &steps).VisitAll(func(f *flag.Flag) {
		for name, text := range map[string]string{"go doc": string(doc), "-h": help} {
			if !regexp.MustCompile(`(^|[\s,])-` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(text) {
				t.Errorf("%s does not list the flag -%s", name, f.Name)
			}
		}
	})
	for _, want := range []string{"text", "tsv", "jsonl", "surt:", `"blank":true`, `"kind":KIND`, "ErrInvalidPort", "Blank lines", "Errors and exit status", "exit status is 0", fmt.Sprintf("(%d MiB)", canon.MaxLength>>20)} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("go doc lacks %q", want)
		}
	}
}

// TestDocExamples runs each "$ canon ..." example of the command's
// documentation (doc.go) and compares its output with the lines the
// documentation shows after it: the examples are what the command
// prints, not what it printed once.
func TestDocExamples(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	n := 0
	for i, l := range lines {
		cmd, ok := strings.CutPrefix(l, "//\t$ canon ")
		if !ok {
			continue
		}
		var want strings.Builder
		for _, o := range lines[i+1:] {
			o, ok := strings.CutPrefix(o, "//\t")
			if !ok {
				break
			}
			want.WriteString(o + "\n")
		}
		args := shellWords(t, cmd)
		out, errOut, code := canonCmd(t, "", args...)
		// A key version shown is the one of Go 1.26's Unicode tables;
		// the tests run under Go 1.27's too.
		out = strings.ReplaceAll(out, "unicode-"+canon.UnicodeVersion, "unicode-15.0.0")
		if strings.TrimRight(out, "\n") != strings.TrimRight(want.String(), "\n") || code != 0 {
			t.Errorf("doc.go: canon %s:\n%s(exit %d, stderr %q)\nthe documentation shows:\n%s", cmd, out, code, errOut, want.String())
		}
		n++
	}
	if n < 3 {
		t.Errorf("doc.go: %d examples found, want at least 3", n)
	}
}

// shellWords splits a command line of words and single-quoted strings.
func shellWords(t *testing.T, s string) []string {
	var words []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '\'' {
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				t.Fatalf("unterminated quote in %q", s)
			}
			words = append(words, s[1:1+end])
			s = s[2+end:]
			continue
		}
		w, rest, _ := strings.Cut(s, " ")
		words, s = append(words, w), rest
	}
	return words
}

// TestFlagsAfterURLs checks that flags may follow URL arguments, and
// that "--" ends the flags: an argument after it is a URL even when it
// starts with "-".
func TestFlagsAfterURLs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"HTTP://A/?utm_source=x&b=1", "-p", "crawler"}, "http://a/?b=1\n", 0},
		{[]string{"-p", "crawler", "HTTP://A/?utm_source=x&b=1"}, "http://a/?b=1\n", 0},
		{[]string{"HTTP://A/", "-p", "whatwg", "http://B/", "-format", "tsv"}, "HTTP://A/\thttp://a/\nhttp://B/\thttp://b/\n", 0},
		{[]string{"-p", "whatwg", "-base", "http://h/d/", "--", "-x", "y"}, "http://h/d/-x\nhttp://h/d/y\n", 0},
		{[]string{"-p", "whatwg", "-base", "http://h/d/", "y", "--", "-p"}, "http://h/d/y\nhttp://h/d/-p\n", 0},
		{[]string{"http://a/", "-zz"}, "", 2},
	} {
		out, errOut, code := canonCmd(t, "", c.args...)
		if out != c.want || code != c.code {
			t.Errorf("canon %s: %q, exit %d (stderr %q), want %q, exit %d", strings.Join(c.args, " "), out, code, errOut, c.want, c.code)
		}
	}
}
