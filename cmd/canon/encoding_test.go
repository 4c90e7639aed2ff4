package main

import (
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// TestEncodingFlag checks -encoding: the keys are the library's
// (Encoding.NormalizeRef with -base, Encoding.Normalize without), for
// links of pages in several encodings, in text and tsv; the label is
// resolved as the Encoding Standard says; and an unknown label, a
// profile without ParseWHATWG and -explain are usage errors.
func TestEncodingFlag(t *testing.T) {
	const base = "http://example.jp/dir/"
	refs := []string{"/日本?q=日本#日本", "?q=ソ本", "?q=€&x=é", "ws://example.jp/?q=日本", "foo://h/?q=日本", "http://example.jp/?q=−¥‾ｱ", "?q=&#8364;", "?q=\u0100"}
	var abs []string
	for _, r := range refs {
		if strings.Contains(r, "://") {
			abs = append(abs, r)
		}
	}
	for _, label := range []string{"sjis", "shift_jis", "euc-jp", "iso-2022-jp", "gbk", "gb18030", "big5", "euc-kr", "latin1", "koi8-r", "utf-8", "utf-16le"} {
		enc, err := canon.LookupEncoding(label)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"whatwg", "crawler", "archive"} {
			prof, _ := canon.LookupProfile(p)
			var want, wantTSV strings.Builder
			for _, r := range refs {
				key, err := enc.NormalizeRef(base, r, prof)
				if err != nil {
					t.Fatalf("%s.NormalizeRef(%q, %q, %s): %v", enc, base, r, p, err)
				}
				want.WriteString(key + "\n")
				wantTSV.WriteString(r + "\t" + key + "\n")
			}
			args := append([]string{"-p", p, "-encoding", label, "-base", base}, refs...)
			if out, errOut, code := canonCmd(t, "", args...); out != want.String() || code != 0 {
				t.Errorf("canon %s:\n%s(exit %d, stderr %q), want\n%s", strings.Join(args, " "), out, code, errOut, want.String())
			}
			if out, _, code := canonCmd(t, strings.Join(refs, "\n")+"\n", "-p", p, "-encoding", label, "-base", base, "-format", "tsv"); out != wantTSV.String() || code != 0 {
				t.Errorf("canon -p %s -encoding %s -base %s -format tsv:\n%s(exit %d), want\n%s", p, label, base, out, code, wantTSV.String())
			}
			want.Reset()
			for _, r := range abs {
				key, err := enc.Normalize(r, prof)
				if err != nil {
					t.Fatal(err)
				}
				want.WriteString(key + "\n")
			}
			if out, _, code := canonCmd(t, strings.Join(abs, "\n")+"\n", "-p", p, "-encoding", label); out != want.String() || code != 0 {
				t.Errorf("canon -p %s -encoding %s < absolute URLs:\n%s(exit %d), want\n%s", p, label, out, code, want.String())
			}
		}
	}
	// The example, literally.
	if out, _, _ := canonCmd(t, "", "-p", "whatwg", "-encoding", "shift_jis", "-base", base, "/日本?q=日本#日本"); out != "http://example.jp/%E6%97%A5%E6%9C%AC?q=%93%FA%96{#%E6%97%A5%E6%9C%AC\n" {
		t.Errorf("canon -p whatwg -encoding shift_jis -base %s /日本?q=日本#日本 = %q", base, out)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"-p", "whatwg", "-encoding", "klingon", "http://h/"}, `"klingon"`},
		{[]string{"-encoding", "shift_jis", "http://h/"}, "ParseWHATWG"},
		{[]string{"-p", "safebrowsing", "-encoding", "gbk", "http://h/"}, "ParseWHATWG"},
		{[]string{"-p", "crawler", "-explain", "-encoding", "gbk", "http://h/"}, "-explain"},
	} {
		_, errOut, code := canonCmd(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, c.says) {
			t.Errorf("canon %s: exit %d, stderr %q, want exit 2 and a message with %s", strings.Join(c.args, " "), code, errOut, c.says)
		}
	}
	// A label that is UTF-8 for URLs is no error under any profile.
	if out, _, code := canonCmd(t, "", "-encoding", "utf-16", "http://h/?q=é"); out != "http://h/?q=%C3%A9\n" || code != 0 {
		t.Errorf("canon -encoding utf-16 http://h/?q=é: %q, exit %d", out, code)
	}
}
