package canon

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// TestRulesKeepParams checks a keep-only list: RemoveTrackingParams keeps
// the named parameters and drops every other, a tracking name among them
// too; RemoveSessionIDs still drops a session id it names.
func TestRulesKeepParams(t *testing.T) {
	p, err := Crawler.WithRules(Rules{KeepParams: []string{"ID", "page", "utm_source", "jsessionid"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"http://h/?id=7&page=2&sort=asc", "http://h/?id=7&page=2"},
		{"http://h/?sort=asc&q=x", "http://h/"},
		{"http://h/?Id=7&utm_source=x&utm_medium=y", "http://h/?Id=7&utm_source=x"},
		{"http://h/?id=7&&=1&page", "http://h/?id=7&page"},
		{"http://h/?id=7&jsessionid=0123456789abcdef0123456789abcdef", "http://h/?id=7"},
		{"http://h/?%69d=7&x=1", "http://h/?id=7"},
	} {
		if got, err := Normalize(c.in, p); got != c.want || err != nil {
			t.Errorf("Normalize(%q, %v) = %q, %v, want %q", c.in, p, got, err, c.want)
		}
	}
}

// TestKeepParamsReadsNames checks, as a class, that a keep-only list
// decides on a name as a server reads it: for each listed name (written
// plainly, with escapes, with "+"), every spelling of a name a server
// reads alike (each byte as written, "%XX" or "%xx", a space as "+" or
// "%20") is kept, at the top level and in a host's rules, in every
// profile with RemoveTrackingParams: two URLs that differ in its value
// keep two keys. A name no reading of which is listed is still dropped.
func TestKeepParamsReadsNames(t *testing.T) {
	profiles := []Profile{Crawler,
		mustProfile(append(WHATWG.Steps(), RemoveTrackingParams)...),
		mustProfile(append(Archive.Steps(), RemoveTrackingParams)...),
		mustProfile(append(Aggressive.Steps(), RemoveTrackingParams)...)}
	spellings := func(read string) []string {
		out := []string{""}
		for i := 0; i < len(read); i++ {
			c := read[i]
			forms := []string{fmt.Sprintf("%%%02X", c), fmt.Sprintf("%%%02x", c)}
			switch {
			case c == ' ':
				forms = append(forms, "+")
			case c != '%' && c != '+' && c != '&' && c != '=' && c != '#':
				forms = append(forms, read[i:i+1])
			}
			var next []string
			for _, o := range out {
				for _, f := range forms {
					next = append(next, o+f)
				}
			}
			out = next
		}
		return out
	}
	checked := 0
	for _, listed := range []struct{ name, read string }{
		{"id", "id"}, {"ids[]", "ids[]"}, {"ids%5B%5D", "ids[]"}, {"a+b", "a b"}, {"a%20b", "a b"},
		{"%69d", "id"}, {"q.x", "q.x"}, {"%C3%BC", "\xc3\xbc"},
	} {
		for _, r := range []Rules{{KeepParams: []string{listed.name}},
			{Hosts: map[string]Rules{"h.example": {KeepParams: []string{listed.name}}}}} {
			for _, base := range profiles {
				p, err := base.WithRules(r)
				if err != nil {
					t.Fatal(err)
				}
				for _, sp := range spellings(listed.read) {
					if !utf8.ValidString(sp) {
						continue // half a character written, half escaped: an error, not a name
					}
					checked++
					a, errA := Normalize("http://h.example/p?"+sp+"=1&zz=1", p)
					b, errB := Normalize("http://h.example/p?"+sp+"=2&zz=1", p)
					if errA != nil || errB != nil || a == b {
						t.Errorf("KeepParams %q in %v: %q=1 and =2 keyed %q, %q (%v, %v): the name is dropped", listed.name, p, sp, a, b, errA, errB)
					}
					if strings.Contains(a, "zz") {
						t.Errorf("KeepParams %q in %v: %q keeps zz, which is not listed", listed.name, p, a)
					}
				}
			}
		}
	}
	if checked < 4500 {
		t.Errorf("checked %d spellings, want the whole class", checked)
	}
}

// ruleHostDomains are the domains of the host-rule class test: nested
// domains, an IPv4 address and an IPv6 one.
var ruleHostDomains = []string{"example.com", "a.example.com", "b.a.example.com", "com.evil", "c", "10.0.0.1", "[::1]"}

// matchDomainSlow is the label-boundary rule from Rules.Hosts' doc,
// written plainly: the longest domain that is the host or of which the
// host is a subdomain, an address only itself.
func matchDomainSlow(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	best := ""
	for _, d := range ruleHostDomains {
		ip := strings.HasPrefix(d, "[") || strings.Trim(d, "0123456789.") == ""
		if host == d || !ip && strings.HasSuffix(host, "."+d) {
			if len(d) > len(best) {
				best = d
			}
		}
	}
	return best
}

// TestRulesHostsMatchClass builds hosts of up to four labels from the
// labels of the rules' domains and their near misses, and checks each
// key against matchDomainSlow: the top-level rule always applies, and
// exactly the rule of the matched domain (each drops a parameter of its
// own). Explain names the domain.
func TestRulesHostsMatchClass(t *testing.T) {
	r := Rules{TrackingParams: []string{"top"}, Hosts: map[string]Rules{}}
	param := func(d string) string {
		return "p" + strings.NewReplacer(".", "_", "[", "", "]", "", ":", "x").Replace(d)
	}
	for _, d := range ruleHostDomains {
		r.Hosts[d] = Rules{TrackingParams: []string{param(d)}}
	}
	p, err := Crawler.WithRules(r)
	if err != nil {
		t.Fatal(err)
	}
	var query []string
	for _, d := range ruleHostDomains {
		query = append(query, param(d)+"=1")
	}
	query = append(query, "top=1", "z=1")
	q := strings.Join(query, "&")

	labels := []string{"example", "com", "a", "b", "c", "evil", "notexample", "xcom", "EXAMPLE", "10", "0", "1"}
	var hosts []string
	var build func(prefix string, n int)
	build = func(prefix string, n int) {
		if prefix != "" {
			hosts = append(hosts, prefix, prefix+".")
		}
		if n == 0 {
			return
		}
		for _, l := range labels {
			if prefix == "" {
				build(l, n-1)
			} else {
				build(prefix+"."+l, n-1)
			}
		}
	}
	build("", 4)
	hosts = append(hosts, "[::1]", "[::2]", "10.0.0.1", "0.10.0.0.1", "evil.10.0.0.1", "c.10.0.0.1", "10.0.0.1.c")
	n, matched := 0, 0
	// The host of a special scheme is parsed (a name that ends in a
	// number is an IPv4 address or an error); a non-special scheme's host
	// is opaque, so "evil.10.0.0.1" is a name ending in an address's
	// labels, which the address's rule must not match.
	var inputs []string
	for _, h := range hosts {
		inputs = append(inputs, "http://"+h+"/?"+q, "foo://"+h+"/?"+q)
	}
	for _, in := range inputs {
		key, err := Normalize(in, p)
		if err != nil {
			continue // a host the standard rejects ("10.0.0.1.c")
		}
		n++
		wantDomain := matchDomainSlow(hostOf(key))
		var keep []string
		for _, d := range ruleHostDomains {
			if d != wantDomain {
				keep = append(keep, param(d)+"=1")
			}
		}
		keep = append(keep, "z=1")
		slices.Sort(keep) // SortQuery
		want := key[:strings.IndexByte(key, '?')+1] + strings.Join(keep, "&")
		if key != want {
			t.Fatalf("Normalize(%q, %v) = %q, want %q (rules of %q)", in, p, key, want, wantDomain)
		}
		if again, _ := Normalize(key, p); again != key {
			t.Fatalf("Normalize(%q) = %q, then %q", in, key, again)
		}
		if wantDomain != "" {
			matched++
			changes, err := Explain(in, p)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, c := range changes {
				if c.Step == RemoveTrackingParams {
					found = c.Host == wantDomain
					if !found {
						t.Fatalf("Explain(%q): RemoveTrackingParams's Host = %q, want %q", in, c.Host, wantDomain)
					}
				}
			}
			if !found {
				t.Fatalf("Explain(%q) = %+v: no RemoveTrackingParams change", in, changes)
			}
		}
	}
	if n < 10000 || matched < 1000 {
		t.Fatalf("only %d hosts checked, %d matched a domain", n, matched)
	}
}

// TestRulesHostsMerge checks that a host's lists apply together with the
// top-level ones, and a host's KeepParams too.
func TestRulesHostsMerge(t *testing.T) {
	p, err := Crawler.WithRules(Rules{
		TrackingParams: []string{"ref"}, SessionParams: []string{"sessid"},
		Hosts: map[string]Rules{
			"shop.example": {KeepParams: []string{"item"}},
			"blog.example": {TrackingParams: []string{"src"}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"http://www.shop.example/?item=1&ref=x&color=red", "http://www.shop.example/?item=1"},
		{"http://blog.example/p?src=x&ref=y&page=2", "http://blog.example/p?page=2"},
		{"http://blog.example/p;sessid=7?x=1", "http://blog.example/p?x=1"},
		{"http://other.example/?src=x&ref=y", "http://other.example/?src=x"},
	} {
		if got, err := Normalize(c.in, p); got != c.want || err != nil {
			t.Errorf("Normalize(%q, %v) = %q, %v, want %q", c.in, p, got, err, c.want)
		}
	}
}

// TestRulesHostsCompare checks that profiles with host rules are == for
// the same rules in any order and case, different otherwise, and that
// bad keys and nested Hosts are refused.
func TestRulesHostsCompare(t *testing.T) {
	a, err := Crawler.WithRules(Rules{Hosts: map[string]Rules{"Example.COM.": {TrackingParams: []string{"B", "a"}}, "x.org": {SessionParams: []string{"s"}}}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Crawler.WithRules(Rules{Hosts: map[string]Rules{"x.org": {SessionParams: []string{"S"}}, "example.com": {TrackingParams: []string{"a", "b", "a"}}}})
	c, _ := Crawler.WithRules(Rules{Hosts: map[string]Rules{"example.com": {TrackingParams: []string{"a", "b"}}}})
	d, _ := Crawler.WithRules(Rules{Hosts: map[string]Rules{"example.com": {SessionParams: []string{"a", "b"}}}})
	e, _ := Crawler.WithRules(Rules{Hosts: map[string]Rules{"example.com": {TrackingParams: []string{"a"}}, "EXAMPLE.com": {TrackingParams: []string{"b"}}}})
	if a != b || a.KeyVersion() != b.KeyVersion() || a.String() != b.String() {
		t.Errorf("same rules differ: %v, %v", a, b)
	}
	if a == c || c == d || a.KeyVersion() == c.KeyVersion() || c.KeyVersion() == d.KeyVersion() {
		t.Errorf("different rules are one: %v, %v, %v", a, c, d)
	}
	if c != e {
		t.Errorf("one domain in two cases is not merged: %v, %v", c, e)
	}
	if want := "[host=example.com{tracking=a,b} host=x.org{session=s}]"; !strings.HasSuffix(a.String(), want) {
		t.Errorf("String() = %q, want the suffix %q", a.String(), want)
	}
	idn, err := Crawler.WithRules(Rules{Hosts: map[string]Rules{"bücher.example": {SessionParams: []string{"s"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := idn.Rules().Hosts["xn--bcher-kva.example"]; !ok {
		t.Errorf("an IDN domain is not read as its A-labels: %+v", idn.Rules())
	}
	for _, bad := range []Rules{
		{Hosts: map[string]Rules{"": {}}},
		{Hosts: map[string]Rules{".": {}}},
		{Hosts: map[string]Rules{"a..b": {}}},
		{Hosts: map[string]Rules{"a/b": {}}},
		{Hosts: map[string]Rules{"a:80": {}}},
		{Hosts: map[string]Rules{"[zz]": {}}},
		{Hosts: map[string]Rules{"a.b": {TrackingParams: []string{"x=y"}}}},
		{Hosts: map[string]Rules{"a.b": {Hosts: map[string]Rules{"c.a.b": {}}}}},
	} {
		if p, err := Crawler.WithRules(bad); err == nil {
			t.Errorf("WithRules(%+v) = %v, want an error", bad, p)
		} else if !strings.HasPrefix(err.Error(), "canon: Rules.Hosts[") {
			t.Errorf("WithRules(%+v): %v: the error does not say where", bad, err)
		}
	}
}

// TestRulesJSON checks that Rules round-trip through encoding/json: the
// profile rebuilt from the JSON of its Rules is the profile.
func TestRulesJSON(t *testing.T) {
	for _, r := range []Rules{
		{},
		{TrackingParams: []string{"ref"}},
		{TrackingPrefixes: []string{"pk_"}, SessionParams: []string{"sessid"}},
		{SessionParams: []string{"sessid"}, KeepParams: []string{"id"}},
		{Hosts: map[string]Rules{"example.com": {KeepParams: []string{"id"}}, "x.example.com": {SessionParams: []string{"x"}}, "[::1]": {SessionParams: []string{"s"}}}},
		{TrackingParams: []string{"B", "a"}, Hosts: map[string]Rules{"Bücher.example": {TrackingPrefixes: []string{"x_"}}}},
	} {
		p, err := Crawler.WithRules(r)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(p.Rules())
		if err != nil {
			t.Fatal(err)
		}
		var back Rules
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		q, err := Crawler.WithRules(back)
		if err != nil || q != p {
			t.Errorf("rules %+v: JSON %s gives %v, %v, want %v", r, data, q, err, p)
		}
		if !reflect.DeepEqual(back, p.Rules()) {
			t.Errorf("JSON %s decodes to %+v, Rules() is %+v", data, back, p.Rules())
		}
	}
	var r Rules
	in := `{"TrackingPrefixes": ["pk_"], "Hosts": {"example.com": {"KeepParams": ["id", "page"]}}}`
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	p, err := Crawler.WithRules(r)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Normalize("https://www.example.com/?page=2&id=7&sort=x&pk_c=1", p); got != "https://www.example.com/?id=7&page=2" {
		t.Errorf("rules from %s: key %q", in, got)
	}
}

// TestRulesDigestText pins the text the KeyVersion digest of Rules is
// made of: rules without KeepParams and Hosts keep the digest they had
// before those existed, and the new lists change it.
func TestRulesDigestText(t *testing.T) {
	for _, c := range []struct {
		r    Rules
		want string
	}{
		{Rules{TrackingParams: []string{"Ref"}, SessionParams: []string{"s"}}, "tracking ref\nprefixes\nsession s\n"},
		{Rules{KeepParams: []string{"id"}}, "tracking\nprefixes\nsession\nkeep-read id\n"},
		{Rules{Hosts: map[string]Rules{"b.example": {KeepParams: []string{"x"}}, "a.example": {}}},
			"tracking\nprefixes\nsession\nhost a.example\ntracking\nprefixes\nsession\nhost b.example\ntracking\nprefixes\nsession\nkeep-read x\n"},
	} {
		rs, err := internRules(c.r)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		rs.writeDigestText(&b)
		if b.String() != c.want {
			t.Errorf("digest text of %+v = %q, want %q", c.r, b.String(), c.want)
		}
	}
}

// TestStrippableMemo holds StripWWW's memo of Public Suffix List answers
// to strippable itself: over hosts built from labels that are and are not
// public suffixes, in both cases, read many times over from goroutines
// at once (more hosts than the memo has slots, so that entries are
// replaced while others read them), every answer is strippable's.
func TestStrippableMemo(t *testing.T) {
	labels := []string{"example", "co", "uk", "com", "github", "io", "EXAMPLE", "blogspot", "ck", "www", "x1", "jp", "kyoto"}
	var hosts []string
	for _, a := range labels {
		for _, b := range labels {
			hosts = append(hosts, a+"."+b, a+"."+b+".")
			for _, c := range labels {
				hosts = append(hosts, a+"."+b+"."+c)
			}
		}
	}
	hosts = append(hosts, "", ".", "a..b", strings.Repeat("a", 61)+".com", strings.Repeat("a", 62)+".com", "résumé.example")
	if len(hosts) <= len(strippableSlots) {
		t.Fatalf("only %d hosts for %d slots", len(hosts), len(strippableSlots))
	}
	want := make([]bool, len(hosts))
	for i, h := range hosts {
		want[i] = strippable(h)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < 3; r++ {
				for i := range hosts {
					j := (i*7 + g*131 + r) % len(hosts)
					if got := strippableMemo(hosts[j]); got != want[j] {
						select {
						case errs <- fmt.Sprintf("strippableMemo(%q) = %v, strippable says %v", hosts[j], got, want[j]):
						default:
						}
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestRulesForHostEmptyASCII checks a Unicode host whose A-labels are
// empty (IDNA maps "ｘｎ--" to nothing) against Rules with Hosts: no
// host's rules, and no panic (FuzzNormalize found an index of the empty
// host).
func TestRulesForHostEmptyASCII(t *testing.T) {
	rs, err := internRules(Rules{Hosts: map[string]Rules{"10.0.0.1": {KeepParams: []string{"x"}}, "example.com": {}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"ｘｎ--", "ｘｎ--.", "\u00ad", "."} {
		if got := rs.forHost(h); got != rs {
			t.Errorf("forHost(%q) = a host's rules, want the top-level ones", h)
		}
	}
}

// TestWithRulesUnused checks the class of rules a profile would never
// use: WithRules refuses each list under every profile without the step
// that reads it, with an error wrapping ErrUnusedRules that names the
// field and the step, and accepts it under every profile with that step,
// where the list then changes a key (so an accepted rule is one that
// fires). The same at the top level and for a host.
func TestWithRulesUnused(t *testing.T) {
	profiles := append([]Profile(nil), everyProfile...)
	for _, base := range comboBases {
		profiles = append(profiles, MustProfile(append(base.Steps(), RemoveTrackingParams, RemoveSessionIDs)...))
	}
	// Each list, with a URL whose key it changes: the parameter it
	// names is dropped, or (KeepParams) another one is.
	lists := []struct {
		r    Rules
		step Step
		in   string
	}{
		{Rules{TrackingParams: []string{"zz"}}, RemoveTrackingParams, "http://example.com/p?a=1&zz=2"},
		{Rules{TrackingPrefixes: []string{"zz_"}}, RemoveTrackingParams, "http://example.com/p?a=1&zz_b=2"},
		{Rules{KeepParams: []string{"a"}}, RemoveTrackingParams, "http://example.com/p?a=1&zz=2"},
		{Rules{SessionParams: []string{"zz"}}, RemoveSessionIDs, "http://example.com/p?a=1&zz=2"},
	}
	n := 0
	for _, p := range profiles {
		for _, l := range lists {
			for _, r := range []Rules{l.r, {Hosts: map[string]Rules{"example.com": l.r}}} {
				q, err := p.WithRules(r)
				if !p.Has(l.step) {
					if !errors.Is(err, ErrUnusedRules) || !strings.Contains(err.Error(), l.step.String()) ||
						!strings.Contains(err.Error(), "Params") && !strings.Contains(err.Error(), "Prefixes") {
						t.Errorf("%v.WithRules(%+v) = %v, want an ErrUnusedRules naming the field and %v", p, r, err, l.step)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%v.WithRules(%+v): %v", p, r, err)
				}
				without, err1 := Normalize(l.in, p)
				with, err2 := Normalize(l.in, q)
				if err1 != nil || err2 != nil || with == without {
					t.Errorf("%v.WithRules(%+v) accepted, and Normalize(%q) is %q (%v) with it, %q (%v) without: a rule that does not fire",
						p, r, l.in, with, err2, without, err1)
				}
				n++
			}
		}
	}
	// A keep-only list and tracking names for the same hosts: the
	// tracking names are never read.
	for _, r := range []Rules{
		{KeepParams: []string{"a"}, TrackingParams: []string{"b"}},
		{KeepParams: []string{"a"}, TrackingPrefixes: []string{"b"}},
		{KeepParams: []string{"a"}, Hosts: map[string]Rules{"example.com": {TrackingParams: []string{"b"}}}},
		{Hosts: map[string]Rules{"example.com": {KeepParams: []string{"a"}, TrackingPrefixes: []string{"b"}}}},
		{Hosts: map[string]Rules{"example.com": {}}},
	} {
		if _, err := Crawler.WithRules(r); !errors.Is(err, ErrUnusedRules) {
			t.Errorf("Crawler.WithRules(%+v) = %v, want ErrUnusedRules", r, err)
		}
	}
	// Tracking names at the top level and a keep-only list for one host
	// are both read: the names on every other host.
	if _, err := Crawler.WithRules(Rules{TrackingParams: []string{"b"}, Hosts: map[string]Rules{"example.com": {KeepParams: []string{"a"}}}}); err != nil {
		t.Errorf("top-level TrackingParams with a host's KeepParams: %v", err)
	}
	// A malformed rule is not an unused one.
	if _, err := WHATWG.WithRules(Rules{TrackingParams: []string{"a=b"}}); err == nil || errors.Is(err, ErrUnusedRules) {
		t.Errorf("WHATWG.WithRules of a malformed name: %v, want the name's error first", err)
	}
	t.Logf("%d accepted lists fired", n)
}

// TestWithRulesHostKeys checks host keys against what the key writes: a
// host's rules are accepted exactly when they fire on the URL of that
// host ("http://HOST/?zz=1" loses zz), under profiles that rewrite hosts
// (StripWWW, StripWWWN, the WHATWG host parser's IPv4 and IPv6
// serializations, HostToUnicode), read through rules built without the
// check.
func TestWithRulesHostKeys(t *testing.T) {
	hosts := []string{"example.com", "www.example.com", "www1.example.com", "www.www.example.com", "WWW.Example.COM.",
		"www.gov.uk", "www.co.uk", "wwwx.example.com", "0x7f.1", "127.0.0.1", "1.2.3", "[::1]", "[0:0::1]", "[::FFFF:1.2.3.4]",
		"bücher.example", "xn--bcher-kva.example", "www.bücher.example", "a_b.example", "xn--a.example", "h", "www.h"}
	profiles := []Profile{Crawler, Archive, Aggressive}
	for _, base := range []Profile{RFC3986, IRI, WebCapture, WHATWG} {
		for _, extra := range [][]Step{nil, {StripWWW}, {StripWWWN}} {
			if p, err := NewProfile(slices.Concat(base.Steps(), extra, []Step{RemoveSessionIDs})...); err == nil {
				profiles = append(profiles, p)
			}
		}
	}
	accepted, refused := 0, 0
	for _, p := range profiles {
		for _, h := range hosts {
			r := Rules{Hosts: map[string]Rules{h: {SessionParams: []string{"zz"}}}}
			rs, err := internRules(r)
			if err != nil {
				t.Fatalf("internRules(%+v): %v", r, err)
			}
			unchecked := profileOf(p.plan().steps, rs)
			in := "http://" + h + "/?zz=1"
			key, kerr := Normalize(in, unchecked)
			fires := kerr == nil && !strings.Contains(key, "zz=")
			_, err = p.WithRules(r)
			switch {
			case err == nil && !fires:
				t.Errorf("%v.WithRules(host %q) accepted, but Normalize(%q) = %q, %v: the rule does not fire", p, h, in, key, kerr)
			case err != nil && fires:
				t.Errorf("%v.WithRules(host %q) = %v, but the rule fires: Normalize(%q) = %q", p, h, err, in, key)
			case err != nil && !errors.Is(err, ErrUnusedRules):
				t.Errorf("%v.WithRules(host %q) = %v, want ErrUnusedRules", p, h, err)
			case err != nil:
				refused++
			default:
				accepted++
			}
		}
	}
	if accepted == 0 || refused == 0 {
		t.Errorf("%d host rules accepted, %d refused: the class has both", accepted, refused)
	}
	t.Logf("%d accepted, %d refused", accepted, refused)
}
