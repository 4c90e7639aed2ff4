package canon_test

import (
	"errors"
	"fmt"

	"github.com/seed15588f71/canon"
)

// Spellings of one resource get one key, which is what a crawler's
// frontier, a cache or a link graph stores; what RFC 3986 keeps apart (the
// path's case) keeps two, and what is not a URL is an error.
func Example() {
	seen := map[string]bool{}
	for _, u := range []string{
		"HTTP://Example.COM:80/a/./b/%7euser",
		"http://example.com/a/b/~user",
		"http://example.com:/a/c/../b/%7Euser",
		"http://example.com/A/b/~user",
		"http://example.com:99999/",
	} {
		key, err := canon.Normalize(u, canon.RFC3986)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(key, "seen:", seen[key])
		seen[key] = true
	}
	// Output:
	// http://example.com/a/b/~user seen: false
	// http://example.com/a/b/~user seen: true
	// http://example.com/a/b/~user seen: true
	// http://example.com/A/b/~user seen: false
	// error: canon.Normalize("http://example.com:99999/"): port: port out of range (at "99999/")
}

func ExampleNormalize() {
	for _, u := range []string{
		"HTTP://Example.COM:80/a/./b/../c",
		"http://example.com/%7Euser/a%2fb",
		"http://résumé.example.org/é",
	} {
		key, err := canon.Normalize(u, canon.RFC3986)
		fmt.Println(key, err)
	}
	// Output:
	// http://example.com/a/c <nil>
	// http://example.com/~user/a%2Fb <nil>
	// http://xn--rsum-bpad.example.org/%C3%A9 <nil>
}

func ExampleNormalize_profiles() {
	const u = "HTTP://www.Example.COM:80/a/../../b/%7e?q=a+b#top"
	for _, p := range []canon.Profile{canon.WebCapture, canon.RFC3986, canon.IRI, canon.POWDER} {
		key, err := canon.Normalize(u, p)
		fmt.Println(key, err)
	}
	// Output:
	// http://www.example.com/../b/%7e?q=a+b <nil>
	// http://www.example.com/b/~?q=a+b#top <nil>
	// http://www.example.com/b/~?q=a+b#top <nil>
	// http://www.example.com:80/a/../../b/~?q=a%20b#top <nil>
}

// The WHATWG profile reads a URL as a browser does.
func ExampleNormalize_whatwg() {
	for _, u := range []string{
		"HTTP://EXAMPLE.com:80/a/%2e/b\\c",
		"http://0x7f.1/",
		"https://[0:0::1]/?q=it's",
		"mailto:Joe@Example.COM",
		"http://a b/",
	} {
		key, err := canon.Normalize(u, canon.WHATWG)
		fmt.Println(key, err)
	}
	// Output:
	// http://example.com/a/b/c <nil>
	// http://127.0.0.1/ <nil>
	// https://[::1]/?q=it%27s <nil>
	// mailto:Joe@Example.COM <nil>
	//  canon.Normalize("http://a b/"): host: forbidden domain code point (at " b/")
}

// A crawler's key for a link as a browser follows it: the WHATWG reading,
// without the fragment.
func ExampleNormalizeRef_whatwg() {
	crawl, err := canon.NewProfile(append(canon.WHATWG.Steps(), canon.RemoveFragment)...)
	if err != nil {
		panic(err)
	}
	const page = "https://example.com/dir/page.html?x=1"
	for _, href := range []string{"../a\\b#top", "http:other", "//cdn.example.com/s.js", "?y=2"} {
		key, err := canon.NormalizeRef(page, href, crawl)
		fmt.Println(key, err)
	}
	// Output:
	// https://example.com/a/b <nil>
	// http://other/ <nil>
	// https://cdn.example.com/s.js <nil>
	// https://example.com/dir/page.html?y=2 <nil>
}

func ExampleNormalizeRef() {
	const base = "http://a/b/c/d;p?q"
	for _, ref := range []string{"../../../g", "g?y#s", ""} {
		web, err1 := canon.NormalizeRef(base, ref, canon.WebCapture)
		uri, err2 := canon.NormalizeRef(base, ref, canon.RFC3986)
		fmt.Printf("%-10q WebCapture: %-22s RFC3986: %s %v %v\n", ref, web, uri, err1, err2)
	}
	// Output:
	// "../../../g" WebCapture: http://a/../g          RFC3986: http://a/g <nil> <nil>
	// "g?y#s"    WebCapture: http://a/b/c/g?y       RFC3986: http://a/b/c/g?y#s <nil> <nil>
	// ""         WebCapture: http://a/b/c/d;p?q     RFC3986: http://a/b/c/d;p?q <nil> <nil>
}

func ExampleEqual() {
	same, err := canon.Equal("http://example.com/%7Efoo", "HTTP://EXAMPLE.COM:80/~foo", canon.RFC3986)
	fmt.Println(same, err)
	same, err = canon.Equal("http://example.com/a%2Fb", "http://example.com/a/b", canon.RFC3986)
	fmt.Println(same, err)
	// Output:
	// true <nil>
	// false <nil>
}

func ExampleResolve() {
	for _, ref := range []string{"g", "../g", "//g", "?y", "http:g"} {
		u, err := canon.Resolve("http://a/b/c/d;p?q", ref)
		fmt.Println(u, err)
	}
	// Output:
	// http://a/b/c/g <nil>
	// http://a/b/g <nil>
	// http://g <nil>
	// http://a/b/c/d;p?y <nil>
	// http:g <nil>
}

func ExampleRemoveDotSegments() {
	fmt.Println(canon.RemoveDotSegments("/a/b/c/./../../g"))
	fmt.Println(canon.RemoveDotSegments("mid/content=5/../6"))
	// Output:
	// /a/g
	// mid/6
}

func ExampleParse() {
	r, err := canon.Parse("foo://user@example.com:8042/over/there?name=ferret#nose")
	fmt.Printf("%q %q %q %q %q %q %q %v\n", r.Scheme, r.Userinfo, r.Host, r.Port, r.Path, r.Query, r.Fragment, err)
	r, _ = canon.Parse("http://h/p?")
	fmt.Println(r.HasQuery, r.Query == "", r.HasFragment)
	// Output:
	// "foo" "user" "example.com" "8042" "/over/there" "name=ferret" "nose" <nil>
	// true true false
}

// A profile of one's own: RFC 3986 normalization plus fragment removal,
// for a crawler that fetches each document once.
func ExampleNewProfile() {
	crawl, err := canon.NewProfile(append(canon.RFC3986.Steps(), canon.RemoveFragment)...)
	if err != nil {
		fmt.Println(err)
		return
	}
	key, err := canon.Normalize("HTTP://Example.com/a/./b#section-2", crawl)
	fmt.Println(key, err)
	fmt.Println(crawl)
	_, err = canon.NewProfile(canon.RemoveDots, canon.RemoveDots1808)
	fmt.Println(err)
	// Output:
	// http://example.com/a/b <nil>
	// (RemoveFragment|LowercaseScheme|LowercaseHost|HostToASCII|RemoveDefaultPort|EncodeToURI|UppercaseEscapes|DecodeUnreserved|RemoveDots|AddHTTPRootPath)
	// canon: steps RemoveDots and RemoveDots1808 conflict
}

func ExampleProfile_String() {
	fmt.Println(canon.WebCapture)
	// Output:
	// WebCapture(ResolveRFC1808|RemoveFragment|LowercaseScheme|LowercaseHost|StripFileLocalhost|RemoveHTTPFTPPort|RemoveDots1808)
}

func ExampleError() {
	_, err := canon.Normalize("http://user:secret@h:8x/", canon.RFC3986)
	fmt.Println(err)
	var e *canon.Error
	if errors.As(err, &e) {
		fmt.Println(e.Component, e.Offset, errors.Is(err, canon.ErrInvalidPort))
	}
	_, err = canon.Normalize("/relative/path", canon.RFC3986)
	fmt.Println(errors.Is(err, canon.ErrRelative))
	// Output:
	// canon.Normalize("http://user:xxxxx@h:8x/"): port: invalid character (at "x/")
	// port 21 true
	// true
}

// A loop that keys many URLs reuses one buffer: AppendNormalized then
// allocates nothing for URLs of the common shape.
func ExampleAppendNormalized() {
	var buf []byte
	for _, u := range []string{"HTTP://Example.COM:80/a/./b", "https://example.com/%7euser", "http://h:99999/"} {
		var err error
		buf, err = canon.AppendNormalized(buf[:0], u, canon.RFC3986)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(string(buf))
	}
	// Output:
	// http://example.com/a/b
	// https://example.com/~user
	// error: canon.AppendNormalized("http://h:99999/"): port: port out of range (at "99999/")
}

// A profile named in a configuration file or a flag.
func ExampleLookupProfile() {
	p, ok := canon.LookupProfile("whatwg")
	fmt.Println(p, ok)
	_, ok = canon.LookupProfile("browser")
	fmt.Println(ok)
	// Output:
	// WHATWG(ParseWHATWG) true
	// false
}

// crawlKey is a profile of one's own, built once: the WHATWG reading of a
// link, without its fragment.
var crawlKey = canon.MustProfile(append(canon.WHATWG.Steps(), canon.RemoveFragment)...)

func ExampleMustProfile() {
	key, err := canon.NormalizeRef("https://example.com/docs/", "../a\\b#section-2", crawlKey)
	fmt.Println(key, err)
	fmt.Println(crawlKey)
	// Output:
	// https://example.com/a/b <nil>
	// (ParseWHATWG|RemoveFragment)
}

// A Profile is a set of steps: the same steps make the same profile,
// whatever their order, and profiles are comparable. The zero Profile only
// validates and trims.
func ExampleProfile() {
	p, err := canon.NewProfile(canon.RemoveDots, canon.LowercaseHost, canon.LowercaseScheme, canon.HostToASCII,
		canon.RemoveDefaultPort, canon.EncodeToURI, canon.UppercaseEscapes, canon.DecodeUnreserved, canon.AddHTTPRootPath)
	if err != nil {
		panic(err)
	}
	fmt.Println(p == canon.RFC3986, p.Has(canon.RemoveFragment))
	fmt.Println(p)
	var zero canon.Profile
	key, err := canon.Normalize(" HTTP://H/a/../b ", zero)
	fmt.Printf("%q %v %v\n", key, err, zero)
	// Output:
	// true false
	// RFC3986(LowercaseScheme|LowercaseHost|HostToASCII|RemoveDefaultPort|EncodeToURI|UppercaseEscapes|DecodeUnreserved|RemoveDots|AddHTTPRootPath)
	// "HTTP://H/a/../b" <nil> ()
}

// A Ref can be built by hand as well as by Parse; String writes it as RFC
// 3986 §5.3 recomposes a reference, with the delimiters of the components
// that are present, even empty.
func ExampleRef() {
	r := canon.Ref{Scheme: "https", HasAuthority: true, Host: "example.com", Path: "/search", HasQuery: true, Query: "q=go"}
	fmt.Println(r, r.IsAbs())
	rel, err := canon.Parse("../a?")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v %q %v %q\n", rel.IsAbs(), rel.Path, rel.HasQuery, rel.Query)
	fmt.Println(string(rel.AppendTo([]byte("ref: "))))
	// Output:
	// https://example.com/search?q=go true
	// false "../a" true ""
	// ref: ../a?
}

// An error says in which component of the input it was found.
func ExampleComponent() {
	for _, u := range []string{"http://h:8x/", "http://h^/", "1http://h/", "http://h/%zz", "http://h/?q=%"} {
		_, err := canon.Normalize(u, canon.RFC3986)
		var e *canon.Error
		if errors.As(err, &e) {
			fmt.Printf("%-16q %-6v %v\n", u, e.Component, e.Component == canon.ComponentHost)
		}
	}
	// Output:
	// "http://h:8x/"   port   false
	// "http://h^/"     host   true
	// "1http://h/"     scheme false
	// "http://h/%zz"   path   false
	// "http://h/?q=%"  query  false
}

// Steps run in the order the Step constants are declared, whatever the
// order they were given in.
func ExampleStep() {
	p := canon.MustProfile(canon.SortQuery, canon.RemoveFragment, canon.ParseWHATWG)
	for _, s := range p.Steps() {
		fmt.Println(s)
	}
	fmt.Println(p.Has(canon.SortQuery), p.Has(canon.RemoveSessionIDs))
	key, _ := canon.Normalize("HTTPS://Example.com/list?b=2&a=1#top", p)
	fmt.Println(key)
	// Output:
	// ParseWHATWG
	// RemoveFragment
	// SortQuery
	// true false
	// https://example.com/list?a=1&b=2
}

// Steps named in a configuration file or on a command line.
func ExampleParseStep() {
	var steps []canon.Step
	for _, name := range []string{"ParseWHATWG", "removefragment", "RemoveCookies"} {
		s, err := canon.ParseStep(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		steps = append(steps, s)
	}
	p, err := canon.NewProfile(steps...)
	fmt.Println(p, err)
	// Output:
	// canon: unknown step "RemoveCookies"
	// (ParseWHATWG|RemoveFragment) <nil>
}
