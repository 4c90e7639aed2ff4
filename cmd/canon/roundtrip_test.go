package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// roundTripLine returns a random input line: a URL drawn from parts of
// every kind (schemes, userinfo with a password, hosts of each form,
// good and bad ports, paths with dot segments, escapes good and bad,
// non-ASCII and invalid UTF-8, queries, fragments), then mutated:
// TABs, CRs, backslashes and backslash escapes as text, control bytes,
// bytes of invalid UTF-8 and spaces put anywhere; or a blank line of
// each kind, or a line that starts with "#canon ". No line holds an LF.
func roundTripLine(r *rand.Rand, kv string) string {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	switch r.IntN(20) {
	case 0:
		return pick("", " ", "\t", "  \t ", "\v", "\f", "\r", " \r\t\v")
	case 1:
		return "#canon " + pick(kv, "crawler/1 unicode-15.0.0", "x\\ty", "", "\xff", "http://h/")
	}
	u := pick("http", "HTTPS", "ftp", "file", "mailto", "ws", "foo", "", "1http", "blob:http", "javascript") +
		pick("://", ":", ":/", `:\\`, "://", "://") +
		pick("", "", "u:pw@", "u@", "u:p%zzw@") +
		pick("h", "Example.COM", "www.example.com", "10.0.0.1", "[::1]", "[::1", "xn--rsum-bpad.example", "résumé.example", "a b", "%41", "", "h.", "0x7f.1", "。") +
		pick("", "", ":80", ":8x", ":99999", ":", ":443") +
		pick("", "/", "/a/./b/../c", "/%7e", "/a%2fb", "/é", "/\xff", `/a\b`, "/%zz", "/a b", "/"+strings.Repeat("abc/", 70), "/%", "/%e9") +
		pick("", "", "?b=2&a=1", "?utm_source=x&b=1", "?sid=0123456789abcdef0123456789abcdef", "?%", "?q=日本", "?a\\b") +
		pick("", "", "#f", "#%zz", "#a b")
	b := []byte(u)
	for n := r.IntN(4); n > 0; n-- {
		at := r.IntN(len(b) + 1)
		ins := pick("\t", "\r", `\`, `\t`, `\\`, `\n`, "\x01", "\xff", "\xc3", " ", "\v", "%")
		b = append(b[:at], append([]byte(ins), b[at:]...)...)
	}
	return string(b)
}

// TestTSVRekeyRoundTrip checks the command's promise about its index,
// as a property over generated inputs (roundTripLine), nine profiles and
// -base, -j 1 and 3, pipes and files: what -format tsv writes, -rekey
// under the same profile reads back as unchanged. With -header the
// output is the header alone, standard error only says the key version
// is the one this build makes, and the exit status is 0. Without it, an
// input's field is the input but for a TAB or CR, which it writes as a
// space (doc.go: its new key is that of the field): only such lines may
// be written or reported. A first line that starts with "#canon " is
// an index line either way.
func TestTSVRekeyRoundTrip(t *testing.T) {
	const rounds = 3
	configs := [][]string{
		{"-p", "rfc3986"}, {"-p", "iri"}, {"-p", "webcapture"}, {"-p", "powder"}, {"-p", "whatwg"},
		{"-p", "crawler"}, {"-p", "archive"}, {"-p", "aggressive"}, {"-p", "safebrowsing"},
		{"-p", "whatwg", "-base", "http://b.example/dir/x?y"}, {"-p", "webcapture", "-base", "http://b/a;p?q"},
	}
	failure := regexp.MustCompile(`^line (\d+): `)
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(42, 1))
	checked, lossy := 0, 0
	for round := 0; round < rounds; round++ {
		for ci, cfg := range configs {
			p, _ := canon.LookupProfile(cfg[1])
			kv := p.KeyVersion()
			lines := make([]string, 300)
			for i := range lines {
				lines[i] = roundTripLine(r, kv)
			}
			if (round+ci)%2 == 0 {
				lines[0] = "#canon " + kv // an input that looks like a header
			}
			in := strings.Join(lines, "\n") + "\n"
			for _, header := range []bool{true, false} {
				args := append(append([]string{}, cfg...), "-format", "tsv", "-j", strconv.Itoa(1+2*(ci%2)))
				if header {
					args = append(args, "-header")
				}
				index, _, code := canonCmd(t, in, args...)
				if code != exitOK && code != exitFailed {
					t.Fatalf("canon %q: exit %d", args, code)
				}
				rargs := append(append([]string{}, cfg...), "-rekey", "-j", strconv.Itoa(3-2*(ci%2)))
				stdin := index
				if round%2 == 1 {
					file := filepath.Join(dir, fmt.Sprintf("index-%d-%d-%v.tsv", round, ci, header))
					if err := os.WriteFile(file, []byte(index), 0o644); err != nil {
						t.Fatal(err)
					}
					rargs, stdin = append(rargs, "-f", file), ""
				}
				out, errOut, code := canonCmd(t, stdin, rargs...)
				checked++
				if header {
					wantErr := "canon: -rekey: the index was made under \"" + kv + "\", the key version this build makes: no key should change\n"
					if out != indexHeader+kv+"\n" || errOut != wantErr || code != exitOK {
						t.Errorf("canon %q | canon %q:\nstdout %.500q\nstderr %.500q\nexit %d\nwant the header alone, %q, exit 0\ninput %q",
							args, rargs, out, errOut, code, wantErr, in)
					}
					continue
				}
				// Without the header: only lines whose input held a TAB or
				// a CR (that the reader did not take for a line end).
				lossyFields, lossyLines := map[string]bool{}, map[int]bool{}
				for i, l := range lines {
					l = strings.TrimSuffix(l, "\r")
					if strings.ContainsAny(l, "\t\r") {
						lossyFields[strings.NewReplacer("\t", " ", "\r", " ").Replace(l)] = true
						lossyLines[i+1] = true
					}
				}
				lossy += len(lossyLines)
				for _, l := range strings.SplitAfter(out, "\n") {
					if field, _, _ := strings.Cut(l, "\t"); l != "" && !lossyFields[field] {
						t.Errorf("canon %q | canon %q: wrote %q, whose input held no TAB or CR", args, rargs, l)
					}
				}
				failed := false
				for _, l := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
					if m := failure.FindStringSubmatch(l); m != nil {
						n, _ := strconv.Atoi(m[1])
						failed = true
						if !lossyLines[n] {
							t.Errorf("canon %q | canon %q: %q, whose input %q held no TAB or CR", args, rargs, l, lines[n-1])
						}
					} else if l != "" && !strings.HasPrefix(l, "canon: ") {
						t.Errorf("canon %q | canon %q: standard error %q", args, rargs, l)
					}
				}
				if failed != (code == exitFailed) || (code != exitOK && code != exitFailed) {
					t.Errorf("canon %q | canon %q: exit %d, stderr %q", args, rargs, code, errOut)
				}
			}
		}
	}
	t.Logf("%d index round trips of %d lines; %d lines without the header held a TAB or CR", checked, 300, lossy)
}
