package canon_test

import (
	"fmt"

	"github.com/seed15588f71/canon"
)

func ExampleSURT() {
	for _, u := range []string{
		"HTTP://WWW.Archive.org:80/goo/?a=1",
		"http://user:pass@10.1.2.3:8080/x",
		"dns:alexa.com",
	} {
		key, err := canon.Normalize(u, canon.RFC3986)
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
	// org,archive,www)/goo/?a=1 <nil>
	// 10.1.2.3:8080)/x <nil>
	// dns:alexa.com <nil>
	// canon.SURT("www.archive.org/"): scheme: missing scheme (at "www.archive.org/")
}

func ExampleAppendSURT() {
	const key = "http://user:pass@foo.example.org:81/path?query#frag"
	var buf []byte
	for _, form := range []canon.SURTForm{
		0,
		canon.SURTTrailingComma,
		canon.SURTWithScheme,
		canon.SURTWithScheme | canon.SURTTrailingComma, // as Heritrix writes it
	} {
		buf, _ = canon.AppendSURT(buf[:0], key, form)
		fmt.Println(string(buf))
	}
	// Output:
	// org,example,foo:81)/path?query#frag
	// org,example,foo,:81)/path?query#frag
	// http://(org,example,foo:81)/path?query#frag
	// http://(org,example,foo,:81)/path?query#frag
}
