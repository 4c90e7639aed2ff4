package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"
)

// A key lasts as long as what made it: the rules of the profile's steps,
// the Unicode tables of IDNA and NFC, and, for the profiles that strip
// "www", the Public Suffix List. KeyVersion names all three, so that a
// cache, a link graph or an archive can store it beside its keys and know
// when they must be made again.
//
// Maintainers: how to change a key, and what to bump, is in docs/keys.md.

// UnicodeVersion is the version of Unicode of the tables canon's keys are
// made with: the UTS #46 (IDNA) mapping and validation tables of
// golang.org/x/net/idna and the normalization tables of
// golang.org/x/text/unicode/norm (NFC). Both packages choose their tables
// by the Go toolchain that builds the program: "15.0.0" with Go 1.26,
// "17.0.0" with Go 1.27 and newer (with the module versions in go.mod).
// The package checks at initialization that the two are the same
// version, and panics if they are not (a go.mod that upgrades one module
// and not the other): a key made with two Unicode versions at once would
// have no KeyVersion to name it.
const UnicodeVersion = idna.UnicodeVersion

func init() {
	if norm.Version != idna.UnicodeVersion {
		panic("canon: golang.org/x/net/idna has Unicode " + idna.UnicodeVersion +
			" tables and golang.org/x/text/unicode/norm has Unicode " + norm.Version +
			": keys need one Unicode version; upgrade the two modules together")
	}
}

// publicSuffixListVersion is the date of the Public Suffix List snapshot
// in golang.org/x/net/publicsuffix (go.mod's version of golang.org/x/net),
// which does not export it: its generated table.go names the list's git
// revision and date. TestPublicSuffixListVersion reads that file in the
// module cache and fails when the two disagree, so an upgrade of
// golang.org/x/net cannot change StripWWW's keys silently.
const publicSuffixListVersion = "2026-02-06"

// coreRuleVersion is the version of what every profile does whatever its
// steps: reading the URL (the RFC 3986 grammar, or the WHATWG URL
// Standard's parser for ParseWHATWG), what it rejects and with which
// error (limits, ports, hosts, the numeric-host rule), and how it writes
// the key. Bump it when any of that changes a key or an error; every
// predefined profile's version must then be bumped too
// (TestProfileRuleVersions).
const coreRuleVersion = 2

// stepRuleVersions is the version of each step's rules: bump a step's
// entry when what it does to any key changes, and then the version of
// every predefined profile that has the step (profileRuleVersions;
// TestProfileRuleVersions fails until that is done). The KeyVersion of a
// profile built with NewProfile is derived from these, so it changes on
// its own.
var stepRuleVersions = [numSteps]int{
	ParseWHATWG:           2,
	DefaultScheme:         3,
	DecodeAll:             3,
	PlusToSpace:           2,
	ResolveRFC1808:        2,
	RemoveFragment:        1,
	LowercaseScheme:       1,
	LowercaseHost:         1,
	HostToASCII:           1,
	HostToUnicode:         1,
	TrimHostDots:          1,
	StripFileLocalhost:    1,
	RemoveHTTPFTPPort:     1,
	RemoveDefaultPort:     1,
	EncodeToURI:           1,
	EncodeToIRI:           2,
	UppercaseEscapes:      1,
	DecodeUnreserved:      1,
	DecodeIUnreserved:     1,
	NFC:                   1,
	RemoveDots:            1,
	RemoveDots1808:        1,
	AddRootPath:           1,
	AddHTTPRootPath:       1,
	RemoveUserinfo:        1,
	HTTPSAsHTTP:           2,
	StripWWW:              2,
	StripWWWN:             3,
	DecodePathRepeatedly:  2,
	DecodeQueryRepeatedly: 2,
	CollapseSlashes:       1,
	LowercasePath:         2,
	RemoveSessionIDs:      2,
	RemoveDirectoryIndex:  1,
	RemoveTrailingSlash:   2,
	LowercaseQuery:        2,
	RemoveTrackingParams:  2,
	RemoveEmptyParams:     2,
	RemoveEmptyQuery:      2,
	SortQuery:             2,
	SortQueryPairs:        2,
	ParseSafeBrowsing:     2,
	ReadAsSURT:            3,
}

// profileRuleVersions is the rule version of each predefined profile, the
// N of "crawler/N" in its KeyVersion. Bump a profile's entry whenever any
// of its keys (or errors) can change for a reason of canon's own: a fixed
// bug, a step that changed (stepRuleVersions), a change of the core
// (coreRuleVersion). Each bump goes with a CHANGELOG.md entry that names
// the new version and says what changed and why, and with the golden
// files regenerated (docs/keys.md).
var profileRuleVersions = map[string]int{
	"WebCapture": 3,
	"RFC3986":    3,
	"IRI":        4,
	"POWDER":     6,
	"WHATWG":     3,
	"Crawler":    6,
	"Archive":    10,
	"Aggressive": 7,

	// Google Safe Browsing's canonicalization (safebrowsing.go).
	"SafeBrowsing": 3,
}

// KeyVersion names what the profile's keys depend on, as space-separated
// parts:
//
//	crawler/1 unicode-15.0.0
//	archive/1 unicode-17.0.0 psl-2026-02-06
//
// first the profile's rules: for a predefined profile its name in
// lowercase and its rule version, which is bumped whenever any of its
// keys can change (CHANGELOG.md says what changed); for a predefined
// profile's steps with [Rules], that followed by "+rules-" and a digest of
// the rules; for any other profile (NewProfile), "custom-" and a digest
// of its steps, their rule versions and its rules, which changes whenever
// the rules of any of its steps do. Then the Unicode version of the IDNA
// and NFC tables (UnicodeVersion), which every profile names: even a
// profile without IDNA or NFC (WebCapture, POWDER) decides whether a
// host is a numeric IPv4 address as a browser reads it, through the
// UTS #46 mapping ("http://１２７.０.０.１/"), so a character that a newer
// Unicode maps to a digit (U+1CCF0-U+1CCF9, new in Unicode 16) changes
// its key or error. Last, for the profiles with StripWWW,
// the date of the Public Suffix List snapshot they read.
//
// Two keys made under the same KeyVersion are comparable: the same input
// gives the same key. Keys made under different KeyVersions may differ
// for some inputs; store the KeyVersion beside the keys, and when it
// changes, make the keys again (the canon command's -rekey lists those
// that changed).
func (p Profile) KeyVersion() string { return p.keyVersion(UnicodeVersion) }

// keyVersion is KeyVersion with the Unicode version given.
func (p Profile) keyVersion(unicode string) string {
	var b strings.Builder
	b.WriteString(p.ruleVersion())
	b.WriteString(" unicode-")
	b.WriteString(unicode)
	if p.readsPublicSuffixList() {
		b.WriteString(" psl-")
		b.WriteString(publicSuffixListVersion)
	}
	return b.String()
}

// readsPublicSuffixList reports whether the profile's keys depend on the
// Public Suffix List: StripWWW is its only reader (StripWWWN, as the Internet Archive, does not ask it).
func (p Profile) readsPublicSuffixList() bool { return p.Has(StripWWW) }

// ruleVersion is the first part of KeyVersion.
func (p Profile) ruleVersion() string {
	for _, np := range namedProfiles {
		if np.p.plan().steps != p.plan().steps {
			continue
		}
		v := strings.ToLower(np.name) + "/" + strconv.Itoa(profileRuleVersions[np.name])
		if rs := p.plan().rules; rs != nil {
			var b strings.Builder
			rs.writeDigestText(&b)
			v += "+rules-" + shortDigest(b.String())
		}
		return v
	}
	var b strings.Builder
	p.writeStepsDigestText(&b)
	if rs := p.plan().rules; rs != nil {
		rs.writeDigestText(&b)
	}
	return "custom-" + shortDigest(b.String())
}

// writeStepsDigestText writes what a profile's steps make its keys of:
// the core's rule version, and each step with its rule version.
func (p Profile) writeStepsDigestText(b *strings.Builder) {
	b.WriteString("core ")
	b.WriteString(strconv.Itoa(coreRuleVersion))
	b.WriteByte('\n')
	for _, s := range p.Steps() {
		b.WriteString(s.String())
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(stepRuleVersions[s]))
		b.WriteByte('\n')
	}
	pl := p.plan()
	if pl.blob != nil {
		// The profile keys blob: URLs as WHATWG does (plan.blob); before,
		// its steps edited them. The line changes the digest of exactly
		// the profiles whose keys of blob: URLs changed.
		b.WriteString("blob as WHATWG\n")
		// An absolute link on a blob: page is keyed by the profile, as
		// alone; before, by the blob plan.
		b.WriteString("absolute links of blob: pages by the profile\n")
	}
	// The lines below each change the digest of exactly the profiles
	// whose keys or errors a fix changed, as the line above does.
	if pl.whatwg && pl.blob == nil && pl.steps&archiveToolSteps != 0 && (pl.upperEscapes || pl.decodeUnres) {
		// A blob: base is read by the profile's reading of the base
		// (refBase), not by WHATWG's: its escapes as the profile's keys
		// spell them.
		b.WriteString("blob: bases read as any URL\n")
	}
	if pl.nfc && pl.esc != escapeIRI && pl.esc != escapeURI {
		// NFC normalizes every component, with or without an escape in
		// it (it did only where EncodeToIRI looked at the text or a
		// "%" was there), and a "%" that starts no triplet, U+037E and
		// U+1FEF are barriers kept as written (nfcBarrierLen).
		b.WriteString("NFC on every component; lone %, U+037E, U+1FEF barriers\n")
	}
	if pl.nfc {
		// More than 30 combining marks in a row are an error, not the
		// key of the text with U+034F inserted (engine.nfc).
		b.WriteString("NFC refuses more than 30 combining marks\n")
	}
	if pl.decodeAll {
		// An IP literal that holds a "%" once decoded is an error (no
		// zone survives DecodeAll), whatever its raw spelling
		// ("%%325" is "%25").
		b.WriteString("DecodeAll: no % in a decoded IP literal\n")
	}
	if pl.nfc && pl.keys&(1<<LowercasePath|1<<LowercaseQuery) != 0 {
		// What NFC writes after lowercasing is lowered again (U+212A
		// KELVIN SIGN is "K"): keyPass.lower.
		b.WriteString("NFC then lowercase until stable\n")
	}
	if pl.trimDots && !pl.whatwg && (pl.decodeUnres || pl.decodeIUnres) {
		// The full stops a host ends in once its escapes are decoded
		// are trimmed too ("a\u3002%2E").
		b.WriteString("host full stops trimmed as written\n")
	}
	if !pl.whatwg && !pl.decodeAll && (pl.decodeUnres || pl.decodeIUnres || pl.toUnicode || pl.toASCII) {
		// A file URL's host that decodes or maps to a drive letter
		// before an empty port ("file://%43:/x", the fullwidth
		// "file://\uff23:/x") is an error, as "file://C:/x".
		b.WriteString("drive letter host as written\n")
	}
}

// writeDigestText writes the rules' names, list by list; they are
// lowercased, sorted and without repeats already. A keep-only list and
// the hosts' rules follow when there are any (so that the digest of rules
// without them is what it was before they existed).
func (rs *ruleSet) writeDigestText(b *strings.Builder) {
	rs.writeDigestLists(b)
	domains := make([]string, 0, len(rs.hosts))
	for d := range rs.hosts {
		domains = append(domains, d)
	}
	slices.Sort(domains)
	for _, d := range domains {
		// An IPv4 address's rule once matched names that end in its
		// labels (a non-special scheme's "evil.10.0.0.1"); it matches
		// only the address now, and its line says so, so that the
		// digest of Rules with one changes with their keys. The digest
		// of other Rules is what it was.
		if isIPv4Literal(d) {
			b.WriteString("address ")
		} else {
			b.WriteString("host ")
		}
		b.WriteString(d)
		b.WriteByte('\n')
		rs.hosts[d].hostLists.writeDigestLists(b)
	}
}

func (rs *ruleSet) writeDigestLists(b *strings.Builder) {
	for i, l := range rs.lists() {
		if i == 3 && len(l.names) == 0 {
			break // no keep-only list
		}
		label := l.label
		if i == 3 {
			// A keep-only list once kept a name only as written (its
			// escaped spelling "ids%5B%5D" of a listed "ids[]" was
			// dropped); it keeps every reading of a listed name now
			// (ruleSet.keeps), and its line says so, so that the digest
			// of Rules with one changes with their keys.
			label = "keep-read"
		}
		b.WriteString(label)
		for _, n := range l.names {
			b.WriteByte(' ')
			b.WriteString(n)
		}
		b.WriteByte('\n')
	}
}

// shortDigest returns the first 48 bits of the SHA-256 of s in hex.
func shortDigest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}
