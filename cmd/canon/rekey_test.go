package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// TestRekey checks -rekey line by line: what it writes for a key that
// changed, one that appeared or is gone, and nothing for the others; bad
// lines; CRLF; -base and -steps.
func TestRekey(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		in     string
		out    string
		stderr []string // lines, in order, the summary excluded
		code   int
	}{
		{"unchanged", []string{"-p", "crawler"}, "HTTP://Example.com/a?b=1&a=2\thttp://example.com/a?a=2&b=1\n", "", nil, 0},
		{"changed", []string{"-p", "crawler"}, "http://h/?b=1&a=2\thttp://h/?b=1&a=2\n",
			"http://h/?b=1&a=2\thttp://h/?b=1&a=2\thttp://h/?a=2&b=1\n", nil, 0},
		{"other profile", []string{"-p", "archive"}, "http://www.example.com/A/\thttp://www.example.com/A/\n",
			"http://www.example.com/A/\thttp://www.example.com/A/\thttp://example.com/a\n", nil, 0},
		{"key appears", []string{"-p", "whatwg"}, "http://h/a\t\n", "http://h/a\t\thttp://h/a\n", nil, 0},
		{"key gone", []string{"-p", "whatwg"}, "x\tok\nhttp://a b/\thttp://a b/\n", "x\tok\t\nhttp://a b/\thttp://a b/\t\n",
			[]string{"line 1: scheme: missing scheme (at \"x\")", "line 2: host: forbidden domain code point (at \" b/\")"}, exitFailed},
		{"no key then, none now", []string{"-p", "whatwg"}, "http://a b/\t\n", "", nil, 0},
		{"blank", []string{"-p", "whatwg"}, "\n  \t\r\n \t\n", "", nil, 0},
		{"CRLF", []string{"-p", "crawler"}, "http://h/#f\thttp://h/\r\nhttp://h/#f\thttp://h/#f\r\n",
			"http://h/#f\thttp://h/#f\thttp://h/\n", nil, 0},
		{"no TAB", []string{"-p", "crawler"}, "http://h/\thttp://h/x\nhttp://h/\n", "http://h/\thttp://h/x\thttp://h/\n",
			[]string{"line 2: not an \"input TAB key\" line (-rekey reads what -format tsv writes, without -u -c)"}, exitFailed},
		{"no TAB first, -index-format tsv", []string{"-p", "crawler", "-index-format", "tsv"}, "http://h/\nhttp://h/\thttp://h/x\n", "http://h/\thttp://h/x\thttp://h/\n",
			[]string{"line 1: not an \"input TAB key\" line (-rekey reads what -format tsv writes, without -u -c)"}, exitFailed},
		{"count column", []string{"-p", "crawler"}, "2\thttp://h/\thttp://h/\n", "",
			[]string{"line 1: not an \"input TAB key\" line (-rekey reads what -format tsv writes, without -u -c)"}, exitFailed},
		{"base", []string{"-p", "whatwg", "-base", "http://h/dir/"}, "../x\thttp://h/x\n./y\thttp://h/dir/z\n",
			"./y\thttp://h/dir/z\thttp://h/dir/y\n", nil, 0},
		{"steps", []string{"-p", "crawler", "-steps", "-SortQuery"}, "http://h/?b=1&a=2\thttp://h/?a=2&b=1\n",
			"http://h/?b=1&a=2\thttp://h/?a=2&b=1\thttp://h/?b=1&a=2\n", nil, 0},
		{"quiet", []string{"-p", "whatwg", "-q"}, "http://a b/\thttp://a b/\n", "http://a b/\thttp://a b/\t\n", nil, exitFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-rekey"}, tc.args...)
			out, errOut, code := canonCmd(t, tc.in, args...)
			var wantErr string
			for _, l := range tc.stderr {
				wantErr += l + "\n"
			}
			if code == exitFailed {
				n := strings.Count(tc.in, "\n")
				f := len(tc.stderr)
				if f == 0 {
					f = 1 // -q: the summary only
				}
				wantErr += fmt.Sprintf("canon: %d of %d lines failed\n", f, n)
			}
			if out != tc.out || errOut != wantErr || code != tc.code {
				t.Errorf("canon %q < %q:\nstdout %q\nstderr %q\nexit %d\nwant %q\n%q\nexit %d", args, tc.in, out, errOut, code, tc.out, wantErr, tc.code)
			}
		})
	}
}

// TestRekeyRoundTrip writes an index of keys with -format tsv and rekeys
// it: under the same profile nothing changed; under another, exactly the
// lines whose keys differ, as the library says, in input order, with one
// worker or four.
func TestRekeyRoundTrip(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus-sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	index, _, _ := canonCmd(t, string(b), "-p", "crawler", "-format", "tsv")
	if n := strings.Count(index, "\n"); n != len(lines) {
		t.Fatalf("index of %d lines for %d inputs", n, len(lines))
	}
	if out, errOut, code := canonCmd(t, index, "-p", "crawler", "-rekey"); out != "" || errOut != "" || code != 0 {
		t.Errorf("rekey under the profile that made the keys: %q, stderr %q, exit %d; want nothing", out, errOut, code)
	}
	var want strings.Builder
	changed := 0
	for _, l := range lines {
		in := strings.NewReplacer("\t", " ", "\r", " ").Replace(l)
		old, err1 := canon.Normalize(in, canon.Crawler)
		if err1 != nil || strings.TrimLeft(in, " \t\r\v\f") == "" {
			old = ""
		}
		key, err2 := canon.Normalize(in, canon.Aggressive)
		if err2 != nil || strings.TrimLeft(in, " \t\r\v\f") == "" {
			key = ""
		}
		if key != old {
			fmt.Fprintf(&want, "%s\t%s\t%s\n", in, old, key)
			changed++
		}
	}
	for _, j := range []string{"1", "4"} {
		out, _, _ := canonCmd(t, index, "-p", "aggressive", "-rekey", "-j", j, "-q")
		if out != want.String() {
			t.Errorf("rekey -p aggressive -j %s: %d lines, want %d:\n%s", j, strings.Count(out, "\n"), changed, firstDiff(out, want.String()))
		}
	}
	if changed < 100 {
		t.Errorf("only %d of %d keys differ between crawler and aggressive: not a test of -rekey", changed, len(lines))
	}
	t.Logf("%d lines, %d rekeyed from crawler to aggressive", len(lines), changed)
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d: %q, want %q", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(al), len(bl))
}

// TestRekeyUsage checks the flags -rekey cannot be combined with.
func TestRekeyUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-u"}, "canon: -rekey cannot be used with -u\n"},
		{[]string{"-equal", "http://a/", "http://b/"}, "canon: -rekey cannot be used with -equal\n"},
		{[]string{"-explain"}, "canon: -rekey cannot be used with -explain\n"},
		{[]string{"-skip-invalid"}, "canon: -rekey cannot be used with -skip-invalid: it writes only the lines whose key changed\n"},
		{[]string{"-format", "jsonl"}, "canon: -rekey cannot be used with -format jsonl: it writes in the index's own format (tsv: input TAB oldkey TAB newkey, the keys SURTs with -format surt; CDX and CDXJ: the records with their new key)\n"},
		{[]string{"-format", "expressions", "-p", "safebrowsing"}, "canon: -format expressions cannot be used with -u, -explain, -equal or -rekey: it writes the lines of each key's expressions\n"},
		{[]string{"http://a/"}, "canon: -rekey reads an index (-format tsv's \"input TAB key\" lines, CDX or CDXJ) from standard input or -f, not URL arguments\n"},
	} {
		args := append([]string{"-rekey"}, tc.args...)
		out, errOut, code := canonCmd(t, "", args...)
		if out != "" || errOut != tc.want || code != exitUsage {
			t.Errorf("canon %q: stdout %q, stderr %q, exit %d; want stderr %q, exit 2", args, out, errOut, code, tc.want)
		}
	}
	if out, errOut, code := canonCmd(t, "http://h/?b&a\thttp://h/?b&a\n", "-rekey", "-format", "tsv", "-p", "crawler"); out != "http://h/?b&a\thttp://h/?b&a\thttp://h/?a&b\n" || errOut != "" || code != 0 {
		t.Errorf("canon -rekey -format tsv: %q, %q, exit %d", out, errOut, code)
	}
}

// TestRekeySURT checks -rekey -format surt, which reads "input TAB SURT"
// lines (the original URL and the key of a CDX record) and writes those
// whose SURT the profile now makes differently, with the new SURT; a
// SURT that is still the same writes nothing.
func TestRekeySURT(t *testing.T) {
	in := "ftp://h.org:21/x\torg,h)/x\n" + // archive/7's key, before ReadAsSURT
		"http://www.h.org/a/?b=1&a=2\torg,h)/a?a=2&b=1\n" + // unchanged
		"file://localhost/x\tfile:/x\n" +
		"http://./x\t,)/x\n"
	want := "ftp://h.org:21/x\torg,h)/x\torg,h:21)/x\n" +
		"file://localhost/x\tfile:/x\tlocalhost)/x\n" +
		"http://./x\t,)/x\thttp:/x\n"
	if out, errOut, code := canonCmd(t, in, "-rekey", "-format", "surt", "-p", "archive"); out != want || errOut != "" || code != 0 {
		t.Errorf("canon -rekey -format surt -p archive: %q, %q, exit %d; want %q", out, errOut, code, want)
	}
	// A SURT that is still the one the profile makes: no line.
	out, errOut, code := canonCmd(t, "http://h/\th)/\n", "-rekey", "-format", "surt", "-p", "archive")
	if out != "" || errOut != "" || code != 0 {
		t.Errorf("canon -rekey -format surt, an unchanged SURT: %q, %q, exit %d", out, errOut, code)
	}
}

// TestListProfilesKeyVersion checks that -list-profiles prints each
// profile's KeyVersion under it, and that of a profile -steps changed.
func TestListProfilesKeyVersion(t *testing.T) {
	list, _, code := canonCmd(t, "", "-list-profiles")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, np := range profiles {
		p, _ := canon.LookupProfile(np.name)
		want := fmt.Sprintf("%-11s %s\n%-11s key version %s\n", np.name, strings.ReplaceAll(p.String(), "|", " "), "", p.KeyVersion())
		if !strings.Contains(list, want) {
			t.Errorf("-list-profiles lacks %q", want)
		}
	}
	if strings.Contains(list, "with -steps") {
		t.Errorf("-list-profiles without -steps lists a changed profile:\n%s", list)
	}
	list, _, _ = canonCmd(t, "", "-list-profiles", "-p", "crawler", "-steps", "-SortQuery")
	var steps []canon.Step
	for _, s := range canon.Crawler.Steps() {
		if s != canon.SortQuery {
			steps = append(steps, s)
		}
	}
	p := canon.MustProfile(steps...)
	if want := "key version " + p.KeyVersion() + "\n"; !strings.Contains(list, "\n-p crawler with -steps or -rules: ") || !strings.Contains(list, want) {
		t.Errorf("-list-profiles -p crawler -steps -SortQuery lacks the changed profile's %q:\n%s", want, list)
	}
}

// TestRekeyHeader checks the index header and the escaped input field:
// an index written with -format tsv -header names its key version and
// rekeys to nothing under the same profile, whatever TAB, CR or "\" its
// inputs hold (from a pipe and from a file); an index without the header
// is read as written; another profile's index is said on standard
// error; a "\" that starts no escape fails its line.
func TestRekeyHeader(t *testing.T) {
	inputs := []string{"http://h/a\tb", "http://h/a\\b", "http://h/x\\ty", "http://h/\rz?\\", "HTTP://H/?b&a", "  \t", "http://a b/", "http://h/\\\\\\t"}
	in := strings.Join(inputs, "\n") + "\n"
	index, _, _ := canonCmd(t, in, "-p", "crawler", "-format", "tsv", "-header")
	header := "#canon " + canon.Crawler.KeyVersion() + "\n"
	if !strings.HasPrefix(index, header) || strings.Count(index, "\n") != len(inputs)+1 {
		t.Fatalf("index %q: want the header %q and a line per input", index, header)
	}
	for i, l := range strings.Split(strings.TrimSuffix(index, "\n"), "\n")[1:] {
		field, _, _ := strings.Cut(l, "\t")
		if got, ok := unescapeTSVField(nil, []byte(field)); !ok || string(got) != inputs[i] {
			t.Errorf("index line %d: field %q reads back as %q (%v), want %q", i+2, field, got, ok, inputs[i])
		}
	}
	file := filepath.Join(t.TempDir(), "index.tsv")
	if err := os.WriteFile(file, []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	same := "canon: -rekey: the index was made under \"" + canon.Crawler.KeyVersion() + "\", the key version this build makes: no key should change\n"
	for _, src := range [][]string{nil, {"-f", file}} {
		for _, j := range []string{"1", "3"} {
			args := append([]string{"-p", "crawler", "-rekey", "-q", "-j", j}, src...)
			stdin := index
			if src != nil {
				stdin = ""
			}
			out, errOut, code := canonCmd(t, stdin, args...)
			if out != header || code != exitOK || errOut != same {
				t.Errorf("canon %q on the index: %q, stderr %q, exit %d; want the header alone and %q", args, out, errOut, code, same)
			}
		}
	}
	// Without the header: the fields as written (what -format tsv
	// writes without -header), so an input that held a TAB has the key
	// of its field, with a space.
	old, _, _ := canonCmd(t, "http://h/a\tb\n", "-p", "crawler", "-format", "tsv")
	if out, _, _ := canonCmd(t, old, "-p", "crawler", "-rekey"); out != "http://h/a b\thttp://h/ab\thttp://h/a%20b\n" {
		t.Errorf("rekey of an index without the header: %q", out)
	}
	// Another profile: said, and rekeyed.
	out, errOut, _ := canonCmd(t, header+"http://www.example.com/A/\thttp://www.example.com/A/\n", "-p", "archive", "-rekey")
	if out != "#canon "+canon.Archive.KeyVersion()+"\nhttp://www.example.com/A/\thttp://www.example.com/A/\thttp://example.com/a\n" || !strings.Contains(errOut, "another profile") {
		t.Errorf("rekey of a crawler index with -p archive: %q, stderr %q", out, errOut)
	}
	// A "\" that starts no escape.
	out, errOut, code := canonCmd(t, header+"http://h/\\x\thttp://h/%5Cx\n", "-p", "crawler", "-rekey", "-q")
	if out != header || code != exitFailed {
		t.Errorf("rekey of a bad escape: %q, stderr %q, exit %d", out, errOut, code)
	}
	if _, errOut, _ := canonCmd(t, header+"http://h/\\x\thttp://h/%5Cx\n", "-p", "crawler", "-rekey"); !strings.Contains(errOut, "line 2: input field with a \"\\\" that is not one of") {
		t.Errorf("rekey of a bad escape: stderr %q, want line 2 named", errOut)
	}
	if _, errOut, code := canonCmd(t, "", "-header"); code != exitUsage || !strings.Contains(errOut, "-header needs -format tsv") {
		t.Errorf("-header without -format tsv: %q, exit %d", errOut, code)
	}
}

// TestRekeyLongLines checks that -rekey keeps a line -format tsv -header
// wrote for an input near canon.MaxLength whose key is longer than the
// input (each non-ASCII byte an escape): input, TAB and key pass 4 MiB,
// from a pipe and from a file.
func TestRekeyLongLines(t *testing.T) {
	in := "http://h/" + strings.Repeat("é", (canon.MaxLength-20)/2) + "\t\\"
	index, _, code := canonCmd(t, in+"\n", "-p", "whatwg", "-format", "tsv", "-header")
	if code != exitOK || len(index) < canon.MaxLength*2 {
		t.Fatalf("index of %d bytes, exit %d", len(index), code)
	}
	file := filepath.Join(t.TempDir(), "index.tsv")
	if err := os.WriteFile(file, []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-rekey", "-p", "whatwg"}, {"-rekey", "-p", "whatwg", "-f", file}} {
		stdin := index
		if len(args) > 3 {
			stdin = ""
		}
		out, errOut, code := canonCmd(t, stdin, args...)
		if out != "#canon "+canon.WHATWG.KeyVersion()+"\n" || code != exitOK {
			t.Errorf("canon %q on a line of %d bytes: %.80q, stderr %.200q, exit %d", args, len(index), out, errOut, code)
		}
	}
}

// TestRekeyBlankInput checks, as a class, an index line whose input is
// blank: every spelling of a blank input (empty, spaces, VT, FF, and,
// after the header, an escaped TAB or CR), with the header and without,
// -format tsv and surt, -j 1 and 3. One that had a key has none now: it
// is written with an empty new key, reported and counted as a failing
// line (exit 1); one without a key gives nothing.
func TestRekeyBlankInput(t *testing.T) {
	const msg = "blank input with a key (a blank line is not a URL: it has no key now)"
	for _, header := range []bool{false, true} {
		fields := []string{"", " ", "  ", "\v", "\f", " \v\f "}
		if header {
			fields = append(fields, `\t`, `\r`, ` \t\r\t `, `\r\r`)
		}
		for _, format := range []string{"tsv", "surt"} {
			var in, out, errs strings.Builder
			n, failed := 0, 0
			if header {
				in.WriteString("#canon " + canon.Crawler.KeyVersion() + "\n")
				out.WriteString("#canon " + canon.Crawler.KeyVersion() + "\n")
				n++
			}
			old, keyed := "http://h/x", "http://h/y\thttp://h/y\n"
			if format == "surt" {
				old, keyed = "h)/x", "http://h/y\th)/y\n"
			}
			for _, f := range fields {
				// A line with a key first, so that the blank lines are not
				// the first of a batch; then the blank input with a key
				// and without one.
				for _, key := range []string{old, ""} {
					in.WriteString(keyed)
					n++
					line := f + "\t" + key
					in.WriteString(line + "\n")
					n++
					if key != "" {
						out.WriteString(line + "\t\n")
						fmt.Fprintf(&errs, "line %d: %s\n", n, msg)
						failed++
					}
				}
			}
			fmt.Fprintf(&errs, "canon: %d of %d lines failed\n", failed, n)
			for _, j := range []string{"1", "3"} {
				args := []string{"-p", "crawler", "-rekey", "-format", format, "-j", j}
				got, errOut, code := canonCmd(t, in.String(), args...)
				if header {
					errOut = errOut[strings.Index(errOut, "\n")+1:] // "the index was made under ..."
				}
				if got != out.String() || errOut != errs.String() || code != exitFailed {
					t.Errorf("header %v, canon %q < %q:\nstdout %q\nstderr %q\nexit %d\nwant %q\n%q\nexit 1",
						header, args, in.String(), got, errOut, code, out.String(), errs.String())
				}
			}
		}
	}
}

// TestRekeyLongHeader checks that a "#canon" first line is read alike
// from a pipe and from a file, whatever its length across the 64 KiB of
// the pipe's buffer: output, standard error and exit status are the
// same, the header is read as one (the lines after it escaped, the
// version compared), and one longer than any line -rekey reads is a
// reading error from both.
func TestRekeyLongHeader(t *testing.T) {
	now := canon.Crawler.KeyVersion()
	data := "http://h/?b&a\\\\x\thttp://h/?b&a%5Cx\n" // escaped: http://h/?b&a\x
	var headers []string
	for _, n := range []int{64<<10 - 9, 64<<10 - 8, 64<<10 - 7, 64 << 10, 100 << 10, 1 << 20} {
		headers = append(headers,
			indexHeader+"other/1"+strings.Repeat("x", n-len(indexHeader)-len("other/1")),
			indexHeader+now+strings.Repeat(" ", n-len(indexHeader)-len(now)),
			indexHeader+"other/1"+strings.Repeat("é", (n-len(indexHeader))/2)+"\r")
	}
	tooLong := indexHeader + strings.Repeat("x", maxLineBytes(&config{rekey: true}))
	headers = append(headers, tooLong)
	dir := t.TempDir()
	for i, h := range headers {
		in := h + "\n" + data
		file := filepath.Join(dir, fmt.Sprintf("index%d.tsv", i))
		if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		pOut, pErr, pCode := canonCmd(t, in, "-p", "crawler", "-rekey")
		fOut, fErr, fCode := canonCmd(t, "", "-p", "crawler", "-rekey", "-f", file)
		if pOut != fOut || pErr != fErr || pCode != fCode {
			t.Errorf("header of %d bytes: from a pipe %.100q, %.300q, exit %d; from a file %.100q, %.300q, exit %d",
				len(h), pOut, pErr, pCode, fOut, fErr, fCode)
			continue
		}
		if h == tooLong {
			if pCode != exitProblem || pOut != "" || !strings.HasPrefix(pErr, "canon: reading input: the header line (") || len(pErr) > 1000 {
				t.Errorf("header of %d bytes: %.100q, %.300q, exit %d; want a reading error", len(h), pOut, pErr, pCode)
			}
			continue
		}
		// Read as the header: the field unescaped (http://h/?b&a\x, whose
		// key sorts the query), the key version said.
		key, err := canon.Normalize("http://h/?b&a\\x", canon.Crawler)
		if err != nil || key == "http://h/?b&a%5Cx" {
			t.Fatalf("the data line's key %q, %v: want one that changed", key, err)
		}
		want := indexHeader + now + "\n" + "http://h/?b&a\\\\x\thttp://h/?b&a%5Cx\t" + key + "\n"
		if pOut != want || pCode != exitOK || !strings.Contains(pErr, "canon: -rekey: the index was made under ") || len(pErr) > 1000 {
			t.Errorf("header of %d bytes: %q, %.300q, exit %d; want %q", len(h), pOut, pErr, pCode, want)
		}
	}
}
