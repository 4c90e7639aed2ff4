package canon

import (
	"bytes"
	"strings"
	"unsafe"

	"golang.org/x/net/idna"
)

// The rules of the WHATWG URL Standard (https://url.spec.whatwg.org/) that
// the engine applies when a profile has ParseWHATWG: its percent-encode
// sets, host parser, path state and serializer. The parser's part of the
// standard is in parse.go (syntaxWHATWG), the IP address parsers in ip.go.

// preprocessWHATWG removes every ASCII tab and newline from in, as the
// basic URL parser does first (leading and trailing C0 controls and spaces
// are gone already: trim). It returns in itself when there is none.
func preprocessWHATWG(in string) string {
	if !strings.ContainsAny(in, "\t\n\r") {
		return in
	}
	b := make([]byte, 0, len(in))
	for k := 0; k < len(in); k++ {
		if c := in[k]; c != '\t' && c != '\n' && c != '\r' {
			b = append(b, c)
		}
	}
	return ownedString(b)
}

// whatwgCredentials writes the userinfo s[authStart:userEnd] as the
// serializer does: the username and, if not empty, ":" and the password,
// each in the userinfo percent-encode set, then "@"; nothing at all when
// both are empty ("http://:@h/" is "http://h/").
func (e *engine) whatwgCredentials() {
	pr := &e.pr
	a, b := pr.authStart, pr.userEnd
	colon := b
	if k := strings.IndexByte(e.s[a:b], ':'); k >= 0 {
		colon = a + k
	}
	if a == b || (colon == a && colon+1 == b) {
		return
	}
	e.encode(a, colon, setUserinfo)
	if colon+1 < b {
		e.u.w.byte(':')
		e.encode(colon+1, b, setUserinfo)
	}
	e.u.w.byte('@')
}

// whatwgIDNA is domain to ASCII's UTS #46 ToASCII with the standard's
// flags: CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength false,
// CheckBidi and CheckJoiners true, nontransitional.
var whatwgIDNA = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.Transitional(false),
	idna.VerifyDNSLength(false),
)

// isForbiddenDomain reports whether c is a forbidden domain code point
// (ASCII only; the others are UTS #46's business).
func isForbiddenDomain(c byte) bool { return encodeSet[c]&forbiddenDomain != 0 }

// isForbiddenHost reports whether c is a forbidden host code point.
func isForbiddenHost(c byte) bool { return encodeSet[c]&forbiddenHost != 0 }

// whatwgHost writes the host s[i:j] as the standard's host parser and
// host serializer do, for a special scheme (a domain, an IPv4 or an IPv6
// address) or not (an opaque host). It returns the host's length in the
// output.
func (e *engine) whatwgHost() (int, *failure) {
	pr, w, s := &e.pr, &e.u.w, e.s
	i, j := pr.hostStart, pr.hostEnd
	at := w.length()
	if i < j && s[i] == '[' {
		if s[j-1] != ']' {
			return 0, fail(ComponentHost, i, ErrInvalidHost, "missing ']'")
		}
		var buf [64]byte
		out, ok := appendIPv6(buf[:0], []byte(s[i+1:j-1]))
		if !ok {
			return 0, fail(ComponentHost, i, ErrInvalidHost, "invalid IPv6 address")
		}
		w.byte('[')
		writeBytes(w, out)
		w.byte(']')
		return w.length() - at, nil
	}
	if !pr.special {
		// The opaque-host parser.
		for k := i; k < j; k++ {
			if c := s[k]; isForbiddenHost(c) {
				return 0, fail(ComponentHost, k, ErrInvalidHost, "forbidden host code point")
			}
		}
		e.encode(i, j, setC0)
		if e.pl.surtKeys {
			e.opaqueSURTAddress(at)
		}
		return w.length() - at, nil
	}
	if i == j {
		if e.kind == schemeFile {
			return 0, nil
		}
		return 0, fail(ComponentHost, i, ErrInvalidHost, "missing host")
	}
	if pr.mHost&(clsPct|clsNonASCII) == 0 {
		// An ASCII domain without escapes, nearly every one: domain to
		// ASCII only lowercases it, which is written straight from the
		// input (no copy of the host).
		for k := i; k < j; k++ {
			if isForbiddenDomain(s[k]) {
				return 0, fail(ComponentHost, k, ErrInvalidHost, "forbidden domain code point")
			}
		}
		host := s[i:j]
		if !whatwgEndsInNumber(host) {
			if e.pl.surtKeys && whatwgSURTAddress(e, host, i, j) {
				return w.length() - at, nil
			}
			if e.pl.trimDots && trimsDots(host, e.pl.surtKeys) {
				e.whatwgDomain(trimDomainDots(appendLower(nil, host), e.pl.surtKeys), i, j)
				return w.length() - at, nil
			}
			if e.dropsLocalhost(host) {
				return 0, nil
			}
			e.lowerRun(i, j)
			return w.length() - at, nil
		}
		var buf [16]byte
		out, ok := appendIPv4(buf[:0], []byte(host))
		if !ok {
			return 0, fail(ComponentHost, i, ErrInvalidHost, "invalid IPv4 address")
		}
		switch {
		case !e.pl.surtRead:
			e.whatwgAddress(out, i, j)
		case whatwgSURTAddress(e, host, i, j): // (written)
		case e.pl.trimDots && trimsDots(host, true):
			// A name to the surt library ("0x7f.", "00.1.2.8"), which
			// the standard reads as an address.
			e.whatwgDomain(trimDomainDots(appendLower(nil, host), true), i, j)
		default:
			e.lowerRun(i, j)
		}
		return w.length() - at, nil
	}
	ascii, f := whatwgDomainToASCII(s[i:j], i)
	if f != nil {
		return 0, f
	}
	if whatwgEndsInNumber(ascii) {
		var buf [16]byte
		out, ok := appendIPv4(buf[:0], ascii)
		if !ok {
			return 0, fail(ComponentHost, i, ErrInvalidHost, "invalid IPv4 address")
		}
		if !e.pl.surtRead {
			e.whatwgAddress(out, i, j)
			return w.length() - at, nil
		}
		if whatwgSURTAddress(e, ascii, i, j) {
			return w.length() - at, nil
		}
	} else if e.pl.surtKeys && whatwgSURTAddress(e, ascii, i, j) {
		return w.length() - at, nil
	}
	if e.pl.trimDots && trimsDots(ascii, e.pl.surtKeys) {
		ascii = trimDomainDots(ascii, e.pl.surtKeys)
	}
	e.whatwgDomain(ascii, i, j)
	return w.length() - at, nil
}

// whatwgAddress writes out, the IPv4 address the host s[i:j] was read as:
// the input itself when they are the same bytes.
func (e *engine) whatwgAddress(out []byte, i, j int) {
	if string(out) == e.s[i:j] {
		e.u.w.run(i, j)
	} else {
		writeBytes(&e.u.w, out)
	}
}

// whatwgSURTAddress writes the IPv4 address that the surt library reads
// the domain d (the host s[i:j], ASCII, in any case) as, and reports
// whether it reads one (appendSURTIPv4); it writes nothing otherwise.
// Under ReadAsSURT a host is an address where the library reads one, so
// that its SURT is the library's: "1113982867.." is 66.102.7.147 (a
// domain to the standard), "0x42660793" a name (an address to it). The
// standard decides which hosts are valid: one it rejects ("1.2.3.256")
// is still an error.
func whatwgSURTAddress[T string | []byte](e *engine, d T, i, j int) bool {
	if len(d) == 0 || (d[0] < '0' || d[0] > '9') && d[0] != '.' {
		return false // (most hosts: a letter first)
	}
	var buf [16]byte
	out, ok := appendSURTIPv4(buf[:0], d)
	if ok {
		e.whatwgAddress(out, i, j)
	}
	return ok
}

// opaqueSURTAddress rewrites the opaque host written from offset at on
// as the IPv4 address the surt library reads it as, where it reads one
// (appendSURTIPv4: "foo://1113982867" is 66.102.7.147): the library reads
// any scheme's host so. The host is read as written, its escapes spelled
// as the plan spells them ("1.%2E" is "1.." with DecodeUnreserved), as
// the key is read again.
func (e *engine) opaqueSURTAddress(at int) {
	w := &e.u.w
	var buf [16]byte
	var out []byte
	ok := false
	switch str, b := w.tail(at); {
	case len(b) > 0 && (b[0] >= '0' && b[0] <= '9' || b[0] == '.'):
		out, ok = appendSURTIPv4(buf[:0], b)
	case b == nil && str != "" && (str[0] >= '0' && str[0] <= '9' || str[0] == '.'):
		out, ok = appendSURTIPv4(buf[:0], str)
	}
	if ok {
		w.replaceTail(at, out)
	}
}

// whatwgDomain writes the domain d, the host s[i:j] as domain to ASCII
// made it: nothing for a file URL's "localhost" (dropsLocalhost).
func (e *engine) whatwgDomain(d []byte, i, j int) {
	if e.dropsLocalhost(unsafe.String(unsafe.SliceData(d), len(d))) { // (read only: no copy)
		return
	}
	if string(d) == e.s[i:j] {
		e.u.w.run(i, j)
	} else {
		writeBytes(&e.u.w, d)
	}
}

// dropsLocalhost reports whether the domain d (in any case) is a file
// URL's "localhost", which the file host state makes the empty host,
// unless the plan reads it as the surt library does (ReadAsSURT).
func (e *engine) dropsLocalhost(d string) bool {
	return e.kind == schemeFile && !e.pl.surtRead && strings.EqualFold(d, "localhost")
}

func writeBytes(w *writer, b []byte) {
	for _, c := range b {
		w.byte(c)
	}
}

// whatwgDomainToASCII percent-decodes the host h, reads it as UTF-8, and
// runs the standard's "domain to ASCII" on it, then rejects a forbidden
// domain code point. An ASCII domain is lowercased and nothing else, as
// the standard now says: a label such as "xn--a", whose Punycode is
// invalid, is kept. Other domains go through UTS #46 (whatwgIDNA), with
// U+1E9E mapped to U+00DF first as UTS #46 15.1 does.
func whatwgDomainToASCII(h string, off int) ([]byte, *failure) {
	b := percentDecode(h)
	if isASCII(string(b)) {
		lowerASCII(b)
	} else {
		if len(b) > MaxHostLength*4 {
			return nil, fail(ComponentHost, off, ErrTooLong, "host longer than MaxHostLength")
		}
		d := strings.ToValidUTF8(string(b), "\uFFFD")
		d = strings.ReplaceAll(d, "\u1e9e", "\u00df")
		// UTS #46 reads every label of a domain it processes, ASCII
		// ones too: "a。xn--" is an error, not "a.".
		for rest := fullStops.Replace(d); rest != ""; {
			label := rest
			if k := strings.IndexByte(rest, '.'); k >= 0 {
				label, rest = rest[:k], rest[k+1:]
			} else {
				rest = ""
			}
			if invalidACELabel(label) {
				return nil, fail(ComponentHost, off, ErrInvalidHost, "invalid label with the ACE prefix xn--")
			}
		}
		a, err := whatwgIDNA.ToASCII(d)
		if err != nil || a == "" {
			return nil, fail(ComponentHost, off, ErrInvalidHost, "invalid international domain name")
		}
		b = []byte(a)
	}
	if len(b) == 0 {
		return nil, fail(ComponentHost, off, ErrInvalidHost, "empty host")
	}
	for _, c := range b {
		if isForbiddenDomain(c) {
			return nil, fail(ComponentHost, off, ErrInvalidHost, "forbidden domain code point")
		}
	}
	return b, nil
}

// whatwgPath writes the path s[pr.pathStart:pr.pathEnd] as the standard's
// path state and serializer do. An opaque path is written in the C0
// control percent-encode set, with a space just before "?" or "#" as
// "%20". Otherwise the path is a list of segments, each written "/" and
// the segment in the path percent-encode set: "\" separates segments too
// in a special URL, a single-dot segment ("." or "%2e" in any case) goes,
// a double-dot one also takes the segment before it ("shorten"), except a
// file URL's drive letter, and a drive letter first in a file URL's path
// is written with ":". A special URL's path is never empty. The output
// from pathAt on may hold the first segments of the path already (a
// reference's path goes on from its base's). The rule is the one
// removeSegments applies to a path written already (the key steps), read
// segment by segment as the path state meets them.
func (e *engine) whatwgPath(pathAt int) {
	pr, w, s := &e.pr, &e.u.w, e.s
	segments := 0
	if n := w.length(); n > pathAt {
		// The first segments are written already (a reference's path
		// goes on from its base's): "/" and a segment each.
		str, b := w.tail(pathAt)
		segments = strings.Count(str, "/") + bytes.Count(b, slash)
	}
	i, j := pr.pathStart, pr.pathEnd
	if pr.opaque {
		e.whatwgOpaquePath(i, j)
		return
	}
	special := pr.special
	file := e.kind == schemeFile
	if i == j && (!special || file && e.pl.surtRead && e.u.hostlessPath()) {
		// (ReadAsSURT: "file://" and "file:" have no path, as the surt
		// library reads them, which writes them "file:".)
		return
	}
	if i < j && (s[i] == '/' || special && s[i] == '\\') {
		i++
	}
	// Under ReadAsSURT a "\" after the first byte of a special URL's
	// path is no separator but a byte of its segment, written "%5C", as
	// the surt library, which reads "/" alone, keeps it; the first, where
	// the authority ends ("http://h\a"), is the path's "/" as in the
	// standard.
	sep := byte('/')
	set := setPath
	if special && !e.pl.surtRead {
		sep = '\\'
	} else if special {
		set |= setBackslash
	}
	// A path without a host is free-form to the surt library: under
	// ReadAsSURT its "." and ".." segments are segments like any other.
	// With a host and an escape, and DecodePathRepeatedly to come, they
	// stay for that step to remove (decodeRepeatedly): the library
	// decodes the path until no escape is left before it removes them, so
	// that a ".." after "a%2Fb" takes "b" alone and "%252e" is a "." that
	// a ".." after it does not take.
	dots := !e.pl.surtRead || !e.u.hostlessPath() && !(e.pl.has(DecodePathRepeatedly) && strings.IndexByte(s[i:j], '%') >= 0)
	for {
		k := i
		for k < j && s[k] != '/' && s[k] != sep {
			k++
		}
		last := k == j
		seg := s[i:k]
		switch {
		case dots && isDoubleDot(seg) && segments == 0 && e.pl.surtRead:
			// A ".." above the root is a segment to the surt library's
			// normalizePath, which a ".." after it removes as any other
			// ("/../x" stays, "/../../x" is "/x").
			w.str("/..")
			segments++
		case dots && isDoubleDot(seg):
			if segments > 0 {
				segments = e.whatwgShorten(pathAt, segments, file)
			}
			if last {
				w.byte('/')
				segments++
			}
		case dots && isSingleDot(seg):
			if last {
				w.byte('/')
				segments++
			}
		default:
			w.byte('/')
			if !(file && segments == 0 && e.whatwgDriveLetter(seg, i)) {
				e.encode(i, k, set)
			}
			segments++
		}
		if last {
			break
		}
		i = k + 1
	}
	if !pr.hasAuth {
		// The serializer's "/." for a path that would read back as an
		// authority (guardPath).
		str, b := w.tail(pathAt)
		if strings.HasPrefix(str, "//") || len(b) >= 2 && b[0] == '/' && b[1] == '/' {
			w.spill()
			w.guard(pathAt)
		}
	}
}

// whatwgOpaquePath writes the opaque path s[i:j] as the standard's
// "opaque path state" does: in the C0 control percent-encode set, with a
// space just before "?" or "#" written "%20". An opaque path ("mailto:",
// "data:") is rare: whatwgPath, whose segment loop is every other URL's,
// leaves it to this function.
func (e *engine) whatwgOpaquePath(i, j int) {
	s := e.s
	if j > i && s[j-1] == ' ' && j < len(s) {
		e.encode(i, j-1, setC0)
		e.u.w.str("%20")
		return
	}
	e.encode(i, j, setC0)
}

// whatwgShorten is the standard's "shorten a URL's path" for a ".."
// segment (path state), where the path written from pathAt on holds
// segments > 0 segments: the last goes, unless it is a file URL's only
// segment and a normalized Windows drive letter. It returns the number
// of segments left. A ".." is rare: whatwgPath's segment loop leaves the
// work to this function.
func (e *engine) whatwgShorten(pathAt, segments int, file bool) int {
	if file && segments == 1 && e.firstIsDriveLetter(pathAt) {
		return segments
	}
	w := &e.u.w
	str, b := w.tail(pathAt)
	n := strings.LastIndexByte(str, '/')
	if b != nil {
		n = lastSlash(b)
	}
	w.truncate(pathAt + n)
	return segments - 1
}

// whatwgDriveLetter writes seg, the first segment of a file URL's path,
// at s[i:], after its "/", where it is a drive letter written apart, and
// reports whether it wrote it: "C|" is written "C:", as the standard's
// path state does for a file URL whose path is empty and a buffer that
// is a Windows drive letter, and an escaped letter ("%43:") keeps its
// escape. Any other segment, and the first of any other URL, is left to
// whatwgPath's encoder: the rare case's tests are out of the segment
// loop.
func (e *engine) whatwgDriveLetter(seg string, i int) bool {
	w := &e.u.w
	switch {
	case isWindowsDriveLetter(seg) && seg[1] == '|':
		w.byte(seg[0])
		w.byte(':')
	case e.pl.decodeUnres && isEscapedDriveLetter(seg):
		// "%43:" is no drive letter to the standard ("/%43:/.."
		// is "/"): decoded to "C:" it would be one, which ".."
		// does not remove and whose "|" is rewritten, so its
		// escape stays (in uppercase with UppercaseEscapes).
		w.byte('%')
		if e.pl.upperEscapes {
			w.byte(upper(seg[1]))
			w.byte(upper(seg[2]))
		} else {
			w.run(i+1, i+3)
		}
		w.byte(seg[3])
	default:
		return false
	}
	return true
}

// isEscapedDriveLetter reports whether seg is a Windows drive letter
// with its letter percent-encoded ("%43:", "%63|").
func isEscapedDriveLetter(seg string) bool {
	v, ok := tripletAt(seg, 0, len(seg))
	return ok && len(seg) == 4 && isWindowsDriveLetter(string([]byte{v, seg[3]}))
}

// firstIsDriveLetter reports whether the path written from pathAt on is
// one segment that is a normalized Windows drive letter ("/C:").
func (e *engine) firstIsDriveLetter(pathAt int) bool {
	str, b := e.u.w.tail(pathAt)
	if b != nil {
		str = string(b)
	}
	return len(str) == 3 && isWindowsDriveLetter(str[1:]) && str[2] == ':'
}
