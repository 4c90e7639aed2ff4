package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// The end-to-end tests build the command and run it as a process.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "canon-cmd")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "canon")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		panic("go build: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// canonCmd runs the binary with args and stdin; it returns stdout, stderr
// and the exit status.
func canonCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runCanon(t, strings.NewReader(stdin), args...)
}

// runCanon is canonCmd with any standard input: an *os.File is passed to
// the process as it is (a file, not a pipe).
func runCanon(t *testing.T, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := exitStatus(t, cmd.Run())
	return out.String(), errb.String(), code
}

// exitStatus is the exit status of a command that ran with error err.
func exitStatus(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0
}

func TestArgs(t *testing.T) {
	out, _, code := canonCmd(t, "", "HTTP://Example.COM:80/a/./b/../c", "http://h/%7e")
	if out != "http://example.com/a/c\nhttp://h/~\n" || code != 0 {
		t.Errorf("got %q, exit %d", out, code)
	}
}

func TestFormats(t *testing.T) {
	in := "HTTP://A/x\nhttp://h:8x/\n"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-format", "text"}, "http://a/x\n\n"},
		{[]string{"-format", "text", "-skip-invalid"}, "http://a/x\n"},
		{[]string{"-format", "tsv"}, "HTTP://A/x\thttp://a/x\nhttp://h:8x/\t\n"},
		{[]string{"-format", "jsonl"}, `{"in":"HTTP://A/x","out":"http://a/x"}` + "\n" +
			`{"in":"http://h:8x/","line":2,"error":"port: invalid character (at \"x/\")","kind":"ErrInvalidPort","component":"port","offset":10}` + "\n"},
	}
	for _, tc := range cases {
		out, errOut, code := canonCmd(t, in, tc.args...)
		if out != tc.want || code != 1 {
			t.Errorf("canon %v = %q, exit %d; want %q, exit 1", tc.args, out, code, tc.want)
		}
		if !strings.Contains(errOut, "line 2: ") || !strings.Contains(errOut, "1 of 2 lines failed") {
			t.Errorf("canon %v: stderr %q lacks the line error or the summary", tc.args, errOut)
		}
	}
}

func TestUniqueCount(t *testing.T) {
	in := "http://a/\nHTTP://A:80/\nhttp://b/\nhttp://a/#x\nhttp://A/\n"
	out, _, code := canonCmd(t, in, "-u")
	if out != "http://a/\nhttp://b/\nhttp://a/#x\n" || code != 0 {
		t.Errorf("-u: %q, exit %d", out, code)
	}
	out, _, _ = canonCmd(t, in, "-u", "-c")
	if out != "      3 http://a/\n      1 http://b/\n      1 http://a/#x\n" {
		t.Errorf("-u -c: %q", out)
	}
	out, _, _ = canonCmd(t, in, "-u", "-steps", "+nofragment")
	if out != "http://a/\nhttp://b/\n" {
		t.Errorf("-u -steps +nofragment: %q", out)
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"-equal", "http://h/%7Ea", "HTTP://H:80/~a"}, 0},
		{[]string{"-equal", "http://h/a", "http://h/A"}, 1},
		{[]string{"-equal", "http://h/a"}, 2},
		{[]string{"-p", "nosuch", "http://h/"}, 2},
		{[]string{"-format", "xml", "http://h/"}, 2},
		{[]string{"-c", "http://h/"}, 2},
		{[]string{"-nosuchflag"}, 2},
		{[]string{"-h"}, 0},
		{[]string{"-version"}, 0},
		{[]string{"-list-profiles"}, 0},
		{[]string{"relative/ref"}, 1},
	} {
		if _, _, code := canonCmd(t, "", tc.args...); code != tc.code {
			t.Errorf("canon %v: exit %d, want %d", tc.args, code, tc.code)
		}
	}
}

func TestEmptyInput(t *testing.T) {
	out, errOut, code := canonCmd(t, "")
	if out != "" || errOut != "" || code != 0 {
		t.Errorf("empty input: %q %q %d", out, errOut, code)
	}
}

func TestLineEndings(t *testing.T) {
	out, _, code := canonCmd(t, "HTTP://A/1\r\nHTTP://A/2\r\nHTTP://A/3")
	if out != "http://a/1\nhttp://a/2\nhttp://a/3\n" || code != 0 {
		t.Errorf("CRLF and no final newline: %q, exit %d", out, code)
	}
}

func TestBase(t *testing.T) {
	out, _, _ := canonCmd(t, "../x\ny?q\n", "-base", "https://example.com/dir/sub/")
	if out != "https://example.com/dir/x\nhttps://example.com/dir/sub/y?q\n" {
		t.Errorf("-base: %q", out)
	}
	out, _, _ = canonCmd(t, "../../../g\n", "-p", "webcapture", "-base", "http://a/b/c/d;p?q")
	if out != "http://a/../g\n" {
		t.Errorf("-base with webcapture: %q", out)
	}
}

// TestOrderManyWorkers checks that output order follows input order with
// many workers, and handles a 10 MB input.
func TestOrderManyWorkers(t *testing.T) {
	var in, want strings.Builder
	for i := 0; in.Len() < 10<<20; i++ {
		n := strconv.Itoa(i)
		in.WriteString("HTTP://Host" + strconv.Itoa(i%7) + ".example/a/./" + n + "/../p" + n + "?q=%7e\n")
		want.WriteString("http://host" + strconv.Itoa(i%7) + ".example/a/p" + n + "?q=~\n")
	}
	f := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(f, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := canonCmd(t, "", "-j", "8", "-f", f)
	if code != 0 || out != want.String() {
		t.Fatalf("10 MB with -j 8: exit %d, stderr %q, output equal: %v (len %d vs %d)", code, errOut, out == want.String(), len(out), want.Len())
	}
}

func TestLongLine(t *testing.T) {
	long := "http://h/" + strings.Repeat("a", 1<<20)
	out, _, code := canonCmd(t, long+"\nhttp://B/\n")
	if code != 0 || out != long+"\nhttp://b/\n" {
		t.Errorf("1 MiB line: exit %d, len %d", code, len(out))
	}
}

// TestTooLongLine checks that a line longer than canon.MaxLength fails on
// its own, in its place, and that the lines around it are intact: the
// reader drops it as it reads and carries on after its newline.
func TestTooLongLine(t *testing.T) {
	tooLong := "http://h/" + strings.Repeat("a", canon.MaxLength)
	in := "http://a/\n" + tooLong + "\nHTTP://B/\r\n" + tooLong + "\nhttp://c/"
	out, errOut, code := canonCmd(t, in)
	if want := "http://a/\n\nhttp://b/\n\nhttp://c/\n"; code != 1 || out != want {
		t.Errorf("too-long lines: exit %d, stdout %q, want exit 1 and %q", code, out, want)
	}
	for _, want := range []string{"line 2: ", "line 4: ", "2 of 5 lines failed"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
	}
	out, _, code = canonCmd(t, "http://a/\n"+tooLong)
	if code != 1 || out != "http://a/\n\n" {
		t.Errorf("too-long final line: exit %d, stdout %q", code, out)
	}
	// One byte over: short enough for the reader to keep, so the worker
	// fails it, with the same short error.
	justOver := tooLong[:canon.MaxLength+1]
	out, errOut, code = canonCmd(t, justOver+"\r\nhttp://a/\n")
	if want := "line 1: line longer than"; code != 1 || out != "\nhttp://a/\n" || !strings.HasPrefix(errOut, want) || len(errOut) > 200 {
		t.Errorf("line of MaxLength+1 bytes: exit %d, stdout %q, stderr %.300q, want exit 1, %q and stderr starting %q", code, out, errOut, "\nhttp://a/\n", want)
	}
}

// TestNoPasswordOnStderr runs failing lines that carry a password, in the
// forms the library's readings find one (with a scheme, scheme-relative,
// POWDER's encoded "://", as a -base), through every format: standard
// error never shows it. (Standard output echoes the input in tsv and jsonl:
// that is the caller's data, not error text.)
func TestNoPasswordOnStderr(t *testing.T) {
	lines := "http://user:s3cret@h:99999/\n//user:s3cret@h:99999/\nhttp%3A%2F%2Fuser:s3cret@h:99999/\nhttp://user:s3cret@h/%zz\n" +
		// Browsers drop tabs first, and read a userinfo after "http:" and
		// any run of "/" and "\\".
		"http:/\t/user:s3cret@h:99999/\nhttp:\t//user:s3cret@h:99999/\nhttp:\\\\\t\\\\user:s3cret@h:99999/\nhttp://us\ter:s3\tcret@h:99999/\n"
	for _, p := range []string{"rfc3986", "iri", "webcapture", "powder", "whatwg", "crawler", "archive", "aggressive"} {
		for _, format := range []string{"text", "tsv", "jsonl"} {
			_, stderr, code := canonCmd(t, lines, "-p", p, "-format", format)
			if code != 1 || strings.Contains(stderr, "s3cret") {
				t.Errorf("canon -p %s -format %s: exit %d, stderr %q: want exit 1 and no password", p, format, code, stderr)
			}
			if format == "jsonl" {
				out, _, _ := canonCmd(t, lines, "-p", p, "-format", format)
				for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
					// The "in" field is the input; the error text after it must not carry the password.
					if _, rest, _ := strings.Cut(l, `"error":`); strings.Contains(rest, "s3cret") {
						t.Errorf("canon -p %s -format jsonl: error field carries the password: %s", p, l)
					}
				}
			}
		}
	}
	for _, base := range []string{"http://user:s3cret@h:99999/", "http:/\t/user:s3cret@h:99999/", "http:\t//user:s3cret@h:99999/"} {
		for _, p := range []string{"rfc3986", "whatwg", "crawler"} {
			_, stderr, code := canonCmd(t, "x\n", "-p", p, "-base", base)
			if code == 0 || strings.Contains(stderr, "s3cret") {
				t.Errorf("canon -p %s -base %q (a password and a bad port): exit %d, stderr %q", p, base, code, stderr)
			}
			_, stderr, code = canonCmd(t, "", "-p", p, "-equal", base, "http://h/")
			if code == 0 || strings.Contains(stderr, "s3cret") {
				t.Errorf("canon -p %s -equal %q http://h/: exit %d, stderr %q", p, base, code, stderr)
			}
		}
	}
}

// TestWHATWGProfile runs -p whatwg on links as a page holds them, alone and
// with -base, and -equal with -base: each as a browser reads it.
func TestWHATWGProfile(t *testing.T) {
	in := "HTTP://EXAMPLE.com:80/a/%2e/b\\c\nhttp://0x7f.1/\n/a\tb\n"
	out, stderr, code := canonCmd(t, in, "-p", "whatwg")
	if want := "http://example.com/a/b/c\nhttp://127.0.0.1/\n\n"; out != want || code != 1 {
		t.Errorf("canon -p whatwg: %q, exit %d, stderr %q; want %q, exit 1 (the relative line has no base)", out, code, stderr, want)
	}
	out, stderr, code = canonCmd(t, in, "-p", "whatwg", "-base", "https://h.example/dir/page")
	if want := "http://example.com/a/b/c\nhttp://127.0.0.1/\nhttps://h.example/ab\n"; out != want || code != 0 {
		t.Errorf("canon -p whatwg -base: %q, exit %d, stderr %q; want %q", out, code, stderr, want)
	}
	if _, stderr, code := canonCmd(t, "", "-p", "whatwg", "-base", "http://h/a/", "-equal", "b\\c", "b/./c"); code != 0 {
		t.Errorf("canon -p whatwg -base -equal: exit %d, stderr %q, want 0", code, stderr)
	}
	out, _, _ = canonCmd(t, "", "-list-profiles")
	if !strings.Contains(out, "whatwg      WHATWG(ParseWHATWG)") {
		t.Errorf("canon -list-profiles does not list whatwg:\n%s", out)
	}
}
