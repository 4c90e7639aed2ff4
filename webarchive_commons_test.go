package canon

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestWebarchiveCommonsVectors holds Archive's SURTs to the CDX keys of
// the Java library webarchive-commons (WaybackURLKeyMaker.makeKey) and of
// the Python surt library 0.3.1, both run on the same inputs
// (testdata/webarchive-commons): where the two libraries agree, Archive's
// SURT is theirs; where they differ, it is counted as equal to one, the
// other or neither, and the counts are those docs/deviations.md gives
// ("Archive and webarchive-commons"), which lists each difference.
func TestWebarchiveCommonsVectors(t *testing.T) {
	b, err := os.ReadFile("testdata/webarchive-commons/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors []struct {
		Input      *string
		Java       *string
		Function   string  `json:"java_function"`
		SURTPython *string `json:"surt_python"`
		Agree      bool
	}
	if err := json.Unmarshal(b, &vectors); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, v := range vectors {
		if v.Function != "WaybackURLKeyMaker.makeKey" || v.Input == nil || *v.Input == "" {
			continue // another function, or no URL (both write "-"; canon has no key)
		}
		in := *v.Input
		got := ""
		key, err := Normalize(in, Archive)
		if err == nil {
			got, err = SURT(key)
		}
		java := v.Java != nil && err == nil && got == *v.Java
		python := v.SURTPython != nil && err == nil && got == *v.SURTPython
		if v.Agree && !(java && python) {
			t.Errorf("SURT(Normalize(%q, Archive)) = %q, %v; both libraries give %q", in, got, err, *v.SURTPython)
		}
		switch {
		case java && python:
			counts["both"]++
		case python:
			counts["Python"]++
		case java:
			counts["Java"]++
		default:
			counts["neither"]++
		}
	}
	m := regexp.MustCompile(`Of the (\d+) with a URL, Archive's SURT equals both libraries' on (\d+), the Python library's alone on (\d+), the Java library's alone on (\d+), and neither on (\d+)\.`).
		FindStringSubmatch(docText(t, "docs/deviations.md"))
	if m == nil {
		t.Fatal(`docs/deviations.md: no "Of the N with a URL, Archive's SURT equals both libraries' on N, …" sentence`)
	}
	total := counts["both"] + counts["Python"] + counts["Java"] + counts["neither"]
	for i, n := range []int{total, counts["both"], counts["Python"], counts["Java"], counts["neither"]} {
		if w, _ := strconv.Atoi(m[i+1]); w != n {
			t.Errorf("docs/deviations.md says %q; the vectors give %d %v", m[0], total, counts)
			break
		}
	}
}
