package canon

import (
	"strconv"
	"strings"
	"testing"
)

var benchInputs = []struct{ class, in string }{
	{"canonical", "https://github.com/golang/go/issues/12345?tab=comments#issuecomment-1"},
	{"needs-change", "HTTPS://GitHub.COM:443/golang/./go/x/../issues/%7euser?q=%41"},
	{"idn", "http://résumé.example.org/caf%C3%A9/é"},
	{"long", "https://example.com/" + strings.Repeat("segment/", 250) + "?q=" + strings.Repeat("a", 100)},
}

func BenchmarkNormalize(b *testing.B) {
	for _, p := range allProfiles {
		for _, bi := range benchInputs {
			b.Run(name(p)+"/"+bi.class, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(bi.in)))
				for b.Loop() {
					if _, err := Normalize(bi.in, p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkAppendNormalized(b *testing.B) {
	buf := make([]byte, 0, 4096)
	for _, bi := range benchInputs {
		b.Run(bi.class, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bi.in)))
			for b.Loop() {
				var err error
				if buf, err = AppendNormalized(buf[:0], bi.in, RFC3986); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkResolve(b *testing.B) {
	for _, ref := range []string{"g", "../../g?y#s", "//other.example/x", "http://abs.example/a/b"} {
		b.Run(ref, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Resolve("http://a/b/c/d;p?q", ref); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// pathological builds inputs of about n bytes of the shapes that make
// naive URL code quadratic (hostile-catalogue G1-G7).
var pathological = []struct {
	shape string
	make  func(n int) string
}{
	{"dotdot", func(n int) string { return "http://h/" + strings.Repeat("../", n/3) }},
	{"dotslash", func(n int) string { return "http://h" + strings.Repeat("/./", n/3) }},
	{"pctA", func(n int) string { return "http://h/" + strings.Repeat("%41", n/3) }},
	{"pct2F", func(n int) string { return "http://h/" + strings.Repeat("%2F", n/3) }},
	{"segments", func(n int) string { return "http://h/" + strings.Repeat("a/b/../", n/7) }},
	{"nonascii-label", func(n int) string { return "http://" + strings.Repeat("é", n/2) + ".com/" }},
	{"nonascii-path", func(n int) string { return "http://h/" + strings.Repeat("é", n/2) }},
	{"at", func(n int) string { return "http://" + strings.Repeat("@", n) + "h/" }},
	{"bracket", func(n int) string { return "http://[" + strings.Repeat("[", n) + "/" }},
	{"zeros-port", func(n int) string { return "http://h:" + strings.Repeat("0", n) + "443/" }},
	{"query-params", func(n int) string { return "http://h/?" + strings.Repeat("a=1&", n/4) }},
}

func BenchmarkPathological(b *testing.B) {
	for _, pc := range pathological {
		for _, size := range []int{1 << 10, 64 << 10, 1 << 20} {
			in := pc.make(size)
			b.Run(pc.shape+"/"+sizeName(size), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					for _, p := range allProfiles {
						Normalize(in, p)
					}
				}
			})
		}
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return strconv.Itoa(n>>20) + "MiB"
	}
	return strconv.Itoa(n>>10) + "KiB"
}

// TestNoAllocs checks the allocation promises: nothing for canonical
// input in any profile, nothing for AppendNormalized into a buffer with
// room, one allocation for input that changes.
func TestNoAllocs(t *testing.T) {
	canonical := map[Profile]string{
		WebCapture: "http://example.com/a/b?q=1",
		RFC3986:    "https://example.com/a/b?q=%2F#frag",
		IRI:        "https://example.com/résumé?q=1#frag",
		POWDER:     "http://example.com/a/b?q=1#frag",
	}
	for p, in := range canonical {
		if got := testing.AllocsPerRun(100, func() { Normalize(in, p) }); got != 0 {
			t.Errorf("Normalize(%q, %s): %v allocs, want 0", in, name(p), got)
		}
	}
	if got := testing.AllocsPerRun(100, func() { Normalize("http://example.com/a#frag", WebCapture) }); got != 0 {
		t.Errorf("Normalize with fragment removal: %v allocs, want 0", got)
	}
	buf := make([]byte, 0, 256)
	for _, in := range []string{"https://example.com/a", "HTTP://EXAMPLE.COM:80/a/./b/%7e"} {
		if got := testing.AllocsPerRun(100, func() { AppendNormalized(buf[:0], in, RFC3986) }); got != 0 {
			t.Errorf("AppendNormalized(buf, %q, RFC3986): %v allocs, want 0", in, got)
		}
	}
	for _, in := range []string{"HTTP://EXAMPLE.COM:80/a/./b/%7e", "http://h/a b/%c3%a9?x=%41"} {
		if got := testing.AllocsPerRun(100, func() { Normalize(in, RFC3986) }); got != 1 {
			t.Errorf("Normalize(%q, RFC3986): %v allocs, want 1", in, got)
		}
	}
	if got := testing.AllocsPerRun(100, func() { RemoveDotSegments("/a/b/c") }); got != 0 {
		t.Errorf("RemoveDotSegments on a clean path: %v allocs, want 0", got)
	}
	if got := testing.AllocsPerRun(100, func() { Parse("http://u@h:1/p?q#f") }); got != 0 {
		t.Errorf("Parse: %v allocs, want 0", got)
	}
	if got := testing.AllocsPerRun(100, func() { Resolve("http://a/b/c", "http://x/y") }); got != 0 {
		t.Errorf("Resolve of an absolute reference: %v allocs, want 0", got)
	}
}
