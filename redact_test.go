package canon

import (
	"errors"
	"strings"
	"testing"
)

// password is the secret of every userinfo in TestErrorsNeverCarryPassword.
const password = "s3cret"

// passwordUserinfos are userinfos with password in them: plain, with a
// second ":" (the password runs from the first ":" to the "@"), with an
// "@" inside (the userinfo ends at the last "@"), and with the user in
// uppercase. (A percent-encoded password such as "s3c%72et" is not the
// literal, so it is not here.)
var passwordUserinfos = []string{"user:" + password, "user:" + password + ":more", "u@ser:" + password, "USER:" + password}

// passwordInputs hold a userinfo (written {ui}) in every place an input
// can carry one, each with something that makes the call fail before or
// after it.
var passwordInputs = []string{
	"http://{ui}@h:99999/",            // bad port
	"//{ui}@h:99999/",                 // no scheme: scheme-relative
	"HTTP://{ui}@h:99999/",            // uppercase scheme
	"ht tp://{ui}@h/",                 // invalid scheme
	"1http://{ui}@h/",                 // scheme starting with a digit
	"  http://{ui}@h:99999/  ",        // surrounding spaces
	"\thttp://{ui}@h:x/",              // leading tab, port not digits
	"http://{ui}@h/%zz",               // bad escape
	"http://{ui}@h/a\nb",              // control character
	"http://{ui}@0x7f.1/",             // numeric host
	"http://{ui}@[::1/",               // unterminated IP literal
	"http://{ui}@h\\x/",               // backslash in the host
	"http%3A%2F%2F{ui}@h:99999/",      // POWDER decodes this into a userinfo
	"http%3a//{ui}@h:99999/",          // ... and this
	"http:%2F%2F{ui}@h:99999/",        // ... and this
	"http://{ui}%40h:99999/",          // ... and this: the "@" is encoded
	"{ui}@h.com:99999/",               // DefaultScheme reads "http://" + input when it has no scheme
	"{ui}@h:99999/",                   // ... and "localhost:80" style
	"//{ui}@h.com/%zz",                // DefaultScheme reads "http:" + input
	"http://{ui}@h:99999/@x",          // an "@" after the authority
	"http://{ui}@good@evil:99999/",    // the last "@" ends the userinfo
	"http://{ui}@h:99999/?q=a+b#frag", // PlusToSpace rewrites the input
	"http:/{ui}@h/%zz",                // browsers (WHATWG) read an authority after one slash
	"http:{ui}@h/%zz",                 // ... and after none
	"https:\\{ui}@h/%zz",              // ... and after backslashes
	"http:/\t/{ui}@h:99999/",          // ... and after removing tabs and newlines
	"http:\\\t\\{ui}@h:99999/",        // ... all of them
	"\\\\{ui}@h:99999/",               // a reference against a special base
	"/\\{ui}@h:99999/",                // ... the same
	"http%253A%252F%252F{ui}@h/%zz",   // decoded repeatedly
	"http://x%23{ui}@h:99999/",        // Safe Browsing: a decoded "#" is a character of the userinfo
	"http://x\\{ui}@h%3A99999/",       // ... and so is a "\\"
	"http%3A//{ui}@h%253A99999/#x@y",  // ... the fragment cut before decoding
}

// passwordRefs are base and reference pairs for NormalizeRef and Resolve
// where the failure is in the resolved URL, which carries the base's
// userinfo, or in one of the two inputs.
var passwordRefs = [][2]string{
	{"http://{ui}@h:99999/", "x"},
	{"http://a/", "//{ui}@h:99999/"},
	{"http://{ui}@h/", "%zz"},
	{"http://{ui}@h/", "?%zz"},
	{"http://{ui}@h/", "#%zz"},
	{"http://{ui}@h/a/b", "../%zz"},
	{"http://{ui}@h/", "x:99999"},
	{"http://{ui}@h/", "//h:99999/"},
	{"http://{ui}@h:99999/", "//{ui}@h:99999/"},
	{"//{ui}@h/", "x"},
}

// TestErrorsNeverCarryPassword checks that no error of any exported entry
// point carries a password, in its text or in its Input: the package
// documents that Input has the password redacted, so that errors can go to
// logs. Every reading the package makes of an input counts (the parser's,
// DefaultScheme's, DecodeAll's): whatever a profile takes for a password
// must not leak, whichever profile reports the error.
func TestErrorsNeverCarryPassword(t *testing.T) {
	rfc3986DefaultScheme, err := NewProfile(append(RFC3986.Steps(), DefaultScheme)...)
	if err != nil {
		t.Fatal(err)
	}
	profiles := []struct {
		name string
		p    Profile
	}{
		{"WebCapture", WebCapture}, {"RFC3986", RFC3986}, {"IRI", IRI}, {"POWDER", POWDER},
		{"zero", Profile{}}, {"RFC3986+DefaultScheme", rfc3986DefaultScheme},
		{"WHATWG", WHATWG}, {"Crawler", Crawler}, {"Archive", Archive}, {"Aggressive", Aggressive},
		{"SafeBrowsing", SafeBrowsing},
	}

	type call struct {
		op, profile, desc string
		run               func() error
	}
	var calls []call
	add := func(op, profile, desc string, run func() error) {
		calls = append(calls, call{op, profile, desc, run})
	}
	fill := func(tmpl, ui string) string { return strings.ReplaceAll(tmpl, "{ui}", ui) }
	for _, ui := range passwordUserinfos {
		for _, tmpl := range passwordInputs {
			in := fill(tmpl, ui)
			q := quoteArg(in)
			add("Parse", "", q, func() error { _, err := Parse(in); return err })
			add("Resolve", "", q+", x", func() error { _, err := Resolve(in, "x"); return err })
			add("Resolve", "", "http://a/b, "+q, func() error { _, err := Resolve("http://a/b", in); return err })
			add("Resolve", "", q+", "+q, func() error { _, err := Resolve(in, in); return err })
			for _, pp := range profiles {
				p := pp.p
				add("Normalize", pp.name, q, func() error { _, err := Normalize(in, p); return err })
				add("AppendNormalized", pp.name, q, func() error { _, err := AppendNormalized(make([]byte, 0, 64), in, p); return err })
				add("Equal", pp.name, q+", http://h/", func() error { _, err := Equal(in, "http://h/", p); return err })
				add("Equal", pp.name, "http://h/, "+q, func() error { _, err := Equal("http://h/", in, p); return err })
				add("NormalizeRef", pp.name, q+", x", func() error { _, err := NormalizeRef(in, "x", p); return err })
				add("NormalizeRef", pp.name, "http://a/b, "+q, func() error { _, err := NormalizeRef("http://a/b", in, p); return err })
				add("NormalizeRef", pp.name, q+", "+q, func() error { _, err := NormalizeRef(in, in, p); return err })
				add("Explain", pp.name, q, func() error { _, err := Explain(in, p); return err })
			}
		}
		for _, br := range passwordRefs {
			base, ref := fill(br[0], ui), fill(br[1], ui)
			desc := quoteArg(base) + ", " + quoteArg(ref)
			add("Resolve", "", desc, func() error { _, err := Resolve(base, ref); return err })
			for _, pp := range profiles {
				p := pp.p
				add("NormalizeRef", pp.name, desc, func() error { _, err := NormalizeRef(base, ref, p); return err })
			}
		}
	}

	errored := map[string]int{}
	succeeded := 0
	for _, c := range calls {
		err := c.run()
		if err == nil {
			succeeded++ // nothing to check
			continue
		}
		errored[c.op]++
		label := c.op + "(" + c.desc
		if c.profile != "" {
			label += ", " + c.profile
		}
		label += ")"
		t.Run(c.op+"/"+c.profile+"/"+c.desc, func(t *testing.T) {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%s: error %T %v is not *Error", label, err, err)
			}
			if strings.Contains(err.Error(), password) {
				t.Errorf("%s: error text %q carries the password", label, err.Error())
			}
			if strings.Contains(e.Input, password) {
				t.Errorf("%s: Error.Input = %q carries the password", label, e.Input)
			}
			if e.Offset != -1 && (e.Offset < 0 || e.Offset > len(e.Input)) {
				t.Errorf("%s: Error.Offset = %d, want -1 or in [0, %d] (Input %q)", label, e.Offset, len(e.Input), e.Input)
			}
		})
	}
	// Every entry point must have been made to fail, or this test would
	// pass without checking it; and most calls must fail, as every input
	// has a defect (some have none in some profiles: POWDER reads "%zz"
	// as a literal "%", WebCapture drops a bad fragment).
	total := 0
	for _, op := range []string{"Parse", "Resolve", "Normalize", "AppendNormalized", "Equal", "NormalizeRef", "Explain"} {
		if errored[op] == 0 {
			t.Errorf("no %s call failed: nothing was checked for it", op)
		}
		total += errored[op]
	}
	if total < len(calls)/2 {
		t.Errorf("only %d of %d calls failed (%d succeeded): too few to check redaction", total, len(calls), succeeded)
	}
	t.Logf("%d calls: %d failed and were checked, %d succeeded", len(calls), total, succeeded)
}

// TestErrorOffsetAfterRewrite checks Error.Offset when a step rewrote the
// input before the failure was found (POWDER's DecodeAll and
// DefaultScheme, IRI's escaping of octets that are not UTF-8): the
// offset must be -1 (unknown) or point, in the caller's input, at the
// bytes the problem is in, whatever leading spaces and tabs were trimmed.
// An offset into the rewritten input, or -1 shifted by the trimmed
// prefix, points at the wrong place.
func TestErrorOffsetAfterRewrite(t *testing.T) {
	rfc3986DefaultScheme, err := NewProfile(append(RFC3986.Steps(), DefaultScheme)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   string
		pn   string
		p    Profile
		at   string // the bytes of in that the problem is in
	}{
		{"POWDER decodes a control character into the host", "http://a%00b/", "POWDER", POWDER, "%00"},
		{"POWDER decodes a port out of range", "http://h:%3999999/", "POWDER", POWDER, "%3999999"},
		{"POWDER decodes the scheme, bad port", "http%3A%2F%2Fh:99999/", "POWDER", POWDER, "99999"},
		{"POWDER default scheme, bad port", "www.h.com:99999/", "POWDER", POWDER, "99999"},
		{"POWDER default scheme, decoded control character", "//a%00b/", "POWDER", POWDER, "%00"},
		{"POWDER default scheme, unterminated IP literal", "[::1/", "POWDER", POWDER, "["},
		{"DefaultScheme in an RFC3986 profile, bad port", "www.h.com:99999/", "RFC3986+DefaultScheme", rfc3986DefaultScheme, "99999"},
		{"IRI escapes an octet that is not UTF-8", "http://h/\xff%zz", "IRI", IRI, "%zz"},
	} {
		for _, lead := range []string{"", " ", "\t", "   ", " \t "} {
			in := lead + tc.in
			t.Run(tc.name+"/"+quoteArg(lead), func(t *testing.T) {
				_, err := Normalize(in, tc.p)
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("Normalize(%q, %s) = %v, want an *Error", in, tc.pn, err)
				}
				if e.Input != in {
					t.Errorf("Normalize(%q, %s): Error.Input = %q, want the input as given", in, tc.pn, e.Input)
				}
				i := strings.Index(in, tc.at)
				if i < 0 {
					t.Fatalf("%q is not in %q", tc.at, in)
				}
				if e.Offset != -1 && (e.Offset < i || e.Offset >= i+len(tc.at)) {
					t.Errorf("Normalize(%q, %s): Error.Offset = %d (at %q), want -1 or in [%d, %d) (at %q)",
						in, tc.pn, e.Offset, in[min(max(e.Offset, 0), len(in)):], i, i+len(tc.at), in[i:])
				}
			})
		}
	}
}

// TestErrorsNeverCarryPasswordTabs is TestErrorsNeverCarryPassword's
// class of inputs with a tab, CR or LF at every place: the WHATWG URL
// Standard removes them before it reads anything, so "http:/\t/user:pw@h"
// has a userinfo to a browser, and so does every neighbour of it. Each
// input goes through every entry point under every profile (and the
// zero profile); no error may carry the password.
func TestErrorsNeverCarryPasswordTabs(t *testing.T) {
	profiles := []Profile{{}, WebCapture, RFC3986, IRI, POWDER, WHATWG, Crawler, Archive, Aggressive,
		MustProfile(ParseWHATWG, DefaultScheme), SafeBrowsing}
	bases := []string{"http://user:" + password + "@h:99999/", "http://a/b", "foo:/a"}
	checked, calls := 0, 0
	check := func(what string, err error) {
		calls++
		if err == nil {
			return
		}
		checked++
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %T %v is not *Error", what, err, err)
			return
		}
		if strings.Contains(err.Error(), password) || strings.Contains(e.Input, password) {
			t.Errorf("%s: error %q carries the password", what, err.Error())
		}
	}
	for _, tmpl := range []string{"http://{ui}@h:99999/", "http:{ui}@h:99999/", "//{ui}@h:99999/", "\\\\{ui}@h:99999/",
		"foo://{ui}@h:99999/", "{ui}@h.com:99999/", "http%3A%2F%2F{ui}@h:99999/"} {
		// "user:" would be a scheme to DefaultScheme in "{ui}@h.com"; with
		// "u@ser" there is none, and the input is an authority.
		in := strings.ReplaceAll(tmpl, "{ui}", "u@ser:"+password)
		for i := 0; i <= len(in); i++ {
			for _, c := range []string{"\t", "\n", "\r", "\t\n"} {
				x := in[:i] + c + in[i:]
				check("Parse("+quoteArg(x)+")", func() error { _, err := Parse(x); return err }())
				check("Resolve", func() error { _, err := Resolve(x, "y"); return err }())
				for _, p := range profiles {
					what := quoteArg(x) + ", " + p.String()
					check("Normalize("+what+")", func() error { _, err := Normalize(x, p); return err }())
					check("AppendNormalized("+what+")", func() error { _, err := AppendNormalized(nil, x, p); return err }())
					check("Explain("+what+")", func() error { _, err := Explain(x, p); return err }())
					check("Equal("+what+")", func() error { _, err := Equal("http://h/", x, p); return err }())
					check("NormalizeRef(base "+what+")", func() error { _, err := NormalizeRef(x, "y", p); return err }())
					for _, b := range bases {
						check("NormalizeRef("+b+", ref "+what+")", func() error { _, err := NormalizeRef(b, x, p); return err }())
					}
				}
			}
		}
	}
	if checked < calls/2 {
		t.Errorf("only %d of %d calls failed: too few to check redaction", checked, calls)
	}
	t.Logf("%d calls, %d errors checked", calls, checked)
}

// leaksPassword reports whether the error text or Input of err shows
// password in any view a reader takes of it: as written, or with its
// tabs and newlines removed and its triplets decoded until none is left
// ("s3c\tret", "s3%63ret").
func leaksPassword(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return true // not an *Error: its text is not redacted
	}
	if strings.Contains(err.Error(), password) || strings.Contains(e.Input, password) {
		return true
	}
	v, _ := readerView(e.Input, true, 2)
	return strings.Contains(v, password)
}

// TestRedactionClass holds redaction to its rule as a class rather than a
// list of inputs: every shape of scheme (special, file, other, invalid,
// none) × every spelling of the slashes after it × userinfos with the
// ":" or "@" escaped (once and twice) × a tab or newline anywhere before
// the "@" × every entry point, as an input, a base and a reference
// against http:, file: and opaque bases. Each input fails (a port out of
// range) after its userinfo; no error may show the password in any view
// (leaksPassword). Without -long, the tabs and newlines go in front of
// each byte of the plain userinfo's inputs only.
func TestRedactionClass(t *testing.T) {
	schemes := []string{"http:", "HTTP:", "https:", "file:", "FILE:", "foo:", "ht tp:", "1x:", "",
		// The URL inside a blob: URL's path, after spaces and controls
		// that a reader trims from it.
		"blob:http:", "BLOB:blob:foo:", "blob:\x00", "blob: \x01http:"}
	slashes := []string{"", "/", "//", "///", "\\", "\\\\", "/\\", "\\/", "\\\\\\", "/\\/"}
	userinfos := []string{"u:" + password + "@", "u%3A" + password + "@", "u:" + password + "%40",
		"u%253A" + password + "%2540", "u@ser:" + password + ":x@"}
	profiles := []Profile{{}, WebCapture, RFC3986, IRI, POWDER, WHATWG, Crawler, Archive, Aggressive,
		MustProfile(ParseWHATWG, DefaultScheme), SafeBrowsing}
	bases := []string{"http://a/b", "file:///C:/dir/", "foo:/a", "foo:opaque"}
	calls, failed := 0, 0
	check := func(what string, err error) {
		calls++
		if err == nil {
			return
		}
		failed++
		if leaksPassword(err) {
			t.Errorf("%s: error %q shows the password", what, err.Error())
		}
	}
	try := func(x string) {
		check("Parse("+quoteArg(x)+")", func() error { _, err := Parse(x); return err }())
		check("Resolve(base "+quoteArg(x)+")", func() error { _, err := Resolve(x, "y"); return err }())
		for _, b := range bases[:2] {
			check("Resolve("+b+", ref "+quoteArg(x)+")", func() error { _, err := Resolve(b, x); return err }())
		}
		for _, p := range profiles {
			what := quoteArg(x) + ", " + p.String()
			check("Normalize("+what+")", func() error { _, err := Normalize(x, p); return err }())
			check("Explain("+what+")", func() error { _, err := Explain(x, p); return err }())
			check("Equal("+what+")", func() error { _, err := Equal("http://h/", x, p); return err }())
			check("NormalizeRef(base "+what+")", func() error { _, err := NormalizeRef(x, "y", p); return err }())
			for _, b := range bases {
				check("NormalizeRef("+b+", ref "+what+")", func() error { _, err := NormalizeRef(b, x, p); return err }())
			}
		}
	}
	for _, scheme := range schemes {
		for _, sl := range slashes {
			for i, ui := range userinfos {
				prefix := scheme + sl + ui
				in := prefix + "h:99999/x"
				try(in)
				if i > 0 && !*longTests {
					continue
				}
				for k := 0; k < len(prefix); k++ {
					for _, c := range []string{"\t", "\n"} {
						try(in[:k] + c + in[k:])
					}
				}
			}
		}
	}
	if failed < calls/2 {
		t.Errorf("only %d of %d calls failed: too few to check redaction", failed, calls)
	}
	t.Logf("%d calls, %d errors checked", calls, failed)
}
