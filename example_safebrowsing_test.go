package canon_test

import (
	"fmt"

	"github.com/seed15588f71/canon"
)

// The SafeBrowsing profile is Google Safe Browsing's canonicalization:
// every escape decoded (the whole URL's, before the host is read), any
// IPv4 spelling as an address, the fragment, userinfo and port dropped,
// the query kept, and what is left escaped its own way.
func ExampleNormalize_safeBrowsing() {
	for _, u := range []string{
		"http://host/%25%32%35",
		"http%3A%2F%2Fwackyurl.com:80/",
		"http://3279880203/blah",
		"HTTP://user:pw@www.Google.com.../a//b/../c?q=%20#frag",
		"www.google.com",
	} {
		key, err := canon.Normalize(u, canon.SafeBrowsing)
		fmt.Println(key, err)
	}
	// Output:
	// http://host/%25 <nil>
	// http://wackyurl.com/ <nil>
	// http://195.127.0.11/blah <nil>
	// http://www.google.com/a/c?q=%20 <nil>
	// http://www.google.com/ <nil>
}

func ExampleLookupExpressions() {
	exprs, err := canon.LookupExpressions("http://a.b.c/1/2.html?param=1")
	if err != nil {
		panic(err)
	}
	for _, x := range exprs {
		fmt.Println(x)
	}
	// Output:
	// a.b.c/1/2.html?param=1
	// a.b.c/1/2.html
	// a.b.c/
	// a.b.c/1/
	// b.c/1/2.html?param=1
	// b.c/1/2.html
	// b.c/
	// b.c/1/
}

func ExampleLookupHashes() {
	prefixes, err := canon.LookupHashes("http://1.2.3.4/1/", 4)
	if err != nil {
		panic(err)
	}
	exprs, _ := canon.LookupExpressions("http://1.2.3.4/1/")
	for i, p := range prefixes {
		fmt.Printf("%x %s\n", p, exprs[i])
	}
	// Output:
	// 5c9f3541 1.2.3.4/1/
	// 3f008b86 1.2.3.4/
}
