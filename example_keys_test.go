package canon_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/seed15588f71/canon"
)

// The Crawler profile merges the duplicates nearly every site produces.
func ExampleNormalize_crawler() {
	for _, u := range []string{
		"https://example.com/list?b=2&a=1#top",
		"https://example.com/list?a=1&utm_source=news&b=2",
		"https://example.com/list;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA?b=2&&a=1",
		"https://example.com/list?a=1&b=2&sid=3", // a forum's sid is no session id
	} {
		key, err := canon.Normalize(u, canon.Crawler)
		fmt.Println(key, err)
	}
	// Output:
	// https://example.com/list?a=1&b=2 <nil>
	// https://example.com/list?a=1&b=2 <nil>
	// https://example.com/list?a=1&b=2 <nil>
	// https://example.com/list?a=1&b=2&sid=3 <nil>
}

// The Archive profile is the Internet Archive's canonicalization; SURT
// then writes the CDX key.
func ExampleNormalize_archive() {
	key, _ := canon.Normalize("http://www.archive.org/goo/?a=2&b&a=1", canon.Archive)
	surt, _ := canon.SURT(key)
	fmt.Println(key)
	fmt.Println(surt)
	// Output:
	// http://archive.org/goo?a=1&a=2&b
	// org,archive)/goo?a=1&a=2&b
}

func ExampleProfile_WithRules() {
	p, err := canon.Crawler.WithRules(canon.Rules{
		TrackingParams:   []string{"ref"},
		TrackingPrefixes: []string{"pk_"},
	})
	if err != nil {
		panic(err)
	}
	key, _ := canon.Normalize("https://example.com/?pk_campaign=x&ref=home&id=7", p)
	fmt.Println(key)
	fmt.Println(p)
	// Output:
	// https://example.com/?id=7
	// (ParseWHATWG|RemoveFragment|UppercaseEscapes|DecodeUnreserved|RemoveSessionIDs|RemoveTrackingParams|RemoveEmptyParams|RemoveEmptyQuery|SortQuery)[tracking=ref prefixes=pk_]
}

// Rules a profile would never use are an error, not silently ignored:
// WHATWG has no step that reads a tracking list, and under StripWWW no
// key has the host "www.example.com".
func ExampleProfile_WithRules_unused() {
	_, err := canon.WHATWG.WithRules(canon.Rules{TrackingParams: []string{"ref"}})
	fmt.Println(errors.Is(err, canon.ErrUnusedRules))
	fmt.Println(err)
	_, err = canon.Archive.WithRules(canon.Rules{Hosts: map[string]canon.Rules{
		"www.example.com": {SessionParams: []string{"sid"}},
	}})
	fmt.Println(err)
	// Output:
	// true
	// canon: Rules.TrackingParams: no step of the profile reads it: RemoveTrackingParams does, and the profile WHATWG(ParseWHATWG) lacks it
	// canon: Rules.Hosts["www.example.com"]: no key has this host: the profile writes "http://www.example.com/" as "http://example.com/"; key the rules by the host as the key writes it
}

func ExampleProfile_Rules() {
	p, _ := canon.Crawler.WithRules(canon.Rules{SessionParams: []string{"SessID", "sessid"}})
	fmt.Printf("%q\n", p.Rules().SessionParams)
	// Output:
	// ["sessid"]
}

func ExampleExplain() {
	changes, err := canon.Explain("HTTP://h/?b=1&a=2#f", canon.Crawler)
	if err != nil {
		panic(err)
	}
	for _, c := range changes {
		fmt.Printf("%-14s %s -> %s\n", c.Step, c.Before, c.After)
	}
	// Output:
	// ParseWHATWG    HTTP://h/?b=1&a=2#f -> http://h/?b=1&a=2#f
	// RemoveFragment http://h/?b=1&a=2#f -> http://h/?b=1&a=2
	// SortQuery      http://h/?b=1&a=2 -> http://h/?a=2&b=1
}

func ExampleDefaultTrackingParams() {
	for _, tp := range canon.DefaultTrackingParams() {
		if tp.Name == "utm_" || tp.Name == "gclid" {
			fmt.Println(tp.Name, tp.Prefix)
		}
	}
	// Output:
	// gclid false
	// utm_ true
}

// A Change is one step that changed the URL, with the URL before and after
// it; the After of the last is the key.
func ExampleChange() {
	changes, err := canon.Explain("HTTP://Example.COM/a/../b/%7e", canon.RFC3986)
	if err != nil {
		panic(err)
	}
	for _, c := range changes {
		fmt.Printf("%-16v %-30q -> %q\n", c.Step, c.Before, c.After)
	}
	// Output:
	// LowercaseScheme  "HTTP://Example.COM/a/../b/%7e" -> "http://Example.COM/a/../b/%7e"
	// LowercaseHost    "http://Example.COM/a/../b/%7e" -> "http://example.com/a/../b/%7e"
	// UppercaseEscapes "http://example.com/a/../b/%7e" -> "http://example.com/a/../b/%7E"
	// DecodeUnreserved "http://example.com/a/../b/%7E" -> "http://example.com/a/../b/~"
	// RemoveDots       "http://example.com/a/../b/~"  -> "http://example.com/b/~"
}

// A site's own session parameter and tracking parameter, dropped whatever
// their value; a built-in session name ("sid") is dropped only when its
// value has the shape of a session id.
func ExampleRules() {
	p, err := canon.Crawler.WithRules(canon.Rules{SessionParams: []string{"sess"}, TrackingParams: []string{"from"}})
	if err != nil {
		panic(err)
	}
	for _, u := range []string{
		"https://shop.example/cart?sess=123&item=7&from=mail",
		"https://shop.example/cart?item=7&sid=3",
	} {
		key, err := canon.Normalize(u, p)
		fmt.Println(key, err)
	}
	// Output:
	// https://shop.example/cart?item=7 <nil>
	// https://shop.example/cart?item=7&sid=3 <nil>
}

// Rules for one site, as a JSON file for the command's -rules would hold
// them: on shop.example (and its subdomains) only the parameters that
// select a product are kept; everywhere, "ref" goes.
func ExampleRules_hosts() {
	var r canon.Rules
	err := json.Unmarshal([]byte(`{
		"TrackingParams": ["ref"],
		"Hosts": {"shop.example": {"KeepParams": ["item", "size"]}}
	}`), &r)
	if err != nil {
		panic(err)
	}
	p, err := canon.Crawler.WithRules(r)
	if err != nil {
		panic(err)
	}
	for _, u := range []string{
		"https://www.shop.example/p?size=M&item=7&color=red&ref=mail",
		"https://notshop.example/p?size=M&color=red&ref=mail",
	} {
		key, _ := canon.Normalize(u, p)
		fmt.Println(key)
	}
	changes, _ := canon.Explain("https://www.shop.example/p?color=red&item=7", p)
	for _, c := range changes {
		fmt.Printf("%v (rules of %q): %s\n", c.Step, c.Host, c.After)
	}
	// Output:
	// https://www.shop.example/p?item=7&size=M
	// https://notshop.example/p?color=red&size=M
	// RemoveTrackingParams (rules of "shop.example"): https://www.shop.example/p?item=7
}

// Each built-in tracking parameter says who sets it and which public
// lists name it.
func ExampleTrackingParam() {
	for _, tp := range canon.DefaultTrackingParams() {
		if tp.Name == "fbclid" {
			fmt.Printf("%s (prefix: %v): %s\n", tp.Name, tp.Prefix, tp.Source)
		}
	}
	// Output:
	// fbclid (prefix: false): Facebook/Meta click identifier (Firefox query stripping, Brave, ClearURLs, AdGuard)
}
