package canon

import "testing"

// checkComposedParts holds the parts a resolver composed with its result
// to a fresh parse of the result: the engine writes a resolved URI from
// those parts without reading it again.
func checkComposedParts(t *testing.T, op, base, ref, abs string, got *parts) {
	t.Helper()
	var want parts
	if f := want.parse(abs, syntaxRFC3986); f != nil {
		t.Fatalf("%s(%q, %q) = %q, which does not parse: %v", op, base, ref, abs, f)
	}
	if *got != want {
		t.Fatalf("%s(%q, %q) = %q with parts\n%+v, a parse gives\n%+v", op, base, ref, abs, *got, want)
	}
}

// TestComposedParts runs checkComposedParts over the RFC examples and the
// seed inputs as references against a few bases, with both resolvers.
func TestComposedParts(t *testing.T) {
	var ex []resolutionExample
	loadJSON(t, "rfc-resolution.json", &ex)
	type pair struct{ base, ref string }
	var pairs []pair
	for _, e := range ex {
		pairs = append(pairs, pair{e.Base, e.Ref})
	}
	for _, in := range seedInputs(t) {
		for _, base := range legacyBases {
			pairs = append(pairs, pair{base, in}, pair{in, "../g;x?y#s"}, pair{in, ""}, pair{in, "?q"}, pair{in, "//h/x"})
		}
	}
	n := 0
	for _, p := range pairs {
		b, _, f1 := parseInput(p.base)
		r, _, f2 := parseInput(p.ref)
		if f1 != nil || f2 != nil || b.schemeEnd < 0 {
			continue
		}
		abs, pr := resolve3986(&b, &r)
		checkComposedParts(t, "resolve3986", p.base, p.ref, abs, &pr)
		if abs, pr, f := resolve1808(&b, &r); f == nil {
			checkComposedParts(t, "resolve1808", p.base, p.ref, abs, &pr)
		}
		n++
	}
	if n < 1000 {
		t.Fatalf("only %d pairs checked", n)
	}
}
