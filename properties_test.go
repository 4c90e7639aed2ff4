package canon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The property harness: one test of every promise of docs/guarantees.md
// and the package documentation, over whole configurations drawn at
// random. A configuration is a profile (steps of every kind in any order
// NewProfile accepts, or a predefined one), Rules (names, prefixes, a
// keep-only list, per-host rules keyed by hosts the grammar makes), a page
// encoding, a base (blob:, file:, opaque and special ones among them), a
// SURT form, and inputs built from a grammar of URL parts and then
// mutated. Every entry point of the package (propertyEntryPoints, which
// TestPropertyHarnessCoversAPI holds to the package's exported functions
// and methods, read with go/doc) runs on it, and each promise it makes is
// checked:
//
//   - no panic;
//   - an error is an *Error wrapping exactly one sentinel, with an offset
//     inside its Input, and a "" (or unchanged dst) result; no error text
//     or Input shows the password of the input's userinfo in any view;
//   - a key is a fixed point of its profile (and of its encoding), no
//     longer than 3*len(input)+16 bytes;
//   - AppendNormalized is Normalize after dst; Base is NormalizeRef, key
//     and error text; Equal is the equality of the keys; Explain's last
//     After is the key; a profile with ParseWHATWG keys a reference as it
//     keys the WHATWG href of it; the Encoding forms are the package
//     functions in UTF-8 and refuse other encodings without ParseWHATWG;
//     LookupHashes hashes LookupExpressions; AppendSURT is SURT; a
//     profile's Steps and Rules rebuild it (profiles are comparable
//     values).
//
// The bytes a configuration is drawn from come from the fuzzer
// (FuzzProperties, which .ci/run runs for a number of executions) or from
// a seeded random source (TestPropertyHunt, with -properties.hunt, which
// runs for a duration and reports the first time each kind of violation
// was met).

// propertyDraw reads choices from a byte string; past its end every
// choice is the first.
type propertyDraw struct {
	b []byte
	i int
}

func (d *propertyDraw) byte() byte {
	if d.i < len(d.b) {
		c := d.b[d.i]
		d.i++
		return c
	}
	return 0
}

// n returns a choice in [0, k).
func (d *propertyDraw) n(k int) int {
	if k <= 256 {
		return int(d.byte()) % k
	}
	return (int(d.byte())<<8 | int(d.byte())) % k
}

// chance reports true with probability about num/den.
func (d *propertyDraw) chance(num, den int) bool { return d.n(den) < num }

func (d *propertyDraw) pick(list []string) string { return list[d.n(len(list))] }

// The parts of the URL grammar. Each list holds plain parts first and
// then the ones that exercise a rule: case, escapes of every class, dots
// in every spelling, combining marks (which NFC composes and lowercasing
// may leave uncomposed), full-width and ideographic dots, numeric hosts,
// session ids and tracking parameters, controls, backslashes.
var (
	propSchemes = []string{"http", "https", "http", "HTTP", "hTTps", "ftp", "ws", "wss", "file", "FILE", "blob",
		"mailto", "javascript", "data", "about", "foo", "a+b.c", "urn", "1x", "ht tp", "", "", "sc\u0301"}
	propSeparators = []string{"://", "://", "://", ":", ":/", ":///", `:\\`, `:/\`, "://///", ":%2F%2F"}
	propLabels     = []string{"h", "a", "example", "com", "org", "www", "www2", "WWW", "Example", "EXAMPLE",
		"xn--bcher-kva", "bücher", "BÜCHER", "ΑΒΓ", "ß", "faß", "B\u0301", "e\u0301", "\u0301", "a_b", "a-", "-a",
		"", "%2e", "%2E", "%41", "%61", "%zz", "%", "%C3%BC", "。", "．", "１２３", "0x7f", "0", "1", "255", "256",
		"4294967295", "077", "09", "0123", "00", "08", "a,b", "a b", "a!$", "xn--", "xn--a", "XN--BCHER-KVA", "ｅｘａｍｐｌｅ", "日本",
		"㌖", "㍿", "ﷺ", "Ｃ", "\u212a", "C", "%43", "c"}
	propHostDots = []string{".", ".", ".", "。", "．", "｡", "%2e", "%2E", ".."}
	propHosts    = []string{"[::1]", "[1:0::]", "[::ffff:1.2.3.4]", "[v1.x]", "[0:0:0:0:0:0:0:1]", "[", "]",
		"1.2.3.4", "0x42660793", "1113982867", "127.1", "0.0.0.0", "[::1%25eth0]", "localhost", "LOCALHOST", "",
		"0x7f.1", "1.2.3.4..", "1113982867..", "www.1.2.."}
	propPorts    = []string{":80", ":443", ":21", ":", ":0080", ":65535", ":65536", ":x", ":8080", ":0", ":1%30"}
	propSegments = []string{"", "a", "b", "B", "Ä", "B\u0301", "e\u0301", "\u0301", "%", "%2", "%zz", "%41",
		"%61", "%7e", "%7E", "~", "%2e", "%2E%2e", ".", "..", ".%2e", "%2F", "%2f", "%5C", `\`, "index.html",
		"index.php", "default.aspx", ";jsessionid=0123456789abcdef0123", "x;jsessionid=ABCDEF0123456789",
		"(S(tuucni55xfzj2xqx1mnqdg55))", "(tuucni55xfzj2xqx1mnqdg55)", "x.aspx", "a b", "C:", "C|", "c%3A", "日本", "%E6%97%A5", "%C3%A9", "e%CC%81",
		"a;b", "a=b", "%25", "%2541", "%u0041", "a\tb", "%00", "ﬁ", "Ω", "Ǆ", "İ", "%C4%B0", "\u212a",
		"e\u0301", "A\u030a", "a+b", "+", "X\u037eb", "a\u1fefb", "a" + strings.Repeat("\u0301", 31),
		"a" + strings.Repeat("\u0301", 30) + "\u034f\u0301", "http%3A//u:x@h", "..%2Fhttp%253A//u:x@h"}
	propParamNames = []string{"a", "b", "A", "q", "x", "utm_source", "utm_medium", "UTM_Campaign", "gclid", "fbclid",
		"sid", "SID", "PHPSESSID", "jsessionid", "sessionid", "ref", "pk_campaign", "x[]", "ids[]", "%61", "a+b",
		"", "k", "B\u0301", "é", "%C3%A9", "lang", "page", "cfid", "CFTOKEN", "mysid", "ASPSESSIONIDABCDEFGH"}
	propParamValues = []string{"", "1", "2", "x", "X", "%20", "+", "é", "%C3%A9", "0123456789abcdef0123456789abcdef",
		"k11lf2097p3d8ucjusrcidcle6", "B\u0301%", "%", "%zz", "%41", "a b", "a=b", "%26", "\u0301", "ß",
		"\x0e\x0f\x1b", "ߐ€😀", "&#8364;", "abcdefghijklmnopqrstuvwx", "e\u0301", "A\u030a", "\u037e", "a" + strings.Repeat("\u0301", 31)}
	propFragments = []string{"", "x", "%41", "a b", "é", "B\u0301%", "#", "%zz", "\u0301", "/a/../b", "e\u0301", "\u037e"}
	// propInsertions are what a mutation inserts.
	propInsertions = []string{"%", "/", `\`, ".", ":", "@", "?", "#", "\t", "\n", " ", "\x00", "\x7f", "\x80",
		"\xff", "A", "a", "[", "]", "%2e", "%2F", "\u0301", "。", "ß", "\ufffd", "\u200d", "&", "=", ";", "%25", "//"}
)

// propPasswords are the passwords the grammar writes into the userinfo
// of the input, the other input and the base: each its own, so that the
// check of one does not take another's text for a leak.
var propPasswords = [...]string{"Pw7x9q", "Pb4s3k", "Po8t2r"}

// propURL is a URL made by the grammar, with what the password check
// needs to know of it: whether the password it holds stands where every
// reading takes it for one (in a userinfo, left whole by the mutations).
type propURL struct {
	s          string
	pass       string // the password the grammar wrote, if any
	hasPass    bool
	passIntact bool
}

// propGen is the grammar, drawing from d, writing the password pass.
type propGen struct {
	d    *propertyDraw
	pass string
}

func (g propGen) host() string {
	d := g.d
	if d.chance(1, 5) {
		return d.pick(propHosts)
	}
	var b strings.Builder
	n := 1 + d.n(4)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(d.pick(propHostDots))
		}
		b.WriteString(d.pick(propLabels))
	}
	if d.chance(1, 8) {
		b.WriteString(d.pick(propHostDots))
	}
	return b.String()
}

func (g propGen) userinfo() (s string, pass bool) {
	d := g.d
	switch d.n(10) {
	case 0:
		return "u@", false
	case 1:
		return "u:" + g.pass + "@", true
	case 2:
		return ":" + g.pass + "@", true
	case 3:
		return "u%3A" + g.pass + "@", true
	case 4:
		return "u:" + g.pass + "@x@", true
	case 5:
		return "u\t:" + g.pass + "@", true
	}
	return "", false
}

func (g propGen) path() string {
	d := g.d
	var b strings.Builder
	n := d.n(5)
	for i := 0; i < n; i++ {
		switch d.n(12) {
		case 0:
			b.WriteString("//")
		case 1:
			b.WriteString(`\`)
		default:
			b.WriteByte('/')
		}
		b.WriteString(d.pick(propSegments))
	}
	return b.String()
}

func (g propGen) query() string {
	d := g.d
	if d.chance(1, 2) {
		return ""
	}
	var b strings.Builder
	b.WriteByte('?')
	n := d.n(5)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString([]string{"&", "&", "&", ";", "&&"}[d.n(5)])
		}
		b.WriteString(d.pick(propParamNames))
		if d.chance(4, 5) {
			b.WriteByte('=')
			b.WriteString(d.pick(propParamValues))
		}
	}
	return b.String()
}

// url returns a URL of the grammar, absolute or relative: [scheme sep]
// [userinfo] host [port] path [query] [fragment], a blob: URL of another,
// or a reference (a path, query, fragment or network path alone).
func (g propGen) url(depth int) propURL {
	d := g.d
	var b strings.Builder
	var u propURL
	if d.chance(1, 8) {
		b.WriteString(d.pick([]string{" ", "\t", "\x00", "\n", " \x01"}))
	}
	scheme := d.pick(propSchemes)
	switch {
	case scheme == "blob" && depth < 2:
		inner := g.url(depth + 1)
		b.WriteString(d.pick([]string{"blob:", "blob:", "BLOB:", "blob:blob:"}))
		b.WriteString(inner.s)
		u.hasPass, u.passIntact = inner.hasPass, inner.passIntact
		return propURL{s: b.String(), pass: g.pass, hasPass: u.hasPass, passIntact: u.passIntact}
	case scheme == "" && depth == 0 && d.chance(1, 2):
		// A reference without a scheme: one whose "://" is encoded
		// holds a userinfo for the readers that decode it, which its
		// resolution puts in the base's path.
		pass := false
		switch d.n(7) {
		case 0:
			b.WriteString("//" + g.host())
		case 1:
			b.WriteString("?")
		case 2:
			b.WriteString("#")
		case 3:
			b.WriteString(d.pick([]string{"http%3A//", "..%2Fhttp%253A//", "x%2Fhttp%3A%2F%2F"}) + "u:" + g.pass + "@" + g.host())
			pass = true
		}
		b.WriteString(strings.TrimPrefix(g.path(), "/"))
		b.WriteString(g.query())
		return propURL{s: b.String(), pass: g.pass, hasPass: pass, passIntact: pass}
	case scheme != "":
		b.WriteString(scheme)
		switch scheme {
		case "mailto", "javascript", "data", "urn", "about":
			b.WriteString(":")
			b.WriteString(d.pick([]string{"joe@Example.COM", "x", "alert(1)", "text/plain,a b", "blank", "ISBN:0-1%41", "a/../b", ""}))
			b.WriteString(g.query())
			g.fragment(&b)
			return propURL{s: b.String(), pass: g.pass}
		}
		b.WriteString(d.pick(propSeparators))
	default:
		b.WriteString("//")
	}
	if ui, pass := g.userinfo(); ui != "" {
		b.WriteString(ui)
		u.hasPass, u.passIntact = pass, pass
	}
	b.WriteString(g.host())
	if d.chance(1, 4) {
		b.WriteString(d.pick(propPorts))
	}
	b.WriteString(g.path())
	b.WriteString(g.query())
	g.fragment(&b)
	if d.chance(1, 10) {
		b.WriteString(d.pick([]string{" ", "\t", "\x1f", " \n"}))
	}
	u.s, u.pass = b.String(), g.pass
	return u
}

func (g propGen) fragment(b *strings.Builder) {
	if g.d.chance(1, 4) {
		b.WriteByte('#')
		b.WriteString(g.d.pick(propFragments))
	}
}

// mutate edits u a few times: inserts a part, deletes, duplicates or
// truncates a span, percent-encodes or decodes a byte, flips a letter's
// case. An edit at or before the end of the userinfo's password makes
// the password check moot.
func (g propGen) mutate(u propURL) propURL {
	d := g.d
	n := d.n(4)
	if n == 3 {
		n = 0
	}
	s := u.s
	for ; n > 0 && len(s) > 0; n-- {
		i := d.n(len(s) + 1)
		if k := strings.LastIndex(s, g.pass); k >= 0 && i <= k+len(g.pass)+1 {
			u.passIntact = false
		}
		switch d.n(7) {
		case 0, 1:
			s = s[:i] + d.pick(propInsertions) + s[i:]
		case 2:
			j := min(len(s), i+1+d.n(4))
			s = s[:i] + s[j:]
		case 3:
			j := min(len(s), i+1+d.n(8))
			s = s[:j] + s[i:j] + s[j:]
		case 4:
			if i < len(s) {
				const hex = "0123456789ABCDEF"
				c := s[i]
				s = s[:i] + "%" + string(hex[c>>4]) + string(hex[c&15]) + s[i+1:]
			}
		case 5:
			if k := strings.IndexByte(s[min(i, len(s)):], '%'); k >= 0 && isTriplet(s, i+k) {
				k += i
				s = s[:k] + string([]byte{unhexTest(s[k+1])<<4 | unhexTest(s[k+2])}) + s[k+3:]
			}
		case 6:
			if i < len(s) && isASCIILetter(s[i]) {
				s = s[:i] + string(s[i]^0x20) + s[i+1:]
			}
		}
	}
	u.s = s
	if !strings.Contains(s, g.pass) {
		u.hasPass, u.passIntact = false, false
	}
	return u
}

// propertyConfig is one configuration of the harness.
type propertyConfig struct {
	p         Profile
	enc       Encoding
	in, other propURL // the input, and a second one for Equal
	base      propURL // the base of the references
	form      SURTForm
	prefixLen int
	merge     bool // run the no-false-merge oracles (propNoFalseMerge)
}

func (c *propertyConfig) String() string {
	return fmt.Sprintf("profile %s, rules %s, encoding %s, input %q, other %q, base %q, SURT form %d",
		name(c.p), propRulesText(c.p.Rules()), c.enc.Name(), c.in.s, c.other.s, c.base.s, c.form)
}

// rulesText writes r as the Go literal of its non-empty lists.
func propRulesText(r Rules) string {
	s := fmt.Sprintf("%+v", r)
	return strings.ReplaceAll(s, " ", ",")
}

// propPredefined are the predefined profiles the harness draws, beside
// random ones.
var propPredefined = []Profile{{}, WebCapture, RFC3986, IRI, POWDER, WHATWG, Crawler, Archive, Aggressive, SafeBrowsing}

// profile draws a profile: a predefined one (with extra steps, maybe), or
// steps tried in random order, each kept when NewProfile accepts it with
// those kept before.
func (g propGen) profile() Profile {
	d := g.d
	var steps []Step
	if d.chance(1, 3) {
		steps = d.pickProfile().Steps()
	}
	order := make([]Step, 0, numSteps)
	for s := Step(0); s < numSteps; s++ {
		order = append(order, s)
	}
	for i := len(order) - 1; i > 0; i-- {
		j := d.n(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	want := 1 + d.n(12)
	for _, s := range order {
		if len(steps) >= want+3 {
			break
		}
		if !d.chance(1, 3) || slices.Contains(steps, s) {
			continue
		}
		if _, err := NewProfile(append(slices.Clone(steps), s)...); err == nil {
			steps = append(steps, s)
		}
	}
	p, err := NewProfile(steps...)
	if err != nil {
		return Profile{}
	}
	return p
}

func (d *propertyDraw) pickProfile() Profile { return propPredefined[d.n(len(propPredefined))] }

// rules draws Rules for p of every list, and per-host rules keyed by
// hosts of the grammar, keeping what WithRules accepts.
func (g propGen) rules(p Profile) Profile {
	d := g.d
	if !p.Has(RemoveTrackingParams) && !p.Has(RemoveSessionIDs) || d.chance(1, 3) {
		return p
	}
	list := func() Rules {
		var r Rules
		for k := d.n(3); k > 0; k-- {
			r.TrackingParams = append(r.TrackingParams, d.pick(propParamNames))
		}
		if d.chance(1, 3) {
			r.TrackingPrefixes = append(r.TrackingPrefixes, d.pick([]string{"utm_", "pk_", "x", "a", "%61"}))
		}
		for k := d.n(3); k > 0; k-- {
			r.SessionParams = append(r.SessionParams, d.pick(propParamNames))
		}
		if d.chance(1, 3) {
			for k := 1 + d.n(3); k > 0; k-- {
				r.KeepParams = append(r.KeepParams, d.pick(propParamNames))
			}
		}
		return r
	}
	r := list()
	if d.chance(1, 2) {
		r.Hosts = map[string]Rules{}
		for k := 1 + d.n(3); k > 0; k-- {
			r.Hosts[g.host()] = list()
		}
	}
	// Keep what WithRules accepts: each list alone, then each host.
	r = rulesUsedBy(p, r)
	if q, err := p.WithRules(r); err == nil {
		return q
	}
	for _, drop := range []func(*Rules){
		func(r *Rules) { r.Hosts = nil },
		func(r *Rules) { r.KeepParams = nil },
		func(r *Rules) { r.TrackingParams, r.TrackingPrefixes, r.SessionParams = nil, nil, nil },
	} {
		drop(&r)
		if q, err := p.WithRules(r); err == nil {
			return q
		}
	}
	return p
}

// propertyConfigOf draws a configuration from data.
func propertyConfigOf(data []byte) *propertyConfig {
	d := &propertyDraw{b: data}
	g := propGen{d, propPasswords[0]}
	c := &propertyConfig{}
	if d.chance(1, 3) {
		c.p = d.pickProfile()
	} else {
		c.p = g.profile()
	}
	c.p = g.rules(c.p)
	if d.chance(1, 3) {
		encs := allEncodings()
		c.enc = encs[d.n(len(encs))]
	}
	gb := propGen{d, propPasswords[1]}
	c.base = gb.url(0)
	if d.chance(1, 2) {
		// Bases of the kinds whose resolution has rules of its own.
		c.base = propURL{s: d.pick([]string{"blob:http://h/a/b", "blob:https://u:" + gb.pass + "@H/%61bc?q#f",
			"blob:file:///C:/a/", "blob:foo://h/x", "blob:null/x", "file:///C:/dir/f", "file://host/a/b", "file:///",
			"mailto:x@y", "http://h", "http://h/a/b?q#f", "foo://h/a/b", "foo:/a/b", "foo:a", "http://a/b/c/d;p?q",
			"HTTP://u:p@H:80/%7e/./x/..", "http://[::1]/", "ftp://h:21/a/", "http://%2e/", "http://www.h./a"}), pass: gb.pass}
		c.base.hasPass = strings.Contains(c.base.s, gb.pass)
		c.base.passIntact = c.base.hasPass
	}
	c.base = gb.mutate(c.base)
	c.in = g.mutate(g.url(0))
	// The other input is a mutation of the input, with a password of its
	// own.
	go_ := propGen{d, propPasswords[2]}
	c.other = c.in
	c.other.s, c.other.pass = strings.ReplaceAll(c.in.s, g.pass, go_.pass), go_.pass
	c.other = go_.mutate(c.other)
	c.form = SURTForm(d.n(16))
	c.prefixLen = 4 + d.n(29)
	c.merge = d.chance(1, 3)
	return c
}

// propertyCheck runs every entry point on c and returns the first
// violation of a promise, or "".
type propertyCheck struct {
	c   *propertyConfig
	bad []string
}

func (pc *propertyCheck) failf(format string, args ...any) {
	pc.bad = append(pc.bad, fmt.Sprintf(format, args...))
}

// propSentinels are every sentinel an *Error may wrap.
var propSentinels = []error{ErrRelative, ErrInvalidEscape, ErrInvalidHost, ErrInvalidPort, ErrInvalidScheme,
	ErrInvalidChar, ErrTooLong, ErrEncoding}

// errorContract checks what every error of a function of URLs promises:
// an *Error wrapping exactly one sentinel, its offset inside its Input,
// its text as Error's fields make it, no password of the inputs shown.
func (pc *propertyCheck) errorContract(call string, err error, inputs ...propURL) {
	var e *Error
	if !errors.As(err, &e) {
		pc.failf("%s: error %T %v is not an *Error", call, err, err)
		return
	}
	n := 0
	for _, s := range propSentinels {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		pc.failf("%s: error %v wraps %d sentinels, want 1", call, err, n)
	}
	if e.Offset < -1 || e.Offset > len(e.Input) || e.Component > ComponentFragment {
		pc.failf("%s: error %#v: offset or component out of range", call, e)
	}
	if got, want := e.Error(), errorTextReference(e); got != want {
		pc.failf("%s: Error() = %q, want %q", call, got, want)
	}
	if d := e.Detail(); !strings.HasSuffix(e.Error(), "): "+d) {
		pc.failf("%s: Detail() = %q is not the end of Error() = %q", call, d, e.Error())
	}
	for _, in := range inputs {
		if in.passIntact && (strings.Contains(err.Error(), in.pass) || strings.Contains(e.Input, in.pass)) {
			pc.failf("%s: error %q shows the password", call, err)
		}
		if in.passIntact {
			if v, _ := readerView(e.Input, true, 2); strings.Contains(v, in.pass) {
				pc.failf("%s: error Input %q shows the password once decoded", call, e.Input)
			}
		}
	}
}

// key checks a key of in (or of base and ref) under p: the error
// contract on error, else the length bound (bound bytes) and the fixed
// point (under the encoding and without it).
func (pc *propertyCheck) key(call string, key string, err error, bound int, inputs ...propURL) {
	c := pc.c
	if err != nil {
		if key != "" {
			pc.failf("%s = %q with error %v", call, key, err)
		}
		pc.errorContract(call, err, inputs...)
		return
	}
	// The bound holds outside the host; the host, which IDNA may
	// lengthen, holds at most MaxHostLength bytes (guarantees.md).
	host := 0
	if r, err := Parse(key); err == nil {
		host = len(r.Host)
	}
	if len(key)-host > bound || host > MaxHostLength {
		pc.failf("%s = %q: longer than the bound, %d (outside the host; MaxHostLength in it)", call, key, bound)
	}
	if c.enc != (Encoding{}) && !c.p.Has(ParseWHATWG) {
		// Only UTF-8 is read (the other encodings are refused).
	} else if again, err := c.enc.Normalize(key, c.p); again != key || err != nil {
		pc.failf("%s = %q; %s.Normalize of that = %q, %v: not a fixed point", call, key, c.enc.Name(), again, err)
	}
	if c.enc != (Encoding{}) {
		if again, err := Normalize(key, c.p); again != key || err != nil {
			pc.failf("%s = %q; Normalize of that = %q, %v: not a fixed point in UTF-8", call, key, again, err)
		}
	}
}

// appendSame checks that appending gives dst and then want, or dst
// unchanged with wantErr's error.
func (pc *propertyCheck) appendSame(call string, app func([]byte) ([]byte, error), want string, wantErr error) {
	for _, dst := range [][]byte{nil, []byte("prefix"), make([]byte, 3, 512)} {
		pre := string(dst)
		out, err := app(dst)
		if errTextButOp(err) != errTextButOp(wantErr) || err == nil && string(out) != pre+want || err != nil && string(out) != pre {
			pc.failf("%s(%q) = %q, %v; want %q, %v", call, pre, out, err, pre+want, wantErr)
		}
	}
}

// errTextButOp is the text of err without the function's name: the
// append form of a function reports the same error under its own name.
func errTextButOp(err error) string {
	var e *Error
	if err == nil || !errors.As(err, &e) {
		return errText(err)
	}
	c := *e
	c.Op = ""
	return c.Error()
}

// maxOutput is the bound on a key's length in enc (docs/guarantees.md):
// maxOutput's in UTF-8, 14*n+16 in another encoding, which writes a
// character it lacks as "&#N;", percent-encoded (ISO-2022-JP's U+000E, a
// byte, is "%26%2365533%3B").
func (enc Encoding) maxOutput(n int) int {
	if enc.pe == nil {
		return maxOutput(n)
	}
	return 14*n + 16
}

// propertyEntryPoints are the calls the harness makes, by the name of
// the exported function or method each exercises (as go/doc names them:
// "Normalize", "Base.Normalize"). One call may exercise several.
var propertyEntryPoints = []struct {
	names []string
	run   func(pc *propertyCheck)
}{
	{[]string{"Normalize", "AppendNormalized", "Encoding.Normalize", "Encoding.AppendNormalized"}, propNormalize},
	{[]string{"Equal"}, propEqual},
	{[]string{"Explain"}, propExplain},
	{[]string{"SURT", "AppendSURT"}, propSURT},
	{[]string{"LookupExpressions", "LookupHashes"}, propLookups},
	{[]string{"NormalizeRef", "NewBase", "Base.Normalize", "Base.AppendNormalized", "Base.Profile", "Base.String",
		"Encoding.NormalizeRef", "Encoding.NewBase"}, propRefs},
	{nil, propNoFalseMerge},
	{[]string{"Parse", "Ref.String", "Ref.AppendTo", "Ref.IsAbs", "Resolve", "RemoveDotSegments"}, propParse},
	{[]string{"NewProfile", "MustProfile", "Profile.Steps", "Profile.Rules", "Profile.WithRules", "Profile.Has",
		"Profile.String", "Profile.KeyVersion", "LookupProfile", "ParseStep", "Step.String", "LookupEncoding",
		"Encoding.Name", "Encoding.String", "Component.String", "Error.Error", "Error.Unwrap", "Error.Detail", "DefaultTrackingParams"},
		propProfile},
}

// propTB is the testing.TB the harness hands the no-false-merge oracles
// of the fuzz targets (FuzzNoFalseMerge's): their Fatalf is a violation.
type propTB struct{ testing.TB }

// propFatal is what propTB.Fatalf panics with, for propNoFalseMerge to
// recover.
type propFatal string

func (propTB) Helper() {}

func (propTB) Fatalf(format string, args ...any) { panic(propFatal(fmt.Sprintf(format, args...))) }

// propNoFalseMerge holds the input to the no-false-merge oracles (one
// configuration in three: they normalize many variants of the input):
// RFC3986, IRI and WebCapture on encoded and case-flipped characters and
// the delimiters of the key (checkNoFalseMerge, checkInputMutations,
// checkDelimiterSkeleton), Crawler (checkCrawlerNoFalseMerge), and the
// profile's own key steps and escape steps after ParseWHATWG, with its
// Rules, which may merge only what a step of theirs claims
// (checkKeyStepsNoFalseMerge; WHATWG, which has none, merges nothing).
func propNoFalseMerge(pc *propertyCheck) {
	c := pc.c
	if !c.merge {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(propFatal)
			if !ok {
				panic(r)
			}
			pc.failf("%s", string(f))
		}
	}()
	tb, in := propTB{}, c.in.s
	if key, err := Normalize(in, RFC3986); err == nil {
		checkNoFalseMerge(tb, in, key)
	}
	checkInputMutations(tb, in)
	checkDelimiterSkeleton(tb, in)
	if key, err := Normalize(in, Crawler); err == nil {
		checkCrawlerNoFalseMerge(tb, in, key)
	}
	var steps []Step
	for _, s := range c.p.Steps() {
		if 1<<s&(keyStepBits|1<<UppercaseEscapes|1<<DecodeUnreserved) != 0 {
			steps = append(steps, s)
		}
	}
	p, err := NewProfile(append(steps, ParseWHATWG)...)
	if err != nil {
		return
	}
	if p, err = p.WithRules(rulesUsedBy(p, c.p.Rules())); err != nil {
		return
	}
	if key, err := Normalize(in, p); err == nil {
		checkKeyStepsNoFalseMerge(tb, in, key, p)
	}
}

func propNormalize(pc *propertyCheck) {
	c := pc.c
	in := c.in.s
	key, err := c.enc.Normalize(in, c.p)
	pc.key(fmt.Sprintf("%s.Normalize(%q)", c.enc.Name(), in), key, err, c.enc.maxOutput(len(in)), c.in)
	pc.appendSame(fmt.Sprintf("%s.AppendNormalized(%q)", c.enc.Name(), in),
		func(dst []byte) ([]byte, error) { return c.enc.AppendNormalized(dst, in, c.p) }, key, err)
	utf, uerr := Normalize(in, c.p)
	switch {
	case c.enc == (Encoding{}):
		if utf != key || errText(uerr) != errText(err) {
			pc.failf("Normalize(%q) = %q, %v; the zero Encoding's = %q, %v", in, utf, uerr, key, err)
		}
	case !c.p.Has(ParseWHATWG) && c.enc.Name() != "UTF-8":
		if !errors.Is(err, ErrEncoding) {
			pc.failf("%s.Normalize(%q) = %q, %v: want ErrEncoding for a profile without ParseWHATWG", c.enc.Name(), in, key, err)
		}
	case !c.enc.pe.changes(in):
		if utf != key || (uerr == nil) != (err == nil) {
			pc.failf("%s.Normalize(%q) = %q, %v; Normalize = %q, %v: nothing to write differently", c.enc.Name(), in, key, err, utf, uerr)
		}
	}
	if c.enc != (Encoding{}) {
		pc.key(fmt.Sprintf("Normalize(%q)", in), utf, uerr, maxOutput(len(in)), c.in)
		pc.appendSame(fmt.Sprintf("AppendNormalized(%q)", in),
			func(dst []byte) ([]byte, error) { return AppendNormalized(dst, in, c.p) }, utf, uerr)
	}
}

func propEqual(pc *propertyCheck) {
	c := pc.c
	ka, ea := Normalize(c.in.s, c.p)
	kb, eb := Normalize(c.other.s, c.p)
	eq, err := Equal(c.in.s, c.other.s, c.p)
	call := fmt.Sprintf("Equal(%q, %q)", c.in.s, c.other.s)
	switch {
	case ea != nil || eb != nil:
		if err == nil || eq {
			pc.failf("%s = %v, %v; the keys' errors are %v, %v", call, eq, err, ea, eb)
		} else {
			pc.errorContract(call, err, c.in, c.other)
		}
	case err != nil || eq != (ka == kb):
		pc.failf("%s = %v, %v; the keys are %q and %q", call, eq, err, ka, kb)
	}
	if ea == nil {
		if eq, err := Equal(c.in.s, ka, c.p); !eq || err != nil {
			pc.failf("Equal(%q, its key %q) = %v, %v", c.in.s, ka, eq, err)
		}
	}
}

func propExplain(pc *propertyCheck) {
	c := pc.c
	in := c.in.s
	key, kerr := Normalize(in, c.p)
	changes, err := Explain(in, c.p)
	call := fmt.Sprintf("Explain(%q)", in)
	if (err == nil) != (kerr == nil) {
		pc.failf("%s = %v, %v; Normalize's error is %v", call, changes, err, kerr)
		return
	}
	if err != nil {
		pc.errorContract(call, err, c.in)
		for _, s := range propSentinels {
			if errors.Is(kerr, s) != errors.Is(err, s) {
				pc.failf("%s: error %v, Normalize's %v: another sentinel", call, err, kerr)
			}
		}
		return
	}
	trimmed, _, _ := trim(in)
	prev := trimmed
	for _, ch := range changes {
		if ch.Before != prev || ch.After == ch.Before || !c.p.Has(ch.Step) {
			pc.failf("%s = %+v: change %+v does not follow %q, or changes nothing, or is no step of the profile", call, changes, ch, prev)
		}
		prev = ch.After
	}
	if prev != key {
		pc.failf("%s = %+v: ends at %q, Normalize = %q", call, changes, prev, key)
	}
}

func propSURT(pc *propertyCheck) {
	c := pc.c
	for _, s := range []string{c.in.s, ""} {
		if s == "" {
			key, err := Normalize(c.in.s, c.p)
			if err != nil {
				continue
			}
			s = key
		}
		surt, err := SURT(s)
		call := fmt.Sprintf("SURT(%q)", s)
		if err != nil {
			if surt != "" {
				pc.failf("%s = %q with error %v", call, surt, err)
			}
			pc.errorContract(call, err, c.in)
		}
		pc.appendSame(fmt.Sprintf("AppendSURT(%q, 0)", s), func(dst []byte) ([]byte, error) { return AppendSURT(dst, s, 0) }, surt, err)
		form := c.form
		fs, ferr := AppendSURT(nil, s, form)
		if ferr != nil {
			pc.errorContract(fmt.Sprintf("AppendSURT(%q, %d)", s, form), ferr, c.in)
		}
		pc.appendSame(fmt.Sprintf("AppendSURT(%q, %d)", s, form), func(dst []byte) ([]byte, error) { return AppendSURT(dst, s, form) }, string(fs), ferr)
	}
}

func propLookups(pc *propertyCheck) {
	c := pc.c
	in := c.in.s
	exprs, err := LookupExpressions(in)
	_, kerr := Normalize(in, SafeBrowsing)
	call := fmt.Sprintf("LookupExpressions(%q)", in)
	if (err == nil) != (kerr == nil) {
		pc.failf("%s = %q, %v; Normalize(SafeBrowsing)'s error %v", call, exprs, err, kerr)
	}
	if err != nil {
		pc.errorContract(call, err, c.in)
	}
	if len(exprs) > 30 {
		pc.failf("%s: %d expressions, at most 30", call, len(exprs))
	}
	hashes, herr := LookupHashes(in, c.prefixLen)
	if errText(herr) != errText(err) && !(herr != nil && err != nil) {
		pc.failf("LookupHashes(%q, %d) error %v, LookupExpressions' %v", in, c.prefixLen, herr, err)
	}
	if herr == nil {
		if len(hashes) != len(exprs) {
			pc.failf("LookupHashes(%q, %d): %d hashes for %d expressions", in, c.prefixLen, len(hashes), len(exprs))
		}
		for i, h := range hashes {
			if i < len(exprs) {
				sum := sha256.Sum256([]byte(exprs[i]))
				if !bytes.Equal(h, sum[:c.prefixLen]) {
					pc.failf("LookupHashes(%q, %d)[%d] = %x, want the prefix of SHA-256(%q)", in, c.prefixLen, i, h, exprs[i])
				}
			}
		}
	} else {
		pc.errorContract(fmt.Sprintf("LookupHashes(%q, %d)", in, c.prefixLen), herr, c.in)
	}
	for _, n := range []int{3, 33} {
		if _, err := LookupHashes(in, n); err == nil {
			pc.failf("LookupHashes(%q, %d): no error for a prefix length outside 4..32", in, n)
		}
	}
}

func propRefs(pc *propertyCheck) {
	c := pc.c
	base, ref := c.base.s, c.in.s
	enc := c.enc
	call := fmt.Sprintf("%s.NormalizeRef(%q, %q)", enc.Name(), base, ref)
	key, err := enc.NormalizeRef(base, ref, c.p)
	pc.key(call, key, err, enc.maxOutput(len(base)+len(ref)), c.base, c.in)
	if enc == (Encoding{}) {
		if k2, err2 := NormalizeRef(base, ref, c.p); k2 != key || errText(err2) != errText(err) {
			pc.failf("NormalizeRef(%q, %q) = %q, %v; the zero Encoding's = %q, %v", base, ref, k2, err2, key, err)
		}
	} else if !c.p.Has(ParseWHATWG) && enc.Name() != "UTF-8" && !errors.Is(err, ErrEncoding) {
		pc.failf("%s = %q, %v: want ErrEncoding for a profile without ParseWHATWG", call, key, err)
	}
	// Base is NormalizeRef, key and error text alike.
	b, berr := enc.NewBase(base, c.p)
	if berr != nil {
		var e *Error
		pc.errorContract(fmt.Sprintf("%s.NewBase(%q)", enc.Name(), base), berr, c.base)
		if errors.Is(berr, ErrEncoding) {
			if !errors.Is(err, ErrEncoding) {
				pc.failf("%s.NewBase(%q) = %v; %s = %q, %v", enc.Name(), base, berr, call, key, err)
			}
		} else if err == nil || !errors.As(berr, &e) || e.Op != "NewBase" || e.Arg != "base" {
			pc.failf("%s.NewBase(%q) = %v; %s = %q, %v", enc.Name(), base, berr, call, key, err)
		} else if !errors.As(err, &e) || e.Arg != "base" {
			pc.failf("%s.NewBase(%q) = %v; %s fails otherwise: %v", enc.Name(), base, berr, call, err)
		}
	} else {
		if b.String() != base || b.Profile() != c.p {
			pc.failf("%s.NewBase(%q): String %q, Profile %v", enc.Name(), base, b.String(), b.Profile())
		}
		got, gerr := b.Normalize(ref)
		if got != key || !sameErrorAs(gerr, err, "Base.Normalize") {
			pc.failf("%s.NewBase(%q).Normalize(%q) = %q, %v; NormalizeRef = %q, %v", enc.Name(), base, ref, got, gerr, key, err)
		}
		pc.appendSame(fmt.Sprintf("%s.NewBase(%q).AppendNormalized(%q)", enc.Name(), base, ref),
			func(dst []byte) ([]byte, error) { return b.AppendNormalized(dst, ref) }, key, err)
		if _, aerr := b.AppendNormalized(nil, ref); !sameErrorAs(aerr, err, "Base.AppendNormalized") {
			pc.failf("%s.NewBase(%q).AppendNormalized(%q): %v; NormalizeRef: %v", enc.Name(), base, ref, aerr, err)
		}
	}
	// A profile with ParseWHATWG keys the WHATWG href of the reference
	// (NormalizeRef's documentation).
	if err == nil && c.p.Has(ParseWHATWG) {
		h, herr := enc.NormalizeRef(base, ref, WHATWG)
		if herr != nil {
			pc.failf("%s = %q, but WHATWG's NormalizeRef fails: %v", call, key, herr)
			return
		}
		if want, werr := enc.Normalize(h, c.p); want != key || werr != nil {
			pc.failf("%s = %q; the WHATWG href %q keyed = %q, %v", call, key, h, want, werr)
		}
	}
}

func propParse(pc *propertyCheck) {
	c := pc.c
	in := c.in.s
	r, err := Parse(in)
	if err != nil {
		pc.errorContract(fmt.Sprintf("Parse(%q)", in), err, c.in)
	} else {
		s := r.String()
		if r2, err := Parse(s); err != nil || r2 != r {
			pc.failf("Parse(%q) = %+v; Parse of its String %q = %+v, %v", in, r, s, r2, err)
		}
		if got := string(r.AppendTo([]byte("x"))); got != "x"+s {
			pc.failf("Parse(%q).AppendTo = %q, want %q", in, got, "x"+s)
		}
		if r.IsAbs() != (r.Scheme != "") {
			pc.failf("Parse(%q).IsAbs() = %v with scheme %q", in, r.IsAbs(), r.Scheme)
		}
		if out := RemoveDotSegments(r.Path); len(out) > len(r.Path) {
			pc.failf("RemoveDotSegments(%q) = %q: longer", r.Path, out)
		}
	}
	res, err := Resolve(c.base.s, in)
	call := fmt.Sprintf("Resolve(%q, %q)", c.base.s, in)
	if err != nil {
		if res != "" {
			pc.failf("%s = %q with error %v", call, res, err)
		}
		pc.errorContract(call, err, c.base, c.in)
	} else if _, err := Parse(res); err != nil {
		pc.failf("%s = %q, which Parse refuses: %v", call, res, err)
	}
}

func propProfile(pc *propertyCheck) {
	c := pc.c
	p := c.p
	q, err := NewProfile(p.Steps()...)
	if err == nil && len(p.Rules().Hosts)+len(p.Rules().KeepParams)+len(p.Rules().TrackingParams)+
		len(p.Rules().TrackingPrefixes)+len(p.Rules().SessionParams) > 0 {
		q, err = q.WithRules(p.Rules())
	}
	if err != nil || q != p {
		pc.failf("NewProfile(%v...).WithRules(%s) = %v, %v; want the profile itself", p.Steps(), propRulesText(p.Rules()), q, err)
	}
	if MustProfile(p.Steps()...) != func() Profile { q, _ := NewProfile(p.Steps()...); return q }() {
		pc.failf("MustProfile(%v...) differs from NewProfile's", p.Steps())
	}
	for _, s := range p.Steps() {
		if got, err := ParseStep(s.String()); got != s || err != nil || !p.Has(s) {
			pc.failf("ParseStep(%q) = %v, %v; Has = %v", s.String(), got, err, p.Has(s))
		}
	}
	if p.String() == "" || p.KeyVersion() == "" {
		pc.failf("profile %v: empty String or KeyVersion", p.Steps())
	}
	if lp, ok := LookupProfile(name(p)); ok && lp != p {
		pc.failf("LookupProfile(%q) = %v", name(p), lp)
	}
	if c.enc != (Encoding{}) {
		if e2, err := LookupEncoding(c.enc.Name()); err != nil || e2 != c.enc || c.enc.String() != c.enc.Name() {
			pc.failf("LookupEncoding(%q) = %v, %v", c.enc.Name(), e2, err)
		}
	}
	_ = Component(c.form).String()
	if len(DefaultTrackingParams()) == 0 {
		pc.failf("DefaultTrackingParams() is empty")
	}
	if _, err := Normalize(c.in.s, p); err != nil {
		var e *Error
		if errors.As(err, &e) && e.Unwrap() == nil {
			pc.failf("Normalize(%q): *Error %v unwraps to nil", c.in.s, err)
		}
	}
}

// checkProperties runs every entry point on the configuration drawn from
// data and returns the violations, a panic among them.
func checkProperties(data []byte) (c *propertyConfig, bad []string) {
	c = propertyConfigOf(data)
	pc := &propertyCheck{c: c}
	for _, ep := range propertyEntryPoints {
		func() {
			defer func() {
				if r := recover(); r != nil {
					pc.failf("%s: panic: %v\n%s", ep.names[0], r, debug.Stack())
				}
			}()
			ep.run(pc)
		}()
	}
	return c, pc.bad
}

// FuzzProperties is the harness on the fuzzer's bytes; its seeds are
// random bytes, so that the grammar, not a seed, reaches each input.
func FuzzProperties(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 64; i++ {
		b := make([]byte, 32+r.IntN(160))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, bad := checkProperties(data)
		if len(bad) > 0 {
			t.Fatalf("%s:\n%s", c, strings.Join(bad, "\n"))
		}
	})
}

var (
	propertiesN      = flag.Int("properties.n", 3000, "configurations TestProperties draws (more with -long)")
	propertiesHunt   = flag.Duration("properties.hunt", 0, "run TestPropertyHunt for this long")
	propertiesSeed   = flag.Uint64("properties.seed", 1, "the random source's seed of TestPropertyHunt")
	propertiesReplay = flag.String("properties.replay", "", "TestPropertyReplay: the hex of a configuration's bytes")
)

// TestPropertyReplay runs the harness on the configuration whose bytes
// -properties.replay gives (TestProperties and TestPropertyHunt print
// them).
func TestPropertyReplay(t *testing.T) {
	if *propertiesReplay == "" {
		t.Skip("runs with -properties.replay=HEX")
	}
	data, err := hex.DecodeString(*propertiesReplay)
	if err != nil {
		t.Fatal(err)
	}
	c, bad := checkProperties(data)
	t.Logf("%s", c)
	for _, b := range bad {
		t.Error(b)
	}
}

// propRandomData returns the bytes of one configuration from r.
func propRandomData(r *rand.Rand) []byte {
	b := make([]byte, 64+r.IntN(192))
	for j := range b {
		b[j] = byte(r.Uint32())
	}
	return b
}

// TestProperties runs the harness on a fixed sequence of random
// configurations: properties.n of them (ten times as many with -long).
func TestProperties(t *testing.T) {
	n := *propertiesN
	if *longTests {
		n *= 10
	}
	r := rand.New(rand.NewPCG(42, 7))
	for i := 0; i < n; i++ {
		data := propRandomData(r)
		if c, bad := checkProperties(data); len(bad) > 0 {
			t.Fatalf("configuration %d (%x):\n%s:\n%s", i, data, c, strings.Join(bad, "\n"))
		}
	}
}

// TestPropertyHunt runs the harness for -properties.hunt on random
// configurations and reports, for each kind of violation (its first line
// with the quoted text removed), when it was first met and one example.
// It fails when any was met.
func TestPropertyHunt(t *testing.T) {
	if *propertiesHunt == 0 {
		t.Skip("runs with -properties.hunt=DURATION")
	}
	r := rand.New(rand.NewPCG(*propertiesSeed, 99))
	start := time.Now()
	type found struct {
		at     time.Duration
		n      int
		runs   int
		config string
		bad    string
		data   []byte
	}
	kinds := map[string]*found{}
	runs := 0
	for time.Since(start) < *propertiesHunt {
		runs++
		data := propRandomData(r)
		c, bad := checkProperties(data)
		for _, b := range bad {
			k := propViolationKind(b)
			if f, ok := kinds[k]; ok {
				f.n++
				continue
			}
			kinds[k] = &found{at: time.Since(start), n: 1, runs: runs, config: c.String(), bad: b, data: data}
		}
	}
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return kinds[ks[i]].at < kinds[ks[j]].at })
	for _, k := range ks {
		f := kinds[k]
		b := f.bad
		if len(b) > 600 {
			b = b[:600] + "..."
		}
		t.Errorf("after %v (%d configurations), %d times: %s\n  %s\n  %s\n  -properties.replay=%x", f.at.Round(time.Millisecond), f.runs, f.n, k, f.config, b, f.data)
	}
	t.Logf("%d configurations in %v", runs, time.Since(start).Round(time.Second))
}

// propURLKind names the kind of s for propViolationKind: blob:, file:,
// another absolute URL, or a fragment, query or other relative reference.
func propURLKind(s string) string {
	s, _, _ = trim(s)
	switch r, err := Parse(s); {
	case err != nil:
		return "unparsed"
	case strings.EqualFold(r.Scheme, "blob"):
		return "blob:"
	case strings.EqualFold(r.Scheme, "file"):
		return "file:"
	case r.Scheme != "":
		return "absolute"
	case strings.HasPrefix(s, "#"):
		return "fragment"
	}
	return "relative"
}

// propViolationKind is a violation's text without what it quotes and its
// stack's addresses: the kind of failure, not the input.
func propViolationKind(s string) string {
	first, rest, _ := strings.Cut(s, "\n")
	var b strings.Builder
	inQuote := false
	for i := 0; i < len(first); i++ {
		switch c := first[i]; {
		case c == '\\' && inQuote:
			i++
		case c == '"':
			inQuote = !inQuote
			if !inQuote {
				b.WriteString(`"…"`)
			}
		case !inQuote:
			b.WriteByte(c)
		}
	}
	k := b.String()
	if i := strings.Index(first, "NormalizeRef(\""); i >= 0 {
		// Which kind of base and reference: the class of a resolution's
		// failure.
		rest := first[i+len("NormalizeRef("):]
		if base, err := strconv.QuotedPrefix(rest); err == nil {
			rest = strings.TrimPrefix(rest[len(base):], ", ")
			ref, _ := strconv.QuotedPrefix(rest)
			base, _ = strconv.Unquote(base)
			ref, _ = strconv.Unquote(ref)
			k += " [base " + propURLKind(base) + ", reference " + propURLKind(ref) + "]"
		}
	}
	for _, enc := range allEncodings() {
		k = strings.ReplaceAll(k, enc.Name()+".", "Encoding.")
	}
	if strings.Contains(k, "panic") {
		// The panic's place: the first frame in the package's own files.
		for _, line := range strings.Split(rest, "\n") {
			line = strings.TrimSpace(line)
			if strings.Contains(line, "/canon/") && strings.Contains(line, ".go:") && !strings.Contains(line, "_test.go") {
				k += " at " + line[strings.LastIndexByte(line, '/')+1:]
				break
			}
		}
	}
	return k
}

// propertyNotExercised are the exported names the harness does not call,
// each with the reason.
var propertyNotExercised = map[string]string{}

// TestPropertyHarnessCoversAPI holds propertyEntryPoints to the package:
// every exported function and method (read from the package's source
// with go/doc) is exercised by the harness or listed, with its reason, in
// propertyNotExercised; and every Step constant is one the harness draws
// (those below numSteps, the steps NewProfile knows). A new entry point
// or Step fails this test until the harness covers it.
func TestPropertyHarnessCoversAPI(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			f, err := parser.ParseFile(fset, n, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	pkg, err := doc.NewFromFiles(fset, files, "github.com/seed15588f71/canon")
	if err != nil {
		t.Fatal(err)
	}
	var exported []string
	for _, f := range pkg.Funcs {
		exported = append(exported, f.Name)
	}
	var stepConsts []string
	for _, ty := range pkg.Types {
		for _, f := range ty.Funcs {
			exported = append(exported, f.Name)
		}
		for _, m := range ty.Methods {
			exported = append(exported, ty.Name+"."+m.Name)
		}
		if ty.Name == "Step" {
			for _, c := range ty.Consts {
				for _, n := range c.Names {
					if ast.IsExported(n) {
						stepConsts = append(stepConsts, n)
					}
				}
			}
		}
	}
	covered := map[string]bool{}
	for _, ep := range propertyEntryPoints {
		for _, n := range ep.names {
			covered[n] = true
		}
	}
	for _, n := range exported {
		if !covered[n] && propertyNotExercised[n] == "" {
			t.Errorf("%s is exported but the property harness does not call it (propertyEntryPoints)", n)
		}
		delete(covered, n)
	}
	for n := range covered {
		t.Errorf("propertyEntryPoints names %s, which the package does not export", n)
	}
	if len(stepConsts) != int(numSteps) {
		t.Errorf("the package declares %d Step constants, the harness draws Step(0) to Step(%d): %v", len(stepConsts), numSteps-1, stepConsts)
	}
	for _, n := range stepConsts {
		s, err := ParseStep(n)
		if err != nil || s >= numSteps {
			t.Errorf("Step %s: ParseStep = %v, %v: not among the steps the harness draws", n, s, err)
		}
	}
}
