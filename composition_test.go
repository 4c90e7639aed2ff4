package canon

import (
	"strconv"
	"strings"
	"testing"
)

// Profiles composed of steps that each hold alone, and inputs around the
// ones the property harness (properties_test.go) found them failing on:
// each test is the class of one defect, its input's neighbours included.

// composedLowercaseNFC are profiles that lowercase a component and
// normalize it to NFC without the steps that check escapes (EncodeToURI,
// EncodeToIRI): NFC with the lowercasing steps alone, WebCapture's steps
// with them, and IRI's.
var composedLowercaseNFC = []Profile{
	MustProfile(NFC, LowercasePath, LowercaseQuery),
	MustProfile(append(WebCapture.Steps(), NFC, LowercasePath, LowercaseQuery)...),
	MustProfile(append(IRI.Steps(), LowercasePath, LowercaseQuery)...),
}

// TestCodePointScanComposed puts every code point (the sample of
// TestCodePointScan; all of them with -long) in a path and a query
// under composedLowercaseNFC: after a capital and before a "%" that
// starts no triplet ("B\u0301%": lowercasing makes "b\u0301", which NFC
// composes, and the writer must not take the "%" for a triplet), after
// it, one byte earlier, and before a combining mark (U+212A KELVIN SIGN,
// whose NFC is the ASCII capital "K", which lowercasing must then lower
// too). Every input must give an error or a key that is a fixed point,
// and no panic.
func TestCodePointScanComposed(t *testing.T) {
	shapes := []struct{ prefix, suffix string }{
		{"http://h/B", "%"}, {"http://h/B%", ""}, {"http://h/%B", "%"}, {"http://h/", "\u0301"},
		{"http://h/B", "\u0301%"}, {"http://h/?a=B", "%"}, {"http://h/?B%", "x"}, {"http://h/?", "\u0301"},
		{"http://h/%2", "%"}, {"http://h/a/", "%4"}, {"http://h/B", ""}, {"http://h/?B", ""}, {"http://h/%2F", "/x"},
	}
	var fails scanFailures
	n := 0
	for r := range scanRunes(!*longTests) {
		rs := string(r)
		for _, p := range composedLowercaseNFC {
			for _, sh := range shapes {
				in := sh.prefix + rs + sh.suffix
				n++
				func() {
					defer func() {
						if v := recover(); v != nil {
							fails.add(name(p)+": panic", "Normalize(%q, %s) panicked: %v", in, name(p), v)
						}
					}()
					key, err := Normalize(in, p)
					if err != nil {
						return
					}
					if again, err := Normalize(key, p); again != key || err != nil {
						fails.add(name(p)+": not a fixed point", "Normalize(%q, %s) = %q; Normalize of that = %q, %v (U+%04X)", in, name(p), key, again, err, r)
					}
				}()
			}
		}
	}
	fails.report(t)
	t.Logf("%d inputs", n)
}

// TestBlobBaseRefs holds the references against blob: bases, under every
// profile with ParseWHATWG that blob: URLs are keyed apart in (the escape
// steps, TrimHostDots and the key steps: plan.blob) or as any URL (with
// an archive tool's step), to NormalizeRef's contract: the key is the
// profile's key of the WHATWG href (Normalize of it), a fixed point, and
// what a Base gives. An absolute link on a blob: page is keyed as it
// would be alone (its tracking parameters dropped, its query sorted), and
// the target of a fragment is the blob: URL's own key.
func TestBlobBaseRefs(t *testing.T) {
	bases := []string{"blob:http://h/a/b", "blob:http://h/%61bc", "blob:https://H/%61B?b=1&a=2#f", "blob://h/%61B/c?q",
		"blob:file:///C:/a/", "blob:null/x", "blob:http://h/a%2fb", "BLOB:http://h/x"}
	refs := []string{"http://h/?utm_source=x&b=1&a=2", "https://h/%7e?b&a", "blob:http://h/%61?b&a#x", "#x", "#%61",
		"", "?z&y", "d", "../e", "//h2/x?b&a", "http:g", "mailto:X@Y", "  http://h/%41#f "}
	profiles := []Profile{WHATWG, Crawler, Archive, Aggressive}
	for _, s := range []Step{UppercaseEscapes, DecodeUnreserved, TrimHostDots, RemoveFragment, SortQuery, RemoveTrackingParams,
		DecodePathRepeatedly, DecodeQueryRepeatedly, LowercasePath, LowercaseQuery} {
		profiles = append(profiles, MustProfile(ParseWHATWG, s), MustProfile(ParseWHATWG, DecodeUnreserved, s))
	}
	n := 0
	for _, p := range profiles {
		for _, base := range bases {
			for _, ref := range refs {
				n++
				key, err := NormalizeRef(base, ref, p)
				if h, herr := NormalizeRef(base, ref, WHATWG); herr == nil {
					want, werr := Normalize(h, p)
					if key != want || (err == nil) != (werr == nil) {
						t.Errorf("NormalizeRef(%q, %q, %s) = %q, %v; the WHATWG href %q keyed = %q, %v", base, ref, name(p), key, err, h, want, werr)
					}
				} else if err == nil {
					t.Errorf("NormalizeRef(%q, %q, %s) = %q; WHATWG's fails: %v", base, ref, name(p), key, herr)
				}
				if err == nil {
					if again, err := Normalize(key, p); again != key || err != nil {
						t.Errorf("NormalizeRef(%q, %q, %s) = %q; Normalize of that = %q, %v: not a fixed point", base, ref, name(p), key, again, err)
					}
				}
				sameRef(t, Encoding{}, base, ref, p)
			}
		}
	}
	t.Logf("%d references", n)
}

// TestHostDotsDecoded holds TrimHostDots, with the steps that decode a
// host's escapes or map its full stops, to its fixed point: a host made
// of labels, ".", the full stops UTS #46 maps to it (U+3002, U+FF0E,
// U+FF61) and "%2e" in each case, in every order of up to three parts,
// after ParseWHATWG and without it. A decoded "%2E" after a full stop
// ("\u3002%2e") leaves a host that ends in full stops again, which the
// key must not keep ("http://\u3002/" is a host of dots only, an error).
func TestHostDotsDecoded(t *testing.T) {
	parts := []string{"a", ".", "\u3002", "\uff0e", "\uff61", "%2e", "%2E", "1"}
	var hosts []string
	var build func(prefix string, depth int)
	build = func(prefix string, depth int) {
		if prefix != "" {
			hosts = append(hosts, prefix)
		}
		if depth == 3 {
			return
		}
		for _, p := range parts {
			build(prefix+p, depth+1)
		}
	}
	build("", 0)
	var profiles []Profile
	for _, extra := range [][]Step{{DecodeUnreserved}, {DecodeIUnreserved}, {DecodeUnreserved, HostToASCII},
		{DecodeIUnreserved, HostToUnicode}, {UppercaseEscapes}, {}} {
		profiles = append(profiles, MustProfile(append([]Step{TrimHostDots, LowercaseHost}, extra...)...))
		if p, err := NewProfile(append([]Step{ParseWHATWG, TrimHostDots}, extra...)...); err == nil {
			profiles = append(profiles, p)
		}
	}
	profiles = append(profiles, POWDER, Archive)
	n := 0
	for _, p := range profiles {
		for _, h := range hosts {
			for _, scheme := range []string{"http://", "foo://"} {
				in := scheme + h + "/x"
				n++
				checkKeyInvariants(t, in, p)
			}
		}
	}
	t.Logf("%d inputs", n)
}

// TestDriveLetterHostDecoded holds the rule that a file URL's host may not
// be a Windows drive letter ("file://C:/x" is an error: RFC 3986 reads a
// host "c" and an empty port, which would merge the drive with a remote
// host) to the host as the key writes it: spelled with an escape, a
// trailing dot or a full stop, under the steps that decode or trim them,
// the input is an error or a key that reads again as itself.
func TestDriveLetterHostDecoded(t *testing.T) {
	hosts := []string{"C", "c", "%43", "%63", "C.", "%43.", "C%2E", "C\u3002", "u:p@C", "u@%43", "CC", "%43%43", "1",
		"\uff23", "%EF%BC%A3", "\u212a"}
	profiles := []Profile{WebCapture, RFC3986, IRI, POWDER, MustProfile(HostToASCII), MustProfile(HostToASCII, TrimHostDots),
		MustProfile(LowercaseHost, DecodeUnreserved), MustProfile(HostToUnicode, DecodeIUnreserved),
		MustProfile(DefaultScheme, HostToUnicode, EncodeToIRI, AddRootPath), MustProfile(HostToASCII, DecodeUnreserved, TrimHostDots),
		MustProfile(TrimHostDots)}
	for _, p := range profiles {
		for _, h := range hosts {
			for _, rest := range []string{":/x", ":", "::/x", ":/"} {
				in := "file://" + h + rest
				checkKeyInvariants(t, in, p)
				key, err := Normalize(in, p)
				if err == nil {
					if r, _ := Parse(key); r.HasPort && r.Port == "" && len(r.Host) == 1 && isASCIILetter(r.Host[0]) {
						t.Errorf("Normalize(%q, %s) = %q: a drive letter as host", in, name(p), key)
					}
				}
			}
		}
	}
}

// TestRulesDomainSpellings holds Rules() to its promise, WithRules of it
// gives the profile back, where Hosts has two keys that name one domain
// ("Example.com" and "example.com."): their union is the domain's rules,
// and a union that WithRules would refuse alone (a keep-only list beside
// tracking names) is refused here too.
func TestRulesDomainSpellings(t *testing.T) {
	p := MustProfile(ParseWHATWG, RemoveTrackingParams, RemoveSessionIDs)
	spellings := []string{"example.com", "Example.COM", "example.com.", "EXAMPLE.com."}
	lists := []Rules{{KeepParams: []string{"a"}}, {TrackingPrefixes: []string{"x"}}, {TrackingParams: []string{"t"}},
		{SessionParams: []string{"s"}}, {KeepParams: []string{"b"}, SessionParams: []string{"s"}}}
	for i, s1 := range spellings {
		for _, s2 := range spellings[i+1:] {
			for _, l1 := range lists {
				for _, l2 := range lists {
					r := Rules{Hosts: map[string]Rules{s1: l1, s2: l2}}
					q, err := p.WithRules(r)
					if err != nil {
						// The error names the keys as written.
						if !strings.Contains(err.Error(), "never read") || !strings.Contains(err.Error(), strconv.Quote(s1)) ||
							!strings.Contains(err.Error(), strconv.Quote(s2)) {
							t.Errorf("WithRules(%+v): %v", r, err)
						}
						continue
					}
					back, err := p.WithRules(q.Rules())
					if err != nil || back != q {
						t.Errorf("WithRules(%+v) = %v; WithRules of its Rules() %+v = %v, %v", r, q, q.Rules(), back, err)
					}
				}
			}
		}
	}
}

// nfcProfiles are profiles with NFC and each way of treating escapes: none
// (NFC alone), validated and respelled (UppercaseEscapes, DecodeUnreserved,
// with PlusToSpace's spaces), IRI's, and the lowercasing steps.
var nfcProfiles = []Profile{MustProfile(NFC), MustProfile(NFC, UppercaseEscapes), MustProfile(NFC, DecodeUnreserved, RemoveFragment),
	MustProfile(NFC, PlusToSpace, UppercaseEscapes), MustProfile(NFC, DecodeIUnreserved), IRI, MustProfile(NFC, EncodeToIRI),
	MustProfile(NFC, LowercasePath, LowercaseQuery), MustProfile(NFC, LowercasePath, RemoveSessionIDs)}

// TestNFCEveryComponent holds the NFC step to its documentation in every
// profile that has it: the userinfo, path, query and fragment of the key
// are NFC run by run, with or without an escape or a space in them (NFC
// ran only where EncodeToIRI or a "%" made the engine look at the text),
// and the key is a fixed point ("http://h/e\u0301+" under PlusToSpace and
// UppercaseEscapes gave "http://h/e\u0301%20", whose key is "é%20").
func TestNFCEveryComponent(t *testing.T) {
	texts := []string{"e\u0301", "e\u0301+", "e\u0301 ", "A\u030a%41", "x\u212a", "\u1e9b\u0323", "e\u0301%zz"}
	for _, p := range nfcProfiles {
		for _, x := range texts {
			for _, in := range []string{"http://u" + x + "@h/", "http://h/" + x, "http://h/?a=" + x, "http://h/#" + x} {
				key, err := Normalize(in, p)
				if err != nil {
					continue
				}
				checkKeyInvariants(t, in, p)
				r, err := Parse(key)
				if err != nil {
					t.Fatalf("Parse(Normalize(%q, %s) = %q): %v", in, name(p), key, err)
				}
				for _, c := range []string{r.Userinfo, r.Path, r.Query, r.Fragment} {
					if !isNFCRunsStrict(c) {
						t.Errorf("Normalize(%+q, %s) = %+q: %+q is not NFC run by run", in, name(p), key, c)
					}
				}
			}
		}
	}
}

// TestNFCPunctuationBarrier holds NFC to "no step creates an ASCII
// delimiter": U+037E (whose NFC is ";") and U+1FEF (whose NFC is "`")
// stay as written, or encoded, in every component, after a capital that
// LowercasePath lowers too ("X\u037ejsessionid=…" was "x;jsessionid=…",
// which RemoveSessionIDs then cut, and no fixed point).
func TestNFCPunctuationBarrier(t *testing.T) {
	for _, p := range nfcProfiles {
		for _, r := range []string{"\u037e", "\u1fef", "%CD%BE", "%E1%BF%AF"} {
			for _, in := range []string{"http://h/X" + r + "jsessionid=0123456789abcdef0123456789abcdef", "http://h/a" + r + "b\u0301",
				"http://h/?A" + r + "b", "http://h/#a" + r, "http://u" + r + "@h/"} {
				checkKeyInvariants(t, in, p)
				key, err := Normalize(in, p)
				if err != nil {
					continue
				}
				if strings.Count(key, ";")+strings.Count(key, "`") != strings.Count(in, ";")+strings.Count(in, "`") {
					t.Errorf("Normalize(%+q, %s) = %+q: NFC made a delimiter", in, name(p), key)
				}
			}
		}
	}
}

// TestNFCStreamSafe holds NFC to no false merge where golang.org/x/text
// inserts U+034F COMBINING GRAPHEME JOINER (after 30 combining marks in a
// row, UAX #15's Stream-Safe Text Format): such a run is an error, and a
// run of 30 or fewer, or one a U+034F of the input breaks, keeps its key,
// so that "a" + 31 marks and "a" + 30 marks + U+034F + 1 mark (IRIs RFC
// 3987 §5.3.2.2 keeps apart) never get one key.
func TestNFCStreamSafe(t *testing.T) {
	marks := []string{"\u0301", "\u0323", "\u0308", "\u05b4", "\U0001D16E"}
	for _, p := range nfcProfiles {
		for _, m := range marks {
			for n := 28; n <= 33; n++ {
				for _, base := range []string{"a", "\u00e1", ""} {
					run := base + strings.Repeat(m, n)
					split := base + strings.Repeat(m, 30) + "\u034f" + strings.Repeat(m, max(n-30, 1))
					for _, tmpl := range []string{"http://h/%s", "http://h/?q=%s", "http://h/#%s"} {
						in, in2 := strings.Replace(tmpl, "%s", run, 1), strings.Replace(tmpl, "%s", split, 1)
						k1, err1 := Normalize(in, p)
						k2, err2 := Normalize(in2, p)
						if err1 == nil && err2 == nil && k1 == k2 && !(p.Has(RemoveFragment) && strings.Contains(tmpl, "#")) {
							t.Errorf("Normalize(%+q, %s) = Normalize(%+q) = %+q: a false merge", in, name(p), in2, k1)
						}
						checkKeyInvariants(t, in, p)
						checkKeyInvariants(t, in2, p)
					}
				}
			}
		}
	}
}

// TestPOWDERZoneDecoded holds DecodeAll's rule that no IPv6 zone survives
// it to every spelling of the "%25" that introduces one: written, escaped
// again, or made by decoding ("%%325" is "%25"); each is an error or a key
// that reads again as itself.
func TestPOWDERZoneDecoded(t *testing.T) {
	zones := []string{"%25eth0", "%2525eth0", "%%325eth0", "%%32%35eth0", "%%325%%325eth0", "%eth0", "%", "%31", "%2531"}
	for _, z := range zones {
		for _, in := range []string{"http://[::1" + z + "]/", "file://u@[::1" + z + "]", "[::1" + z + "]/x"} {
			checkKeyInvariants(t, in, POWDER)
		}
	}
}

// TestRedactionResolved holds NormalizeRef's and Base's errors about the
// URL they made of the base and the reference ("resolved") to the
// redaction rule: a reference whose "://" is encoded ("http%3A//u:pw@h/")
// holds a userinfo for the readers that decode it, and resolution puts it
// in the base's path, where the reference's own readings no longer start.
func TestRedactionResolved(t *testing.T) {
	prefixes := []string{"http%3A//", "http%253A//", "..%2Fhttp%3A//", "x%2Fhttp%3A%2F%2F", "a/http%3A//", "./http:%2F%2F", "%2F%2F", "a/%2F%2F"}
	bases := []string{"http://h/a/b", "http://h", "foo://h/a", "file:///C:/x"}
	for _, p := range []Profile{WebCapture, RFC3986, IRI, POWDER, MustProfile(UppercaseEscapes), SafeBrowsing} {
		for _, pre := range prefixes {
			for _, rest := range []string{"u:" + password + "@h/%zz", "u:" + password + "@h:99999/", "u%3A" + password + "@h/%zz"} {
				ref := pre + rest
				for _, base := range bases {
					if _, err := NormalizeRef(base, ref, p); err != nil && leaksPassword(err) {
						t.Errorf("NormalizeRef(%q, %q, %s): error %q shows the password", base, ref, name(p), err)
					}
					if b, err := NewBase(base, p); err == nil {
						if _, err := b.Normalize(ref); err != nil && leaksPassword(err) {
							t.Errorf("NewBase(%q, %s).Normalize(%q): error %q shows the password", base, name(p), ref, err)
						}
					}
				}
			}
		}
	}
}

// TestRulesErrorsDeterministic: of several bad Hosts keys, WithRules names
// the same one on every call (the keys are read in their order, not the
// map's).
func TestRulesErrorsDeterministic(t *testing.T) {
	p := MustProfile(ParseWHATWG, RemoveTrackingParams)
	r := Rules{Hosts: map[string]Rules{"a..b": {KeepParams: []string{"a"}}, "c..d": {KeepParams: []string{"a"}},
		"e%": {KeepParams: []string{"a"}}, "f g": {KeepParams: []string{"a"}}}}
	_, first := p.WithRules(r)
	for i := 0; i < 100; i++ {
		if _, err := p.WithRules(r); errText(err) != errText(first) {
			t.Fatalf("WithRules(%+v) = %v, then %v", r, first, err)
		}
	}
}

// TestSURTHostAsKeyWrites holds ReadAsSURT's reading of numeric hosts
// (the surt library's: "1113982867.." is an address, "0x7f" a name) to
// the host as the key writes it, not as the input spells it: an opaque
// host whose escapes a step decodes ("1113982867.%2E" with
// DecodeUnreserved is "1113982867.."), and a host that StripWWW or
// StripWWWN leaves a number ("www2.255%2E." is "255..", "www.2" is "2",
// "www.1.0x7f.." is "1.0x7f.."), which the key, read again, would read as
// an address or trim. Every input of hosts of labels, numbers in their
// spellings, dots and escaped dots, under Archive and Archive's steps
// with the escape steps, is an error or a key that reads again as itself.
func TestSURTHostAsKeyWrites(t *testing.T) {
	parts := []string{"www", "www2", "1", "255", "0x7f", "08", ".", "..", "%2E", "%32", "a"}
	var hosts []string
	var build func(prefix string, depth int)
	build = func(prefix string, depth int) {
		if prefix != "" {
			hosts = append(hosts, prefix)
		}
		if depth == 4 {
			return
		}
		for _, p := range parts {
			build(prefix+p, depth+1)
		}
	}
	build("", 0)
	profiles := []Profile{Archive, MustProfile(append(Archive.Steps(), DecodeUnreserved)...),
		MustProfile(append(Archive.Steps(), UppercaseEscapes)...),
		MustProfile(ParseWHATWG, DecodeUnreserved, StripWWW, ReadAsSURT), MustProfile(ParseWHATWG, TrimHostDots, StripWWWN, ReadAsSURT)}
	n := 0
	for _, p := range profiles {
		for _, h := range hosts {
			for _, scheme := range []string{"http://", "foo://", "file://"} {
				n++
				checkKeyInvariants(t, scheme+h+"/x", p)
			}
		}
	}
	t.Logf("%d inputs", n)
}
