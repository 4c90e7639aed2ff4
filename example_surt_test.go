package canon_test

import (
	"fmt"

	"github.com/seed15588f71/canon"
)

// The SURT of an Archive key is the key a CDX index of the Internet
// Archive's surt library has for the URL: Archive does the URL's part
// (case, "www", the default port, the order of the query), SURT the rest.
func ExampleSURT() {
	for _, u := range []string{
		"HTTP://WWW.Archive.org:80/goo/?b=2&a=1#top",
		"https://www.googleapis.com/auth/drive%3Fscope",
		"http://user:pass@10.1.2.3:8080/x", // an IPv4 address is reversed, as the surt library does
		"file:///etc/hosts",
		"dns:alexa.com",
	} {
		key, err := canon.Normalize(u, canon.Archive)
		if err != nil {
			fmt.Println(err)
			continue
		}
		surt, err := canon.SURT(key)
		fmt.Println(surt, err)
	}
	_, err := canon.SURT("www.archive.org/")
	fmt.Println(err)
	// Output:
	// org,archive)/goo?a=1&b=2 <nil>
	// com,googleapis)/auth/drive?scope <nil>
	// 3,2,1,10:8080)/x <nil>
	// file:/etc/hosts <nil>
	// dns:alexa.com <nil>
	// canon.SURT("www.archive.org/"): scheme: missing scheme (at "www.archive.org/")
}

func ExampleAppendSURT() {
	var buf []byte
	for _, key := range []string{
		"http://user:pass@foo.example.org:81/path?query#frag",
		"http://10.1.2.3:81/path",
	} {
		for _, form := range []canon.SURTForm{
			0, // the CDX form, as the surt library writes it (no fragment; a trailing comma after the port)
			canon.SURTTrailingComma,
			canon.SURTWithScheme,
			canon.SURTWithScheme | canon.SURTTrailingComma,
			canon.SURTWithScheme | canon.SURTTrailingComma | canon.SURTKeepIP | canon.SURTVerbatim, // as Heritrix writes it
		} {
			buf, _ = canon.AppendSURT(buf[:0], key, form)
			fmt.Println(string(buf))
		}
	}
	// Output:
	// org,example,foo:81)/path?query
	// org,example,foo:81,)/path?query
	// http://(org,example,foo:81)/path?query
	// http://(org,example,foo:81,)/path?query
	// http://(org,example,foo,:81)/path?query#frag
	// 3,2,1,10:81)/path
	// 3,2,1,10:81,)/path
	// http://(3,2,1,10:81)/path
	// http://(3,2,1,10:81,)/path
	// http://(10.1.2.3:81)/path
}

// SURTKeepIP keeps an IP address whole, as Heritrix writes it; a host
// name is reversed either way.
func ExampleSURTForm_keepIP() {
	for _, key := range []string{"http://192.168.1.254/info", "http://[::1]:8080/a", "http://www.example.com/"} {
		cdx, _ := canon.AppendSURT(nil, key, 0)
		kept, _ := canon.AppendSURT(nil, key, canon.SURTKeepIP)
		fmt.Printf("%-20s %s\n", cdx, kept)
	}
	// Output:
	// 254,1,168,192)/info  192.168.1.254)/info
	// ::1:8080)/a          [::1]:8080)/a
	// com,example,www)/    com,example,www)/
}
