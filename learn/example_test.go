package learn_test

import (
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/learn"
)

// captures returns the captures of shop.example's 12 pages, 3 each, with
// a click tag "from" that does not change what the page returns.
func captures() []learn.Capture {
	tags := []string{"home", "nav", "mail", "footer"}
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	var cs []learn.Capture
	for n := 0; n < 36; n++ {
		page := n / 3
		cs = append(cs, learn.Capture{
			URL:    fmt.Sprintf("https://shop.example/item?id=%d&from=%s", page, tags[n%4]),
			Time:   t0.Add(time.Duration(n) * time.Hour),
			Status: 200,
			Digest: fmt.Sprintf("sha1:PAGE%02d", page),
		})
	}
	return cs
}

func ExampleNew() {
	l := learn.New(learn.Options{}) // against canon.Crawler's keys
	defer l.Close()
	for _, c := range captures() {
		if err := l.Add(c); err != nil {
			log.Fatal(err)
		}
	}
	rules, err := l.Learn(nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rules.Hosts)

	p, _ := canon.Crawler.WithRules(rules)
	key, _ := canon.Normalize("https://shop.example/item?from=ad&id=7", p)
	fmt.Println(key)
	// Output:
	// map[shop.example:{[from] [] [] [] map[]}]
	// https://shop.example/item?id=7
}

// The findings say why each set of parameters was learned or not.
func ExampleLearner_Learn() {
	l := learn.New(learn.Options{})
	defer l.Close()
	for _, c := range captures() {
		l.Add(c)
	}
	_, err := l.Learn(func(f learn.Finding) {
		fmt.Println(f.Host, f.Params, f.Verdict, "pairs:", f.Pairs, "agree:", f.Agree, "counterexamples:", f.Counter)
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// shop.example [from] learned pairs: 24 agree: 24 counterexamples: 0
	// shop.example [id] refused pairs: 11 agree: 0 counterexamples: 11
}

func ExampleReadCaptures() {
	index := ` CDX N b a m s k r M S V g
example,shop)/item?from=home&id=1 20240501120000 https://shop.example/item?id=1&from=home text/html 200 PAGE01 - - 1200 0 a.warc.gz
example,shop)/item?from=nav&id=1 2024050113000x https://shop.example/item?id=1&from=nav text/html 200 PAGE01 - - 1200 1200 a.warc.gz
example,shop)/item?from=nav&id=1 20240501130000 https://shop.example/item?id=1&from=nav text/html 200 PAGE01 - - 1200 1200 a.warc.gz
`
	for c, err := range learn.ReadCaptures(strings.NewReader(index), "") {
		if err != nil {
			fmt.Println(err) // a malformed line: reading goes on
			continue
		}
		fmt.Println(c.Time.Format(time.RFC3339), c.Status, c.Digest, c.URL)
	}
	// Output:
	// 2024-05-01T12:00:00Z 200 PAGE01 https://shop.example/item?id=1&from=home
	// learn: malformed index line 3 (cdx): bad timestamp "2024050113000x"
	// 2024-05-01T13:00:00Z 200 PAGE01 https://shop.example/item?id=1&from=nav
}

func ExampleDetectFormat() {
	for _, line := range []string{
		" CDX N b a m s k r M S V g",
		"example,shop)/ 20240501120000 {\"url\": \"https://shop.example/\", \"status\": \"200\"}",
		"https://shop.example/\tsha1:PAGE01",
	} {
		f, err := learn.DetectFormat(line)
		fmt.Println(f, err)
	}
	// Output:
	// cdx <nil>
	// cdxj <nil>
	// pairs <nil>
}

func ExampleFormats() {
	fmt.Println(learn.Formats())
	f, err := learn.ParseFormat("warc")
	fmt.Printf("%q %v\n", f, err)
	// Output:
	// [cdx cdxj crawl-log pairs]
	// "" learn: unknown index format "warc": want one of cdx, cdxj, crawl-log, pairs
}

func ExampleHost() {
	h, ok := learn.Host("HTTPS://WWW.Shop.Example.:8443/item?id=1", canon.Crawler)
	fmt.Println(h, ok)
	// Output:
	// www.shop.example true
}

// A pipeline that learns each host apart merges what it learned with
// Merge, which gives the Rules one Learner of all the captures gives.
func ExampleMerge() {
	byHost := map[string]*learn.Learner{}
	for _, c := range captures() {
		h, _ := learn.Host(c.URL, canon.Crawler)
		if byHost[h] == nil {
			byHost[h] = learn.New(learn.Options{})
		}
		byHost[h].Add(c)
	}
	var hosts []learn.HostRules
	for _, l := range byHost {
		hs, err := l.Hosts(nil)
		if err != nil {
			log.Fatal(err)
		}
		hosts = append(hosts, hs...)
	}
	fmt.Println(learn.Merge(hosts, canon.Crawler).Hosts)
	// Output:
	// map[shop.example:{[from] [] [] [] map[]}]
}
