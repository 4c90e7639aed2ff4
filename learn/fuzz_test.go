package learn

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed15588f71/canon"
)

// FuzzLearn learns captures made of the input's lines (url TAB digest
// TAB seconds TAB status), under Crawler and Archive: the rules load with
// WithRules, the same captures reversed, spilled in small runs and
// given twice give the same rules, and no rule merges two of them with
// different digests but where a value seen once excuses it (under both:
// Archive's rules drop path parameters too).
func FuzzLearn(f *testing.F) {
	for _, s := range []string{
		"http://a.test/p?id=1&from=x\tA\t1\nhttp://a.test/p?id=1&from=y\tA\t2\nhttp://a.test/p?id=1&from=z\tA\t3\nhttp://a.test/p?id=2&from=x\tB\t4\nhttp://a.test/p?id=2&from=y\tB\t5\nhttp://a.test/p?id=2&from=z\tB\t6\nhttp://a.test/p?id=3&from=x\tC\t7\nhttp://a.test/p?id=3&from=y\tC\t8\n",
		"http://A.TEST./p?x=1\tA\t1\t200\nhttp://a.test/p?x=2\tB\t1\t200\nfoo://h..example/?a=1&a=2\tC\t3\t404\n",
		"http://u:pw@h/?=&&=x&%zz=1\tD\t-5\nhttp://h/?a&a=&a=1#f\tD\t9\n",
		"http://[::1]/?s=1\tE\t1\nhttp://10.0.0.1/?s=2\tE\t2\nhttp://x.10.0.0.1/?s=3\tE\t3\n",
	} {
		f.Add(s)
	}
	// A host that learns v, and a path parameter v whose pages differ
	// (Archive's rules drop ";v=" too), and values of v in another
	// order.
	for _, shape := range [][2]string{{"http://a.test/doc;v=1", "http://a.test/doc;v=2"}, {"http://a.test/doc?v=1&v=2", "http://a.test/doc?v=2&v=1"}} {
		var b strings.Builder
		for i, c := range alternate(counterHost(), 3, shape[0], "sha1:DOC1", shape[1], "sha1:DOC2") {
			b.WriteString(c.URL + "\t" + c.Digest + "\t" + strconv.Itoa(i) + "\n")
		}
		f.Add(b.String())
	}
	f.Fuzz(func(t *testing.T, in string) {
		var caps []Capture
		for _, line := range strings.Split(in, "\n") {
			fs := strings.Split(line, "\t")
			if len(fs) < 2 {
				continue
			}
			c := Capture{URL: fs[0], Digest: fs[1]}
			if len(fs) > 2 {
				n := 0
				for _, r := range fs[2] {
					n = n*10 + int(r%10)
				}
				c.Time = time.Unix(int64(n)*3600, 0)
			}
			if len(fs) > 3 && len(fs[3]) > 0 {
				c.Status = int(fs[3][0]) + 150 // 200 for "2"
			}
			caps = append(caps, c)
		}
		if len(caps) > 400 {
			caps = caps[:400]
		}
		for _, p := range []canon.Profile{canon.Crawler, canon.Archive} {
			rules, _ := learnAll(t, Options{Profile: p}, caps)
			if _, err := p.WithRules(rules); err != nil {
				t.Fatalf("%v: rules %+v do not load: %v", p, rules, err)
			}
			again := slices.Clone(caps)
			slices.Reverse(again)
			again = append(again, caps...)
			other, _ := learnAll(t, Options{Profile: p, SpillBytes: 1 << 10, TempDir: t.TempDir()}, again)
			a, _ := json.Marshal(rules)
			b, _ := json.Marshal(other)
			if string(a) != string(b) {
				t.Fatalf("%v: %s, and %s reversed, spilled and twice", p, a, b)
			}
			checkNoMerge(t, -1, caps, rules, p)
		}
	})
}
