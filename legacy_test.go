package canon

import (
	"errors"
	"testing"

	"github.com/seed15588f71/canon/internal/legacy"
)

// The rebuilt core against the code it replaces (internal/legacy): the
// same key, or the same error (sentinel, component, offset and text), for
// every input and profile. This is the differential the rebuild is held
// to, besides the golden keys; it goes with internal/legacy.

// legacyProfile is p in the legacy package: the same steps and Rules.
func legacyProfile(t testing.TB, p Profile) legacy.Profile {
	var steps []legacy.Step
	for _, s := range p.Steps() {
		ls, err := legacy.ParseStep(s.String())
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, ls)
	}
	lp, err := legacy.NewProfile(steps...)
	if err != nil {
		t.Fatalf("legacy.NewProfile(%v): %v", p, err)
	}
	r := p.Rules()
	lp, err = lp.WithRules(legacy.Rules{TrackingParams: r.TrackingParams, TrackingPrefixes: r.TrackingPrefixes, SessionParams: r.SessionParams})
	if err != nil {
		t.Fatal(err)
	}
	return lp
}

// sameResult reports whether two results of one call agree: the same
// string, and errors with the same text and fields.
func sameResult(k1 string, e1 error, k2 string, e2 error) bool {
	if k1 != k2 || (e1 == nil) != (e2 == nil) {
		return false
	}
	if e1 == nil {
		return true
	}
	var a *Error
	var b *legacy.Error
	if !errors.As(e1, &a) || !errors.As(e2, &b) {
		return false
	}
	return a.Error() == b.Error() && a.Op == b.Op && a.Arg == b.Arg && a.Input == b.Input &&
		int(a.Component) == int(b.Component) && a.Offset == b.Offset && a.Err.Error() == b.Err.Error()
}

// checkLegacy compares every entry point on in (and on base and in as a
// reference) under p.
func checkLegacy(t *testing.T, in string, p Profile, lp legacy.Profile) {
	t.Helper()
	k1, e1 := Normalize(in, p)
	k2, e2 := legacy.Normalize(in, lp)
	if !sameResult(k1, e1, k2, e2) {
		t.Fatalf("Normalize(%q, %v) = %q, %v; legacy: %q, %v", in, p, k1, e1, k2, e2)
	}
	b1, e1 := AppendNormalized([]byte("x"), in, p)
	b2, e2 := legacy.AppendNormalized([]byte("x"), in, lp)
	if !sameResult(string(b1), e1, string(b2), e2) {
		t.Fatalf("AppendNormalized(%q, %v) = %q, %v; legacy: %q, %v", in, p, b1, e1, b2, e2)
	}
	for _, base := range legacyBases {
		k1, e1 := NormalizeRef(base, in, p)
		k2, e2 := legacy.NormalizeRef(base, in, lp)
		if !sameResult(k1, e1, k2, e2) {
			t.Fatalf("NormalizeRef(%q, %q, %v) = %q, %v; legacy: %q, %v", base, in, p, k1, e1, k2, e2)
		}
	}
	if p == Crawler || p == RFC3986 || p == WebCapture {
		c1, e1 := Explain(in, p)
		c2, e2 := legacy.Explain(in, lp)
		same := len(c1) == len(c2)
		for i := 0; same && i < len(c1); i++ {
			same = c1[i].Step.String() == c2[i].Step.String() && c1[i].Before == c2[i].Before && c1[i].After == c2[i].After
		}
		if !same || !sameResult("", e1, "", e2) {
			t.Fatalf("Explain(%q, %v) = %v, %v; legacy: %v, %v", in, p, c1, e1, c2, e2)
		}
		r1, e1 := Resolve(legacyBases[0], in)
		r2, e2 := legacy.Resolve(legacyBases[0], in)
		if !sameResult(r1, e1, r2, e2) {
			t.Fatalf("Resolve(%q, %q) = %q, %v; legacy: %q, %v", legacyBases[0], in, r1, e1, r2, e2)
		}
		r1, e1 = Resolve(in, "../g;x?y#s")
		r2, e2 = legacy.Resolve(in, "../g;x?y#s")
		if !sameResult(r1, e1, r2, e2) {
			t.Fatalf("Resolve(%q, %q) = %q, %v; legacy: %q, %v", in, "../g;x?y#s", r1, e1, r2, e2)
		}
	}
	k1, e1 = NormalizeRef(in, "../x?y#z", p)
	k2, e2 = legacy.NormalizeRef(in, "../x?y#z", lp)
	if !sameResult(k1, e1, k2, e2) {
		t.Fatalf("NormalizeRef(%q, %q, %v) = %q, %v; legacy: %q, %v", in, "../x?y#z", p, k1, e1, k2, e2)
	}
}

var legacyBases = []string{"http://a/b/c/d;p?q#f", "https://u:p@h.example:8080/dir/page.html?x=1", "file:///C:/dir/f", "foo://h/a/b", "foo:opaque"}

// legacyProfiles are the predefined profiles and, for each base, the
// base with every key step and with Rules.
func legacyProfiles() []Profile {
	ps := append([]Profile(nil), everyProfile...)
	for _, base := range comboBases {
		var steps []Step
		steps = append(steps, base.Steps()...)
		for s := firstKeyStep; s < numSteps; s++ {
			if base.Has(ParseWHATWG) || (s != DecodePathRepeatedly && s != DecodeQueryRepeatedly) {
				steps = append(steps, s)
			}
		}
		p := MustProfile(steps...)
		r, _ := p.WithRules(comboRules[1])
		ps = append(ps, base, p, r)
	}
	return ps
}

// TestLegacyAgreement runs checkLegacy over the seed inputs and the key
// classes' inputs under legacyProfiles.
func TestLegacyAgreement(t *testing.T) {
	inputs := seedInputs(t)
	for _, prefix := range []string{"http://h", "foo:", "file://"} {
		for i, path := range comboPaths() {
			if i%7 == 0 {
				inputs = append(inputs, prefix+path+"?b=1&a=2")
			}
		}
	}
	n := 0
	for _, p := range legacyProfiles() {
		lp := legacyProfile(t, p)
		for _, in := range inputs {
			checkLegacy(t, in, p, lp)
			n++
		}
	}
	t.Logf("%d inputs and profiles", n)
}

// FuzzLegacy is TestLegacyAgreement's check on random inputs under a
// random profile NewProfile accepts.
func FuzzLegacy(f *testing.F) {
	for i, s := range seedInputs(f) {
		f.Add(s, seedProfileBits(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, in string, steps uint64, rules uint8) {
		p, ok := profileFromBits(steps, rules)
		if !ok {
			return
		}
		checkLegacy(t, in, p, legacyProfile(t, p))
	})
}
