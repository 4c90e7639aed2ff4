package canon

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"
)

// recordedStepDigests records, for each rule version of each predefined
// profile, the digest of its steps and their rule versions (and the
// core's) that the version was made with. A maintainer who bumps a step
// (stepRuleVersions) or the core (coreRuleVersion) changes the digest of
// every profile that runs it; TestProfileRuleVersions then fails until
// each of those profiles has a new version in profileRuleVersions, with
// its digest recorded here, so no profile's keys change under an old
// version. Entries are never removed: they are the history.
var recordedStepDigests = map[string]string{
	"webcapture/1": "f2d271c1b725",
	"rfc3986/1":    "d00693780c69",
	"iri/1":        "8300faba08e2",
	"powder/1":     "f86cc5d235af",
	"whatwg/1":     "18fedef91d9a",
	"crawler/1":    "4bdf29246262",
	"archive/1":    "d35ec564fd19",
	"aggressive/1": "d5d3f4697b37",
	"whatwg/2":     "c6007264982b",
	"crawler/2":    "b695c0ab8317",
	"crawler/3":    "865a72f5c3f5",
	"archive/2":    "cc7c9fb0130d",
	"aggressive/2": "1fc11235eb65",
	"webcapture/2": "51e7a33dbd58",
	"iri/2":        "36f7eb990788",
	"powder/2":     "6d32801ee17e",
	"archive/3":    "81843fd44ce0",
	"aggressive/3": "24eb158a8c92",
	"archive/4":    "81843fd44ce0",
	"aggressive/4": "24eb158a8c92",
	"crawler/4":    "4b5840f15680",
	"webcapture/3": "0784d44f3460",
	"rfc3986/2":    "1fbaaefee1fd",
	"iri/3":        "33ec2555e3d3",
	"powder/3":     "618cc7b2184d",
	"whatwg/3":     "081b4aa1f942",
	"crawler/5":    "68e498782bcf",
	"archive/5":    "3ab7565c15fd",
	"aggressive/5": "befc22950498",
	"archive/6":    "a9ccc97d02b9",
	"aggressive/6": "bfbb0c13fcbc",
	"powder/4":     "d2f965b7de52",
	"powder/5":     "a5cdfeb3bbfa",
	"archive/7":    "372e52ccda3c",
	"archive/8":    "5447edec5eb0",
	"archive/9":    "8b47a053e911",
	"aggressive/7": "b780908b15d9",
	"archive/10":   "356623d386ed",

	"safebrowsing/1": "b5ee7314c212",
	"safebrowsing/2": "884d2050452c",
	"safebrowsing/3": "78f92f5e7ecc",
	"rfc3986/3":      "09c87c7a189a",
	"iri/4":          "56bcdfda223d",
	"crawler/6":      "561ecbe3459f",
	"powder/6":       "967f100d5914",
}

func stepsDigest(p Profile) string {
	var b strings.Builder
	p.writeStepsDigestText(&b)
	return shortDigest(b.String())
}

// TestProfileRuleVersions checks that each predefined profile's rule
// version was recorded with the step versions it runs now.
func TestProfileRuleVersions(t *testing.T) {
	if len(profileRuleVersions) != len(namedProfiles) {
		t.Errorf("profileRuleVersions has %d profiles, namedProfiles %d", len(profileRuleVersions), len(namedProfiles))
	}
	for _, np := range namedProfiles {
		n, ok := profileRuleVersions[np.name]
		if !ok || n < 1 {
			t.Errorf("profileRuleVersions[%q] = %d, %v: want a version of 1 or more", np.name, n, ok)
			continue
		}
		rv := np.p.ruleVersion()
		got := stepsDigest(np.p)
		want, ok := recordedStepDigests[rv]
		switch {
		case !ok:
			t.Errorf("%s: no step digest recorded for %s: add %q: %q to recordedStepDigests (keyversion_test.go), "+
				"with a CHANGELOG.md entry for %s and the golden files regenerated (docs/keys.md)", np.name, rv, rv, got, rv)
		case got != want:
			t.Errorf("%s: the rules of its steps changed (steps digest %s, recorded for %s: %s): "+
				"bump its version in profileRuleVersions (keyversion.go), record the digest of the new version here, "+
				"add a CHANGELOG.md entry and regenerate the golden files (docs/keys.md)", np.name, got, rv, want)
		}
	}
	for s := Step(0); s < numSteps; s++ {
		if stepRuleVersions[s] < 1 {
			t.Errorf("stepRuleVersions[%s] = %d, want 1 or more", s, stepRuleVersions[s])
		}
	}
}

// TestKeyVersionPredefined checks the form of the predefined profiles'
// KeyVersions: distinct, each its name, the Unicode version, and the
// Public Suffix List where StripWWW reads it.
func TestKeyVersionPredefined(t *testing.T) {
	seen := map[string]string{}
	for _, np := range namedProfiles {
		kv := np.p.KeyVersion()
		if prev, dup := seen[kv]; dup {
			t.Errorf("%s and %s have one KeyVersion %q", prev, np.name, kv)
		}
		seen[kv] = np.name
		parts := strings.Fields(kv)
		wantParts := 2
		if np.p.Has(StripWWW) {
			wantParts = 3
		}
		if len(parts) != wantParts {
			t.Errorf("%s.KeyVersion() = %q: %d parts, want %d", np.name, kv, len(parts), wantParts)
			continue
		}
		if want := strings.ToLower(np.name) + "/"; !strings.HasPrefix(parts[0], want) {
			t.Errorf("%s.KeyVersion() = %q, want it to start with %q", np.name, kv, want)
		}
		if want := "unicode-" + UnicodeVersion; parts[1] != want {
			t.Errorf("%s.KeyVersion() = %q, want %q second", np.name, kv, want)
		}
		if wantParts == 3 && parts[2] != "psl-"+publicSuffixListVersion {
			t.Errorf("%s.KeyVersion() = %q, want psl-%s third", np.name, kv, publicSuffixListVersion)
		}
	}
	// StripWWW reads the Public Suffix List; StripWWWN (Archive's, as
	// the Internet Archive strips www) does not.
	withPSL := MustProfile(ParseWHATWG, StripWWW)
	if got := withPSL.KeyVersion(); !strings.HasSuffix(got, " psl-"+publicSuffixListVersion) {
		t.Errorf("%v.KeyVersion() = %q: StripWWW reads the Public Suffix List", withPSL, got)
	}
	if got := Archive.KeyVersion(); strings.Contains(got, "psl-") {
		t.Errorf("Archive.KeyVersion() = %q: StripWWWN does not read the Public Suffix List", got)
	}
}

// TestKeyVersionCustom checks the KeyVersions of profiles built by
// NewProfile and WithRules: equal for equal profiles, different for
// different steps or rules, and changed by a step's rule version.
func TestKeyVersionCustom(t *testing.T) {
	same := MustProfile(Crawler.Steps()...)
	if got, want := same.KeyVersion(), Crawler.KeyVersion(); got != want {
		t.Errorf("NewProfile(Crawler.Steps()...).KeyVersion() = %q, want Crawler's %q", got, want)
	}
	withRules := func(p Profile, r Rules) Profile {
		t.Helper()
		q, err := p.WithRules(r)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	r1 := withRules(Crawler, Rules{TrackingParams: []string{"ref", "Source"}})
	r1b := withRules(Crawler, Rules{TrackingParams: []string{"source", "REF", "ref"}})
	r2 := withRules(Crawler, Rules{TrackingPrefixes: []string{"ref", "source"}})
	if r1.KeyVersion() != r1b.KeyVersion() {
		t.Errorf("equal rules, KeyVersions %q and %q", r1.KeyVersion(), r1b.KeyVersion())
	}
	if r1.KeyVersion() == r2.KeyVersion() {
		t.Errorf("the same names as TrackingParams and as TrackingPrefixes: one KeyVersion %q", r1.KeyVersion())
	}
	if kv := r1.KeyVersion(); !regexp.MustCompile(`^crawler/\d+\+rules-[0-9a-f]{12} unicode-`).MatchString(kv) {
		t.Errorf("Crawler with rules: KeyVersion %q, want crawler/N+rules-DIGEST first", kv)
	}
	if withRules(r1, Rules{}).KeyVersion() != Crawler.KeyVersion() {
		t.Errorf("Crawler with its rules removed: KeyVersion %q, want Crawler's", withRules(r1, Rules{}).KeyVersion())
	}

	custom := MustProfile(LowercaseScheme, LowercaseHost, StripWWW)
	kv := custom.KeyVersion()
	if !regexp.MustCompile(`^custom-[0-9a-f]{12} unicode-\S+ psl-\S+$`).MatchString(kv) {
		t.Errorf("custom profile: KeyVersion %q, want custom-DIGEST unicode-V psl-D", kv)
	}
	if other := MustProfile(LowercaseScheme, LowercaseHost, StripWWWN).KeyVersion(); other == kv {
		t.Errorf("different steps, one KeyVersion %q", kv)
	}
	if (Profile{}).KeyVersion() == kv {
		t.Errorf("the zero Profile has the KeyVersion of %v", custom)
	}
	sessions := MustProfile(LowercaseScheme, LowercaseHost, StripWWW, RemoveSessionIDs)
	if r := withRules(sessions, Rules{SessionParams: []string{"s"}}).KeyVersion(); r == sessions.KeyVersion() {
		t.Errorf("rules added, KeyVersion unchanged: %q", r)
	}

	// A step's rule version is part of a custom profile's KeyVersion,
	// and only the profile's own steps count.
	bump := func(s Step) {
		old := stepRuleVersions[s]
		stepRuleVersions[s]++
		t.Cleanup(func() { stepRuleVersions[s] = old })
	}
	bump(SortQuery)
	if got := custom.KeyVersion(); got != kv {
		t.Errorf("a step the profile does not run was bumped: KeyVersion %q, was %q", got, kv)
	}
	bump(StripWWW)
	if got := custom.KeyVersion(); got == kv {
		t.Errorf("StripWWW's rule version bumped: KeyVersion still %q", got)
	}
}

// TestUnicodeVersion checks that UnicodeVersion names the tables in use,
// by what they do: U+1CCF1 OUTLINED DIGIT ONE and the Kirat Rai vowel
// sign U+16D68 (U+16D67 twice, canonically) came with Unicode 16, so the
// UTS #46 mapping turns the first into "1" and NFC composes the second
// from 16.0.0 on, and not before.
func TestUnicodeVersion(t *testing.T) {
	major, _, _ := strings.Cut(UnicodeVersion, ".")
	n, err := strconv.Atoi(major)
	if err != nil {
		t.Fatalf("UnicodeVersion = %q", UnicodeVersion)
	}
	mapped, err := idna.New(idna.MapForLookup(), idna.Transitional(false)).ToUnicode("a\U0001CCF1")
	if got, want := err == nil && mapped == "a1", n >= 16; got != want {
		t.Errorf("UnicodeVersion %s: UTS #46 maps a\\U0001CCF1 to %q, %v", UnicodeVersion, mapped, err)
	}
	composed := norm.NFC.String("\U00016D67\U00016D67")
	if got, want := composed == "\U00016D68", n >= 16; got != want {
		t.Errorf("UnicodeVersion %s: NFC of U+16D67 U+16D67 is %+q", UnicodeVersion, composed)
	}
	t.Logf("UnicodeVersion = %s (golang.org/x/net/idna %s, golang.org/x/text/unicode/norm %s)", UnicodeVersion, idna.UnicodeVersion, norm.Version)
}

// TestPublicSuffixListVersion keeps publicSuffixListVersion honest:
// golang.org/x/net/publicsuffix does not export its list's version, but
// its generated table.go states it ("publicsuffix.org's
// public_suffix_list.dat, git revision ... (2026-02-06T07:36:33Z)"). The
// test reads that file where the go command keeps the module go.mod
// requires, so that upgrading golang.org/x/net to a newer list fails here
// until the version, and with it the KeyVersion of the profiles that read
// the list, is updated.
func TestPublicSuffixListVersion(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/net").Output()
	if err != nil {
		t.Fatalf("go list -m golang.org/x/net: %v (the test reads the module's source)", err)
	}
	dir := strings.TrimSpace(string(out))
	src, err := os.ReadFile(filepath.Join(dir, "publicsuffix", "table.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const version = "[^"\n]*\((\d{4}-\d{2}-\d{2})T[^"\n]*\)"`).FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s: no version constant with a date; how golang.org/x/net states its list's version changed", filepath.Join(dir, "publicsuffix", "table.go"))
	}
	if got := string(m[1]); got != publicSuffixListVersion {
		t.Errorf("golang.org/x/net/publicsuffix has the list of %s, publicSuffixListVersion is %s: update it (keyversion.go), "+
			"add a CHANGELOG.md entry naming psl-%s and regenerate the golden files (docs/keys.md)", got, publicSuffixListVersion, got)
	}
}

// customKeysFile holds the keys of random configurations of the property
// harness (properties_test.go): profiles built with NewProfile, Rules,
// page encodings, inputs and bases. A golden file per predefined profile
// holds that profile's keys to its KeyVersion (golden_test.go); this one
// holds the KeyVersion of profiles nobody predefined to the same rule,
// which the steps digest (writeStepsDigestText) must keep: a key that
// changes changes its KeyVersion.
const customKeysFile = "testdata/golden/custom.configs.gz"

// customKeysRows is how many configurations customKeysFile holds.
const customKeysRows = 3000

// customKeyRow is one configuration and what it gave: Normalize's key and
// NormalizeRef's of the input against the base ("!" and the sentinel and
// component of an error).
type customKeyRow struct {
	steps, rules, enc, in, base string
	keyVersion, key, ref        string
}

func (r customKeyRow) fields() []string {
	return []string{r.steps, r.rules, r.enc, r.in, r.base, r.keyVersion, r.key, r.ref}
}

// customKeyOf makes the row of steps, rules, encoding, input and base.
func customKeyOf(t *testing.T, steps, rules, enc, in, base string) customKeyRow {
	t.Helper()
	var st []Step
	if steps != "" {
		for _, n := range strings.Split(steps, "|") {
			s, err := ParseStep(n)
			if err != nil {
				t.Fatalf("%s: %v", customKeysFile, err)
			}
			st = append(st, s)
		}
	}
	p, err := NewProfile(st...)
	if err != nil {
		t.Fatalf("%s: NewProfile(%s): %v", customKeysFile, steps, err)
	}
	var r Rules
	if err := json.Unmarshal([]byte(rules), &r); err != nil {
		t.Fatalf("%s: rules %s: %v", customKeysFile, rules, err)
	}
	if p, err = p.WithRules(r); err != nil {
		t.Fatalf("%s: WithRules(%s): %v", customKeysFile, rules, err)
	}
	e, err := LookupEncoding(enc)
	if err != nil {
		t.Fatalf("%s: %v", customKeysFile, err)
	}
	if enc == "UTF-8" {
		e = Encoding{}
	}
	outcome := func(key string, err error) string {
		var ce *Error
		if errors.As(err, &ce) {
			for n, s := range sentinelNames {
				if errors.Is(err, s) {
					return "!" + n + "/" + ce.Component.String()
				}
			}
		}
		if err != nil {
			return "!" + err.Error()
		}
		return key
	}
	row := customKeyRow{steps: steps, rules: rules, enc: enc, in: in, base: base, keyVersion: p.KeyVersion()}
	row.key = outcome(e.Normalize(in, p))
	row.ref = outcome(e.NormalizeRef(base, in, p))
	return row
}

// sentinelNames names every sentinel for customKeyRow.
var sentinelNames = map[string]error{"ErrRelative": ErrRelative, "ErrInvalidEscape": ErrInvalidEscape,
	"ErrInvalidHost": ErrInvalidHost, "ErrInvalidPort": ErrInvalidPort, "ErrInvalidScheme": ErrInvalidScheme,
	"ErrInvalidChar": ErrInvalidChar, "ErrTooLong": ErrTooLong, "ErrEncoding": ErrEncoding}

// TestCustomKeyVersions holds the KeyVersion of any profile to its
// promise: two keys made under one KeyVersion are the same. For each
// configuration of customKeysFile whose profile still has the KeyVersion
// recorded, the keys must be the recorded ones; a row whose KeyVersion
// changed fails the test until the file is made again (-golden.update,
// testdata/golden/update.sh), which it is only when no key changed under
// an unchanged KeyVersion. The keys are compared under the Unicode
// version the file was made with (the KeyVersion names it: under
// another, every row's differs, and the golden files' delta holds the
// predefined profiles to it).
func TestCustomKeyVersions(t *testing.T) {
	var rows []customKeyRow
	unicode := ""
	if b, err := os.ReadFile(customKeysFile); err == nil {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		text, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
			if u, ok := strings.CutPrefix(line, "# unicode "); ok {
				unicode = u
			}
			if strings.HasPrefix(line, "#") {
				continue
			}
			var f []string
			for _, q := range strings.Split(line, "\t") {
				s, err := strconv.Unquote(q)
				if err != nil {
					t.Fatalf("%s:%d: %v", customKeysFile, i+1, err)
				}
				f = append(f, s)
			}
			if len(f) != 8 {
				t.Fatalf("%s:%d: %d fields, want 8", customKeysFile, i+1, len(f))
			}
			rows = append(rows, customKeyRow{f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]})
		}
	} else if !*goldenUpdate {
		t.Fatal(err)
	}
	if unicode != "" && unicode != UnicodeVersion {
		t.Logf("%s was made under Unicode %s; its keys are compared under that version only (this is %s)", customKeysFile, unicode, UnicodeVersion)
		return
	}
	stale, changed := 0, 0
	for _, r := range rows {
		now := customKeyOf(t, r.steps, r.rules, r.enc, r.in, r.base)
		if now.keyVersion != r.keyVersion {
			stale++
			continue
		}
		if now.key != r.key || now.ref != r.ref {
			changed++
			if changed <= 20 {
				t.Errorf("profile %s %s in %s, KeyVersion %s unchanged: Normalize(%q) was %q, is %q; NormalizeRef(%q, %q) was %q, is %q",
					r.steps, r.rules, r.enc, r.keyVersion, r.in, r.key, now.key, r.base, r.in, r.ref, now.ref)
			}
		}
	}
	if changed > 0 {
		t.Fatalf("%d of %d configurations changed keys under an unchanged KeyVersion: a step's rule version, or a line of writeStepsDigestText, must name the change (docs/keys.md)", changed, len(rows))
	}
	if !*goldenUpdate {
		if stale > 0 {
			t.Fatalf("%d of %d configurations have another KeyVersion now: make %s again (testdata/golden/update.sh)", stale, len(rows), customKeysFile)
		}
		t.Logf("%d configurations: keys as recorded", len(rows))
		return
	}
	r := rand.New(rand.NewPCG(2026, 11))
	var b bytes.Buffer
	fmt.Fprintf(&b, "# canon: keys of random configurations of profiles, rules, encodings, inputs and bases (TestCustomKeyVersions)\n")
	fmt.Fprintf(&b, "# fields, each a Go string literal: steps, rules (JSON), encoding, input, base, KeyVersion, Normalize, NormalizeRef\n")
	fmt.Fprintf(&b, "# unicode %s\n", UnicodeVersion)
	for i := 0; i < customKeysRows; i++ {
		c := propertyConfigOf(propRandomData(r))
		var steps []string
		for _, s := range c.p.Steps() {
			steps = append(steps, s.String())
		}
		rules, err := json.Marshal(c.p.Rules())
		if err != nil {
			t.Fatal(err)
		}
		row := customKeyOf(t, strings.Join(steps, "|"), string(rules), c.enc.Name(), c.in.s, c.base.s)
		for k, f := range row.fields() {
			if k > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(strconv.Quote(f))
		}
		b.WriteByte('\n')
	}
	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(customKeysFile, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d configurations (%d had another KeyVersion)", customKeysFile, customKeysRows, stale)
}
