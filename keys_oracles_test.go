package canon

import (
	"strings"
	"testing"
	"time"
)

// checkCrawlerNoFalseMerge is the metamorphic oracle of Crawler's promise
// to merge only what its steps say: from the key of x, it makes URLs that
// can name other resources in ways no step of Crawler claims to merge,
// and requires each to get a key of its own. The variants are the key
// with one ASCII letter of the path or query flipped in case (not a hex
// digit of an escape, whose case UppercaseEscapes merges), one "/" of
// the path or "&" or "=" of the query percent-encoded, a "+" of the
// query written "%20" or "%2B" and a "%20" written "+", or one byte added
// to a parameter's value. (Adding a byte may make a value an id, which
// RemoveSessionIDs then drops: the key still differs, as the original
// kept it.) And the merges Crawler does claim, RFC 3986 §6.2.2.1-2's:
// an unreserved character of the path or query percent-encoded, in
// either hex case, gives the key again.
func checkCrawlerNoFalseMerge(t testing.TB, in, key string) {
	t.Helper()
	if h := strings.IndexByte(key, '#'); h >= 0 {
		key = key[:h] // Crawler keys have none; a variant needs none
	}
	q := strings.IndexByte(key, '?')
	end := len(key) // of the path
	if q >= 0 {
		end = q
	}
	i := strings.Index(key[:end], "://")
	if i < 0 {
		return // opaque and no-authority URLs: nothing of the path to vary
	}
	pathStart := end // an empty path
	if j := strings.IndexByte(key[i+3:end], '/'); j >= 0 {
		pathStart = i + 3 + j
	}
	inTriplet := func(k int) bool { return k >= 1 && key[k-1] == '%' || k >= 2 && key[k-2] == '%' }
	variants := make([]string, 0, 8)
	flip := func(i int) {
		c := key[i]
		if isASCIILetter(c) {
			variants = append(variants, key[:i]+string(c^0x20)+key[i+1:])
		}
	}
	enc := func(i int) {
		variants = append(variants, key[:i]+pctEncode(key[i:i+1])+key[i+1:])
	}
	for i, done := pathStart, 0; i < end && done < 2; i++ {
		if isASCIILetter(key[i]) && !inTriplet(i) {
			flip(i)
			done++
		}
	}
	if pathStart < end {
		if s := strings.IndexByte(key[pathStart+1:end], '/'); s >= 0 {
			enc(pathStart + 1 + s)
		}
	}
	if q >= 0 {
		query := key[q+1:]
		if a := strings.IndexByte(query, '&'); a >= 0 {
			enc(q + 1 + a)
		}
		if e := strings.IndexByte(query, '='); e >= 0 {
			enc(q + 1 + e)
			v := q + 1 + e + 1
			variants = append(variants, key[:v]+"z"+key[v:])
		}
		if p := strings.IndexByte(query, '+'); p >= 0 {
			k := q + 1 + p
			variants = append(variants, key[:k]+"%20"+key[k+1:], key[:k]+"%2B"+key[k+1:])
		}
		if p := strings.Index(query, "%20"); p >= 0 {
			k := q + 1 + p
			variants = append(variants, key[:k]+"+"+key[k+3:])
		}
		// Two parameters of one name swapped: a list in another order.
		if a := strings.IndexByte(query, '&'); a >= 0 {
			first, rest := query[:a], query[a+1:]
			second := rest
			if b := strings.IndexByte(rest, '&'); b >= 0 {
				second = rest[:b]
			}
			n1, _, _ := strings.Cut(first, "=")
			n2, _, _ := strings.Cut(second, "=")
			if n1 == n2 && first != second {
				variants = append(variants, key[:q+1]+second+"&"+first+query[len(first)+1+len(second):])
			}
		}
		for i, done := q+1, 0; i < len(key) && done < 2; i++ {
			if isASCIILetter(key[i]) && !inTriplet(i) {
				flip(i)
				done++
			}
		}
	}
	for _, v := range variants {
		got, err := Normalize(v, Crawler)
		if err != nil {
			continue // a variant the standard rejects says nothing
		}
		if got == key {
			t.Fatalf("Normalize(%q, Crawler) = %q = the key of %q (from %q): a merge no step of Crawler claims", v, got, key, in)
		}
	}
	// The merges it claims: the first unreserved character of the path
	// and of the query (not a hex digit after a "%", which would then
	// read as another escape, and not in a file URL, whose "%43:" stays
	// apart from the drive letter "C:", nor in a blob: URL, which Crawler
	// keys as WHATWG does: docs/profiles.md), encoded in each hex case.
	if strings.HasPrefix(key, "file:") || strings.HasPrefix(key, "blob:") {
		return
	}
	for _, span := range [][2]int{{pathStart, end}, {end + 1, len(key)}} {
		for k := span[0]; k < span[1]; k++ {
			c := key[k]
			if !isUnreservedTest(c) || inTriplet(k) {
				continue
			}
			for _, e := range []string{pctEncode(key[k : k+1]), strings.ToLower(pctEncode(key[k : k+1]))} {
				v := key[:k] + e + key[k+1:]
				if got, err := Normalize(v, Crawler); got != key || err != nil {
					t.Fatalf("Normalize(%q, Crawler) = %q, %v, want %q (the key of %q, from %q): RFC 3986 §6.2.2.2 makes them one", v, got, err, key, key, in)
				}
			}
			break
		}
	}
}

// TestCrawlerNoFalseMergeSample runs the oracle over the sample corpus.
func TestCrawlerNoFalseMergeSample(t *testing.T) {
	n := 0
	extra := []string{"http://h/?a=1&a=2", "http://h/p?x=b&x=a&y", "https://h/A/b?Q=1", "http://h/a/b/c?k=v"}
	for _, in := range append(seedInputs(t), extra...) {
		if key, err := Normalize(in, Crawler); err == nil {
			checkCrawlerNoFalseMerge(t, in, key)
			n++
		}
	}
	if n < 500 {
		t.Fatalf("only %d keys checked", n)
	}
}

// checkExplain holds Explain to its contract: the changes chain from the
// trimmed input to the key, one per step that changes it, in the order
// of the steps, each a step of the profile.
func checkExplain(t *testing.T, in string, p Profile) {
	t.Helper()
	key, nerr := Normalize(in, p)
	ch, err := Explain(in, p)
	if (err == nil) != (nerr == nil) {
		t.Fatalf("Explain(%q, %s): %v; Normalize: %v", in, name(p), err, nerr)
	}
	if err != nil {
		checkError(t, "Explain", in, "", err)
		return
	}
	trimmed := oracleTrim(in)
	prev, last := trimmed, Step(0)
	for i, c := range ch {
		if c.Before != prev || c.Before == c.After || (i > 0 && c.Step <= last) || !p.Has(c.Step) {
			t.Fatalf("Explain(%q, %s)[%d] = %+v after %q", in, name(p), i, c, prev)
		}
		prev, last = c.After, c.Step
	}
	if prev != key && !(len(ch) == 0 && key == trimmed) {
		t.Fatalf("Explain(%q, %s) ends at %q, want the key %q", in, name(p), prev, key)
	}
}

// FuzzExplain checks Explain against Normalize under every predefined
// profile (see checkExplain).
func FuzzExplain(f *testing.F) {
	for _, s := range seedInputs(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, p := range everyProfile {
			checkExplain(t, in, p)
		}
	})
}

// unescapeRepeatedlySlow is the Internet Archive's unescapeRepeatedly as
// its surt library writes it: decode every escape, left to right, and
// again, until a pass changes nothing.
func unescapeRepeatedlySlow(s string) string {
	for {
		t := decodeTriplets(s)
		if t == s {
			return s
		}
		s = t
	}
}

// TestDecodeRepeatedlyInPlace holds the one-pass decoder to the pass by
// pass reference on every string of "%", "2", "5", "4", "1" and "A" up to
// six bytes (the bytes escapes of escapes are made of), and checks it is
// linear: "%25" followed by 2^20 "25" would take a pass for each.
func TestDecodeRepeatedlyInPlace(t *testing.T) {
	const alphabet = "%2541A"
	var gen func(prefix string, n int)
	checked := 0
	gen = func(prefix string, n int) {
		if got, want := string(decodeRepeatedlyInPlace([]byte(prefix))), unescapeRepeatedlySlow(prefix); got != want {
			t.Fatalf("decodeRepeatedlyInPlace(%q) = %q, want %q", prefix, got, want)
		}
		checked++
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			gen(prefix+alphabet[i:i+1], n-1)
		}
	}
	gen("", 6)
	if checked < 50000 {
		t.Fatalf("only %d strings checked", checked)
	}
	long := "%25" + strings.Repeat("25", 1<<20)
	start := time.Now()
	if got := string(decodeRepeatedlyInPlace([]byte(long))); got != "%" {
		t.Fatalf("decodeRepeatedlyInPlace(%%25 + 2^20 \"25\") = %q, want %%", got)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("decodeRepeatedlyInPlace of 2 MiB took %v: not linear", d)
	}
}

// TestDecodingChangesOracle checks decodingChanges, the read-only test
// that lets DecodePathRepeatedly and DecodeQueryRepeatedly leave a key
// uncopied, against what the pass writes, by a slow reference: on a
// component with a "%" (the pass runs on no other), decode
// until no escape is left, remove a path's dot segments, write each byte
// of the set (and "%", "\") as an uppercase triplet; with lowered, both
// sides lowercased as LowercasePath and LowercaseQuery write them. Where
// decodingChanges says "no change", the reference must give the
// component back; it may say "change" where the result is the same (it
// is conservative), and the test counts how often.
func TestDecodingChangesOracle(t *testing.T) {
	reference := func(c string, set uint16, isPath bool) string {
		if !strings.Contains(c, "%") {
			return c // the pass runs on a component with an escape
		}
		b := decodeRepeatedlyInPlace([]byte(c))
		if isPath && len(b) > 0 && b[0] == '/' {
			b = removeDotSegmentsWHATWG(b, false, false)
		}
		var out []byte
		for _, v := range b {
			if encodeSet[v]&set != 0 || v == '%' || v == '\\' {
				out = append(out, '%', upperHex[v>>4], upperHex[v&15])
			} else {
				out = append(out, v)
			}
		}
		return string(out)
	}
	const alphabet = "%2%5%4%1ae/.\\ ?AcC3F%25"
	rng := uint64(1)
	next := func(n int) int {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	runs, conservative := 200000, 0
	if testing.Short() {
		runs = 20000
	}
	for r := 0; r < runs; r++ {
		b := make([]byte, 1+next(10))
		for i := range b {
			b[i] = alphabet[next(len(alphabet))]
		}
		if next(2) == 0 {
			b[0] = '/'
		}
		c := string(b)
		for _, set := range []uint16{setPath, setSpecialQuery} {
			isPath := set == setPath
			for _, lowered := range []bool{false, true} {
				want, got := reference(c, set, isPath), c
				if lowered {
					want, got = strings.ToLower(want), strings.ToLower(got)
				}
				changes := decodingChanges(c, set, isPath, lowered)
				switch {
				case !changes && want != got:
					t.Fatalf("decodingChanges(%q, path %v, lowered %v) = false, but the pass writes %q", c, isPath, lowered, want)
				case changes && want == got:
					conservative++
				}
			}
		}
	}
	t.Logf("%d components x 4; %d said to change that do not", runs, conservative)
}
