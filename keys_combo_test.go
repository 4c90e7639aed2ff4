package canon

import (
	"strings"
	"testing"
)

// The key steps combine with any profile NewProfile accepts, and every
// such profile must be idempotent: these tests hold the combinations to
// it over classes of inputs (and FuzzNormalize over random ones).

// comboBases are the bases the key steps are combined with: each way of
// reading a URL (the zero profile, the four founding profiles, WHATWG with
// and without DefaultScheme, and with the escape steps and TrimHostDots).
var comboBases = []Profile{{}, WebCapture, RFC3986, IRI, POWDER, WHATWG, MustProfile(ParseWHATWG, DefaultScheme),
	MustProfile(ParseWHATWG, UppercaseEscapes, DecodeUnreserved, TrimHostDots)}

// comboRules are the Rules the combinations are tried with: none, names
// of each list (a session name with any value, a tracking name and a
// tracking prefix), and host rules (a keep-only list on the seeds' host
// "h", a prefix on example.com, and an empty rule for "www.h", which
// StripWWW can turn into "h"), and a keep-only list of names written with
// escapes and "+" (read as a server reads them) with host rules keyed by
// an IPv4 address, an IPv6 address and an internationalized domain.
var comboRules = []Rules{{}, {TrackingParams: []string{"ref"}, TrackingPrefixes: []string{"pk_"}, SessionParams: []string{"sessid"}},
	{TrackingParams: []string{"ref"}, Hosts: map[string]Rules{
		"h":           {KeepParams: []string{"a", "k", "q"}, SessionParams: []string{"sessid"}},
		"example.com": {TrackingPrefixes: []string{"x"}},
		"www.h":       {SessionParams: []string{"w"}},
	}},
	{KeepParams: []string{"ids[]", "%69d", "a+b", "q"}, Hosts: map[string]Rules{
		"10.0.0.1":       {KeepParams: []string{"x%5B%5D"}},
		"[::1]":          {SessionParams: []string{"s"}},
		"résumé.example": {SessionParams: []string{"t"}, KeepParams: []string{"k"}},
	}}}

// profileFromBits makes a profile of the steps whose bits are set in
// steps (bit i is Step(i)) and the Rules comboRules[rules%len], or reports
// false when NewProfile refuses the combination. Fuzz targets use it to
// try every combination NewProfile accepts.
func profileFromBits(steps uint64, rules uint8) (Profile, bool) {
	var list []Step
	for s := Step(0); s < numSteps; s++ {
		if steps&(1<<s) != 0 {
			list = append(list, s)
		}
	}
	p, err := NewProfile(list...)
	if err != nil {
		return Profile{}, false
	}
	if p, err = p.WithRules(rulesUsedBy(p, comboRules[int(rules)%len(comboRules)])); err != nil {
		return Profile{}, false
	}
	return p, true
}

// rulesUsedBy returns the part of r that p uses, which WithRules accepts:
// without the lists of steps p lacks, and without the hosts whose rules
// are then empty or that no key of p has as its host.
func rulesUsedBy(p Profile, r Rules) Rules {
	lists := func(l Rules) Rules {
		if !p.Has(RemoveTrackingParams) {
			l.TrackingParams, l.TrackingPrefixes, l.KeepParams = nil, nil, nil
		}
		if !p.Has(RemoveSessionIDs) {
			l.SessionParams = nil
		}
		return l
	}
	out := lists(r)
	out.Hosts = nil
	for h, hr := range r.Hosts {
		hr = lists(hr)
		if _, err := p.WithRules(Rules{KeepParams: out.KeepParams, Hosts: map[string]Rules{h: hr}}); err == nil {
			if out.Hosts == nil {
				out.Hosts = map[string]Rules{}
			}
			out.Hosts[h] = hr
		}
	}
	return out
}

// checkKeyInvariants asserts what every key of every profile must be:
// a fixed point of its profile (Normalize of it is itself), written the
// same by AppendNormalized, and, when it has no authority, not a path
// that reads back as one.
func checkKeyInvariants(t *testing.T, in string, p Profile) {
	t.Helper()
	key, err := Normalize(in, p)
	if err != nil {
		checkError(t, "Normalize", in, key, err)
		return
	}
	if again, err := Normalize(key, p); again != key || err != nil {
		t.Fatalf("Normalize(%q, %v) = %q; Normalize of that = %q, %v: not idempotent", in, p, key, again, err)
	}
	if b, err := AppendNormalized([]byte("x"), in, p); string(b) != "x"+key || err != nil {
		t.Fatalf("AppendNormalized(%q, %v) = %q, %v, want %q", in, p, b, err, "x"+key)
	}
	if k := strings.IndexByte(key, ':'); k >= 0 && !strings.HasPrefix(key[k:], "://") && strings.HasPrefix(key[k+1:], "//") {
		t.Fatalf("Normalize(%q, %v) = %q: a path without an authority that starts with \"//\"", in, p, key)
	}
}

// sessionPathSegments are the segments of comboPaths: plain ones, dot
// segments in each spelling, index pages, a Windows drive letter, and
// segments that are or hold a session id (a path parameter, one glued to
// a dot segment, an ASP.NET ticket, a name of comboRules' SessionParams).
var sessionPathSegments = []string{
	"", "a", "B", ".", "..", "%2e", "%2E%2e", ".%2e", "index.php", "C|",
	";jsessionid=0123456789abcdef0123", "..;jsessionid=0123456789ab", "%2e%2e;jsessionid=0123456789ab",
	".;sid=abc123def456ghi789", "(S(tuucni55xfzj2xqx1mnqdg55))", "x;sessid=1",
}

// comboPaths returns every path of up to three sessionPathSegments, each
// after a "/", and those paths without their first "/" (a rootless path).
func comboPaths() []string {
	paths := []string{""}
	var grow func(prefix string, depth int)
	grow = func(prefix string, depth int) {
		if depth == 0 {
			return
		}
		for _, seg := range sessionPathSegments {
			p := prefix + "/" + seg
			paths = append(paths, p, strings.TrimPrefix(p, "/"))
			grow(p, depth-1)
		}
	}
	grow("", 3)
	return paths
}

// TestKeyStepPathClass runs the class of the defects a cut in the path
// made: a session id removed after CollapseSlashes ran ("/shop/;jsessionid
// =<id>/item" -> "/shop//item"), dot segments it exposed
// ("/a/..;jsessionid=<id>/b" -> "/a/../b"), a path without an authority
// that it made start with "//" ("foo:/(S(<id>))//evil.com" ->
// "foo://evil.com"), and an index page that removing a trailing slash
// exposed ("/index.php/" -> "/index.php"). Every path of comboPaths,
// after every kind of authority and none, under every predefined profile
// and every base with the path steps added, must give an idempotent key
// that never reads back with an authority it did not have.
func TestKeyStepPathClass(t *testing.T) {
	pathSteps := []Step{CollapseSlashes, LowercasePath, RemoveSessionIDs, RemoveDirectoryIndex, RemoveTrailingSlash}
	profiles := append([]Profile(nil), everyProfile...)
	for _, base := range comboBases {
		p, err := NewProfile(append(base.Steps(), pathSteps...)...)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.WithRules(rulesUsedBy(p, comboRules[1]))
		if err != nil {
			t.Fatal(err)
		}
		profiles = append(profiles, p, r)
	}
	prefixes := []string{"http://h", "foo://h", "foo:", "file://", "file://h", "HTTP://WWW.h.com:80"}
	paths := comboPaths()
	if testing.Short() {
		paths = paths[:len(paths)/8]
	}
	n := 0
	for _, prefix := range prefixes {
		for _, path := range paths {
			if prefix != "foo:" && path != "" && path[0] != '/' {
				continue
			}
			in := prefix + path + "?b=1&a=2"
			for _, p := range profiles {
				checkKeyInvariants(t, in, p)
				n++
			}
		}
	}
	t.Logf("%d inputs and profiles", n)
}

// TestKeyStepOpaquePath checks that no query step runs on a URL with an
// opaque path (a data: URL's document runs on past its "?"; mailto:'s
// header fields are not parameters of a resource): under every profile
// with query steps, the part after the "?" is what the base profile
// writes.
func TestKeyStepOpaquePath(t *testing.T) {
	queries := []string{"b=1&a=2", "utm_source=hello</p>", "a=1&&b=&", "", "X=Y&x=y", "sid=0123456789abcdef0123&ref=1",
		"r=http%3A%2F%2Fx%2541", "a=2&a=1"}
	opaque := []string{"data:text/plain,x", "mailto:a@b", "javascript:f()", "foo:", "urn:isbn:1"}
	queryAll := MustProfile(ParseWHATWG, DefaultScheme, DecodeQueryRepeatedly, RemoveSessionIDs, LowercaseQuery,
		RemoveTrackingParams, RemoveEmptyParams, RemoveEmptyQuery, SortQueryPairs)
	queryAll, err := queryAll.WithRules(comboRules[1])
	if err != nil {
		t.Fatal(err)
	}
	profiles := append(append([]Profile(nil), keyProfiles...), queryAll)
	for _, base := range comboBases {
		if base.Has(ParseWHATWG) {
			continue // queryAll
		}
		p, err := NewProfile(append(base.Steps(), RemoveSessionIDs, LowercaseQuery, RemoveTrackingParams,
			RemoveEmptyParams, RemoveEmptyQuery, SortQuery)...)
		if err != nil {
			t.Fatal(err)
		}
		if p, err = p.WithRules(comboRules[1]); err != nil {
			t.Fatal(err)
		}
		profiles = append(profiles, p)
	}
	for _, o := range opaque {
		for _, q := range queries {
			in := o + "?" + q
			for _, p := range profiles {
				key, err := Normalize(in, p)
				want, werr := Normalize(in, p.base())
				if (err == nil) != (werr == nil) {
					t.Errorf("Normalize(%q, %v): %v, but under its base profile: %v", in, p, err, werr)
					continue
				}
				if err != nil {
					continue
				}
				_, kq, _ := strings.Cut(key, "?")
				_, wq, _ := strings.Cut(want, "?")
				if !strings.Contains(key, "?") || kq != wq {
					t.Errorf("Normalize(%q, %v) = %q, want the query the base profile writes: %q", in, p, key, want)
				}
				checkKeyInvariants(t, in, p)
			}
		}
	}
}

// TestKeyStepPairs runs every pair of key steps, on every base, with and
// without Rules, over the seed inputs and the path class's prefixes: a
// step that undoes what an earlier one made true (RemoveTrailingSlash
// exposing an index page, HTTPSAsHTTP making a port the default, a
// lowercase letter composing under NFC, a key step cutting a key's end
// down to a space) shows up here.
func TestKeyStepPairs(t *testing.T) {
	inputs := []string{
		"http://wiki.planetoid.info/index.php/", "http://h/a /", "https://h:0080/", "https://h:80/",
		"http://h/J\u030c", "http://h/?J\u030c", "http://h/a ?", "http://h/a?b= &utm_source=x", "http://h/?b= &a=1",
		"https://user:pw@www.Example.com./A//index.html/?b=2&a=1&a=&utm_x=1&sid=0123456789abcdef0123#f",
		"http://h/a%2541%2Fb/..%2F?q=%26%3D", "file:////C|/x", "file:///C%7C/../x", "http://www.xn--rsum-bpad.example/",
		"http://www.résumé.example/a", "ftp://www.co.uk:21/", "http://h/(S(tuucni55xfzj2xqx1mnqdg55))//e/x",
	}
	seeds := seedInputs(t)
	stride := 7
	if testing.Short() {
		stride = 40
	}
	for i := 0; i < len(seeds); i += stride {
		inputs = append(inputs, seeds[i])
	}
	n := 0
	for a := firstKeyStep; a < keyStepsEnd; a++ {
		for b := a; b < keyStepsEnd; b++ {
			for _, base := range comboBases {
				for ri := range comboRules {
					p, ok := profileFromBits(base.plan().steps|1<<a|1<<b, uint8(ri))
					if !ok {
						continue
					}
					for _, in := range inputs {
						checkKeyInvariants(t, in, p)
						n++
					}
				}
			}
		}
	}
	t.Logf("%d inputs and profiles", n)
}

// checkKeyStepsNoFalseMerge is checkCrawlerNoFalseMerge for any profile
// of ParseWHATWG and key steps: from the key of x it makes URLs that can
// name other resources, each in a way that names the steps that merge it
// (none, for most), and requires each variant that no step of p merges to
// get a key of its own.
func checkKeyStepsNoFalseMerge(t testing.TB, in, key string, p Profile) {
	t.Helper()
	if !p.Has(ParseWHATWG) {
		return
	}
	if h := strings.IndexByte(key, '#'); h >= 0 {
		return // the fragment would need variants of its own
	}
	q := strings.IndexByte(key, '?')
	end := len(key)
	if q >= 0 {
		end = q
	}
	// The authority's "//" comes before the query ("a:?://" has none).
	i := strings.Index(key[:end], "://")
	if i < 0 || strings.IndexByte(key[:i], '/') >= 0 {
		return
	}
	pathStart := end
	if j := strings.IndexByte(key[i+3:end], '/'); j >= 0 {
		pathStart = i + 3 + j
	}
	type variant struct {
		v       string
		mergers uint64 // the steps that merge it with key
	}
	var vs []variant
	add := func(v string, mergers ...Step) {
		var m uint64
		for _, s := range mergers {
			m |= 1 << s
		}
		vs = append(vs, variant{v, m})
	}
	inTriplet := func(s string, k int) bool {
		return k >= 1 && s[k-1] == '%' || k >= 2 && s[k-2] == '%'
	}
	flipped := 0
	for k := pathStart; k < end && flipped < 2; k++ {
		if isASCIILetter(key[k]) && !inTriplet(key, k) {
			add(key[:k]+string(key[k]^0x20)+key[k+1:], LowercasePath)
			flipped++
		}
	}
	if pathStart < end {
		if s := strings.IndexByte(key[pathStart+1:end], '/'); s >= 0 {
			k := pathStart + 1 + s
			add(key[:k]+"%2F"+key[k+1:], DecodePathRepeatedly)
			add(key[:k]+"//"+key[k+1:], CollapseSlashes)
		}
	}
	if q >= 0 {
		query := key[q+1:]
		if a := strings.IndexByte(query, '&'); a >= 0 {
			add(key[:q+1+a]+"%26"+key[q+2+a:], DecodeQueryRepeatedly)
			first, rest := query[:a], query[a+1:]
			second := rest
			if b := strings.IndexByte(rest, '&'); b >= 0 {
				second = rest[:b]
			}
			n1, _, _ := strings.Cut(first, "=")
			n2, _, _ := strings.Cut(second, "=")
			if n1 == n2 && first != second {
				add(key[:q+1]+second+"&"+first+query[len(first)+1+len(second):], SortQueryPairs)
			}
		}
		if e := strings.IndexByte(query, '='); e >= 0 {
			add(key[:q+1+e]+"%3D"+key[q+2+e:], DecodeQueryRepeatedly)
			v := q + 1 + e + 1
			add(key[:v] + "z" + key[v:]) // no step merges values
		}
		flipped = 0
		for k := q + 1; k < len(key) && flipped < 2; k++ {
			if isASCIILetter(key[k]) && !inTriplet(key, k) {
				add(key[:k]+string(key[k]^0x20)+key[k+1:], LowercaseQuery)
				flipped++
			}
		}
	}
	for _, v := range vs {
		if p.plan().steps&v.mergers != 0 {
			continue
		}
		got, err := Normalize(v.v, p)
		if err != nil {
			continue // a variant the standard rejects says nothing
		}
		if got == key {
			t.Fatalf("Normalize(%q, %v) = %q = the key of %q (from %q): a merge no step of the profile claims", v.v, p, got, key, in)
		}
	}
}

// TestKeyStepNoFalseMergeCombinations runs checkKeyStepsNoFalseMerge
// over the seed inputs under ParseWHATWG with each key step alone and
// with all of those that merge no kind of variant it makes.
func TestKeyStepNoFalseMergeCombinations(t *testing.T) {
	seeds := append(seedInputs(t), "http://h/a/b/c?k=v&k=w&x=1", "https://h/A/b?Q=1&q=2")
	stride := 3
	if testing.Short() {
		stride = 20
	}
	n := 0
	for s := firstKeyStep; s < keyStepsEnd; s++ {
		for ri := range comboRules {
			p, ok := profileFromBits(1<<ParseWHATWG|1<<s, uint8(ri))
			if !ok {
				t.Fatalf("ParseWHATWG + %v refused", s)
			}
			for i := 0; i < len(seeds); i += stride {
				if key, err := Normalize(seeds[i], p); err == nil {
					checkKeyStepsNoFalseMerge(t, seeds[i], key, p)
					n++
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d keys checked", n)
	}
}

// seedProfileBits gives the i-th seed of a fuzz target a profile to
// start from: the predefined profiles in turn, and some with extra key
// steps, so that the corpus starts with combinations NewProfile accepts.
func seedProfileBits(i int) uint64 {
	extra := []uint64{0, 1<<RemoveDirectoryIndex | 1<<RemoveTrailingSlash, 1 << HTTPSAsHTTP, 1<<LowercasePath | 1<<LowercaseQuery,
		1<<StripWWW | 1<<RemoveUserinfo, 1<<CollapseSlashes | 1<<RemoveSessionIDs}
	base := everyProfile[i%len(everyProfile)].plan().steps
	return base | extra[i/len(everyProfile)%len(extra)]
}

// TestComponentFacts holds componentFacts to plain loops over every
// string of up to eight bytes of "/", "A", "a", "%", ";" and a non-ASCII
// byte.
func TestComponentFacts(t *testing.T) {
	// The bytes each question turns on, and their neighbours in the
	// byte order ("@" and "[" around the capitals, DEL and 0x80 around
	// non-ASCII): every string of up to four of them, after 0 to 12
	// bytes of padding and before some, so that each lands on every
	// place of an eight-byte word and across two.
	alphabet := []byte{'/', 'A', 'Z', '@', '[', 'a', '%', ';', '(', 0x7F, 0x80, 0xC3, 0xFF}
	k := keyPass{pl: Archive.plan()}
	var b []byte
	check := func(s []byte) {
		var want facts
		want.valid = true
		for i, c := range s {
			want.upper = want.upper || c >= 'A' && c <= 'Z'
			want.pct = want.pct || c == '%'
			want.param = want.param || c == ';' || c == '('
			want.nonASCII = want.nonASCII || c >= 0x80
			want.slashes = want.slashes || i > 0 && c == '/' && s[i-1] == '/'
		}
		if got := k.componentFacts(s); got != want {
			t.Fatalf("componentFacts(%q) = %+v, want %+v", s, got, want)
		}
	}
	pad := []byte("xxxxxxxxxxxxxxxxxxxx")
	var walk func(n int)
	walk = func(n int) {
		for p := 0; p <= 12; p++ {
			s := append(append(append([]byte(nil), pad[:p]...), b...), pad[:(p*7)%9]...)
			check(s)
		}
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			b = append(b, c)
			walk(n - 1)
			b = b[:len(b)-1]
		}
	}
	walk(4)
}
