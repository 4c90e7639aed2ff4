package canon

import (
	"errors"
	"strings"
	"testing"
)

// TestErrorDetail checks, as a class, that Detail is the text of Error
// after the function and its quoted input, and that it reads as its doc
// says: component, reason and the rest of Input from Offset, quoted and
// cut at errorQuoteMax bytes (quoteCut, the fuzz tests' reference), with
// no password. The errors come from every entry point that names an
// argument or none (Normalize, NormalizeRef's base, ref and resolved URL,
// Equal's a and b, Resolve, Parse, SURT), for failures in each component,
// with the problem and the input shorter and longer than the quote's
// limit, multi-byte characters and invalid UTF-8 across the cut.
func TestErrorDetail(t *testing.T) {
	const password = "s3cr3t"
	fills := []string{"", "a", strings.Repeat("a", errorQuoteMax-20), strings.Repeat("a", errorQuoteMax), strings.Repeat("é", errorQuoteMax/2+1),
		strings.Repeat("\xff", errorQuoteMax+1), strings.Repeat("a", errorQuoteMax-1) + "日本", strings.Repeat("\"\\", errorQuoteMax)}
	var inputs []string
	for _, f := range fills {
		inputs = append(inputs,
			"http://h:8x/"+f, "http://h:99999/"+f, "http://user:"+password+"@h:8x/"+f,
			"http://h/"+f+"%zz", "http://h/%zz"+f, "http://h/?"+f+"%", "http://h/#"+f+"%zz",
			"http://[::1/"+f, "http://a b/"+f, "1http://h/"+f, f+"/relative", "http://h/\x01"+f,
			"http://user:"+password+"@h/%zz"+f, "http://"+strings.Repeat("a", MaxHostLength+1)+"/"+f)
	}
	var errs []error
	add := func(_ any, err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, in := range inputs {
		for _, p := range []Profile{RFC3986, WHATWG, Crawler, Archive} {
			add(Normalize(in, p))
			add(NormalizeRef(in, "x", p))
			add(NormalizeRef("http://h/", in, p))
			add(NormalizeRef("http://h/", strings.TrimPrefix(in, "http://h/"), p))
			add(Equal(in, "http://h/", p))
			add(Equal("http://h/", in, p))
		}
		add(Resolve(in, "x"))
		add(Resolve("http://h/", in))
		add(Parse(in))
		add(SURT(in))
	}
	args := map[string]bool{}
	for _, err := range errs {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%v: not an *Error", err)
		}
		args[e.Arg] = true
		arg := ""
		if e.Arg != "" {
			arg = e.Arg + " "
		}
		prefix := "canon." + e.Op + "(" + arg + quoteCut(e.Input) + "): "
		msg, detail := e.Error(), e.Detail()
		if msg != prefix+detail {
			t.Errorf("Error() = %q,\nwant %q + Detail() %q", msg, prefix, detail)
		}
		reason := e.reason
		if reason == "" {
			reason = e.Err.Error()
		}
		want := e.Component.String() + ": " + reason
		if e.Offset >= 0 && e.Offset < len(e.Input) {
			want += " (at " + quoteCut(e.Input[e.Offset:]) + ")"
		}
		if detail != want {
			t.Errorf("%q: Detail() = %q, want %q", msg, detail, want)
		}
		if strings.Contains(detail, password) {
			t.Errorf("%q: Detail() %q shows the password", msg, detail)
		}
	}
	for _, a := range []string{"", "base", "ref", "resolved", "a", "b"} {
		if !args[a] {
			t.Errorf("no error with Arg %q among the %d: not a test of every shape", a, len(errs))
		}
	}
	t.Logf("%d errors", len(errs))
}
