package canon

// Tests of SURT and AppendSURT: the SURT test data of iipc/urlcanon
// (testdata/urlcanon/ssurt.json), the cases of the Internet Archive's
// surt library that concern the reordering alone, canon's own cases, and
// FuzzSURT.

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// ssurtSections are the sections of ssurt.json that SURT runs, each with
// the form urlcanon's test gives the function: surt(url, trailing_comma,
// with_scheme), whose defaults are both true, and SURTKeepIP, as
// urlcanon keeps an IP address whole.
var ssurtSections = []struct {
	name string
	form SURTForm
	want int // rows
}{
	{"surt", SURTWithScheme | SURTTrailingComma | SURTKeepIP | SURTVerbatim, 7},
	{"surtWithoutScheme", SURTTrailingComma | SURTKeepIP | SURTVerbatim, 6},
	{"surtWithoutTrailingComma", SURTWithScheme | SURTKeepIP | SURTVerbatim, 5},
}

// ssurtNotRun lists, by section, what of ssurt.json is not run and why.
// Every row of these sections is a subtest that says so.
var ssurtNotRun = map[string]string{
	"ssurt": "SSURT is another serialization (host, \"//\", port \":\" scheme \"@\" userinfo \":\", then the path), which canon does not implement",
}

// ssurtDiffers lists the rows of ssurt.json on which canon departs from
// urlcanon on purpose: what canon gives instead, and why. Each must still
// give exactly that.
var ssurtDiffers = map[string]struct{ got, reason string }{
	"reverseHost/a,b.y.z.": {",z,y,a,b,", "urlcanon writes a \",\" inside a label as \".\"; SURT keeps it, as the surt library and Heritrix do"},
	"ssurtHost/0x80":       {"0x80,", "urlcanon reads 0x80 as a WHATWG IPv4 address (0.0.0.128); a key's IPv4 address is dotted decimal already, so SURT reads 0x80 as a name"},
}

// TestSURTURLCanon runs ssurt.json: the surt, surtWithoutScheme and
// surtWithoutTrailingComma sections through AppendSURT with the form
// each names, and reverseHost and ssurtHost through the host reversal
// (appendReversedHost, with a trailing comma as urlcanon's default) and
// the host step (appendSURTHost, with SURTTrailingComma|SURTKeepIP). The file is pure ASCII on disk, so its
// strings are the bytes (see testdata/urlcanon/README.md).
func TestSURTURLCanon(t *testing.T) {
	var sections map[string]map[string]string
	loadURLCanon(t, "ssurt.json", &sections)
	var seen, passed, differ, notRun int
	usedDiffers := map[string]bool{}
	// check compares got with want for row key of section, or with what
	// ssurtDiffers says canon gives instead.
	check := func(t *testing.T, section, in, got, want string) {
		t.Helper()
		seen++
		if d, ok := ssurtDiffers[section+"/"+in]; ok {
			usedDiffers[section+"/"+in] = true
			if got != d.got {
				t.Errorf("%s(%q) = %q, want %q (canon's documented difference from %q: %s)", section, in, got, d.got, want, d.reason)
				return
			}
			differ++
			return
		}
		if got != want {
			t.Errorf("SURT(%q) = %q, want %q", in, got, want)
			return
		}
		passed++
	}
	for _, sec := range ssurtSections {
		m := sections[sec.name]
		if len(m) != sec.want {
			t.Errorf("ssurt.json %s: %d rows, want %d", sec.name, len(m), sec.want)
		}
		t.Run(sec.name, func(t *testing.T) {
			for _, in := range surtSortedKeys(m) {
				t.Run(in, func(t *testing.T) {
					got, err := AppendSURT(nil, in, sec.form)
					if err != nil {
						seen++
						t.Fatalf("SURT(%q) = error %v, want %q", in, err, m[in])
					}
					check(t, sec.name, in, string(got), m[in])
				})
			}
		})
	}
	hostSections := []struct {
		name string
		want int
		fn   func(string) string
	}{
		{"reverseHost", 5, func(h string) string { return string(appendReversedHost(nil, h, true)) }},
		{"ssurtHost", 3, func(h string) string { return string(appendSURTHost(nil, h, SURTTrailingComma|SURTKeepIP)) }},
	}
	for _, sec := range hostSections {
		m := sections[sec.name]
		if len(m) != sec.want {
			t.Errorf("ssurt.json %s: %d rows, want %d", sec.name, len(m), sec.want)
		}
		t.Run(sec.name, func(t *testing.T) {
			for _, in := range surtSortedKeys(m) {
				t.Run(in, func(t *testing.T) { check(t, sec.name, in, sec.fn(in), m[in]) })
			}
		})
	}
	for name, reason := range ssurtNotRun {
		m := sections[name]
		if len(m) == 0 {
			t.Errorf("ssurt.json: section %s listed as not run is missing", name)
		}
		t.Run(name, func(t *testing.T) {
			for _, in := range surtSortedKeys(m) {
				notRun++
				t.Run(in, func(t *testing.T) { t.Skip("not run: " + reason) })
			}
		})
	}
	for k := range ssurtDiffers {
		if !usedDiffers[k] {
			t.Errorf("ssurtDiffers lists %q, which no section has", k)
		}
	}
	run := map[string]bool{"reverseHost": true, "ssurtHost": true}
	for _, sec := range ssurtSections {
		run[sec.name] = true
	}
	for name := range sections {
		if _, ok := ssurtNotRun[name]; !ok && !run[name] {
			t.Errorf("ssurt.json: section %s is neither run nor listed as not run", name)
		}
	}
	if total := seen + notRun; total != 37 {
		t.Errorf("ssurt.json: %d rows seen, want 37", total)
	}
	t.Logf("ssurt.json: %d passed, %d differ as documented (ssurtDiffers), %d not run (ssurtNotRun)", passed, differ, notRun)
}

func surtSortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// surtCase is one input and its SURT in each of the four forms without
// SURTKeepIP (for an IP address, surtKeepIP has them with it).
type surtCase struct {
	in                       string
	cdx, comma, scheme, both string // 0, SURTTrailingComma, SURTWithScheme, both
}

// surtCases are, first, the cases of the Internet Archive's surt library
// (internetarchive/surt tests/test_surt.py @
// 6934c321b3e2f66af9c001d882475949f00570c5, AGPL-3.0, Copyright
// 2012-2013 Internet Archive; facts only) whose input is already a key, so
// that the library's canonicalization has nothing to change, with the
// forms its options give (with_scheme, trailing_comma; reverse_ipaddr,
// true by default, and false as SURTKeepIP); then canon's own.
var surtCases = []surtCase{
	// surt library: URLs without an authority, and filedesc, unchanged in every form.
	{"filedesc:foo.arc.gz", "filedesc:foo.arc.gz", "filedesc:foo.arc.gz", "filedesc:foo.arc.gz", "filedesc:foo.arc.gz"},
	{"filedesc:/foo.arc.gz", "filedesc:/foo.arc.gz", "filedesc:/foo.arc.gz", "filedesc:/foo.arc.gz", "filedesc:/foo.arc.gz"},
	{"filedesc://foo.arc.gz", "filedesc://foo.arc.gz", "filedesc://foo.arc.gz", "filedesc://foo.arc.gz", "filedesc://foo.arc.gz"},
	{"warcinfo:foo.warc.gz", "warcinfo:foo.warc.gz", "warcinfo:foo.warc.gz", "warcinfo:foo.warc.gz", "warcinfo:foo.warc.gz"},
	{"dns:alexa.com", "dns:alexa.com", "dns:alexa.com", "dns:alexa.com", "dns:alexa.com"},
	{"dns:archive.org", "dns:archive.org", "dns:archive.org", "dns:archive.org", "dns:archive.org"},
	{"mailto:foo@example.com", "mailto:foo@example.com", "mailto:foo@example.com", "mailto:foo@example.com", "mailto:foo@example.com"},
	// surt library: any scheme with an authority is reordered.
	{"whois://whois.isoc.org.il/shaveh.co.il", "il,org,isoc,whois)/shaveh.co.il", "il,org,isoc,whois,)/shaveh.co.il", "whois://(il,org,isoc,whois)/shaveh.co.il", "whois://(il,org,isoc,whois,)/shaveh.co.il"},
	{"http://www.example.com/", "com,example,www)/", "com,example,www,)/", "http://(com,example,www)/", "http://(com,example,www,)/"},
	{"https://www.example.com/", "com,example,www)/", "com,example,www,)/", "https://(com,example,www)/", "https://(com,example,www,)/"},
	{"ftp://www.example.com/", "com,example,www)/", "com,example,www,)/", "ftp://(com,example,www)/", "ftp://(com,example,www,)/"},
	{"http://archive.org/goo?a=1&a=2&b", "org,archive)/goo?a=1&a=2&b", "org,archive,)/goo?a=1&a=2&b", "http://(org,archive)/goo?a=1&a=2&b", "http://(org,archive,)/goo?a=1&a=2&b"},
	// surt library: an IPv4 address is reversed by default
	// (test_surt_ipaddress), kept whole with reverse_ipaddr=False.
	{"http://192.168.1.254/info", "254,1,168,192)/info", "254,1,168,192,)/info", "http://(254,1,168,192)/info", "http://(254,1,168,192,)/info"},
	// surt library: test_hostToSURT's hosts, in a URL. Four runs of up to
	// three digits are an address, which reverse_ipaddr=False keeps.
	{"http://123.45.167.89/", "89,167,45,123)/", "89,167,45,123,)/", "http://(89,167,45,123)/", "http://(89,167,45,123,)/"},
	{"http://990.991.992.993/", "993,992,991,990)/", "993,992,991,990,)/", "http://(993,992,991,990)/", "http://(993,992,991,990,)/"},
	{"http://10.162.1024.3/", "3,1024,162,10)/", "3,1024,162,10,)/", "http://(3,1024,162,10)/", "http://(3,1024,162,10,)/"},
	{"http://100.100.100.100.org/", "org,100,100,100,100)/", "org,100,100,100,100,)/", "http://(org,100,100,100,100)/", "http://(org,100,100,100,100,)/"},

	// canon's own. The brief's CDX example; the rest as written.
	{"http://www.archive.org/goo/?a=1", "org,archive,www)/goo/?a=1", "org,archive,www,)/goo/?a=1", "http://(org,archive,www)/goo/?a=1", "http://(org,archive,www,)/goo/?a=1"},
	// A trailing dot: an empty last label, first (the surt library splits on ".").
	{"http://example.com./", ",com,example)/", ",com,example,)/", "http://(,com,example)/", "http://(,com,example,)/"},
	// One label; a single-digit name; a host of digits that is no address.
	{"http://localhost:8080/x", "localhost:8080)/x", "localhost,:8080)/x", "http://(localhost:8080)/x", "http://(localhost,:8080)/x"},
	{"http://1.2.3/", "3,2,1)/", "3,2,1,)/", "http://(3,2,1)/", "http://(3,2,1,)/"},
	{"http://1.2.3.4.5/", "5,4,3,2,1)/", "5,4,3,2,1,)/", "http://(5,4,3,2,1)/", "http://(5,4,3,2,1,)/"},
	{"http://1234.2.3.4/", "4,3,2,1234)/", "4,3,2,1234,)/", "http://(4,3,2,1234)/", "http://(4,3,2,1234,)/"},
	{"http://1.2.3.4./", ",4,3,2,1)/", ",4,3,2,1,)/", "http://(,4,3,2,1)/", "http://(,4,3,2,1,)/"},
	// An IPv4 address with a port and userinfo (urlcanon's test URL).
	{"http://user:pass@10.1.2.3:81#frag", "3,2,1,10:81)#frag", "3,2,1,10,:81)#frag", "http://(3,2,1,10:81)#frag", "http://(3,2,1,10,:81)#frag"},
	// IP literals, zone and IPvFuture included: without SURTKeepIP the
	// brackets go, as the surt library's parser (Python's urlsplit
	// hostname) drops them, and the inside is reversed at its dots; with
	// it, kept whole.
	{"http://[::1]:8080/a", "::1:8080)/a", "::1,:8080)/a", "http://(::1:8080)/a", "http://(::1,:8080)/a"},
	{"http://[::ffff:1.2.3.4]/", "4,3,2,::ffff:1)/", "4,3,2,::ffff:1,)/", "http://(4,3,2,::ffff:1)/", "http://(4,3,2,::ffff:1,)/"},
	{"http://[fe80::1%25eth0]/", "fe80::1%25eth0)/", "fe80::1%25eth0,)/", "http://(fe80::1%25eth0)/", "http://(fe80::1%25eth0,)/"},
	{"http://[v1.a.b]/", "b,a,v1)/", "b,a,v1,)/", "http://(b,a,v1)/", "http://(b,a,v1,)/"},
	// An empty literal, which no profile makes: nothing inside.
	{"http://[]/", ")/", ",)/", "http://()/", "http://(,)/"},
	// Nothing is normalized: case, triplets, an empty path, an empty or default port.
	{"HTTP://WWW.Example.COM:80", "COM,Example,WWW:80)", "COM,Example,WWW,:80)", "HTTP://(COM,Example,WWW:80)", "HTTP://(COM,Example,WWW,:80)"},
	{"http://h.example:/", "example,h:)/", "example,h,:)/", "http://(example,h:)/", "http://(example,h,:)/"},
	{"http://%65x.org/%7e?%41#%42", "org,%65x)/%7e?%41#%42", "org,%65x,)/%7e?%41#%42", "http://(org,%65x)/%7e?%41#%42", "http://(org,%65x,)/%7e?%41#%42"},
	{"http://résumé.example/é", "example,résumé)/é", "example,résumé,)/é", "http://(example,résumé)/é", "http://(example,résumé,)/é"},
	// The userinfo is dropped, whatever it holds; a ")" after the host is kept.
	{"http://a@b:c@h.org/)?)#)", "org,h)/)?)#)", "org,h,)/)?)#)", "http://(org,h)/)?)#)", "http://(org,h,)/)?)#)"},
	{"http://@h.org?q", "org,h)?q", "org,h,)?q", "http://(org,h)?q", "http://(org,h,)?q"},
	// A "," in a label is kept.
	{"http://a,b.example/", "example,a,b)/", "example,a,b,)/", "http://(example,a,b)/", "http://(example,a,b,)/"},
	// A path that starts with "//" after a host.
	{"http://h.org//x", "org,h)//x", "org,h,)//x", "http://(org,h)//x", "http://(org,h,)//x"},
	// No host: unchanged (an empty authority, or an empty host with a port).
	{"file:///etc/passwd", "file:///etc/passwd", "file:///etc/passwd", "file:///etc/passwd", "file:///etc/passwd"},
	{"http://:80/", "http://:80/", "http://:80/", "http://:80/", "http://:80/"},
	{"http:", "http:", "http:", "http:", "http:"},
	{"urn:isbn:0451450523", "urn:isbn:0451450523", "urn:isbn:0451450523", "urn:isbn:0451450523", "urn:isbn:0451450523"},
	{"FileDesc://foo.arc.gz", "FileDesc://foo.arc.gz", "FileDesc://foo.arc.gz", "FileDesc://foo.arc.gz", "FileDesc://foo.arc.gz"},
	// "filedescx" is another scheme.
	{"filedescx://a.b/", "b,a)/", "b,a,)/", "filedescx://(b,a)/", "filedescx://(b,a,)/"},
}

// surtKeepIP gives, for the surtCases whose host is an IP address, the
// SURT in the same four forms with SURTKeepIP added; for any other,
// SURTKeepIP changes nothing.
var surtKeepIP = map[string][4]string{
	"http://192.168.1.254/info":         {"192.168.1.254)/info", "192.168.1.254)/info", "http://(192.168.1.254)/info", "http://(192.168.1.254)/info"},
	"http://123.45.167.89/":             {"123.45.167.89)/", "123.45.167.89)/", "http://(123.45.167.89)/", "http://(123.45.167.89)/"},
	"http://990.991.992.993/":           {"990.991.992.993)/", "990.991.992.993)/", "http://(990.991.992.993)/", "http://(990.991.992.993)/"},
	"http://user:pass@10.1.2.3:81#frag": {"10.1.2.3:81)#frag", "10.1.2.3:81)#frag", "http://(10.1.2.3:81)#frag", "http://(10.1.2.3:81)#frag"},
	"http://[::1]:8080/a":               {"[::1]:8080)/a", "[::1]:8080)/a", "http://([::1]:8080)/a", "http://([::1]:8080)/a"},
	"http://[::ffff:1.2.3.4]/":          {"[::ffff:1.2.3.4])/", "[::ffff:1.2.3.4])/", "http://([::ffff:1.2.3.4])/", "http://([::ffff:1.2.3.4])/"},
	"http://[fe80::1%25eth0]/":          {"[fe80::1%25eth0])/", "[fe80::1%25eth0])/", "http://([fe80::1%25eth0])/", "http://([fe80::1%25eth0])/"},
	"http://[v1.a.b]/":                  {"[v1.a.b])/", "[v1.a.b])/", "http://([v1.a.b])/", "http://([v1.a.b])/"},
	"http://[]/":                        {"[])/", "[])/", "http://([])/", "http://([])/"},
}

// surtForms are the eight verbatim forms: the four of surtCase's
// columns, then each with SURTKeepIP (the forms as the surt library
// writes them: TestSURTLibrary).
var surtForms = [8]SURTForm{SURTVerbatim, SURTVerbatim | SURTTrailingComma, SURTVerbatim | SURTWithScheme, SURTVerbatim | SURTWithScheme | SURTTrailingComma,
	SURTVerbatim | SURTKeepIP, SURTVerbatim | SURTTrailingComma | SURTKeepIP, SURTVerbatim | SURTWithScheme | SURTKeepIP, SURTVerbatim | SURTWithScheme | SURTTrailingComma | SURTKeepIP}

func TestSURT(t *testing.T) {
	passed := 0
	for _, c := range surtCases {
		t.Run(c.in, func(t *testing.T) {
			wants := [8]string{c.cdx, c.comma, c.scheme, c.both}
			keep, ok := surtKeepIP[c.in]
			if !ok {
				keep = [4]string(wants[:4])
			}
			copy(wants[4:], keep[:])
			for i, want := range wants {
				form := surtForms[i]
				got, err := AppendSURT([]byte("prefix "), c.in, form)
				if err != nil || string(got) != "prefix "+want {
					t.Errorf("AppendSURT(%q, %q, %d) = %q, %v, want %q", "prefix ", c.in, form, got, err, "prefix "+want)
					continue
				}
				passed++
			}
		})
	}
	t.Logf("%d cases, %d forms passed", len(surtCases), passed)
}

// TestSURTOfKeys runs SURT on the keys of a few URLs under the profiles:
// what the command line tool's -format surt prints.
func TestSURTOfKeys(t *testing.T) {
	for _, c := range []struct{ in, profile, want string }{
		{"HTTP://WWW.Example.COM:80/a/./b/../c", "rfc3986", "com,example,www)/a/c"},
		{"http://Example.com:8080", "rfc3986", "com,example:8080)/"},
		{"http://xn--rsum-bpad.example/", "iri", "example,résumé)/"},
		{"https://[::FFFF:1.2.3.4]/", "whatwg", "::ffff:102:304)/"},
		{"https://[::FFFF:1.2.3.4]/", "rfc3986", "4,3,2,::ffff:1)/"},
		{"http://0x7f.1/", "whatwg", "1,0,0,127)/"},
		{"http://192.168.1.254/info/", "archive", "254,1,168,192)/info"}, // the surt library's test_surt_ipaddress
	} {
		p, _ := LookupProfile(c.profile)
		key, err := Normalize(c.in, p)
		if err != nil {
			t.Fatalf("Normalize(%q, %s): %v", c.in, c.profile, err)
		}
		if got, err := SURT(key); got != c.want || err != nil {
			t.Errorf("SURT(%q) = %q, %v, want %q", key, got, err, c.want)
		}
	}
}

func TestSURTErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		want error
	}{
		{"", ErrRelative},
		{"example.com/x", ErrRelative},
		{"//example.com/x", ErrRelative},
		{"/x", ErrRelative},
		{"?q", ErrRelative},
		{" http://h/", ErrInvalidScheme},
		{"1http://h/", ErrInvalidScheme},
		{":x", ErrInvalidScheme},
		{"http://h:8x/", ErrInvalidPort},
		{"http://h:65536/", ErrInvalidPort},
		{"http://[::1/", ErrInvalidHost},
		{"http://[::1]x/", ErrInvalidHost},
		{"http://u:secret@h:x/", ErrInvalidPort},
		{"//" + strings.Repeat("a", MaxHostLength+1) + "/", ErrRelative},
	} {
		name := c.in
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			got, err := SURT(c.in)
			checkSURTError(t, "SURT", c.in, got, err, c.want)
			dst := []byte("prefix")
			b, err := AppendSURT(dst, c.in, SURTWithScheme|SURTTrailingComma)
			if string(b) != "prefix" {
				t.Errorf("AppendSURT(%q) on error = %q, want dst unchanged", c.in, b)
			}
			checkSURTError(t, "AppendSURT", c.in, "", err, c.want)
		})
	}
}

func checkSURTError(t *testing.T, op, in, got string, err, want error) {
	t.Helper()
	var e *Error
	if got != "" || !errors.As(err, &e) || !errors.Is(err, want) {
		t.Fatalf("%s(%.40q) = %q, %v, want a *Error wrapping %v", op, in, got, err, want)
	}
	if e.Op != op {
		t.Errorf("%s(%.40q): Op %q", op, in, e.Op)
	}
	if strings.Contains(e.Input, "secret") {
		t.Errorf("%s(%.40q): error text %q carries the password", op, in, e.Error())
	}
}

// TestSURTLongKeys checks that SURT takes a key longer than MaxLength, or
// with a host longer than MaxHostLength as written: limits on an input,
// which a key may exceed (a triplet for each byte of a host that is not
// an IDN; a POWDER host is measured decoded).
func TestSURTLongKeys(t *testing.T) {
	host := strings.Repeat("%E1", MaxHostLength/2) + ".example"
	key, err := Normalize(strings.Repeat("\xe1", MaxHostLength/2)+".example", POWDER)
	if err != nil || key != "http://"+host+"/" {
		t.Fatalf("Normalize(POWDER) = %.60q..., %v; want http://%.40s...", key, err, host)
	}
	labels := strings.Repeat("xn--9ca.", 300) + "example"
	long := strings.Repeat("a", MaxLength)
	for _, c := range []struct{ in, want string }{
		{key, "example," + host[:len(host)-len(".example")] + ")/"},
		{"http://user:pw@" + host + ":81/x?y#z", "example," + host[:len(host)-len(".example")] + ":81)/x?y"},
		{"http://" + labels + "/", "example" + strings.Repeat(",xn--9ca", 300) + ")/"},
		{"http://h.example/" + long, "example,h)/" + long},
		{"//" + host, ""},
	} {
		got, err := SURT(c.in)
		if c.want == "" {
			if !errors.Is(err, ErrRelative) {
				t.Errorf("SURT(%.40q...) = %.40q..., %v; want ErrRelative", c.in, got, err)
			}
			continue
		}
		if got != c.want || err != nil {
			t.Errorf("SURT(%.40q...) = %.40q..., %v; want %.40q...", c.in, got, err, c.want)
		}
	}
}

func TestSURTAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts")
	}
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"http://www.example.com/a?b#c", 1},
		{"http://h.example/a?a&a=1&b=2", 1}, // parameters in the library's order: no copy of them
		{"http://user:pass@10.1.2.3:81/", 1},
		{"http://[::ffff:1.2.3.4]:81/", 1},
		{"dns:alexa.com", 0},
		{"file:///etc/passwd", 1}, // file:/etc/passwd, as the surt library writes it
	} {
		if n := allocsPerRun(100, func() { SURT(c.in) }); n != c.want {
			t.Errorf("SURT(%q): %v allocations, want %v", c.in, n, c.want)
		}
		buf := make([]byte, 0, 64)
		for _, form := range append(surtForms[:], 0, SURTTrailingComma, SURTWithScheme|SURTTrailingComma, SURTKeepIP) {
			if n := allocsPerRun(100, func() { AppendSURT(buf, c.in, form) }); n != 0 {
				t.Errorf("AppendSURT(%q, %d) with room: %v allocations, want 0", c.in, form, n)
			}
		}
	}
}

// surtOracleSplit splits s as the SURT documentation describes, written
// apart from the parser: the scheme ends at the first ":" before any "/",
// "?" or "#"; "//" starts the authority, which ends at "/", "?" or "#";
// the host follows its last "@" and ends at the "]" of an IP literal or
// else at the first ":", after which comes the port.
func surtOracleSplit(s string) (scheme string, hasAuth bool, host, port string, hasPort bool, rest string) {
	i := strings.IndexAny(s, ":/?#")
	if i < 0 || s[i] != ':' {
		return "", false, "", "", false, s
	}
	scheme, rest = s[:i], s[i+1:]
	if !strings.HasPrefix(rest, "//") {
		return scheme, false, "", "", false, rest
	}
	auth := rest[2:]
	end := strings.IndexAny(auth, "/?#")
	if end < 0 {
		end = len(auth)
	}
	auth, rest = auth[:end], auth[end:]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		auth = auth[at+1:]
	}
	hostEnd := strings.IndexByte(auth, ':')
	if strings.HasPrefix(auth, "[") {
		hostEnd = strings.IndexByte(auth, ']') + 1
		if hostEnd == len(auth) {
			hostEnd = -1
		}
	}
	if hostEnd < 0 {
		return scheme, true, auth, "", false, rest
	}
	return scheme, true, auth[:hostEnd], auth[hostEnd+1:], true, rest
}

// surtIPv4 is an IPv4 address as the surt library's hostToSURT and
// Heritrix match it: four dot-separated runs of one to three ASCII digits.
var surtIPv4 = regexp.MustCompile(`^(?:[0-9]{1,3}\.){3}[0-9]{1,3}$`)

// checkSURTOracles checks SURT and AppendSURT on one input.
func checkSURTOracles(t *testing.T, in string) {
	out, err := SURT(in)
	b, err2 := AppendSURT(nil, in, 0)
	if (err == nil) != (err2 == nil) || out != string(b) {
		t.Fatalf("SURT(%q) = %q, %v; AppendSURT(nil, %q, 0) = %q, %v", in, out, err, in, b, err2)
	}
	if err != nil {
		checkError(t, "SURT", in, out, err)
		return
	}
	scheme, hasAuth, host, port, hasPort, rest := surtOracleSplit(in)
	if scheme == "" {
		t.Fatalf("SURT(%q) = %q: no scheme, want an error", in, out)
	}
	if want := surtLibrarySlow(in); out != want && !strings.EqualFold(scheme, "filedesc") {
		t.Fatalf("SURT(%q) = %q; the surt library's writing, transcribed, gives %q", in, out, want)
	}
	for _, form := range surtForms {
		const prefix = "prefix"
		dst := make([]byte, len(prefix), len(prefix)+8)
		copy(dst, prefix)
		b, err := AppendSURT(dst, in, form)
		if err != nil || string(dst) != prefix || !strings.HasPrefix(string(b), prefix) {
			t.Fatalf("AppendSURT(%q, %q, %d) = %q, %v; dst now %q", prefix, in, form, b, err, dst)
		}
		got := string(b[len(prefix):])
		if !hasAuth || host == "" || strings.EqualFold(scheme, "filedesc") {
			if got != in {
				t.Fatalf("AppendSURT(%q, %d) = %q: no host, want it unchanged", in, form, got)
			}
			continue
		}
		if !strings.HasSuffix(got, ")"+rest) {
			t.Fatalf("AppendSURT(%q, %d) = %q: want it to end in %q", in, form, got, ")"+rest)
		}
		head := got[:len(got)-len(rest)-1]
		if form&SURTWithScheme != 0 {
			if !strings.HasPrefix(head, scheme+"://(") {
				t.Fatalf("AppendSURT(%q, %d) = %q: want it to start with %q", in, form, got, scheme+"://(")
			}
			head = head[len(scheme)+4:]
		}
		if hasPort {
			if !strings.HasSuffix(head, ":"+port) {
				t.Fatalf("AppendSURT(%q, %d) = %q: want the port %q before the \")\"", in, form, got, port)
			}
			head = head[:len(head)-len(port)-1]
		}
		if form&SURTKeepIP != 0 && (strings.HasPrefix(host, "[") || surtIPv4.MatchString(host)) {
			if head != host {
				t.Fatalf("AppendSURT(%q, %d) = %q: want the address %q whole", in, form, got, host)
			}
			continue
		}
		if form&SURTTrailingComma != 0 {
			if !strings.HasSuffix(head, ",") {
				t.Fatalf("AppendSURT(%q, %d) = %q: want a trailing comma", in, form, got)
			}
			head = head[:len(head)-1]
		}
		name := host
		if form&SURTKeepIP == 0 && strings.HasPrefix(host, "[") {
			// The surt library's parser drops an IP literal's brackets.
			name = strings.TrimSuffix(host[1:], "]")
		}
		if len(head) != len(name) {
			t.Fatalf("AppendSURT(%q, %d) = %q: host part %q, want as long as %q", in, form, got, head, name)
		}
		if !strings.Contains(name, ",") {
			labels := strings.Split(head, ",")
			slices.Reverse(labels)
			if back := strings.Join(labels, "."); back != name {
				t.Fatalf("AppendSURT(%q, %d) = %q: labels reversed give %q, want the host %q", in, form, got, back, name)
			}
		}
	}
}

// FuzzSURT checks, for any input and for its key under each profile
// (which SURT must accept), in each of the eight forms: no panic;
// SURT is AppendSURT with a nil buffer; an error is a *Error; without a
// scheme there is an error; AppendSURT leaves dst's bytes alone; a URL
// without a host (or filedesc) comes back unchanged; otherwise the SURT
// ends in ")" and the rest of the URL as written, starts with
// scheme "://(" with SURTWithScheme, has the port before the ")", an IP
// address whole with SURTKeepIP, and otherwise a trailing comma with
// SURTTrailingComma and, for a host without "," (an IP literal without
// its brackets), labels that reversed give back the host.
func FuzzSURT(f *testing.F) {
	var sections map[string]map[string]string
	loadJSON(f, "urlcanon/ssurt.json", &sections)
	for _, m := range sections {
		for in := range m {
			f.Add(in)
		}
	}
	for _, c := range surtCases {
		f.Add(c.in)
	}
	for _, in := range seedInputs(f) {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkSURTOracles(t, in)
		for _, p := range allProfiles {
			key, err := Normalize(in, p)
			if err != nil {
				continue
			}
			if _, err := SURT(key); err != nil {
				t.Fatalf("SURT(Normalize(%q, %s) = %q): %v; want every key accepted", in, name(p), key, err)
			}
			checkSURTOracles(t, key)
		}
	})
}
