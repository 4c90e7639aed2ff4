package canon

import (
	"net/netip"
	"strings"
)

// MaxLength is the longest input, in bytes, that the package accepts.
// Checking it first bounds the work and memory any single call can take.
const MaxLength = 4 << 20

// MaxHostLength is the longest host, in bytes as written, that the package
// accepts; it is checked before any IDNA or NFC work (whose cost grows
// faster than the input in golang.org/x/net/idna), and again on the host
// as the key writes it (A-labels are longer than the labels they spell),
// so that every key can be read again.
const MaxHostLength = 1024

// trim removes leading and trailing spaces and C0 controls, as browsers
// and Python's urllib do, and checks MaxLength.
func trim(s string) (string, int, *failure) {
	if len(s) > MaxLength {
		return "", 0, fail(ComponentURL, MaxLength, ErrTooLong, "longer than MaxLength")
	}
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j], i, nil
}

// syntax is what a profile tells the parser: the few rules on which the
// standards it reads disagree. The components and their offsets are the
// same in all three; what ends the authority, what "\\" means, and what
// an invalid scheme is, differ.
type syntax uint8

const (
	// syntaxRFC3986 splits as the RFC 2396 drafts do and checks the
	// input against canon's policy (no control character, no backslash
	// in the authority or path, a valid scheme before any ":" that comes
	// before "/", "?" and "#").
	syntaxRFC3986 syntax = iota
	// syntaxLenient splits the same way an input that DecodeAll has
	// rewritten: only the scheme and the port are checked.
	syntaxLenient
	// syntaxWHATWG is the WHATWG URL Standard's basic URL parser with no
	// base: a ":" after anything but scheme characters makes no scheme
	// (a relative reference); after a special scheme (http, https, ws,
	// wss, ftp, file) "\\" is "/", any run of slashes starts the
	// authority, and "\\" ends it; file URLs have no userinfo or port,
	// and a Windows drive letter is a path, not a host; a non-special
	// scheme not followed by "/" has an opaque path. The input has been
	// trimmed and its tabs and newlines removed (preprocessWHATWG).
	syntaxWHATWG
)

// parts holds the offsets of the components of s and, for each component,
// the union of the byte classes of its bytes, so that the normalizer can
// skip every component that has nothing to change without looking at it
// again.
type parts struct {
	s string

	schemeEnd int // s[:schemeEnd] is the scheme, s[schemeEnd] == ':'; -1 if none

	hasAuth            bool
	authStart, authEnd int // s[authStart:authEnd], after "//"
	hasUser            bool
	userEnd            int // userinfo s[authStart:userEnd], '@' at userEnd
	hostStart, hostEnd int
	hasPort            bool // ':' at hostEnd, port s[hostEnd+1:authEnd]

	pathStart, pathEnd int

	hasQuery   bool
	queryStart int // '?' at queryStart-1, query s[queryStart:queryEnd]
	queryEnd   int

	hasFrag   bool
	fragStart int // '#' at fragStart-1, fragment s[fragStart:]

	mScheme, mUser, mHost, mPath, mQuery, mFrag uint16

	kind schemeKind // what the scheme-based rules need to know of the scheme

	// Set by syntaxWHATWG only.
	special bool // the scheme is special: "\\" is "/" and the host a domain or IP address
	opaque  bool // the path is opaque (a non-special scheme without "/" after it)
}

// classes returns the union of the byte classes of s[i:j]. Four
// accumulators let the loads overlap; ranging over a substring drops the
// bounds checks.
func classes(s string, i, j int) uint16 {
	t := s[i:j]
	var m0, m1, m2, m3 uint16
	for len(t) >= 4 {
		m0 |= byteClass[t[0]]
		m1 |= byteClass[t[1]]
		m2 |= byteClass[t[2]]
		m3 |= byteClass[t[3]]
		t = t[4:]
	}
	for k := 0; k < len(t); k++ {
		m0 |= byteClass[t[k]]
	}
	return m0 | m1 | m2 | m3
}

// firstOf returns the offset of the first byte of s[i:j] in class cls.
func firstOf(s string, i, j int, cls uint16) int {
	for ; i < j; i++ {
		if byteClass[s[i]]&cls != 0 {
			return i
		}
	}
	return j
}

// parse splits s into p in one pass, outside-in as the RFC 2396 drafts
// say: the scheme ends at a ":" before any "/", "?" or "#", the authority
// at "/", "?" or "#", the path at "?" or "#", the query at "#". syn says
// where the standards differ (see syntax); with syntaxLenient (POWDER,
// whose input is already decoded) it only splits and checks the scheme
// and port: control characters and backslashes are the caller's business.
func (p *parts) parse(s string, syn syntax) *failure { return p.read(s, syn, false) }

// split is parse for a reader that wants the components' offsets and
// nothing else (redaction, which must see a userinfo wherever a reader
// would take one, in inputs that are otherwise invalid): it checks
// nothing and never fails. Outside syntaxWHATWG, a scheme is whatever
// precedes the first ":" that comes before any "/", "?" or "#", valid or
// not. Under syntaxWHATWG, a relative reference that starts with two or
// more of "/" and "\\" has an authority after them, as against a base
// with a special scheme ("relative slash state").
func (p *parts) split(s string, syn syntax) { p.read(s, syn, true) }

// read is parse, or split when lax is set.
func (p *parts) read(s string, syn syntax, lax bool) *failure {
	*p = parts{s: s, schemeEnd: -1}
	n := len(s)
	whatwg := syn == syntaxWHATWG

	rest := 0
	end, f := schemeEnd(s, syn, lax)
	if f != nil {
		return f
	}
	if end >= 0 {
		p.schemeEnd = end
		p.mScheme = classes(s, 0, end)
		p.kind = kindOf(s[:end])
		rest = end + 1
	}

	// Authority: "//" up to the next "/", "?" or "#".
	i := rest
	if whatwg && p.schemeEnd >= 0 {
		var f *failure
		if i, f = p.whatwgAuthority(rest, lax); f != nil {
			return f
		}
	} else if whatwg && lax && n >= 2 && isSlash(s[0]) && isSlash(s[1]) {
		a := 2
		for a < n && isSlash(s[a]) {
			a++
		}
		p.special = true
		i, _ = p.whatwgSplitAuthority(a, true)
	} else if n-rest >= 2 && s[rest] == '/' && s[rest+1] == '/' {
		p.hasAuth = true
		p.authStart = rest + 2
		// One pass finds the end of the authority, its last "@" and the
		// byte classes of the userinfo and of host and port.
		k, at := p.authStart, -1
		var m, mu uint16
		for ; k < n; k++ {
			c := s[k]
			if c == '/' || c == '?' || c == '#' {
				break
			}
			if c == '@' {
				if at >= 0 {
					mu |= byteClass['@'] // an "@" inside the userinfo
				}
				at, mu, m = k, mu|m, 0
				continue
			}
			m |= byteClass[c]
		}
		p.authEnd = k
		if f := p.splitAuthority(at, mu, m, syn, lax); f != nil {
			return f
		}
		i = k
	}

	return p.readTail(i, syn, lax)
}

// readTail reads the path, the query and the fragment from s[i] on, the
// end of the authority (or of the scheme, or the start): the path runs to
// "?" or "#", the query to "#", the fragment to the end.
func (p *parts) readTail(i int, syn syntax, lax bool) *failure {
	s := p.s
	n := len(s)
	p.pathStart = i
	var m uint16
	for ; i < n; i++ {
		c := byteClass[s[i]]
		if c&clsEndPath != 0 {
			break
		}
		m |= c
	}
	p.pathEnd = i
	p.mPath = m
	if i < n && s[i] == '?' {
		p.hasQuery = true
		p.queryStart = i + 1
		if k := strings.IndexByte(s[i+1:], '#'); k >= 0 {
			i += 1 + k
		} else {
			i = n
		}
		p.queryEnd = i
		p.mQuery = classes(s, p.queryStart, i)
	}
	if i < n {
		p.hasFrag = true
		p.fragStart = i + 1
		p.mFrag = classes(s, p.fragStart, n)
	}
	if syn != syntaxRFC3986 || lax {
		return nil
	}
	if p.mPath&(clsCtl|clsBackslash) != 0 {
		k := firstOf(s, p.pathStart, p.pathEnd, clsCtl|clsBackslash)
		return fail(ComponentPath, k, ErrInvalidChar, charReason(s[k]))
	}
	if p.mQuery&clsCtl != 0 {
		return fail(ComponentQuery, firstOf(s, p.queryStart, p.queryEnd, clsCtl), ErrInvalidChar, "control character")
	}
	if p.mFrag&clsCtl != 0 {
		return fail(ComponentFragment, firstOf(s, p.fragStart, n, clsCtl), ErrInvalidChar, "control character")
	}
	return nil
}

// schemeEnd is the parser's one reading of a scheme: it returns the
// offset of the ":" that ends the scheme of s, or -1 when s has none.
// RFC 2396-draft §4.4 and RFC 3986 §3.1: a ":" before any "/", "?" or "#"
// ends a scheme, which must be valid (a failure otherwise): a relative
// reference cannot have a ":" in its first segment (§4.2), so there is
// no other reading of such an input; lax takes whatever precedes that
// ":". The WHATWG URL Standard reads an input whose scheme would be
// invalid as a relative reference instead ("scheme state": "start over"
// in the "no scheme state"): under syntaxWHATWG the scheme is an ASCII
// letter, then letters, digits, "+", "-" and ".", then ":", or there is
// none. (DefaultScheme reads a scheme the WHATWG way too: schemeLength.)
func schemeEnd[T string | []byte](s T, syn syntax, lax bool) (int, *failure) {
	whatwg := syn == syntaxWHATWG
	for i := 0; i < len(s); i++ {
		c := s[i]
		if whatwg && c != ':' && byteClass[c]&clsScheme == 0 {
			return -1, nil
		}
		if c == '/' || c == '?' || c == '#' {
			return -1, nil
		}
		if c != ':' {
			continue
		}
		if lax && !whatwg {
			return i, nil
		}
		if i == 0 {
			if whatwg {
				return -1, nil
			}
			return -1, fail(ComponentScheme, 0, ErrInvalidScheme, "empty scheme")
		}
		if c0 := s[0] | 0x20; c0 < 'a' || c0 > 'z' {
			if whatwg {
				return -1, nil
			}
			return -1, fail(ComponentScheme, 0, ErrInvalidScheme, "scheme must start with a letter")
		}
		for k := 0; k < i; k++ {
			if byteClass[s[k]]&clsScheme == 0 {
				return -1, fail(ComponentScheme, k, ErrInvalidScheme, "invalid character")
			}
		}
		return i, nil
	}
	return -1, nil
}

// whatwgAuthority finds the authority of an absolute URL under the WHATWG
// URL Standard, after the scheme's ":" at s[rest-1], and returns where the
// path starts. A special scheme always has a host (its "special authority
// ignore slashes state" skips any run of "/" and "\\", none included),
// which "/", "\\", "?" or "#" ends; a file URL's host follows exactly two
// slashes and is a path when it is a Windows drive letter ("file state",
// "file host state"); a non-special scheme has one after "//" only.
func (p *parts) whatwgAuthority(rest int, lax bool) (int, *failure) {
	s, n := p.s, len(p.s)
	kind := p.kind
	p.special = kind.special()
	slash := func(k int) bool { return k < n && (s[k] == '/' || (p.special && s[k] == '\\')) }
	switch {
	case kind == schemeFile:
		p.hasAuth = true
		if !(slash(rest) && slash(rest+1)) {
			// "file:x" or "file:/x": an empty host, the rest is the path.
			p.authStart, p.authEnd, p.hostStart, p.hostEnd = rest, rest, rest, rest
			return rest, nil
		}
		a := rest + 2
		k := a
		for k < n && !slash(k) && s[k] != '?' && s[k] != '#' {
			k++
		}
		if isWindowsDriveLetter(s[a:k]) {
			// "file://C:/x": the drive letter starts the path.
			p.authStart, p.authEnd, p.hostStart, p.hostEnd = a, a, a, a
			return a, nil
		}
		p.authStart, p.authEnd, p.hostStart, p.hostEnd = a, k, a, k
		p.mHost = classes(s, a, k)
		return k, nil
	case p.special:
		a := rest
		for slash(a) {
			a++
		}
		return p.whatwgSplitAuthority(a, lax)
	case n-rest >= 2 && s[rest] == '/' && s[rest+1] == '/':
		return p.whatwgSplitAuthority(rest+2, lax)
	case rest == n || s[rest] != '/':
		p.opaque = true
	}
	return rest, nil
}

// whatwgSplitAuthority splits the authority that starts at s[a] into
// userinfo (up to the last "@"), host and port (after a ":" outside
// brackets), as the standard's "authority state" and "host state" do.
func (p *parts) whatwgSplitAuthority(a int, lax bool) (int, *failure) {
	s, n := p.s, len(p.s)
	p.hasAuth = true
	p.authStart = a
	k, at := a, -1
	for ; k < n; k++ {
		c := s[k]
		if c == '/' || c == '?' || c == '#' || (p.special && c == '\\') {
			break
		}
		if c == '@' {
			at = k
		}
	}
	p.authEnd = k
	p.hostStart = a
	if at >= 0 {
		p.hasUser = true
		p.userEnd = at
		p.hostStart = at + 1
		p.mUser = classes(s, a, at)
	}
	h := p.hostStart
	p.hostEnd = k
	inBrackets := false
	for x := h; x < k; x++ {
		switch s[x] {
		case '[':
			inBrackets = true
		case ']':
			inBrackets = false
		case ':':
			if !inBrackets {
				p.hostEnd = x
				x = k
			}
		}
	}
	p.mHost = classes(s, h, p.hostEnd)
	if lax {
		return k, nil
	}
	if p.hostEnd < k {
		if p.hostEnd == h {
			return 0, fail(ComponentHost, h, ErrInvalidHost, "missing host before the port")
		}
		p.hasPort = true
		if _, f := portValue(s, p.hostEnd+1, k); f != nil {
			return 0, f
		}
	}
	if p.hostEnd-h > MaxHostLength && decodedLength(s[h:p.hostEnd]) > MaxHostLength {
		// Measured as the host parser reads it, each triplet one byte:
		// the key writes a control or non-ASCII byte of an opaque host
		// as a triplet, and a limit as written would reject that key.
		return 0, fail(ComponentHost, h+MaxHostLength, ErrTooLong, "host longer than MaxHostLength")
	}
	return k, nil
}

// decodedLength returns the length of t with every valid triplet decoded.
func decodedLength(t string) int {
	n := len(t)
	for k := strings.IndexByte(t, '%'); k >= 0; {
		if validEscape(t, k) {
			n -= 2
			t = t[k+3:]
		} else {
			t = t[k+1:]
		}
		k = strings.IndexByte(t, '%')
	}
	return n
}

// isWindowsDriveLetter reports whether t is an ASCII letter and ":" or
// "|" (the WHATWG URL Standard's "Windows drive letter").
func isWindowsDriveLetter(t string) bool {
	return len(t) == 2 && (t[0]|0x20) >= 'a' && (t[0]|0x20) <= 'z' && (t[1] == ':' || t[1] == '|')
}

func charReason(c byte) string {
	if c == '\\' {
		return "backslash"
	}
	return "control character"
}

// splitAuthority finds the userinfo, host and port in s[authStart:authEnd]
// (RFC 3986 §3.2) and checks the port and, unless lenient, the host. at is
// the offset of the last "@" (or -1), mu the classes of the userinfo and
// mhp those of host and port.
func (p *parts) splitAuthority(at int, mu, mhp uint16, syn syntax, lax bool) *failure {
	lenient := syn != syntaxRFC3986
	s := p.s
	a, b := p.authStart, p.authEnd
	p.hostStart = a
	// The userinfo ends at the last "@": "http://a@b@c/" has host c
	// (browsers, net/url and Python agree).
	if at >= 0 {
		p.hasUser = true
		p.userEnd = at
		p.hostStart = at + 1
		p.mUser = mu
	}
	if lax {
		p.hostEnd = b // host and port are not told apart: not read
		return nil
	}
	if at >= 0 {
		if !lenient && mu&(clsCtl|clsBackslash) != 0 {
			k := firstOf(s, a, at, clsCtl|clsBackslash)
			return fail(ComponentUserinfo, k, ErrInvalidChar, charReason(s[k]))
		}
	}
	h := p.hostStart
	p.hostEnd = b
	if h < b && s[h] == '[' {
		// IP-literal (§3.2.2): nothing but a port may follow the "]".
		k := strings.IndexByte(s[h:b], ']')
		if k < 0 {
			return fail(ComponentHost, h, ErrInvalidHost, "missing ']'")
		}
		p.hostEnd = h + k + 1
		if p.hostEnd < b && s[p.hostEnd] != ':' {
			return fail(ComponentHost, p.hostEnd, ErrInvalidHost, "unexpected character after IP literal")
		}
		p.mHost = classes(s, h, p.hostEnd)
	} else {
		if mhp&clsOutside != 0 {
			if k := strings.IndexAny(s[h:b], "[]"); k >= 0 {
				return fail(ComponentHost, h+k, ErrInvalidHost, "bracket outside an IP literal")
			}
		}
		if k := strings.IndexByte(s[h:b], ':'); k >= 0 {
			p.hostEnd = h + k
		}
		// A port is digits, whose classes change nothing the host
		// steps look at, so the classes of host and port serve.
		p.mHost = mhp
	}
	if p.hostEnd < b {
		p.hasPort = true
		if _, f := portValue(s, p.hostEnd+1, b); f != nil {
			return f
		}
	}
	if p.hostEnd-h > MaxHostLength {
		return fail(ComponentHost, h+MaxHostLength, ErrTooLong, "host longer than MaxHostLength")
	}
	if lenient {
		return nil
	}
	if p.mHost&(clsCtl|clsBackslash) != 0 {
		k := firstOf(s, h, p.hostEnd, clsCtl|clsBackslash)
		return fail(ComponentHost, k, ErrInvalidChar, charReason(s[k]))
	}
	return checkHostSyntax(s, h, p.hostEnd, p.mHost)
}

// portValue parses the port s[i:j]: decimal digits only (RFC 3986 §3.2.3),
// any number of leading zeros, a value of at most 65535. An empty port
// has value -1. The parse is linear and cannot overflow.
func portValue(s string, i, j int) (int, *failure) {
	if i == j {
		return -1, nil
	}
	v := 0
	for k := i; k < j; k++ {
		c := s[k]
		if c < '0' || c > '9' {
			return 0, fail(ComponentPort, k, ErrInvalidPort, "invalid character")
		}
		v = v*10 + int(c-'0')
		if v > 65535 {
			return 0, fail(ComponentPort, i, ErrInvalidPort, "port out of range")
		}
	}
	return v, nil
}

// checkHostSyntax checks the host s[i:j] against RFC 3986 §3.2.2: an
// IP-literal, or a reg-name of unreserved, sub-delims and percent-encoded
// octets. Non-ASCII is allowed (an IRI ihost, RFC 3987 §2.2); whether it
// is a valid IDN is the business of the host steps. A percent-encoded
// octet that decodes to a delimiter, "%", a space or a control character
// is rejected: decoding it would change where the host ends
// (curl CVE-2022-27780).
func checkHostSyntax(s string, i, j int, m uint16) *failure {
	if i < j && s[i] == '[' {
		return checkIPLiteral(s, i, j)
	}
	if m&(clsOutside|clsPct) == 0 {
		return nil
	}
	for k := i; k < j; k++ {
		c := s[k]
		cls := byteClass[c]
		switch {
		case c == '%':
			if !validEscapeBefore(s, k, j) {
				return fail(ComponentHost, k, ErrInvalidEscape, "invalid percent-encoding")
			}
			v := tripletValue(s, k)
			if v < 0x80 && byteClass[v]&(clsUnreserved|clsSubDelim) == 0 {
				return fail(ComponentHost, k, ErrInvalidHost, "percent-encoded delimiter or control character")
			}
			k += 2
		case cls&clsOutside != 0:
			return fail(ComponentHost, k, ErrInvalidHost, "invalid character")
		}
	}
	return nil
}

// checkIPLiteral checks "[" ( IPv6address / IPvFuture ) "]" (RFC 3986
// §3.2.2), with an optional RFC 6874 zone identifier "%25" ZoneID.
func checkIPLiteral(s string, i, j int) *failure {
	inner := s[i+1 : j-1]
	if inner == "" {
		return fail(ComponentHost, i, ErrInvalidHost, "empty IP literal")
	}
	if inner[0] == 'v' || inner[0] == 'V' {
		// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
		dot := strings.IndexByte(inner, '.')
		if dot < 2 || dot == len(inner)-1 {
			return fail(ComponentHost, i+1, ErrInvalidHost, "invalid IPvFuture")
		}
		for k := 1; k < dot; k++ {
			if !isHex(inner[k]) {
				return fail(ComponentHost, i+1+k, ErrInvalidHost, "invalid IPvFuture")
			}
		}
		for k := dot + 1; k < len(inner); k++ {
			if byteClass[inner[k]]&clsUserinfo == 0 {
				return fail(ComponentHost, i+1+k, ErrInvalidHost, "invalid IPvFuture")
			}
		}
		return nil
	}
	addr := inner
	if z := strings.IndexByte(inner, '%'); z >= 0 {
		// RFC 6874: the zone is introduced by "%25" and is not empty.
		addr = inner[:z]
		zone := inner[z:]
		if len(zone) <= 3 || zone[:3] != "%25" {
			return fail(ComponentHost, i+1+z, ErrInvalidHost, "invalid zone identifier")
		}
		for k := 3; k < len(zone); k++ {
			c := zone[k]
			if c == '%' {
				if !validEscapeBefore(zone, k, len(zone)) {
					return fail(ComponentHost, i+1+z+k, ErrInvalidEscape, "invalid percent-encoding")
				}
				k += 2
				continue
			}
			if byteClass[c]&clsUnreserved == 0 {
				return fail(ComponentHost, i+1+z+k, ErrInvalidHost, "invalid zone identifier")
			}
		}
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil || !ip.Is6() || ip.Zone() != "" {
		return fail(ComponentHost, i+1, ErrInvalidHost, "invalid IPv6 address")
	}
	return nil
}

// schemeKind is what the scheme-based steps need to know of a scheme.
type schemeKind uint8

const (
	schemeOther schemeKind = iota
	schemeHTTP
	schemeHTTPS
	schemeWS
	schemeWSS
	schemeFTP
	schemeFile
)

// kindOf returns the kind of a scheme, in any case. The special schemes
// are compared four bytes at a time, ORed with 0x20 (which lowercases
// a letter): a byte that is not a letter cannot match a lowercase letter
// so (only 'A'+n and 'a'+n map to 'a'+n). It runs on every URL, so it is
// a handful of instructions for "http" and "https".
func kindOf(scheme string) schemeKind {
	const (
		http = 'h' | 't'<<8 | 't'<<16 | 'p'<<24
		file = 'f' | 'i'<<8 | 'l'<<16 | 'e'<<24
		ftp  = 'f' | 't'<<8 | 'p'<<16
		wss  = 'w' | 's'<<8 | 's'<<16
		ws   = 'w' | 's'<<8
	)
	switch len(scheme) {
	case 5:
		if le32(scheme)|0x20202020 == http && scheme[4]|0x20 == 's' {
			return schemeHTTPS
		}
	case 4:
		switch le32(scheme) | 0x20202020 {
		case http:
			return schemeHTTP
		case file:
			return schemeFile
		}
	case 3:
		switch uint32(scheme[0]) | uint32(scheme[1])<<8 | uint32(scheme[2])<<16 | 0x202020 {
		case ftp:
			return schemeFTP
		case wss:
			return schemeWSS
		}
	case 2:
		if uint32(scheme[0])|uint32(scheme[1])<<8|0x2020 == ws {
			return schemeWS
		}
	}
	return schemeOther
}

// le32 returns the first four bytes of s as a little-endian word.
func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// defaultPort is the port RFC 3986 §6.2.3 lets us remove: the one the
// scheme's specification defines (RFC 9110 §4.2, RFC 6455 §3, RFC 1738
// §3.2). -1 when the scheme has none here.
func (k schemeKind) defaultPort() int {
	switch k {
	case schemeHTTP, schemeWS:
		return 80
	case schemeHTTPS, schemeWSS:
		return 443
	case schemeFTP:
		return 21
	}
	return -1
}

// needsHost reports whether the scheme's specification requires a
// non-empty host (RFC 9110 §4.2.1: a recipient "MUST reject" an http URI
// with an empty host; RFC 6455 §3; RFC 1738 §3.2). An input such as
// "http:/evil.com/" or "http:///evil.com/" is an error rather than a guess
// at what a browser would make of it.
func (k schemeKind) needsHost() bool {
	return k >= schemeHTTP && k <= schemeFTP
}

// special reports whether hosts of the scheme are DNS names or IP
// addresses, which is when a numeric host must be a canonical IPv4.
func (k schemeKind) special() bool { return k != schemeOther }

// schemeLength returns the length of the scheme of b, or -1 when b has
// none in the sense of DefaultScheme: b must start with
// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":", and what follows the
// ":" must not be a port (digits up to the end, "/", "?" or "#"), so that
// "www.example.com:8080/x" and "localhost:80" have no scheme while
// "mailto:joe@example.com" and "urn:isbn:0451450523" have one.
func schemeLength[T string | []byte](b T) int {
	i, _ := schemeEnd(b, syntaxWHATWG, false)
	if i < 0 {
		return -1
	}
	k := i + 1
	for k < len(b) && b[k] >= '0' && b[k] <= '9' {
		k++
	}
	if k > i+1 && (k == len(b) || b[k] == '/' || b[k] == '?' || b[k] == '#') {
		return -1 // host ":" port
	}
	return i
}

// isSlash reports whether c separates path segments in a special URL,
// as the WHATWG URL Standard reads one.
func isSlash(c byte) bool { return c == '/' || c == '\\' }
