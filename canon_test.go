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
	// "WebCapture+RemoveTrailingSlash": a predefined profile and steps;
	// "none+StripWWW": the zero profile and steps.
	base, extra, _ := strings.Cut(name, "+")
	p, ok := LookupProfile(base)
	if base == "none" {
		p, ok = Profile{}, true
	}
	if !ok {
		t.Fatalf("unknown profile %q", name)
	}
	if extra == "" {
		return p
	}
	steps := p.Steps()
	for _, n := range strings.Split(extra, "+") {
		s, err := ParseStep(n)
		if err != nil {
			t.Fatalf("profile %q: %v", name, err)
		}
		steps = append(steps, s)
	}
	p, err := NewProfile(steps...)
	if err != nil {
		t.Fatalf("profile %q: %v", name, err)
	}
	return p
}

// name returns the short name of a profile for failure messages.
func name(p Profile) string {
	for _, np := range namedProfiles {
		if np.p == p {
			return np.name
		}
	}
	return p.String()
}

var allProfiles = []Profile{WebCapture, RFC3986, IRI, POWDER, WHATWG}

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
func TestNormalize(t *testing.T) { runVectors(t, "canon.json") }

// runVectors runs the vectors of a testdata file, a subtest each.
func runVectors(t *testing.T, file string) {
	var f struct{ Cases []vector }
	loadJSON(t, file, &f)
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
			if slow, _ := resolve1808Slow(tc.Base, tc.Ref); slow != tc.Expected {
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
	target, _, f := resolve1808(&b, &r)
	if f != nil {
		return "", f
	}
	return target, nil
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
			Input                                    string
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

// TestPythonRFC3986 runs the python-hyper/rfc3986 normalizer cases
// (testdata/python-rfc3986.json) whose semantics are RFC 3986's. The
// exclusions, each checked to fail the way canon's policy says, are:
// a raw "%" in an IPv6 zone identifier, which python-rfc3986 re-encodes
// and canon rejects (RFC 6874 requires "%25"; hostile-catalogue B9); a
// stray "%", which python-rfc3986 encodes as "%25" and RFC3986 rejects
// (issue 2, RFC 1630 example 3); and the host "%2Fvar%2Frun%2Fsocket",
// which decodes to "/" (hostile-catalogue A9); and the host "☃", which
// python-rfc3986 rejects as non-ASCII and RFC3986 maps to "xn--n3h".
func TestPythonRFC3986(t *testing.T) {
	var f struct {
		RemoveDotSegments []struct{ Input, Output string } `json:"remove_dot_segments"`
		NormalizeScheme   []struct{ Input, Output string } `json:"normalize_scheme"`
		Percent           []struct{ Input, Output string } `json:"normalize_percent_characters"`
		Authority         []struct{ Input, Output string } `json:"authority_normalization"`
		Fragment          []struct{ Input, Output string } `json:"fragment_normalization"`
		EncodeComponent   []struct{ Input, Output string } `json:"encode_component_utf8"`
		NormalizeHost     []struct{ Input, Output string } `json:"normalize_host"`
		ValidHosts        []string                         `json:"valid_hosts"`
		InvalidHosts      []string                         `json:"invalid_hosts"`
		EquivalentHosts   []string                         `json:"equivalent_hostnames"`
		EquivalentSchemes []string                         `json:"equivalent_schemes"`
	}
	loadJSON(t, "python-rfc3986.json", &f)
	ran, excluded := 0, 0
	expect := func(in, want string, p Profile) {
		t.Helper()
		ran++
		if got, err := Normalize(in, p); got != want || err != nil {
			t.Errorf("Normalize(%q, %s) = %q, %v, want %q", in, name(p), got, err, want)
		}
	}
	expectErr := func(in string, want error) {
		t.Helper()
		excluded++
		if got, err := Normalize(in, RFC3986); !errors.Is(err, want) {
			t.Errorf("Normalize(%q, RFC3986) = %q, %v, want error %v", in, got, err, want)
		}
	}
	for _, tc := range f.RemoveDotSegments {
		ran++
		if got := RemoveDotSegments(tc.Input); got != tc.Output {
			t.Errorf("RemoveDotSegments(%q) = %q, want %q", tc.Input, got, tc.Output)
		}
	}
	for _, tc := range f.NormalizeScheme {
		expect(tc.Input+"://example.com/", tc.Output+"://example.com/", RFC3986)
	}
	upperOnly := mustProfile(UppercaseEscapes) // python-rfc3986 only uppercases (§6.2.2.1)
	for _, tc := range f.Percent {
		expect("x:"+tc.Input, "x:"+tc.Output, upperOnly)
	}
	for _, tc := range f.Authority {
		if strings.Contains(tc.Input, "%eth0") {
			expectErr("http://"+tc.Input+"/", ErrInvalidHost)
			continue
		}
		expect("http://"+tc.Input+"/", "http://"+tc.Output+"/", RFC3986)
	}
	for _, tc := range f.Fragment {
		expect("http://h/#"+tc.Input, "http://h/#"+tc.Output, RFC3986)
	}
	for _, tc := range f.EncodeComponent {
		in := "http://h" + tc.Input
		if _, err := Normalize(in, RFC3986); err != nil {
			expectErr(in, ErrInvalidEscape)
			continue
		}
		expect(in, "http://h"+strings.ToUpper(tc.Output), upperOnly)
	}
	for _, tc := range f.NormalizeHost {
		in := "http://" + tc.Input + "/"
		if z := strings.IndexByte(tc.Input, '%'); z >= 0 && strings.HasPrefix(tc.Input, "[") {
			if zone := tc.Input[z : len(tc.Input)-1]; !strings.HasPrefix(zone, "%25") || zone == "%25" {
				expectErr(in, ErrInvalidHost)
				continue
			}
		}
		expect(in, "http://"+tc.Output+"/", RFC3986)
	}
	for _, h := range f.ValidHosts {
		in := "http://" + h + "/"
		if strings.Contains(h, "%2F") {
			expectErr(in, ErrInvalidHost)
			continue
		}
		ran++
		if _, err := Normalize(in, RFC3986); err != nil {
			t.Errorf("Normalize(%q, RFC3986): %v", in, err)
		}
	}
	for _, h := range f.InvalidHosts {
		in := "http://" + h + "/"
		if h == "\u2603" {
			// python-rfc3986 accepts only ASCII hosts; RFC3986 maps an IRI
			// host to its A-label (RFC 3987 §3.1), as browsers do.
			excluded++
			if got, err := Normalize(in, RFC3986); got != "http://xn--n3h/" || err != nil {
				t.Errorf("Normalize(%q, RFC3986) = %q, %v, want %q", in, got, err, "http://xn--n3h/")
			}
			continue
		}
		ran++
		if got, err := Normalize(in, RFC3986); err == nil {
			t.Errorf("Normalize(%q, RFC3986) = %q, want an error", in, got)
		}
	}
	for _, names := range [][]string{f.EquivalentHosts, f.EquivalentSchemes} {
		for _, a := range names {
			for _, b := range names {
				ua, ub := "http://"+a+"/", "http://"+b+"/"
				if names[0] == f.EquivalentSchemes[0] {
					ua, ub = a+"://example.com/", b+"://example.com/"
				}
				ran++
				if eq, err := Equal(ua, ub, RFC3986); !eq || err != nil {
					t.Errorf("Equal(%q, %q, RFC3986) = %v, %v, want true", ua, ub, eq, err)
				}
			}
		}
	}
	t.Logf("python-rfc3986: %d checks ran, %d excluded cases checked to fail", ran, excluded)
}

// purellSteps maps the purell flags whose semantics are RFC 3986's to
// canon steps. purell always lowercases the scheme and converts IDN hosts
// (net/url and its host handling do), so every mapped profile has
// LowercaseScheme and HostToASCII too.
var purellSteps = map[string][]Step{
	"FlagLowercaseScheme":          {LowercaseScheme},
	"FlagLowercaseHost":            {LowercaseHost},
	"FlagUppercaseEscapes":         {UppercaseEscapes},
	"FlagDecodeUnnecessaryEscapes": {DecodeUnreserved},
	"FlagEncodeNecessaryEscapes":   {EncodeToURI},
	"FlagRemoveDefaultPort":        {RemoveDefaultPort},
	"FlagRemoveEmptyPortSeparator": {RemoveDefaultPort},
	"FlagRemoveDotSegments":        {RemoveDots},
	"FlagRemoveFragment":           {RemoveFragment},
	// FlagsSafe less FlagRemoveEmptyQuerySeparator, which drops a "?"
	// that RFC 3986 §6.2.3 keeps: the cases where that matters are in
	// purellExcluded.
	"FlagsSafe": {LowercaseHost, LowercaseScheme, UppercaseEscapes, DecodeUnreserved, EncodeToURI,
		RemoveDefaultPort},
}

// purellExcluded lists the purell cases that are run but whose expected
// value is not RFC 3986's, with the reason.
var purellExcluded = map[string]string{
	"Standard-9": "removes an empty query's \"?\" (RFC 3986 §6.2.3 keeps it)",
	"urlnorm http://test.example/?a=%e3%82%82%26": "purell leaves the query's hex case alone (net/url RawQuery)",
	"BothLower":                   "purell re-escapes the path through net/url even without escape flags",
	"DecodeUnnecessaryEscapesAll": "purell decodes reserved characters such as %21 and %2F",
	"EncodeNecessaryEscapesAll":   "purell keeps \"[\" and \"]\" raw in the path and fragment",
}

// TestPurell runs the purell cases whose flags all map to canon steps.
func TestPurell(t *testing.T) {
	type pcase struct {
		Name, Input, Expected string
		Flags                 []string
		Latin1                bool `json:"latin1_bytes"`
	}
	var f struct {
		Cases     []pcase
		URLNorm   []pcase `json:"urlnorm_cases"`
		Generated []pcase `json:"generated_cases"`
	}
	loadJSON(t, "purell.json", &f)
	ran, unmapped, excluded := 0, 0, 0
	all := append(append(f.Cases, f.URLNorm...), f.Generated...)
	for _, tc := range all {
		steps := []Step{LowercaseScheme, HostToASCII}
		mapped := true
		for _, fl := range tc.Flags {
			s, ok := purellSteps[fl]
			if !ok {
				mapped = false
			}
			steps = append(steps, s...)
		}
		if !mapped {
			unmapped++
			continue
		}
		if tc.Latin1 {
			b := make([]byte, 0, len(tc.Input))
			for _, r := range tc.Input {
				b = append(b, byte(r))
			}
			tc.Input = string(b)
		}
		p := mustProfile(steps...)
		got, err := Normalize(tc.Input, p)
		key := tc.Name
		if key == "urlnorm" {
			key += " " + tc.Input
		}
		if why, ok := purellExcluded[key]; ok {
			excluded++
			if got == tc.Expected {
				t.Errorf("purell %s: excluded (%s) but Normalize(%q) = %q matches", tc.Name, why, tc.Input, got)
			}
			continue
		}
		ran++
		if got != tc.Expected || err != nil {
			t.Errorf("purell %s: Normalize(%q, %v) = %q, %v, want %q", tc.Name, tc.Input, p, got, err, tc.Expected)
		}
	}
	t.Logf("purell: %d ran and passed, %d excluded (not RFC 3986), %d use flags outside RFC 3986", ran, excluded, unmapped)
	if ran == 0 {
		t.Fatal("no purell case ran")
	}
}
