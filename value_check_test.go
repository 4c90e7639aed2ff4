package canon

import (
	"errors"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The value checks itself in every test and fuzz target of the package:
// TestMain sets the hooks of url.go, so that every edit primitive (cut,
// splice, insert, encodeFinalSpaces), every stage that finishes a value
// (keyInto after the scan or the general path and after the key passes,
// resolveWHATWGInto, normalizeRef) and every composition of the RFC 3986
// and RFC 1808 resolvers is held to a reading of its bytes. A value whose
// offsets do not describe its bytes panics where the edit was made, with
// the bytes and both sets of offsets; the test or fuzz target that made
// it fails there. Benchmarks (-bench) run without the checks, and so do
// the allocation counts (allocsPerRun): they measure the library as it
// runs in production.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		setValueChecks(true)
	}
	os.Exit(m.Run())
}

// setValueChecks sets (on) or clears the hooks checkValue and checkParts.
func setValueChecks(on bool) {
	if !on {
		checkValue, checkParts = nil, nil
		return
	}
	checkValue = func(s string, o offsets) {
		if err := validateValue(s, o); err != nil {
			panic("canon: checkValue: " + err.Error())
		}
	}
	checkParts = func(s string, p *parts) {
		if err := validateParts(s, p); err != nil {
			panic("canon: checkParts: " + err.Error())
		}
	}
}

// allocsPerRun is testing.AllocsPerRun with the value checks off (they
// allocate): the counts are the library's own.
func allocsPerRun(runs int, f func()) float64 {
	on := checkValue != nil
	setValueChecks(false)
	defer setValueChecks(on)
	return testing.AllocsPerRun(runs, f)
}

func (o offsets) String() string {
	return "scheme<" + strconv.Itoa(o.schemeEnd) + " auth[" + strconv.Itoa(o.authStart) + "," + strconv.Itoa(o.authEnd) +
		") user<" + strconv.Itoa(o.userEnd) + " host[" + strconv.Itoa(o.hostStart) + "," + strconv.Itoa(o.hostEnd) +
		") path[" + strconv.Itoa(o.pathStart) + "," + strconv.Itoa(o.pathEnd) + ") query[" + strconv.Itoa(o.queryStart) +
		"," + strconv.Itoa(o.queryEnd) + ") frag@" + strconv.Itoa(o.fragStart) +
		" auth=" + strconv.FormatBool(o.hasAuth) + " user=" + strconv.FormatBool(o.hasUser) + " port=" + strconv.FormatBool(o.hasPort) +
		" query=" + strconv.FormatBool(o.hasQuery) + " frag=" + strconv.FormatBool(o.hasFrag) +
		" opaque=" + strconv.FormatBool(o.opaque) + " kind=" + strconv.Itoa(int(o.kind))
}

// readOffsets returns the offsets of s as the value records them, read
// by the package's parser without checks (parts.split: outside-in, as RFC
// 3986 Appendix B splits): a value's bytes are a URI reference whatever
// the profile, and its components are where that reading finds them.
// Absent components sit where they would be (url.go).
func readOffsets(s string) offsets {
	var p parts
	p.split(s, syntaxRFC3986)
	o := offsets{schemeEnd: p.schemeEnd, hasAuth: p.hasAuth, hasUser: p.hasUser, hasPort: p.hasPort,
		hasQuery: p.hasQuery, hasFrag: p.hasFrag, kind: p.kind}
	if p.hasAuth {
		o.authStart, o.authEnd = p.authStart, p.authEnd
		// The split does not tell host from port: the host ends after
		// the "]" of an IP literal, or at the first ":" (RFC 3986
		// §3.2.2, §3.2.3). A "[" that starts no IP literal is part of
		// a name (Safe Browsing's keys keep the host as written).
		o.hostStart, o.hostEnd = p.hostStart, p.authEnd
		h := s[p.hostStart:p.authEnd]
		if k := strings.IndexByte(h, ']'); len(h) > 0 && h[0] == '[' && k >= 0 && (k+1 == len(h) || h[k+1] == ':') {
			o.hostEnd = p.hostStart + k + 1
		} else if k := strings.IndexByte(h, ':'); k >= 0 {
			o.hostEnd = p.hostStart + k
		}
		o.hasPort = o.hostEnd < o.authEnd
	} else {
		n := p.schemeEnd + 1
		o.authStart, o.hostStart, o.hostEnd, o.authEnd = n, n, n, n
	}
	if p.hasUser {
		o.userEnd = p.userEnd
	}
	o.pathStart, o.pathEnd = p.pathStart, p.pathEnd
	o.queryStart, o.queryEnd = p.pathEnd, p.pathEnd
	if p.hasQuery {
		o.queryStart, o.queryEnd = p.queryStart, p.queryEnd
	}
	o.fragStart = o.queryEnd
	if p.hasFrag {
		o.fragStart = p.fragStart
	}
	o.opaque = !p.hasAuth && (p.pathEnd == p.pathStart || s[p.pathStart] != '/')
	return o
}

// validateValue reports whether the offsets o describe the bytes s: they
// are what readOffsets finds in them. The end of an absent userinfo is
// not compared (a stage may leave it anywhere when hasUser is false).
func validateValue(s string, o offsets) error {
	if !o.hasUser {
		o.userEnd = 0
	}
	if o.schemeEnd < 0 || o.schemeEnd >= len(s) {
		return errors.New(strconv.Quote(s) + ": scheme end " + strconv.Itoa(o.schemeEnd) + " out of range")
	}
	if want := readOffsets(s); o != want {
		return errors.New(strconv.Quote(s) + ": the value holds\n\t" + o.String() + "\nits bytes read\n\t" + want.String())
	}
	return nil
}

// valueOf returns u's bytes and offsets, as check passes them.
func valueOf(u *url) (string, offsets) {
	return u.str(), u.offsets()
}

// validateParts reports whether the parts p a resolver composed for s
// are those a parse of s finds (parts.parse, or the unchecked split when
// s does not parse: the engine reports its problems as it writes).
func validateParts(s string, p *parts) error {
	var want parts
	if want.parse(s, syntaxRFC3986) != nil {
		want.split(s, syntaxRFC3986)
		// A split checks nothing and records no byte classes.
		got := *p
		got.mScheme, got.mUser, got.mHost, got.mPath, got.mQuery, got.mFrag = 0, 0, 0, 0, 0, 0
		want.mScheme, want.mUser, want.mHost, want.mPath, want.mQuery, want.mFrag = 0, 0, 0, 0, 0, 0
		if got != want {
			return errors.New(strconv.Quote(s) + ": composed parts differ from a split of its bytes")
		}
		return nil
	}
	if *p != want {
		return errors.New(strconv.Quote(s) + ": composed parts differ from a parse of its bytes")
	}
	return nil
}

// TestCheckValueCatches: the check is no test that cannot fail. A value
// whose offsets were moved by one, or whose flags were flipped, is
// reported, and a value made by the engine is not.
func TestCheckValueCatches(t *testing.T) {
	for _, in := range []string{"http://u:p@h:8/a/b?q#f", "mailto:a@b", "foo:/x", "http://h", "file:///C:/x?"} {
		for _, p := range []Profile{RFC3986, WHATWG, Crawler} {
			u := keyValue(in, nil)
			if _, f := keyInto(&u, p.plan()); f != nil {
				t.Fatalf("Normalize(%q, %v): %v", in, p, f)
			}
			if err := validateValue(valueOf(&u)); err != nil {
				t.Fatalf("Normalize(%q, %v): %v", in, p, err)
			}
			for k, mangle := range []func(*url){
				func(u *url) { u.pathEnd-- },
				func(u *url) { u.schemeEnd++ },
				func(u *url) { u.hasQuery = !u.hasQuery },
				func(u *url) { u.hasAuth = !u.hasAuth },
				func(u *url) { u.fragStart++ },
				func(u *url) { u.opaque = !u.opaque },
			} {
				m := u
				mangle(&m)
				if validateValue(valueOf(&m)) == nil {
					t.Errorf("Normalize(%q, %v): mangled value %d passes validateValue", in, p, k)
				}
			}
		}
	}
	if checkValue == nil || checkParts == nil {
		t.Fatal("the hooks are not set")
	}
}
