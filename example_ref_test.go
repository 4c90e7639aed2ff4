package canon_test

import (
	"errors"
	"fmt"

	"github.com/seed15588f71/canon"
)

// NormalizeRef resolves by the rule of the profile's kind: RFC 3986 §5.2
// (RFC3986, IRI, POWDER), RFC 1808 §4 (WebCapture), the WHATWG URL
// Standard's parser with a base (WHATWG, Crawler, Archive, Aggressive),
// or that parser and then Safe Browsing's canonicalization (SafeBrowsing).
func ExampleNormalizeRef_profiles() {
	profiles := []struct {
		name string
		p    canon.Profile
	}{{"RFC3986", canon.RFC3986}, {"WebCapture", canon.WebCapture}, {"WHATWG", canon.WHATWG}, {"SafeBrowsing", canon.SafeBrowsing}}
	show := func(base, ref string) {
		fmt.Printf("%s against %s\n", ref, base)
		for _, np := range profiles {
			key, err := canon.NormalizeRef(base, ref, np.p)
			var e *canon.Error
			if errors.As(err, &e) {
				key = "error: " + e.Component.String() + ": " + e.Err.Error()
			}
			fmt.Printf("  %-13s %s\n", np.name+":", key)
		}
	}
	const base = "http://a/b/c/d;p?q"
	show(base, "http:g")       // the base's scheme: absolute (the RFCs), relative (WHATWG)
	show(base, "https:g")      // another scheme: absolute in every profile
	show(base, "../../../g")   // ".." above the root: kept by RFC 1808 alone
	show(base, ";x")           // RFC 1808's params
	show(base, `g\h`)          // a backslash: a slash to a browser, an error to the RFCs
	show(base, "x%252Fy")      // Safe Browsing decodes every escape
	show("http://a/b/..", "g") // the base's dot segments: removed first by WHATWG
	// Output:
	// http:g against http://a/b/c/d;p?q
	//   RFC3986:      error: host: invalid host
	//   WebCapture:   error: host: invalid host
	//   WHATWG:       http://a/b/c/g
	//   SafeBrowsing: http://a/b/c/g
	// https:g against http://a/b/c/d;p?q
	//   RFC3986:      error: host: invalid host
	//   WebCapture:   error: host: invalid host
	//   WHATWG:       https://g/
	//   SafeBrowsing: https://g/
	// ../../../g against http://a/b/c/d;p?q
	//   RFC3986:      http://a/g
	//   WebCapture:   http://a/../g
	//   WHATWG:       http://a/g
	//   SafeBrowsing: http://a/g
	// ;x against http://a/b/c/d;p?q
	//   RFC3986:      http://a/b/c/;x
	//   WebCapture:   http://a/b/c/d;x
	//   WHATWG:       http://a/b/c/;x
	//   SafeBrowsing: http://a/b/c/;x
	// g\h against http://a/b/c/d;p?q
	//   RFC3986:      error: path: invalid character
	//   WebCapture:   error: path: invalid character
	//   WHATWG:       http://a/b/c/g/h
	//   SafeBrowsing: http://a/b/c/g/h
	// x%252Fy against http://a/b/c/d;p?q
	//   RFC3986:      http://a/b/c/x%252Fy
	//   WebCapture:   http://a/b/c/x%252Fy
	//   WHATWG:       http://a/b/c/x%252Fy
	//   SafeBrowsing: http://a/b/c/x/y
	// g against http://a/b/..
	//   RFC3986:      http://a/b/g
	//   WebCapture:   http://a/b/g
	//   WHATWG:       http://a/g
	//   SafeBrowsing: http://a/g
}

// A Base is a page's URL, read once for all the links of the page: each
// key is NormalizeRef's. AppendNormalized writes into a buffer that is
// reused from link to link (no allocation when it has room).
func ExampleNewBase() {
	page, err := canon.NewBase("https://example.com/docs/intro.html?lang=en", canon.Crawler)
	if err != nil {
		panic(err)
	}
	var buf []byte
	for _, href := range []string{"setup.html", "../blog/?utm_source=feed&b=2&a=1", "#top", "//cdn.example.com/x.js", "HTTPS://EXAMPLE.COM:443/"} {
		buf, err = page.AppendNormalized(buf[:0], href)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s\n", buf)
	}
	// Output:
	// https://example.com/docs/setup.html
	// https://example.com/blog/?a=1&b=2
	// https://example.com/docs/intro.html?lang=en
	// https://cdn.example.com/x.js
	// https://example.com/
}
