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
