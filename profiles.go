package canon

import (
	"errors"
	"strings"
)

// Profile is a canonicalization profile: a set of [Step]s, run in the
// order the Step constants are declared. It is a small comparable value
// (usable as a map key); profiles with the same steps are ==.
//
// The zero Profile has no step: Normalize then only validates, trims and
// requires a scheme, and returns its input otherwise unchanged.
//
// A profile's keys are those of its KeyVersion: the predefined profiles'
// steps are fixed for this major version, and any change of their keys
// (or of the Unicode tables or Public Suffix List they use) comes with a
// new KeyVersion.
type Profile struct {
	pl *plan // interned (see plan.go): nil for the zero Profile
}

// Predefined profiles. Each follows one of the documents this package was
// written from (see the README's table); the String method lists the steps.
// They are values; they are variables only because Go has no struct
// constants, and a program must not assign to them (LookupProfile and
// String keep their own copies).
var (
	// WebCapture is the canonical form of URLs in PDF Web Capture
	// content sets (PDF Reference, "URL Strings"): exactly the
	// seven steps of the PDF. It changes no percent-encoding ("one and
	// only one encoding pass") and adds no "/" to an empty path.
	WebCapture = mustProfile(ResolveRFC1808, RemoveFragment, LowercaseScheme, LowercaseHost,
		StripFileLocalhost, RemoveHTTPFTPPort, RemoveDots1808)

	// RFC3986 is syntax-based and scheme-based normalization (RFC 3986
	// §6.2.2 and §6.2.3) of the URI that RFC 3987 §3.1 maps the input to.
	// It never changes which resource the URI names, and its output is
	// always an ASCII URI.
	RFC3986 = mustProfile(LowercaseScheme, LowercaseHost, HostToASCII, RemoveDefaultPort,
		EncodeToURI, UppercaseEscapes, DecodeUnreserved, RemoveDots, AddHTTPRootPath)

	// IRI is the comparison ladder of RFC 3987 §5.3 up to scheme-based
	// normalization: RFC3986's case and scheme-based steps, NFC,
	// percent-decoding of ucschar, and hosts as Unicode. Its output is an
	// IRI: Unicode wherever RFC 3987 allows it.
	IRI = mustProfile(LowercaseScheme, LowercaseHost, HostToUnicode, RemoveDefaultPort,
		EncodeToIRI, UppercaseEscapes, DecodeUnreserved, DecodeIUnreserved, NFC, RemoveDots, AddHTTPRootPath)

	// POWDER is the URI canonicalization of the W3C POWDER working group
	// (its canonicalization rules): decode every percent-encoding, "+" to
	// space, default scheme http, lowercase scheme and host, strip
	// trailing dots from the host, "/" for an empty path. Its keys are for matching URIs against
	// patterns, NOT for fetching: it merges "%2F" with "/", "+" with
	// space, "%3F" with "?".
	POWDER = mustProfile(DefaultScheme, DecodeAll, PlusToSpace, LowercaseScheme, LowercaseHost,
		TrimHostDots, AddRootPath)

	// WHATWG reads a URL as browsers do: the WHATWG URL Standard's basic
	// URL parser and URL serializer (the href, fragment included), one
	// step, ParseWHATWG. Normalize(raw, WHATWG) is the href of
	// new URL(raw); NormalizeRef(base, href, WHATWG) that of
	// new URL(href, base). Where the standard returns failure, canon
	// returns an error. It never merges two URLs that a browser sends as
	// different requests.
	WHATWG = mustProfile(ParseWHATWG)

	// Crawler is the key for a crawl frontier: WHATWG (read as a browser
	// reads the link), with the escapes RFC 3986 §6.2.2 calls equivalent
	// spelled one way (hex in uppercase, unreserved characters decoded:
	// "%7e" and "~", "%2f" and "%2F" meet), without the fragment, with
	// tracking parameters, session ids, empty parameters and an empty
	// query removed and the parameters sorted by name. It merges only
	// what nearly every site serves alike; it keeps "www", the scheme,
	// path and query case, every encoded delimiter apart from the
	// delimiter ("%2F" and "/", "%26" and "&", "+" and "%20"), and the
	// order of parameters with one name.
	Crawler = mustProfile(ParseWHATWG, RemoveFragment, UppercaseEscapes, DecodeUnreserved, RemoveSessionIDs,
		RemoveTrackingParams, RemoveEmptyParams, RemoveEmptyQuery, SortQuery)

	// Archive is the canonicalization the Internet Archive's surt library
	// applies by default before writing a CDX key (see SURT): a WHATWG
	// parse (http:// added when there is no scheme) that reads ports,
	// numeric hosts, file: URLs, a "\" in a path, a ".." above the root
	// and paths without a host as the library does (ReadAsSURT:
	// "ftp://h:21/" keeps its port, "http://0x7f/" is a name), then
	// without the fragment and userinfo, "www" and "wwwN" stripped, path
	// and query decoded repeatedly and lowercased, "//" collapsed, the
	// library's session ids, a trailing "/" and an empty "?" removed, and
	// the parameters sorted whole. Its keys are for looking URLs up in an
	// archive, not for fetching: it merges path case and every escape
	// with its character.
	Archive = mustProfile(ParseWHATWG, DefaultScheme, RemoveFragment, TrimHostDots, RemoveUserinfo, StripWWWN,
		DecodePathRepeatedly, DecodeQueryRepeatedly, CollapseSlashes, LowercasePath, RemoveSessionIDs,
		RemoveTrailingSlash, LowercaseQuery, RemoveEmptyQuery, SortQueryPairs, ReadAsSURT)

	// Aggressive is urlcanon's "aggressive" canonicalization, the most
	// merging profile here: Archive's steps, https as http, and empty
	// parameters removed. Two URLs that differ in scheme, "www", case,
	// escapes, session ids, slashes or parameter order get one key.
	Aggressive = mustProfile(ParseWHATWG, DefaultScheme, RemoveFragment, RemoveUserinfo, HTTPSAsHTTP,
		StripWWWN, DecodePathRepeatedly, CollapseSlashes, LowercasePath, RemoveSessionIDs,
		RemoveTrailingSlash, LowercaseQuery, RemoveEmptyParams, RemoveEmptyQuery, SortQueryPairs)

	// SafeBrowsing is the canonicalization of Google Safe Browsing's
	// "URLs and Hashing" (v4, with v5's IPv6 rules), whose keys, without
	// their scheme, give the lookup expressions that Safe Browsing and
	// Web Risk lists are hashes of (see LookupExpressions and
	// LookupHashes). It is one step, ParseSafeBrowsing, which reads the
	// URL as that document does and as no other profile does: it decodes
	// every escape of the whole URL before it finds the host, so that
	// "http%3A%2F%2Fh%2Fa" is http://h/a; it reads any IPv4 spelling
	// ("3279880203", "0x12.0x43.0x44.0x01", "1.2") as an address, IPv6
	// too, and takes odd host characters as they come ("W!eird<>Ho$^.com"
	// is a host, "\x01.com" one with an escaped control character). It
	// drops the fragment, userinfo and port, keeps the query, and merges
	// what the document merges: every escape with its character, "/./",
	// "/../" and "//" in the path, host case and dots, IP spellings.
	// Its keys are for lookups, not for fetching: where an escape decodes
	// to a delimiter in the authority ("http://good.com%2F@evil.com/"),
	// the key names the host the document reads (good.com), not the one
	// a browser contacts (evil.com); a scanner that must see both also
	// checks the WHATWG reading. Only LookupExpressions and LookupHashes
	// give the strings that are hashed.
	SafeBrowsing = mustProfile(ParseSafeBrowsing)
)

// namedProfiles holds copies of the predefined profiles, taken at
// initialization: a program that assigns to canon.RFC3986 (Go has no
// struct constants to prevent it) changes that variable, not what
// LookupProfile returns or how String names a profile.
var namedProfiles = []struct {
	name string
	p    Profile
}{{"WebCapture", WebCapture}, {"RFC3986", RFC3986}, {"IRI", IRI}, {"POWDER", POWDER}, {"WHATWG", WHATWG},
	{"Crawler", Crawler}, {"Archive", Archive}, {"Aggressive", Aggressive},
	{"SafeBrowsing", SafeBrowsing}}

// LookupProfile returns the predefined profile with the given name,
// ignoring case: "webcapture", "rfc3986", "iri", "powder", "whatwg",
// "crawler", "archive", "aggressive" or "safebrowsing".
func LookupProfile(name string) (Profile, bool) {
	for _, np := range namedProfiles {
		if strings.EqualFold(np.name, name) {
			return np.p, true
		}
	}
	return Profile{}, false
}

// NewProfile returns the profile made of steps, which may come in any
// order and may repeat. It rejects unknown steps and steps that
// contradict each other (HostToASCII with HostToUnicode, RemoveDots with
// RemoveDots1808, EncodeToURI with EncodeToIRI or DecodeIUnreserved, and
// DecodeAll with any step that reads percent-encodings or IDNs).
//
// To extend a predefined profile:
//
//	p, err := canon.NewProfile(append(canon.RFC3986.Steps(), canon.RemoveFragment)...)
func NewProfile(steps ...Step) (Profile, error) {
	var bits uint64
	for _, s := range steps {
		if s >= numSteps {
			return Profile{}, errors.New("canon: unknown step " + s.String())
		}
		bits |= 1 << s
	}
	if err := checkSteps(bits); err != nil {
		return Profile{}, err
	}
	return profileOf(bits, nil), nil
}

// MustProfile is NewProfile for profiles built from constant steps, in
// the manner of regexp.MustCompile: it panics if NewProfile returns an
// error. It is meant for package-level variables:
//
//	var crawlKey = canon.MustProfile(append(canon.WHATWG.Steps(), canon.RemoveFragment)...)
func MustProfile(steps ...Step) Profile {
	p, err := NewProfile(steps...)
	if err != nil {
		panic(err)
	}
	return p
}

func mustProfile(steps ...Step) Profile { return MustProfile(steps...) }

// Has reports whether the profile includes step s.
func (p Profile) Has(s Step) bool { return s < numSteps && p.plan().steps&(1<<s) != 0 }

// base returns p without its key steps and rules: the profile whose key
// the key steps edit.
func (p Profile) base() Profile {
	if b := p.plan().base; b.steps != 0 {
		return Profile{pl: b}
	}
	return Profile{}
}

// Steps returns the profile's steps in the order they run.
func (p Profile) Steps() []Step {
	var out []Step
	for s := Step(0); s < numSteps; s++ {
		if p.Has(s) {
			out = append(out, s)
		}
	}
	return out
}

// String lists the steps in the order they run, joined by "|", after the
// profile's name when it is a predefined one:
// "WebCapture(ResolveRFC1808|RemoveFragment|...)". The zero Profile
// prints as "()". A profile with Rules prints them after the steps:
// "(ParseWHATWG|RemoveTrackingParams)[prefixes=pk_ session=sessid]".
func (p Profile) String() string {
	var b strings.Builder
	for _, np := range namedProfiles {
		if np.p == p {
			b.WriteString(np.name)
			break
		}
	}
	b.WriteByte('(')
	for i, s := range p.Steps() {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(s.String())
	}
	b.WriteByte(')')
	if rs := p.plan().rules; rs != nil {
		b.WriteByte('[')
		b.WriteString(rs.text)
		b.WriteByte(']')
	}
	return b.String()
}

// Rules returns a copy of the profile's rules, lowercased and sorted,
// with the domains of Hosts as WithRules normalized them: WithRules of it
// gives the profile back.
func (p Profile) Rules() Rules {
	rs := p.plan().rules
	if rs == nil {
		return Rules{}
	}
	r := rs.own()
	if rs.hosts != nil {
		r.Hosts = make(map[string]Rules, len(rs.hosts))
		for d, h := range rs.hosts {
			r.Hosts[d] = h.hostLists.own()
		}
	}
	return r
}

// profileOf returns the profile of steps and rules, with its interned
// plan. The steps must have passed checkSteps.
func profileOf(steps uint64, rules *ruleSet) Profile {
	if steps == 0 && rules == nil {
		return Profile{}
	}
	plansMu.Lock()
	defer plansMu.Unlock()
	return Profile{pl: internPlan(steps, rules)}
}

// plan returns the profile's plan.
func (p Profile) plan() *plan {
	if p.pl == nil {
		return zeroPlan
	}
	return p.pl
}
