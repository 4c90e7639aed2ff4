package canon

import (
	"errors"
	"strings"
	"testing"
)

// keyProfiles are the predefined profiles with key steps.
var keyProfiles = []Profile{Crawler, Archive, Aggressive}

// everyProfile is every predefined profile.
var everyProfile = append(append(append([]Profile(nil), allProfiles...), keyProfiles...), SafeBrowsing)

// TestKeyVectors runs testdata/keys.json: the key steps and the Crawler,
// Archive and Aggressive profiles, with hand-written expectations.
func TestKeyVectors(t *testing.T) { runVectors(t, "keys.json") }

// TestKeyStepDocExamples checks the before -> after example in the doc
// comment of every key step, and of ReadAsSURT, read from steps.go
// (stepDocs), under WHATWG plus that step: the documentation cannot
// drift from the code.
func TestKeyStepDocExamples(t *testing.T) {
	docs, _, _, _, err := stepDocs()
	if err != nil {
		t.Fatal(err)
	}
	examples := map[Step]string{}
	for _, sd := range docs {
		examples[sd.step] = sd.example
	}
	steps := []Step{ReadAsSURT}
	for s := firstKeyStep; s < keyStepsEnd; s++ {
		steps = append(steps, s)
	}
	for _, s := range steps {
		ex, ok := examples[s]
		if !ok {
			t.Errorf("step %v has no before -> after example in its doc comment", s)
			continue
		}
		before, after, _ := strings.Cut(ex, " -> ")
		p := MustProfile(ParseWHATWG, s)
		t.Run(s.String(), func(t *testing.T) {
			if got, err := Normalize(before, p); got != after || err != nil {
				t.Errorf("Normalize(%q, WHATWG+%v) = %q, %v, want %q", before, s, got, err, after)
			}
			// The step does the work: WHATWG alone gives another key.
			if got, _ := Normalize(before, WHATWG); got == after {
				t.Errorf("Normalize(%q, WHATWG) = %q already: the example does not show %v", before, got, s)
			}
		})
	}
}

// TestCrawlerNoFalseMerge checks pairs of URLs that can name different
// resources and that no step of Crawler claims to merge: path case, a
// reserved character and its escape, different values, "www.co.uk" and
// "co.uk", a session-like parameter whose value is no id, the order of
// values of one name, and the scheme.
func TestCrawlerNoFalseMerge(t *testing.T) {
	pairs := [][2]string{
		{"http://h/A", "http://h/a"},
		{"http://h/a/b", "http://h/a%2Fb"},
		{"http://h/?a=1&b=2", "http://h/?a=1%26b=2"},
		{"http://h/?a=%3D", "http://h/?a=="},
		{"http://h/?a=1", "http://h/?a=2"},
		{"http://h/?a=1&a=2", "http://h/?a=2&a=1"},
		{"http://h/?q=A", "http://h/?q=a"},
		{"http://www.co.uk/", "http://co.uk/"},
		{"http://www.example.com/", "http://example.com/"},
		{"https://h/", "http://h/"},
		{"http://h/a/", "http://h/a"},
		{"http://h/?sid=3", "http://h/"},
		{"http://h/?side=abcdefabcdefabcdefabcdefabcdefab", "http://h/"},
		{"http://h/?ref=x", "http://h/"},
		{"http://h/a/index.html", "http://h/a/"},
		{"http://h//a", "http://h/a"},
		{"http://u@h/", "http://h/"},
		{"http://h/?a", "http://h/?a="},
		{"http://h/?a+b", "http://h/?a%20b"},
	}
	for _, pr := range pairs {
		a, errA := Normalize(pr[0], Crawler)
		b, errB := Normalize(pr[1], Crawler)
		if errA != nil || errB != nil {
			t.Errorf("Normalize(%q / %q, Crawler): %v, %v", pr[0], pr[1], errA, errB)
			continue
		}
		if a == b {
			t.Errorf("Normalize(%q, Crawler) = Normalize(%q, Crawler) = %q: a false merge", pr[0], pr[1], a)
		}
	}
}

// TestRules checks user rules: they act through their steps, compare as
// sets, print after the steps, and refuse names that cannot be names.
func TestRules(t *testing.T) {
	p, err := Crawler.WithRules(Rules{TrackingParams: []string{"Ref"}, TrackingPrefixes: []string{"pk_"}, SessionParams: []string{"sessid"}})
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"http://h/?ref=x&a=1":          "http://h/?a=1",
		"http://h/?pk_campaign=x&a=1":  "http://h/?a=1",
		"http://h/?sessid=7&a=1":       "http://h/?a=1",
		"http://h/a;sessid=7":          "http://h/a",
		"http://h/?referrer=x":         "http://h/?referrer=x",
		"http://h/?utm_source=x&pk=1":  "http://h/?pk=1",
		"http://h/?REF=x&a=1#fragment": "http://h/?a=1",
	} {
		if got, err := Normalize(in, p); got != want || err != nil {
			t.Errorf("Normalize(%q, %v) = %q, %v, want %q", in, p, got, err, want)
		}
	}
	if got, _ := Normalize("http://h/?ref=x", Crawler); got != "http://h/?ref=x" {
		t.Errorf("Normalize(ref, Crawler) = %q: rules leaked into the predefined profile", got)
	}
	q, _ := Crawler.WithRules(Rules{SessionParams: []string{"SESSID", "sessid"}, TrackingPrefixes: []string{"pk_"}, TrackingParams: []string{"ref"}})
	if p != q {
		t.Errorf("profiles with the same rules in another order and case differ: %v, %v", p, q)
	}
	m := map[Profile]int{p: 1}
	if m[q] != 1 {
		t.Error("a profile with rules does not work as a map key")
	}
	if p == Crawler || p.base() != Crawler.base() {
		t.Errorf("p = %v, Crawler = %v", p, Crawler)
	}
	want := "(ParseWHATWG|RemoveFragment|UppercaseEscapes|DecodeUnreserved|RemoveSessionIDs|RemoveTrackingParams|RemoveEmptyParams|RemoveEmptyQuery|SortQuery)[tracking=ref prefixes=pk_ session=sessid]"
	if p.String() != want {
		t.Errorf("String() = %q, want %q", p.String(), want)
	}
	if r := p.Rules(); len(r.TrackingParams) != 1 || r.TrackingParams[0] != "ref" {
		t.Errorf("Rules() = %+v", r)
	}
	if none, _ := Crawler.WithRules(Rules{}); none != Crawler {
		t.Errorf("WithRules(Rules{}) = %v, want Crawler", none)
	}
	for _, bad := range []Rules{{TrackingParams: []string{""}}, {TrackingParams: []string{"a=b"}},
		{TrackingPrefixes: []string{"a&"}}, {SessionParams: []string{"é"}}, {SessionParams: []string{"a b"}}} {
		if _, err := Crawler.WithRules(bad); err == nil {
			t.Errorf("WithRules(%+v) accepted a name that cannot be a parameter name", bad)
		}
	}
}

// TestKeyStepsNeedWHATWG checks the steps that encode with the WHATWG
// sets refuse a profile without ParseWHATWG.
func TestKeyStepsNeedWHATWG(t *testing.T) {
	for _, s := range []Step{DecodePathRepeatedly, DecodeQueryRepeatedly} {
		if _, err := NewProfile(append(RFC3986.Steps(), s)...); err == nil {
			t.Errorf("NewProfile(RFC3986 + %v) accepted", s)
		}
	}
	for s := firstKeyStep; s < keyStepsEnd; s++ {
		for _, base := range []Profile{RFC3986, WHATWG, WebCapture, IRI} {
			if s == DecodePathRepeatedly || s == DecodeQueryRepeatedly {
				continue
			}
			if _, err := NewProfile(append(base.Steps(), s)...); err != nil {
				t.Errorf("NewProfile(%v + %v): %v", base, s, err)
			}
		}
	}
}

// TestKeyNoAllocs: a key with nothing to drop or sort costs no
// allocation when it is the input, and one when the base profile changes
// it or a key step does.
func TestKeyNoAllocs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"https://example.com/a/b?a=1&b=2", 0},
		{"https://example.com/a/b?b=1&a=2", 1},
		{"https://example.com/a/b?b=1&a=2&utm_source=x#f", 1},
		{"HTTPS://EXAMPLE.com/a/b?a=1", 1},
	} {
		if n := allocsPerRun(100, func() { _, _ = Normalize(tc.in, Crawler) }); n != tc.want {
			t.Errorf("Normalize(%q, Crawler): %v allocations, want %v", tc.in, n, tc.want)
		}
	}
	dst := make([]byte, 0, 256)
	if n := allocsPerRun(100, func() { _, _ = AppendNormalized(dst, "http://h/?b=1&a=2&utm_medium=x", Crawler) }); n != 0 {
		t.Errorf("AppendNormalized(Crawler) with spare capacity: %v allocations, want 0", n)
	}
}

// TestSortQueryLong sorts more parameters than fit the stack array, in
// reverse order, and checks the result is sorted and stable.
func TestSortQueryLong(t *testing.T) {
	var in, want strings.Builder
	in.WriteString("http://h/?")
	want.WriteString("http://h/?")
	const n = 3 * maxStackPairs
	for i := n - 1; i >= 0; i-- {
		if i < n-1 {
			in.WriteByte('&')
		}
		in.WriteString(string(rune('a'+i%26)) + "=" + string(rune('0'+i/26)))
	}
	for c := 0; c < 26; c++ {
		for i := n - 1; i >= 0; i-- {
			if i%26 == c {
				if want.Len() > len("http://h/?") {
					want.WriteByte('&')
				}
				want.WriteString(string(rune('a'+c)) + "=" + string(rune('0'+i/26)))
			}
		}
	}
	if got, err := Normalize(in.String(), Crawler); got != want.String() || err != nil {
		t.Errorf("Normalize(%q, Crawler) = %q, %v, want %q", in.String(), got, err, want.String())
	}
}

// TestExplain checks that Explain lists the changing steps in order, that
// they chain from the trimmed input to the key, and that an error is
// Normalize's.
func TestExplain(t *testing.T) {
	for _, p := range everyProfile {
		for _, in := range []string{" HTTPS://www.Example.com:443/a/./b/?b=2&a=1&utm_source=x#f ",
			"www12.example.com/A%2541//b/", "http://h/", "http://u:p@h/p;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA"} {
			key, nerr := Normalize(in, p)
			ch, err := Explain(in, p)
			if nerr != nil {
				var e *Error
				if !errors.Is(err, errors.Unwrap(nerr)) || !errors.As(err, &e) || e.Op != "Explain" {
					t.Errorf("Explain(%q, %s) = %v, %v; Normalize's error is %v", in, name(p), ch, err, nerr)
				}
				continue
			}
			prev := strings.Trim(in, " ")
			last := Step(0)
			for i, c := range ch {
				if c.Before != prev || c.Before == c.After || (i > 0 && c.Step <= last) || !p.Has(c.Step) {
					t.Errorf("Explain(%q, %s)[%d] = %+v after %q", in, name(p), i, c, prev)
				}
				prev, last = c.After, c.Step
			}
			if prev != key {
				t.Errorf("Explain(%q, %s) ends at %q, want the key %q", in, name(p), prev, key)
			}
		}
	}
	ch, _ := Explain("HTTP://h/?b=1&a=2#f", Crawler)
	var steps []string
	for _, c := range ch {
		steps = append(steps, c.Step.String())
	}
	if got := strings.Join(steps, " "); got != "ParseWHATWG RemoveFragment SortQuery" {
		t.Errorf("Explain(Crawler) steps = %q", got)
	}
}

// TestOpaqueKeySteps holds the key steps' promise about URLs with an
// opaque path (steps.go, "The key steps"): every key step but
// LowercasePath leaves them as the profile without it writes them, and
// LowercasePath lowercases the whole opaque path (the inputs are ASCII,
// so strings.ToLower is the reference), and nothing after it.
func TestOpaqueKeySteps(t *testing.T) {
	opaque := []string{
		"mailto:Joe@Example.COM?Subject=Hi%2541&utm_source=x&a=&sid=1234567890ABCDEF#F",
		"urn:ISBN:0-395-36341-1/index.html/",
		"data:text/plain,A%2541//b/index.html?utm_source=a&&z=1&a=2",
		"javascript:Foo(1)?a=1&b=&jsessionid=0123456789ABCDEF0123456789ABCDEF",
		"news:Comp.Lang.Go",
	}
	n := 0
	for s := firstKeyStep; s < keyStepsEnd; s++ {
		for _, base := range []Profile{WHATWG, RFC3986} {
			p, err := NewProfile(append(base.Steps(), s)...)
			if err != nil {
				continue // the step needs another base (its comment says which)
			}
			for _, in := range opaque {
				b, err := Normalize(in, base)
				if err != nil {
					t.Fatalf("Normalize(%q, %s): %v", in, name(base), err)
				}
				u := keyValue(b, nil)
				if _, f := keyInto(&u, base.plan()); f != nil || !u.opaque {
					t.Fatalf("Normalize(%q, %s) = %q, which is not opaque", in, name(base), b)
				}
				want := b
				if s == LowercasePath {
					want = b[:u.pathStart] + strings.ToLower(b[u.pathStart:u.pathEnd]) + b[u.pathEnd:]
				}
				if got, err := Normalize(in, p); got != want || err != nil {
					t.Errorf("Normalize(%q, %s+%v) = %q, %v, want %q", in, name(base), s, got, err, want)
				}
				n++
			}
		}
	}
	if n < int(keyStepsEnd-firstKeyStep)*len(opaque) {
		t.Fatalf("only %d cases ran", n)
	}
}

// TestBlobURLsKept holds plan.blob's promise as a class: in every profile
// that reads with ParseWHATWG and has none of the archive tools' steps
// (Crawler, WHATWG, and WHATWG with any one or two of the other steps
// that edit blob: URLs), a blob: URL's key is WHATWG's (without its
// fragment where the profile has RemoveFragment), so two blob: URLs a
// blob URL store keeps apart keep two keys; NormalizeRef keys a blob:
// target alike, from a blob: base or as an absolute reference.
func TestBlobURLsKept(t *testing.T) {
	inputs := []string{
		"blob:http://h/%61bc", "blob:https://www.h/a/%7e/?utm_source=1&b=&a=1#F",
		"BLOB:http://H/a/./b/index.html/?Q=1&sid=0123456789ABCDEF0123456789ABCDEF",
		"blob:null/%2f%41", "blob://h./A//b/?b=1&a=2&e=", "blob://u:p@www.h/x;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA",
		"\tblob:http://h/%61", "blob:https://h/uuid-0001?x=%7E#%61",
	}
	edits := []Step{UppercaseEscapes, DecodeUnreserved, TrimHostDots}
	for s := firstKeyStep; s < keyStepsEnd; s++ {
		if archiveToolSteps&(1<<s) == 0 {
			edits = append(edits, s)
		}
	}
	var profiles []Profile
	for i, a := range edits {
		for _, b := range edits[i:] {
			for _, base := range []Profile{WHATWG, mustProfile(ParseWHATWG, RemoveFragment)} {
				if p, err := NewProfile(append(base.Steps(), a, b)...); err == nil {
					profiles = append(profiles, p)
				}
			}
		}
	}
	profiles = append(profiles, Crawler)
	n := 0
	for _, p := range profiles {
		ref := mustProfile(ParseWHATWG)
		if p.Has(RemoveFragment) {
			ref = mustProfile(ParseWHATWG, RemoveFragment)
		}
		for _, in := range inputs {
			want, err := Normalize(in, ref)
			if err != nil {
				t.Fatalf("Normalize(%q, %v): %v", in, ref, err)
			}
			if got, err := Normalize(in, p); got != want || err != nil {
				t.Errorf("Normalize(%q, %v) = %q, %v, want %q", in, p, got, err, want)
			}
			if got, err := NormalizeRef("http://base.example/", in, p); got != want || err != nil {
				t.Errorf("NormalizeRef(http://base.example/, %q, %v) = %q, %v, want %q", in, p, got, err, want)
			}
			n++
		}
		// Against a blob: base: a fragment, and a relative path where
		// the base is hierarchical.
		for _, c := range [][2]string{
			{"blob:http://h/%61bc", "#x"}, {"blob://h/a/%61/b?q", "c/%7e?b=1&a=2"}, {"blob://h/a/", "index.html/"},
		} {
			want, err := NormalizeRef(c[0], c[1], ref)
			if err != nil {
				t.Fatalf("NormalizeRef(%q, %q, %v): %v", c[0], c[1], ref, err)
			}
			if got, err := NormalizeRef(c[0], c[1], p); got != want || err != nil {
				t.Errorf("NormalizeRef(%q, %q, %v) = %q, %v, want %q", c[0], c[1], p, got, err, want)
			}
		}
	}
	if n < 1000 {
		t.Errorf("%d cases, want the class", n)
	}
	// The archive profiles edit blob: URLs, as the tools they follow do.
	if got, _ := Normalize("blob:http://h/ABC", Archive); got != "blob:http://h/abc" {
		t.Errorf("Normalize(blob:http://h/ABC, Archive) = %q, want the path lowercased", got)
	}
}
