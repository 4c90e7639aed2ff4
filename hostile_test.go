package canon

import (
	"errors"
	"strings"
	"testing"
)

type hostileCase struct {
	Name  string            `json:"name"`
	Class string            `json:"class"`
	In    string            `json:"in"`
	Base  string            `json:"base"`
	Want  map[string]string `json:"want"`
}

// TestHostile runs testdata/hostile.json: the hostile-input table, with
// the expected key or error of every profile for each input.
func TestHostile(t *testing.T) {
	var f struct{ Cases []hostileCase }
	loadJSON(t, "hostile.json", &f)
	if len(f.Cases) < 80 {
		t.Fatalf("hostile table has %d cases, want at least 80", len(f.Cases))
	}
	passed := map[string]int{}
	for _, tc := range f.Cases {
		for _, pn := range []string{"WebCapture", "RFC3986", "IRI", "POWDER"} {
			p := profileByName(t, pn)
			want, ok := tc.Want[pn]
			if !ok {
				t.Fatalf("%s: no expectation for %s", tc.Name, pn)
			}
			t.Run(pn+"/"+tc.Name, func(t *testing.T) {
				var got string
				var err error
				call := "Normalize"
				if tc.Base != "" {
					got, err = NormalizeRef(tc.Base, tc.In, p)
					call = "NormalizeRef(" + quoteArg(tc.Base) + ", "
				} else {
					got, err = Normalize(tc.In, p)
					call += "("
				}
				if strings.HasPrefix(want, "!") {
					if s := sentinel(t, want[1:]); !errors.Is(err, s) || got != "" {
						t.Errorf("%s%q, %s) = %q, %v; want error %v", call, tc.In, pn, got, err, s)
						return
					}
					passed[pn]++
					return
				}
				if got != want || err != nil {
					t.Errorf("%s%q, %s) = %q, %v, want %q", call, tc.In, pn, got, err, want)
					return
				}
				if again, err := Normalize(got, p); again != got || err != nil {
					t.Errorf("Normalize(%q, %s) = %q, %v: not idempotent", got, pn, again, err)
					return
				}
				passed[pn]++
			})
		}
	}
	t.Logf("hostile table: %d cases; passed per profile: %v", len(f.Cases), passed)
}

func quoteArg(s string) string { return `"` + s + `"` }

// TestPOWDERIPLiteralEscapes checks the class of IP literals that
// DecodeAll decodes: every escape spelling of "%" (a zone's "%25"),
// repeated, in every position of an IPv6 literal, with and without a
// scheme and userinfo: each is refused or keyed to a fixed point, and
// one holding an escaped "%" is refused.
func TestPOWDERIPLiteralEscapes(t *testing.T) {
	spellings := []string{"%25", "%2525", "%252525", "%25%32%35", "%2525%32%35"}
	n := 0
	for _, prefix := range []string{"", "//", "http://", "http://u@", "u@"} {
		for _, sp := range spellings {
			for _, lit := range []string{"[::" + sp + "0]", "[fe80::1" + sp + "eth0]", "[::1]" + "/" + sp, "[::%31" + sp + "x]"} {
				in := prefix + lit
				key, err := Normalize(in, POWDER)
				if err != nil {
					continue
				}
				if again, err := Normalize(key, POWDER); again != key || err != nil {
					t.Errorf("Normalize(%q, POWDER) = %q, and that gives %q, %v: no fixed point", in, key, again, err)
				}
				if strings.Contains(lit[:strings.IndexByte(lit, ']')], "%25") {
					t.Errorf("Normalize(%q, POWDER) = %q: an escaped %% in the literal survived DecodeAll", in, key)
				}
				n++
			}
		}
	}
	t.Logf("%d inputs keyed", n)
}

// TestDefaultSchemeHostPortKeys checks the class of inputs with a scheme
// whose path, decoded by a step, becomes digits: DefaultScheme reads
// "a:0" as host and port, so "a:%30" must not be keyed "a:0". Under every
// profile with DefaultScheme and a decoding step, as Normalize and as
// NormalizeRef targets: refused or a fixed point.
func TestDefaultSchemeHostPortKeys(t *testing.T) {
	var profiles []Profile
	for _, steps := range [][]Step{
		{DefaultScheme, DecodeUnreserved},
		{DefaultScheme, ResolveRFC1808, DecodeUnreserved, LowercaseScheme},
		{DefaultScheme, DecodeAll},
		{DefaultScheme, DecodeAll, PlusToSpace},
		{DefaultScheme, EncodeToURI, UppercaseEscapes, DecodeUnreserved, RemoveDots},
	} {
		profiles = append(profiles, MustProfile(steps...))
	}
	profiles = append(profiles, POWDER, Archive, Aggressive)
	inputs := []string{"A:%30", "a:%31%32", "a:%30/x", "a:%30?q", "a:%30#f", "a:%30%2F", "mailto:%30", "a:%2530", "a:1%30"}
	n := 0
	for _, p := range profiles {
		for _, in := range inputs {
			keys := []string{}
			if k, err := Normalize(in, p); err == nil {
				keys = append(keys, k)
			}
			if k, err := NormalizeRef("A:", in[strings.IndexByte(in, ':')+1:], p); err == nil {
				keys = append(keys, k)
			}
			for _, k := range keys {
				if again, err := Normalize(k, p); again != k || err != nil {
					t.Errorf("%v: %q gives the key %q, which gives %q, %v: no fixed point", p, in, k, again, err)
				}
				n++
			}
		}
	}
	t.Logf("%d keys checked", n)
}
