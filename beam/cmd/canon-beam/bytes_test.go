package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// spaced is the input column as the canon command's -format tsv writes
// it, by a reading of its own: each TAB, CR and LF byte a space, every
// other byte as it is (strings.Replacer replaces bytes for one-byte
// olds).
var spaced = strings.NewReplacer("\t", " ", "\r", " ", "\n", " ").Replace

// TestTSVFieldBytes checks tsvField against spaced on every string of
// one and two bytes and on longer ones of invalid UTF-8: the column
// beside a key is the input byte for byte but for TAB, CR and LF.
func TestTSVFieldBytes(t *testing.T) {
	var ins []string
	for a := 0; a < 256; a++ {
		ins = append(ins, string([]byte{byte(a)}))
		for b := 0; b < 256; b++ {
			ins = append(ins, string([]byte{byte(a), byte(b)}))
		}
	}
	ins = append(ins, "http://h/a\xffb", "\xed\xa0\x80\t\xc3", "\xf4\x90\x80\x80\r\n\xc3\xa9", "\xef\xbf\xbd\xff")
	for _, in := range ins {
		if got, want := tsvField(in), spaced(in); got != want {
			t.Errorf("tsvField(%q) = %q, want %q", in, got, want)
		}
	}
}

// bytesLines are inputs with invalid UTF-8 of each kind (a lone byte
// above 0x7F, a cut sequence, a surrogate, a sequence past U+10FFFF, an
// overlong one), some with a TAB or a CR too: RFC3986 and SafeBrowsing
// key them (escaping the bytes), WHATWG refuses them.
var bytesLines = []string{
	"http://h/a\xffb", "http://h/\xc3", "http://h/\xed\xa0\x80", "http://h/\xf4\x90\x80\x80", "http://h/\xc0\xaf",
	"http://h/a\xfe\tb", "http://h/\xff\rq", "http://h/?\x80=\xbf",
}

// TestInputColumnsKeepBytes runs the modes that write an input column
// (tsv, expressions, -pairs' page and href columns, and the failures)
// on inputs of invalid UTF-8, and compares each column with the input
// as spaced writes it: byte for byte, never U+FFFD.
func TestInputColumnsKeepBytes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines []string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	urls := write("urls.txt", bytesLines)
	var pairs []string
	for _, l := range bytesLines {
		pairs = append(pairs, "http://p/\xff\xfe/"+"\t"+strings.TrimPrefix(l, "http://h/"), "http://h/\xc3\t"+l)
	}
	pairsPath := write("pairs.txt", pairs)

	for _, tc := range []struct {
		name, profile, mode, input string
		pairs                      bool
	}{
		{"tsv", "rfc3986", "tsv", urls, false},
		{"failures", "whatwg", "tsv", urls, false},
		{"expressions", "safebrowsing", "expressions", urls, false},
		{"pairs-tsv", "rfc3986", "tsv", pairsPath, true},
		{"pairs-keys", "rfc3986", "keys", pairsPath, true},
		{"pairs-failures", "whatwg", "tsv", pairsPath, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prof, _ := canon.LookupProfile(tc.profile)
			var want, wantFailures []string
			lines := bytesLines
			if tc.pairs {
				lines = pairs
			}
			for _, l := range lines {
				page, href := "", l
				if tc.pairs {
					page, href, _ = strings.Cut(l, "\t")
				}
				var key string
				var err error
				if tc.pairs {
					key, err = canon.NormalizeRef(page, href, prof)
				} else {
					key, err = canon.Normalize(href, prof)
				}
				if err != nil {
					var e *canon.Error
					if !errors.As(err, &e) {
						t.Fatalf("%q: %v is no *canon.Error", l, err)
					}
					msg := e.Detail()
					switch e.Arg {
					case "resolved":
						msg = "resolved against the page: " + msg
					case "base":
						msg = "page: " + msg
					}
					if tc.pairs {
						wantFailures = append(wantFailures, spaced(page)+"\t"+spaced(href)+"\t"+msg)
					} else {
						wantFailures = append(wantFailures, spaced(href)+"\t"+msg)
					}
					continue
				}
				switch {
				case tc.mode == "expressions":
					exprs, err := canon.LookupExpressions(key)
					if err != nil {
						t.Fatal(err)
					}
					for _, x := range exprs {
						want = append(want, spaced(href)+"\t"+x)
					}
				case tc.pairs && tc.mode == "keys":
					want = append(want, spaced(page)+"\t"+key)
				case tc.pairs:
					want = append(want, spaced(page)+"\t"+spaced(href)+"\t"+key)
				default:
					want = append(want, spaced(href)+"\t"+key)
				}
			}
			if strings.HasSuffix(tc.name, "failures") != (len(want) == 0) || strings.HasSuffix(tc.name, "failures") != (len(wantFailures) == len(lines)) {
				t.Fatalf("%d keys and %d failures of %d lines: want every line keyed, or (failures) every line failing", len(want), len(wantFailures), len(lines))
			}
			cfg := &config{input: tc.input, output: filepath.Join(dir, tc.name, "out"), profile: tc.profile, mode: tc.mode,
				pairs: tc.pairs, shards: 1, failuresFormat: "tsv"}
			if err := run(context.Background(), cfg, &bytes.Buffer{}); err != nil {
				t.Fatal(err)
			}
			sameLines(t, "output", readShards(t, cfg.output, 1), want)
			sameLines(t, "failures", readShards(t, cfg.failuresPrefix(), 1), wantFailures)
		})
	}
}
