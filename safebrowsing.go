package canon

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Google Safe Browsing's canonicalization: the SafeBrowsing profile's
// reader and writer (the lookup expressions its keys give are in
// lookup.go, the redaction of its reading in redact.go). The
// document is "URLs and Hashing", of the Safe Browsing API v4
// (developers.google.com/safe-browsing/v4/urls-hashing, also Google Cloud
// Web Risk's "URLs and Hashing"), with the IPv6 rules its v5 reference
// adds (developers.google.com/safe-browsing/reference/URLs.and.Hashing).
// In its order:
//
//  1. Remove tab, CR and LF (not their escapes). Leading and trailing
//     spaces and C0 controls go first, as the document's vectors show
//     ("  http://www.google.com/  ") and as every input is trimmed.
//  2. Remove the fragment: from the first "#" as written.
//  3. Percent-unescape the URL repeatedly until it has no escape left.
//     An escape that decoding makes holds the byte decoding wrote, so one
//     pass that looks back after each byte it writes finds them all
//     (decodeRepeatedlyInPlace), in linear time; and as two escapes never
//     overlap ("%" is no hex digit), decoding them in any order leaves
//     the text that decoding pass after pass leaves. There is
//     no bound to give up at ("%25" followed by a million "25" decodes to
//     "%", where a bound of 1,024 passes would stop early).
//  4. Read the decoded text: a scheme (as DefaultScheme reads one:
//     "host:8080/x" has none), which must be followed by "//" and gets
//     "http" when missing; the authority up to the first "/" or "?"; its
//     userinfo (up to the last "@") and port (after the first ":", or
//     after a host in brackets, "[" to the first "]", which the end of
//     the authority or ":" must follow) dropped, the port being digits of
//     at most 65535; the path up to the first "?"; the query. Escapes
//     are read before this, so a decoded "/", "?", "@" or ":" delimits
//     ("This may render the URL invalid", the document says).
//  5. The host: a non-ASCII one as A-labels (UTS #46, as the WHATWG URL
//     Standard converts a domain; where that fails, its bytes are kept);
//     leading and trailing dots removed, runs of dots collapsed; an IPv4
//     address in any spelling the document allows ("octal, hex, and
//     fewer than four components": the WHATWG URL Standard's IPv4 parser,
//     which reads what inet_aton reads) as four decimal numbers; an IPv6
//     address in brackets compressed (the standard's serializer), an
//     IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) one as its IPv4
//     address; lowercase.
//  6. The path: "/" when empty; "." and ".." segments resolved (RFC 3986
//     §5.2.4, which reads "/../" and "/./" as the document does); then
//     runs of "/" collapsed. The query is kept as it is.
//  7. Escape every byte up to 0x20, from 0x7F, "#" and "%", with
//     uppercase hex.
//
// The key is scheme "://" host path ["?" query]. Its bytes decode to the
// text of step 4 again, so it is a fixed point of the profile.

// sbStack is the size of the stack buffers that hold the decoded input
// of most URLs and a path whose dot segments are resolved; longer ones
// are allocated.
const sbStack = 512

// safeBrowsingPlan is SafeBrowsing's plan, and whatwgResolvePlan the
// WHATWG profile's, which resolves a reference for NormalizeRef (both
// taken here: a program must not assign to the predefined profiles, but
// the package does not rely on it).
var (
	safeBrowsingPlan  = mustProfile(ParseSafeBrowsing).plan()
	whatwgResolvePlan = mustProfile(ParseWHATWG).plan()
)

// safeBrowsingInto writes the SafeBrowsing key of rawURL into u (whose
// writer's buffer the caller set) and sets its offsets. It returns where
// the trimmed input starts in rawURL, for the offsets of a failure, which
// are -1 when the input was rewritten (tabs removed, escapes decoded)
// before the failure was found.
func safeBrowsingInto(u *url, rawURL string) (int, *failure) {
	in, shift, f := trim(rawURL)
	if f != nil {
		return 0, f
	}
	u.w.reset(in, u.w.buf, u.w.base)
	plain := !sbHasEscaped(in) // nearly every URL: nothing to cut, decode or escape ("#" is escaped)
	raw := in
	if !plain {
		if k := strings.IndexByte(in, '#'); k >= 0 {
			raw = in[:k]
			plain = !sbHasEscaped(raw)
		}
	}
	s := sbWriter{u: u, v: raw, same: true}
	switch {
	case plain:
		s.u.w.slack = len(raw) + 24 - len(in) // as writeText sizes it
		f = s.write()
	case sbRewrites(raw):
		f, s.same = writeDecoded(u, raw), false
	default:
		f = s.writeText()
	}
	if f != nil {
		f.segments = true // redacted by sbSegmentSpans too
		if !s.same {
			f.off = -1
		}
	}
	return shift, f
}

// writeDecoded writes into u the key of raw, whose text (steps 1 and 3)
// differs from it: the text is decoded on the stack (most URLs), read and
// never kept: the writer compares its runs with the input (writer.str)
// and copies them.
func writeDecoded(u *url, raw string) *failure {
	var stack [sbStack]byte
	b := stack[:0]
	if len(raw) > len(stack) {
		b = make([]byte, 0, len(raw))
	}
	b = appendSBText(b, raw)
	s := sbWriter{u: u, v: unsafe.String(unsafe.SliceData(b), len(b))}
	return s.writeText()
}

// writeText writes the key of s.v. A key that differs from the input is
// written in one buffer, sized for it: the text, its escapes, and room
// for "http://", a "/" and an IPv4 address written out ("0" is
// "0.0.0.0").
func (s *sbWriter) writeText() *failure {
	escaped := 0
	for k := 0; k < len(s.v); k++ {
		if sbClass[s.v[k]]&sbEscape != 0 {
			escaped++
		}
	}
	s.u.w.slack = len(s.v) + 2*escaped + 24 - len(s.u.w.src)
	s.escapes = escaped > 0
	return s.write()
}

// sbHasEscaped reports whether s has a byte that step 7 escapes (which
// tab, CR, LF and "%", the bytes that make the text differ from the input,
// are too), eight bytes at a time: for a word w and x, its bytes masked to
// 7 bits, a top bit is set in w by a byte from 0x80, in ^(x+0x5F) by one
// below 0x21, in x+0x01 by 0x7F, in ^((x^0x23)+0x7F) by "#" and in
// ^((x^0x25)+0x7F) by "%". No sum carries into the next byte.
func sbHasEscaped(s string) bool {
	const (
		ones = 0x0101010101010101
		tops = 0x8080808080808080
	)
	b := unsafe.Slice(unsafe.StringData(s), len(s)) // read only
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		x := w & 0x7F7F7F7F7F7F7F7F
		if (w|^(x+0x5F*ones)|(x+ones)|^((x^0x23*ones)+0x7F*ones)|^((x^0x25*ones)+0x7F*ones))&tops != 0 {
			return true
		}
		b = b[8:]
	}
	for _, c := range b {
		if sbClass[c]&sbEscape != 0 {
			return true
		}
	}
	return false
}

// sbPathPlain reports whether the path p has no "//" and no "/.": no
// run of "/" to collapse, no dot segment to resolve. Eight bytes at a
// time, as sbHasEscaped: ^((x^0x2F)+0x7F) marks a "/", and, as "." and "/"
// differ in their last bit only, ^(((x|0x01)^0x2F)+0x7F) a "." or "/"; a
// mark of the first kind with one of the second in the next byte (the
// next byte's mark shifted down by eight bits, or the next word's first)
// is a pair.
func sbPathPlain(p string) bool {
	const (
		ones = 0x0101010101010101
		tops = 0x8080808080808080
	)
	b := unsafe.Slice(unsafe.StringData(p), len(p)) // read only
	slashEnds := false                              // the bytes read so far end with "/"
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		x := w & 0x7F7F7F7F7F7F7F7F
		ascii := ^w & tops
		slash := ^((x ^ 0x2F*ones) + 0x7F*ones) & ascii
		slashDot := ^(((x | ones) ^ 0x2F*ones) + 0x7F*ones) & ascii
		if slash&(slashDot>>8) != 0 || slashEnds && slashDot&0x80 != 0 {
			return false
		}
		slashEnds = slash>>56 != 0
		b = b[8:]
	}
	for _, c := range b {
		if slashEnds && (c == '/' || c == '.') {
			return false
		}
		slashEnds = c == '/'
	}
	return true
}

// The classes of bytes the reader asks about, in sbClass.
const (
	sbEscape     uint8 = 1 << iota // step 7 escapes it: up to 0x20, from 0x7F, "#", "%"
	sbUpper                        // "A"-"Z" (byteClass's clsUpper)
	sbNotNumeric                   // no part of an IPv4 number: not a hex digit, "x", "X" or "."
)

var sbClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		if c <= ' ' || c >= 0x7f || c == '#' || c == '%' {
			t[c] |= sbEscape
		}
		if byteClass[c]&clsUpper != 0 {
			t[c] |= sbUpper
		}
		if !isHex(byte(c)) && c != '.' && c|0x20 != 'x' {
			t[c] |= sbNotNumeric
		}
	}
	return t
}()

// sbClasses returns the classes of the bytes of s, together.
func sbClasses(s string) uint8 {
	var cls uint8
	for k := 0; k < len(s); k++ {
		cls |= sbClass[s[k]]
	}
	return cls
}

// sbRewrites reports whether the text the document reads differs from
// raw: it holds a tab, CR or LF, or a valid escape.
func sbRewrites(raw string) bool {
	for k := 0; k < len(raw); k++ {
		if c := raw[k]; c == '\t' || c == '\n' || c == '\r' || c == '%' && validEscape(raw, k) {
			return true
		}
	}
	return false
}

// appendSBText appends raw without tab, CR and LF, with its escapes
// decoded until none is left (steps 1 and 3).
func appendSBText(b []byte, raw string) []byte {
	for k := 0; k < len(raw); k++ {
		if c := raw[k]; c != '\t' && c != '\n' && c != '\r' {
			b = append(b, c)
		}
	}
	return decodeRepeatedlyInPlace(b)
}

// sbAuthority finds the authority in v, the decoded text (step 4): it
// returns the end of the scheme (-1 when there is none), where the
// authority starts and where it ends. ok is false when a scheme is not
// followed by "//".
func sbAuthority(v string) (scheme, a, e int, ok bool) {
	scheme = schemeLength(v)
	switch {
	case scheme >= 0:
		if len(v) < scheme+3 || v[scheme+1] != '/' || v[scheme+2] != '/' {
			return scheme, scheme + 1, scheme + 1, false
		}
		a = scheme + 3
	case len(v) >= 2 && v[0] == '/' && v[1] == '/':
		a = 2 // "//h/p" is "http:" + "//h/p"
	}
	e = a
	for e < len(v) && v[e] != '/' && v[e] != '?' {
		e++
	}
	return scheme, a, e, true
}

// sbWriter writes the key from the decoded text v through u's writer,
// whose source is the input: while v is the input's own prefix (same),
// its unchanged runs are written as runs of the input, and otherwise
// compared with it, so that a key equal to the input is the input itself.
type sbWriter struct {
	u       *url
	v       string
	same    bool
	escapes bool // v has a byte that step 7 escapes
}

// write reads v (step 4) and writes the key, with its offsets.
func (s *sbWriter) write() *failure {
	u, w, v := s.u, &s.u.w, s.v
	scheme, a, e, ok := sbAuthority(v)
	if !ok {
		return fail(ComponentHost, a, ErrInvalidHost, `no "//" and host after the scheme`)
	}
	if scheme >= 0 {
		s.lower(0, scheme)
		u.kind = kindOf(v[:scheme])
	} else {
		w.str("http")
		u.kind = schemeHTTP
	}
	u.schemeEnd = w.length()
	w.str("://")
	u.hasAuth = true
	u.authStart = w.length()

	// The userinfo goes; the host ends at the port's ":", or after the
	// "]" of a host in brackets.
	h := a
	if k := strings.LastIndexByte(v[a:e], '@'); k >= 0 {
		h = a + k + 1
	}
	he := e
	if k := strings.IndexByte(v[h:e], ':'); k >= 0 {
		he = h + k
	}
	if h < e && v[h] == '[' {
		// A host in brackets ends at its "]", when the authority or a
		// port follows ("[::1]:80"); "[a]b" is a name, and "[::1]x:80"
		// the name "[" and the port ":1]x:80", as any other. (A key's
		// host reads back the same way: "..[a]b" is written "[a]b".)
		if k := strings.IndexByte(v[h:e], ']'); k >= 0 && (h+k+1 == e || v[h+k+1] == ':') {
			he = h + k + 1
		}
	}
	if he < e {
		if _, f := portValue(v, he+1, e); f != nil {
			return f
		}
	}
	if he-h > MaxHostLength {
		return fail(ComponentHost, h+MaxHostLength, ErrTooLong, "host longer than MaxHostLength")
	}
	u.hostStart = w.length()
	if f := s.host(h, he); f != nil {
		return f
	}
	u.hostEnd = w.length()
	u.authEnd, u.pathStart = u.hostEnd, u.hostEnd

	pe := len(v)
	if k := strings.IndexByte(v[e:], '?'); k >= 0 {
		pe = e + k
	}
	s.path(e, pe)
	u.pathEnd = w.length()
	u.queryStart, u.queryEnd = u.pathEnd, u.pathEnd
	if pe < len(v) {
		u.hasQuery = true
		w.byte('?')
		u.queryStart = w.length()
		if s.escapes {
			s.emit(v[pe+1:], pe+1, false)
		} else {
			s.put(v, 0, pe+1, len(v))
		}
		u.queryEnd = w.length()
	}
	u.fragStart = u.queryEnd
	return nil
}

// put writes t[i:j], where t is v[off:] when off >= 0.
func (s *sbWriter) put(t string, off, i, j int) {
	switch {
	case i == j:
	case off >= 0 && s.same:
		s.u.w.run(off+i, off+j)
	default:
		s.u.w.str(t[i:j])
	}
}

// lower writes v[i:j] with its ASCII letters lowercased.
func (s *sbWriter) lower(i, j int) {
	k := i
	for k < j && byteClass[s.v[k]]&clsUpper == 0 {
		k++
	}
	s.put(s.v, 0, i, k)
	for ; k < j; k++ {
		s.u.w.byte(lower(s.v[k]))
	}
}

// emit writes t (v[off:] when off >= 0) with the bytes of step 7
// escaped and, with collapse, each run of "/" as one.
func (s *sbWriter) emit(t string, off int, collapse bool) {
	w := &s.u.w
	start := 0
	for k := 0; k < len(t); k++ {
		switch c := t[k]; {
		case sbClass[c]&sbEscape != 0:
			s.put(t, off, start, k)
			w.escaped(c)
			start = k + 1
		case collapse && c == '/' && k > 0 && t[k-1] == '/':
			s.put(t, off, start, k)
			start = k + 1
		}
	}
	s.put(t, off, start, len(t))
}

// path writes the path v[i:j] (step 6).
func (s *sbWriter) path(i, j int) {
	if i == j {
		s.u.w.byte('/')
		return
	}
	p := s.v[i:j] // starts with "/"
	plain := sbPathPlain(p)
	switch {
	case !plain && hasDotSegment(p):
		s.pathDots(p)
	case s.escapes || !plain:
		s.emit(p, i, true)
	default:
		s.put(p, i, 0, len(p))
	}
}

// pathDots writes the path p, which has dot segments, with them resolved.
func (s *sbWriter) pathDots(p string) {
	var stack [sbStack]byte
	b := stack[:0]
	if len(p) > len(stack) {
		b = make([]byte, 0, len(p))
	}
	b = removeDots(append(b, p...), dotsRFC3986, false)
	s.emit(unsafe.String(unsafe.SliceData(b), len(b)), -1, true)
}

// host writes the host v[i:j] (step 5).
func (s *sbWriter) host(i, j int) *failure {
	h := s.v[i:j]
	if len(h) == 0 {
		return fail(ComponentHost, i, ErrInvalidHost, "missing host")
	}
	cls := sbClasses(h)
	if cls&(sbEscape|sbUpper) == 0 && cls&sbNotNumeric != 0 && h[0] != '[' &&
		h[0] != '.' && h[len(h)-1] != '.' && !strings.Contains(h, "..") {
		// A name as it stands, nearly every host.
		s.put(h, i, 0, len(h))
		return nil
	}
	return s.hostRewrite(h, i, cls)
}

// hostRewrite writes the host h, at v[i:], whose bytes have the classes
// cls: as A-labels, without empty labels, as an IP address, lowercase.
func (s *sbWriter) hostRewrite(h string, i int, cls uint8) *failure {
	t := h
	if !isASCII(h) && utf8.ValidString(h) {
		// As a browser converts a domain; a host it would refuse keeps
		// its bytes (escaped by step 7), which no A-label spells.
		if a, f := whatwgDomainToASCII(h, i); f == nil {
			t = unsafe.String(unsafe.SliceData(a), len(a))
		}
	}
	var stack [256]byte
	b := stack[:0]
	for k := 0; k < len(t); k++ {
		if c := t[k]; c != '.' || len(b) > 0 && b[len(b)-1] != '.' {
			b = append(b, lower(c))
		}
	}
	for len(b) > 0 && b[len(b)-1] == '.' {
		b = b[:len(b)-1]
	}
	if len(b) == 0 {
		return fail(ComponentHost, i, ErrInvalidHost, "host of dots only")
	}
	// (A host longer than MaxHostLength as the key writes it, in
	// A-labels, is refused after the key is written, as in every
	// profile: keyHostFits.)
	var ip [48]byte
	switch {
	case len(b) > 2 && b[0] == '[' && b[len(b)-1] == ']':
		if addr, ok := parseIPv6(b[1 : len(b)-1]); ok {
			if v4, ok := embeddedIPv4(&addr); ok {
				b = appendIPv4Dotted(ip[:0], v4)
			} else {
				b = append(appendIPv6Serialized(append(ip[:0], '['), &addr), ']')
			}
		}
	case cls&sbNotNumeric == 0 || t != h:
		if a, ok := appendIPv4(ip[:0], b); ok {
			b = a
		}
	}
	s.emit(unsafe.String(unsafe.SliceData(b), len(b)), -1, false)
	return nil
}

// embeddedIPv4 returns the IPv4 address of an IPv4-mapped IPv6 address
// (::ffff:0:0/96, RFC 4291 §2.5.5.2) or of one of the NAT64 well-known
// prefix (64:ff9b::/96, RFC 6052 §2.1), which the v5 document writes as
// IPv4 addresses.
func embeddedIPv4(addr *[8]uint16) (uint32, bool) {
	if addr[2] != 0 || addr[3] != 0 || addr[4] != 0 {
		return 0, false
	}
	mapped := addr[0] == 0 && addr[1] == 0 && addr[5] == 0xffff
	nat64 := addr[0] == 0x64 && addr[1] == 0xff9b && addr[5] == 0
	if !mapped && !nat64 {
		return 0, false
	}
	return uint32(addr[6])<<16 | uint32(addr[7]), true
}
