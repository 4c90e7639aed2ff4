package canon

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadJSON reads testdata/name into v; any error ends the test.
func loadJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

var sentinels = map[string]error{
	"ErrRelative":      ErrRelative,
	"ErrInvalidEscape": ErrInvalidEscape,
	"ErrInvalidHost":   ErrInvalidHost,
	"ErrInvalidPort":   ErrInvalidPort,
	"ErrInvalidScheme": ErrInvalidScheme,
	"ErrInvalidChar":   ErrInvalidChar,
	"ErrTooLong":       ErrTooLong,
}

func sentinel(t testing.TB, name string) error {
	t.Helper()
	err, ok := sentinels[name]
	if !ok {
		t.Fatalf("unknown sentinel %q", name)
	}
	return err
}

func profileByName(t testing.TB, name string) Profile {
	t.Helper()
	p, ok := LookupProfile(name)
	if !ok {
		t.Fatalf("unknown profile %q", name)
	}
	return p
}

// name returns the short name of a profile for failure messages.
func name(p Profile) string {
	for _, np := range namedProfiles {
		if *np.p == p {
			return np.name
		}
	}
	return p.String()
}

var allProfiles = []Profile{WebCapture, RFC3986, IRI, POWDER}

type vector struct {
	Name    string `json:"name"`
	Profile string `json:"profile"`
	In      string `json:"in"`
	Want    string `json:"want"`
	Err     string `json:"err"`
	Source  string `json:"source"`
}

// checkVector runs one vector and also checks the invariants every
// successful result must meet: idempotence, and AppendNormalized agreeing
// with Normalize.
func checkVector(t *testing.T, p Profile, tc vector) {
	t.Helper()
	got, err := Normalize(tc.In, p)
	if tc.Err != "" {
		want := sentinel(t, tc.Err)
		if !errors.Is(err, want) || got != "" {
			t.Errorf("Normalize(%q, %s) = %q, %v; want error %v", tc.In, name(p), got, err, want)
		}
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Errorf("Normalize(%q, %s): error %T is not *Error", tc.In, name(p), err)
		}
		return
	}
	if err != nil || got != tc.Want {
		t.Errorf("Normalize(%q, %s) = %q, %v, want %q", tc.In, name(p), got, err, tc.Want)
		return
	}
	if again, err := Normalize(got, p); again != got || err != nil {
		t.Errorf("Normalize(%q, %s) = %q, %v: not idempotent (from %q)", got, name(p), again, err, tc.In)
	}
	if b, err := AppendNormalized([]byte("x"), tc.In, p); string(b) != "x"+got || err != nil {
		t.Errorf("AppendNormalized(x, %q, %s) = %q, %v, want %q", tc.In, name(p), b, err, "x"+got)
	}
}

// TestNormalize runs testdata/canon.json: the seed examples and the
// behaviours of each profile, with hand-written expectations.
func TestNormalize(t *testing.T) {
	var f struct{ Cases []vector }
	loadJSON(t, "canon.json", &f)
	if len(f.Cases) == 0 {
		t.Fatal("no vectors")
	}
	for _, tc := range f.Cases {
		p := profileByName(t, tc.Profile)
		t.Run(tc.Profile+"/"+tc.Name, func(t *testing.T) { checkVector(t, p, tc) })
	}
}

type resolutionExample struct {
	Base, Ref, Expected, Source, Section string
	ExpectedAlt                          string `json:"expected_alt"`
}

// TestResolveRFCExamples runs the worked examples of RFC 3986 §5.4, RFC
// 1630 and RFC 1808 §5 (testdata/rfc-resolution.json). RFC 3986 and RFC
// 1630 examples go through Resolve, RFC 1808 ones through resolve1808 (the
// rule of WebCapture). RFC 2396's examples are not run: canon implements
// neither its resolution nor its dot rules (it differs from both 3986 and
// 1808 on "?y"; see testdata/README.md).
func TestResolveRFCExamples(t *testing.T) {
	var ex []resolutionExample
	loadJSON(t, "rfc-resolution.json", &ex)
	ran := map[string]int{}
	for _, tc := range ex {
		var got string
		var err error
		switch tc.Source {
		case "RFC 3986", "RFC 1630":
			got, err = Resolve(tc.Base, tc.Ref)
		case "RFC 1808":
			got, err = resolve1808Strings(tc.Base, tc.Ref)
		case "RFC 2396":
			continue
		default:
			t.Fatalf("unknown source %q", tc.Source)
		}
		ran[tc.Source]++
		if err != nil || got != tc.Expected {
			t.Errorf("%s §%s: Resolve(%q, %q) = %q, %v, want %q", tc.Source, tc.Section, tc.Base, tc.Ref, got, err, tc.Expected)
		}
		if tc.Source == "RFC 1808" {
			if slow := resolve1808Slow(tc.Base, tc.Ref); slow != tc.Expected {
				t.Errorf("resolve1808Slow(%q, %q) = %q, want %q", tc.Base, tc.Ref, slow, tc.Expected)
			}
		} else if slow := resolveSlow(tc.Base, tc.Ref); slow != tc.Expected {
			t.Errorf("resolveSlow(%q, %q) = %q, want %q", tc.Base, tc.Ref, slow, tc.Expected)
		}
	}
	if ran["RFC 3986"] != 42 || ran["RFC 1808"] != 39 || ran["RFC 1630"] != 10 {
		t.Errorf("ran %v, want 42 RFC 3986, 39 RFC 1808 and 10 RFC 1630 examples", ran)
	}
}

func resolve1808Strings(base, ref string) (string, error) {
	b, _, f := parseInput(base)
	if f != nil {
		return "", f
	}
	r, _, f := parseInput(ref)
	if f != nil {
		return "", f
	}
	return resolve1808(&b, &r), nil
}

// TestRFC3986Examples runs the normalization and parsing examples of RFC
// 3986 (testdata/rfc3986-examples.json).
func TestRFC3986Examples(t *testing.T) {
	var f struct {
		RemoveDotSegments []struct{ Input, Output string } `json:"remove_dot_segments"`
		Equivalence       []struct {
			URIs       []string `json:"uris"`
			Equivalent any      `json:"equivalent"`
			NormalForm string   `json:"normal_form"`
			Section    string
		}
		ComponentParsing []struct {
			Input                                   string
			Scheme, Authority, Path, Query, Fragment *string
		} `json:"component_parsing"`
		ValidURIExamples []struct{ Input string } `json:"valid_uri_examples"`
	}
	loadJSON(t, "rfc3986-examples.json", &f)
	for _, tc := range f.RemoveDotSegments {
		if got := RemoveDotSegments(tc.Input); got != tc.Output {
			t.Errorf("RemoveDotSegments(%q) = %q, want %q", tc.Input, got, tc.Output)
		}
	}
	for _, tc := range f.Equivalence {
		// §6.2.3's mailto rule (a case-insensitive domain) and §6.2.4's
		// protocol-based rules are not steps of RFC3986: such pairs stay
		// apart, which is a false negative, never a false merge.
		eq, _ := tc.Equivalent.(bool)
		if strings.HasPrefix(tc.URIs[0], "mailto:") || tc.Section == "6.2.4" {
			eq = false
		}
		k0, err := Normalize(tc.URIs[0], RFC3986)
		if err != nil {
			t.Errorf("Normalize(%q, RFC3986): %v", tc.URIs[0], err)
			continue
		}
		if tc.NormalForm != "" && k0 != tc.NormalForm {
			t.Errorf("Normalize(%q, RFC3986) = %q, want %q", tc.URIs[0], k0, tc.NormalForm)
		}
		for _, u := range tc.URIs[1:] {
			k, err := Normalize(u, RFC3986)
			if err != nil || (k == k0) != eq {
				t.Errorf("§%s: Normalize(%q, RFC3986) = %q, %v; Normalize(%q) = %q; want equal = %v", tc.Section, u, k, err, tc.URIs[0], k0, eq)
			}
		}
	}
	for _, tc := range f.ComponentParsing {
		r, err := Parse(tc.Input)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.Input, err)
			continue
		}
		auth := r.Host
		if r.HasPort {
			auth += ":" + r.Port
		}
		check := func(what string, got string, present bool, want *string) {
			if (want == nil) == present || (want != nil && got != *want) {
				t.Errorf("Parse(%q).%s = %q (present %v), want %v", tc.Input, what, got, present, want)
			}
		}
		check("Scheme", r.Scheme, r.Scheme != "", tc.Scheme)
		check("Authority", auth, r.HasAuthority, tc.Authority)
		check("Path", r.Path, true, tc.Path)
		check("Query", r.Query, r.HasQuery, tc.Query)
		check("Fragment", r.Fragment, r.HasFragment, tc.Fragment)
		if s := r.String(); s != tc.Input {
			t.Errorf("Parse(%q).String() = %q", tc.Input, s)
		}
	}
	for _, tc := range f.ValidURIExamples {
		if _, err := Normalize(tc.Input, RFC3986); err != nil {
			t.Errorf("Normalize(%q, RFC3986): %v", tc.Input, err)
		}
	}
}
