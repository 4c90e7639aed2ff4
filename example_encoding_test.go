package canon_test

import (
	"errors"
	"fmt"

	"github.com/seed15588f71/canon"
)

// A label resolves as the Encoding Standard says; for URLs, UTF-16 and
// "replacement" are UTF-8.
func ExampleLookupEncoding() {
	for _, label := range []string{"sjis", " Shift_JIS ", "latin1", "ascii", "gbk", "utf-16le", "iso-2022-kr", "klingon"} {
		enc, err := canon.LookupEncoding(label)
		if err != nil {
			fmt.Printf("%-13q error: %v (ErrEncoding: %t)\n", label, err, errors.Is(err, canon.ErrEncoding))
			continue
		}
		fmt.Printf("%-13q %s\n", label, enc.Name())
	}
	// Output:
	// "sjis"        Shift_JIS
	// " Shift_JIS " Shift_JIS
	// "latin1"      windows-1252
	// "ascii"       windows-1252
	// "gbk"         GBK
	// "utf-16le"    UTF-8
	// "iso-2022-kr" UTF-8
	// "klingon"     error: canon: unknown encoding label "klingon" (not one of the Encoding Standard's) (ErrEncoding: true)
}

// The links of a Shift_JIS page: the query is written in Shift_JIS, as a
// browser requests it ("本" is 0x96 0x7B, whose second byte stays "{");
// the path and the fragment stay UTF-8, and so does the query of a
// ws: URL or of a scheme that is not special.
func ExampleEncoding_NormalizeRef() {
	sjis, err := canon.LookupEncoding("shift_jis")
	if err != nil {
		panic(err)
	}
	const page = "http://example.jp/dir/"
	for _, href := range []string{"/日本?q=日本#日本", "?q=€", "ws://example.jp/?q=日本", "?q=&#8364;"} {
		key, err := sjis.NormalizeRef(page, href, canon.WHATWG)
		if err != nil {
			panic(err)
		}
		fmt.Println(key)
	}
	_, err = sjis.NormalizeRef(page, "?q=日本", canon.RFC3986)
	fmt.Println(errors.Is(err, canon.ErrEncoding))
	// Output:
	// http://example.jp/%E6%97%A5%E6%9C%AC?q=%93%FA%96{#%E6%97%A5%E6%9C%AC
	// http://example.jp/dir/?q=%26%238364%3B
	// ws://example.jp/?q=%E6%97%A5%E6%9C%AC
	// http://example.jp/dir/?q=&#8364;
	// true
}

// One query in the encodings of pages around the world: each character
// the encoding has is written as its bytes, and one it lacks as "&#N;"
// percent-encoded. The zero Encoding is UTF-8.
func ExampleEncoding() {
	const link = "http://example.com/?q=café €"
	var utf8 canon.Encoding
	key, _ := utf8.Normalize(link, canon.WHATWG)
	fmt.Printf("%-12s %s\n", utf8.Name(), key)
	for _, label := range []string{"windows-1252", "iso-8859-2", "koi8-r", "gb18030", "big5", "euc-kr"} {
		enc, err := canon.LookupEncoding(label)
		if err != nil {
			panic(err)
		}
		key, err := enc.Normalize(link, canon.WHATWG)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-12s %s\n", enc.Name(), key)
	}
	// Output:
	// UTF-8        http://example.com/?q=caf%C3%A9%20%E2%82%AC
	// windows-1252 http://example.com/?q=caf%E9%20%80
	// ISO-8859-2   http://example.com/?q=caf%E9%20%26%238364%3B
	// KOI8-R       http://example.com/?q=caf%26%23233%3B%20%26%238364%3B
	// gb18030      http://example.com/?q=caf%A8%A6%20%A2%E3
	// Big5         http://example.com/?q=caf%26%23233%3B%20%A3%E1
	// EUC-KR       http://example.com/?q=caf%26%23233%3B%20%A2%E6
}

// The links of a Shift_JIS page through a Base: the page's URL is read
// once, and each link's query is written in Shift_JIS.
func ExampleBase() {
	sjis, err := canon.LookupEncoding("shift_jis")
	if err != nil {
		panic(err)
	}
	page, err := sjis.NewBase("http://example.jp/search/", canon.WHATWG)
	if err != nil {
		panic(err)
	}
	for _, href := range []string{"?q=日本", "../日本/?q=ソ", "http://other.example/?q=本"} {
		key, err := page.Normalize(href)
		if err != nil {
			panic(err)
		}
		fmt.Println(key)
	}
	// Output:
	// http://example.jp/search/?q=%93%FA%96{
	// http://example.jp/%E6%97%A5%E6%9C%AC/?q=%83\
	// http://other.example/?q=%96{
}
