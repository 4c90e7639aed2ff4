package canon

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"
)

// quickProfiles are the profiles the quick check is held to: the
// predefined ones, the zero Profile (which Resolve uses), every
// single-step profile and every predefined profile less one step.
func quickProfiles() []Profile {
	ps := []Profile{WebCapture, RFC3986, IRI, POWDER, {}}
	for s := Step(0); s < numSteps; s++ {
		ps = append(ps, Profile{1 << s})
		for _, np := range namedProfiles {
			if np.p.Has(s) {
				ps = append(ps, Profile{np.p.steps &^ (1 << s)})
			}
		}
	}
	return ps
}

// checkQuick asserts that when the quick check calls s canonical under p,
// the engine agrees and returns the same key.
func checkQuick(t *testing.T, s string, p Profile) bool {
	t.Helper()
	n, ok := quick(s, p)
	if !ok {
		return false
	}
	want, err := normalize(s, p)
	if err != nil || want != s[:n] {
		t.Errorf("quick(%q, %v) = %q, but the engine gives %q, %v", s, p, s[:n], want, err)
	}
	return true
}

func TestQuickAgreesWithEngine(t *testing.T) {
	in := seedInputs(t)
	// Variants that sit on the quick check's edges.
	in = append(in,
		"http://h", "http://h?q", "http://h#f", "foo://h", "foo://h?q", "file://localhost/x",
		"file://localhost", "http://h:80/", "http://h:8080/", "http://h:08080/", "http://h:65536/",
		"http://h:65535/", "http://h:/", "ftp://h:21/", "https://h:443/", "https://h:80/",
		"http://h./", "http://h/.", "http://h/..", "http://h/a/./b", "http://h/a/../b",
		"http://h/.a", "http://h/..a", "http://h/a.", "http://h/a/.?q", "http://h/a/..#f",
		"http://h/%2F", "http://h/%2f", "http://h/%41", "http://h/%C3%A9", "http://h/%",
		"http://h/%4", "http://h?%20", "http://h#%7E", "http://h#a#b", "http://h/#\x01",
		"http://xn--rsum-bpad.example/", "http://1.2.3.4/", "http://1.2.3.04/", "http://0x7f.1/",
		"http://a.b1/", "http://h/+", "http://h/a+b?c+d", "http:///x", "http://h/a b",
		"svn+ssh://h/x", "a://h", "file:///x", "file://", "file://:80/x", "foo://:1/x", "foo:///", "file:///./x", "http://:80/", "foo://?q", "foo://#f",
		"http://h/ ", " http://h/", "http://h/\\", "http://h/a%2E%2E/",
	)
	ps := quickProfiles()
	accepted := 0
	for _, s := range in {
		for _, p := range ps {
			if checkQuick(t, s, p) {
				accepted++
			}
		}
	}
	if accepted == 0 {
		t.Fatal("the quick check accepted nothing")
	}
}

// TestQuickCoverage keeps the fast path useful: of the corpus sample's
// URLs that RFC3986 leaves unchanged, the quick check must recognize
// nearly all.
func TestQuickCoverage(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "corpus-sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	unchanged, quickOK := 0, 0
	for sc.Scan() {
		s := sc.Text()
		if k, err := normalize(s, RFC3986); err != nil || k != s {
			continue
		}
		unchanged++
		if _, ok := quick(s, RFC3986); ok {
			quickOK++
		} else {
			t.Logf("not quick: %q", s)
		}
	}
	if quickOK*100 < unchanged*97 {
		t.Errorf("quick check recognized %d of %d canonical URLs, want at least 97%%", quickOK, unchanged)
	}
	t.Logf("quick check recognized %d of %d canonical URLs", quickOK, unchanged)
}
