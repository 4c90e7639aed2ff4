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
