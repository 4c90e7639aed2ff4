package canon

import (
	"cmp"
	"slices"
	"strings"
)

// SURTForm selects how [AppendSURT] writes a SURT (bit flags; zero is the
// CDX form). The flags combine:
//
//	0                                  http://www.example.com:81/a?b#c -> com,example,www:81)/a?b
//	SURTTrailingComma                  http://www.example.com:81/a?b#c -> com,example,www:81,)/a?b
//	SURTWithScheme                     http://www.example.com:81/a?b#c -> http://(com,example,www:81)/a?b
//	SURTVerbatim|SURTTrailingComma     http://www.example.com:81/a?b#c -> com,example,www,:81)/a?b#c
//	0                                  http://10.1.2.3:81/a            -> 3,2,1,10:81)/a
//	SURTKeepIP                         http://10.1.2.3:81/a            -> 10.1.2.3:81)/a
//
// The zero form is the key of the CDX format of the Internet Archive's
// Wayback Machine (its surt library's default), which pywb also uses;
// SURTWithScheme|SURTTrailingComma|SURTKeepIP|SURTVerbatim is the form
// Heritrix writes, and the one the SURT prefixes of Heritrix's crawl
// scopes match. The table shows the host and port; without SURTVerbatim
// the path and query are written as the surt library writes them (see
// AppendSURT).
type SURTForm uint8

const (
	// SURTWithScheme writes the scheme, "://" and "(" before the host,
	// as Heritrix does:
	// http://www.example.org/ -> http://(org,example,www)/ instead of
	// org,example,www)/.
	SURTWithScheme SURTForm = 1 << iota
	// SURTTrailingComma writes a comma after the last label of a host
	// name, as Heritrix does: http://www.example.org/ ->
	// org,example,www,)/ instead of org,example,www)/. An IP address
	// kept whole by SURTKeepIP gets none.
	SURTTrailingComma
	// SURTKeepIP keeps an IP address whole, as Heritrix and iipc/urlcanon
	// write it: an IPv4 address, http://10.1.2.3:81/ -> 10.1.2.3:81)/
	// instead of 3,2,1,10:81)/, and an IP literal with its brackets,
	// http://[::1]:81/ -> [::1]:81)/ instead of ::1:81)/. Such an
	// address gets no trailing comma. Without it an address is written
	// as the surt library writes it by default (see [AppendSURT]).
	SURTKeepIP
	// SURTVerbatim writes the path, query and fragment as the key has
	// them, and the port as it writes it, as Heritrix and urlcanon write
	// a SURT: http://h/a%3Fb?B=1&a -> h)/a%3Fb?B=1&a. Without it they
	// are written as the surt library writes them (decoded and escaped
	// again, lowercased, the query sorted as it sorts it, no fragment, no
	// port 0: h)/a?b?a&b=1; see AppendSURT), so that a key of Archive
	// gives the library's key.
	SURTVerbatim
)

// SURT returns the SURT (Sort-friendly URI Reordering Transform) of key in
// the form CDX indexes key their records by (the Internet Archive's CDX
// format, as its surt library, the Wayback Machine and pywb write it):
// the labels of the host in reverse order joined by ",", the port, ")",
// then the path and query as the surt library writes them (decoded,
// escaped again its way, lowercased, the query sorted; no fragment):
//
//	http://www.archive.org/goo/?b=2&a=1#f       -> org,archive,www)/goo?a=1&b=2
//	http://user:pass@foo.example.org:81/a%3Fb   -> org,example,foo:81)/a?b
//	http://192.168.1.254/info                   -> 254,1,168,192)/info
//	file:///etc/hosts                           -> file:/etc/hosts
//
// SURT is [AppendSURT] with a nil buffer and the zero [SURTForm]; see
// AppendSURT for the rules. The surt library also canonicalizes the URL
// first (it lowercases it, drops "www." and session ids, removes dot
// segments); the [Archive] profile does that part, so that
// SURT(Normalize(x, Archive)) is the library's key of x, but for the
// departures docs/deviations.md lists (hosts the URL Standard rejects, a
// "\" where the authority ends, the case of a file: URL's scheme, IDNA
// 2003's mappings). SURT of a key of another
// profile writes that key's URL as the library would, without Archive's
// canonicalization.
//
// SURT allocates at most once, for the result, and not at all when it
// returns key unchanged; a query the library would sort otherwise than
// key has it, or a path with dot segments, costs more.
func SURT(key string) (string, error) {
	var p parts
	if f := parseSURT(&p, key); f != nil {
		return "", toError("SURT", key, 0, f)
	}
	if isFiledesc(&p) {
		return key, nil
	}
	// The SURT is built in a buffer on the stack when it fits, so that a
	// key whose SURT is itself (dns:alexa.com) costs no allocation and
	// any other one the result's alone.
	var stack [192]byte
	b := appendSURTLibrary(stack[:0], &p, 0)
	if string(b) == key {
		return key, nil
	}
	return string(b), nil
}

// AppendSURT appends the SURT of key in form (see [SURTForm]) to dst and
// returns the extended buffer. On error it returns dst unchanged.
//
//	http://user:pass@foo.example.org:81/path?query#frag, 0
//	    -> org,example,foo:81)/path?query
//	http://user:pass@foo.example.org:81/path?query#frag, SURTWithScheme|SURTTrailingComma|SURTKeepIP|SURTVerbatim
//	    -> http://(org,example,foo,:81)/path?query#frag
//	http://192.168.1.254/info, 0           -> 254,1,168,192)/info
//	http://192.168.1.254/info, SURTKeepIP  -> 192.168.1.254)/info
//
// key must be an absolute URL (it should be a key from [Normalize]); an
// empty key, or one without a scheme, is an error wrapping [ErrRelative],
// and one the parser cannot split (an invalid scheme or port, say) wraps
// the cause, as [Parse] reports it. Every form drops the userinfo (the
// Heritrix form too, where Heritrix itself keeps it) and reorders the
// host; without SURTVerbatim the rest is written as the surt library
// writes it (the rules below), with it as key has it (it changes no
// case, decodes no triplet, adds no "/" for an empty path and keeps the
// fragment and any port). The rules follow the Internet Archive's surt
// library 0.3.1 (its code and tests; testdata/surt-ia holds its keys of
// canon's corpus), Heritrix's SURT and the SURT test data of the IIPC's
// urlcanon; where those differ, the rule says which it follows:
//
//   - Without SURTVerbatim, as the surt library writes a key: the path
//     is decoded until no triplet is left, its "." and ".." segments and
//     empty segments removed as the library's normalizePath removes them
//     (a ".." above the root stays), then a byte below "!" or above "~",
//     "#" and "%" escaped again, every letter lowercased (the triplets'
//     hex too) and a final "/" dropped unless the path is "/"; the query
//     is decoded, escaped again and lowercased the same way and its
//     parameters ("&"-separated; a name, and what follows its first "=")
//     sorted by name, then one without "=" first, then by value, as
//     bytes; an empty query goes with its "?"; a "/" comes before a query
//     when the path is empty; the fragment and a port of 0 are dropped;
//     SURTTrailingComma writes the comma after the port, as the library
//     does. A URL without a host is the scheme, ":", and its path and
//     query written so: file:///etc/hosts -> file:/etc/hosts,
//     mailto:Joe@X.ORG -> mailto:joe@x.org; so is one whose host is dots
//     alone, which the library empties: http://./x -> http:/x.
//   - A URL with a host: the labels of the host (the parts between its
//     dots) in reverse order, joined by ","; then, with SURTVerbatim, ","
//     with SURTTrailingComma (before the port, as Heritrix and urlcanon
//     write it), ":" and the port as key writes it, when key has a port
//     (an empty one, "http://h:/", as ":"), ")", and the path, query and
//     fragment as written ("http://h.org:81?q" -> "org,h:81)?q", as
//     urlcanon writes it). The userinfo is dropped, as the surt library
//     and urlcanon drop it (Heritrix writes it after the port). With
//     SURTWithScheme, the scheme, "://" and "(" come first.
//   - An IPv4 address is reversed like a name, as the surt library
//     reverses it by default (its reverse_ipaddr option):
//     http://10.1.2.3:81/ -> 3,2,1,10:81)/. An IP literal loses its
//     brackets, as the surt library writes the host its URL parser
//     returns, and what was inside is reversed the same way:
//     http://[::1]:81/ -> ::1:81)/ (so the port is then not told from
//     the address by its syntax, as in the surt library's keys),
//     http://[::ffff:1.2.3.4]/ -> 4,3,2,::ffff:1)/. With
//     SURTTrailingComma both get the comma a name gets.
//   - With SURTKeepIP an IP address is kept whole and gets no trailing
//     comma, as Heritrix and urlcanon write it, and as the surt library
//     does with reverse_ipaddr=False (which keeps an IPv4 address only):
//     http://10.1.2.3:81/ -> 10.1.2.3:81)/, http://[::1]/ -> [::1])/.
//     An IPv4 address is four dot-separated runs of one to three
//     decimal digits, as Heritrix's SURT and the surt library match it
//     (990.991.992.993 too); an IP literal is everything in brackets.
//   - A host that ends in a dot has an empty last label, which comes
//     first: http://example.com./ -> ,com,example)/ (the surt library,
//     Heritrix and urlcanon agree; Archive's keys have no such dot).
//   - A "," inside a label is kept, as the surt library and Heritrix keep
//     it (http://a,b.example/ -> example,a,b)/; urlcanon writes it as
//     "."), so such a host's SURT is the same as that of the host with
//     the "," read as a dot: DNS names have no ",".
//   - With SURTVerbatim, a URL without an authority comes back unchanged:
//     dns:alexa.com, warcinfo:foo.warc.gz, mailto:x,
//     screenshot:http://example.com/ (as urlcanon writes them with the
//     scheme). So does one with an empty host, such as file:///etc/passwd.
//   - A URL whose scheme is filedesc (the header record of an ARC file)
//     comes back unchanged in every form, authority or not:
//     filedesc://foo.arc.gz, as the surt library returns it.
//   - Any other scheme is reordered like http:
//     whois://whois.isoc.org.il/shaveh.co.il -> il,org,isoc,whois)/shaveh.co.il.
func AppendSURT(dst []byte, key string, form SURTForm) ([]byte, error) {
	var p parts
	if f := parseSURT(&p, key); f != nil {
		return dst, toError("AppendSURT", key, 0, f)
	}
	switch {
	case isFiledesc(&p):
		return append(dst, key...), nil
	case form&SURTVerbatim == 0:
		return appendSURTLibrary(dst, &p, form), nil
	case !surtHost(&p):
		return append(dst, key...), nil
	}
	return appendSURT(dst, &p, form), nil
}

// parseSURT splits key for SURT with the lenient syntax: a key has been
// checked by the profile that made it, and SURT only moves its parts, so
// only what decides where the parts are is checked (the scheme, the port,
// an IP literal's brackets). Neither MaxLength nor MaxHostLength applies:
// they bound an input, and a key can be longer than its input (RFC 3986
// writes a byte of a host that is no IDN as a triplet; POWDER measures a
// host decoded). The parser checks MaxHostLength last of the authority,
// when it has found the host and the port and not yet split what
// follows: that failure leaves p with everything SURT reads, the rest of
// key starting where the authority ends.
func parseSURT(p *parts, key string) *failure {
	if f := p.parse(key, syntaxLenient); f != nil {
		if f.err != ErrTooLong || f.comp != ComponentHost {
			return f
		}
		p.pathStart = p.authEnd
	}
	if p.schemeEnd < 0 {
		return fail(ComponentScheme, 0, ErrRelative, "missing scheme")
	}
	return nil
}

// surtHost reports whether p has a host that SURT reorders: a non-empty
// host, under a scheme other than filedesc.
func surtHost(p *parts) bool {
	return p.hasAuth && p.hostEnd > p.hostStart && !isFiledesc(p)
}

// isFiledesc reports whether p's scheme is filedesc (the header record of
// an ARC file), which every form of a SURT leaves as it is.
func isFiledesc(p *parts) bool { return strings.EqualFold(p.s[:p.schemeEnd], "filedesc") }

// appendSURT appends the SURT of p, which has a host, in form to dst.
func appendSURT(dst []byte, p *parts, form SURTForm) []byte {
	s := p.s
	if form&SURTWithScheme != 0 {
		dst = append(dst, s[:p.schemeEnd]...)
		dst = append(dst, "://("...)
	}
	dst = appendSURTHost(dst, s[p.hostStart:p.hostEnd], form)
	if p.hasPort {
		dst = append(dst, s[p.hostEnd:p.authEnd]...) // ":" and the port
	}
	dst = append(dst, ')')
	return append(dst, s[p.pathStart:]...)
}

// appendSURTHost appends host as a SURT in form writes it (see
// surtHostForm): kept whole, or with its labels reversed (see
// appendReversedHost) and a trailing comma if form has
// SURTTrailingComma.
func appendSURTHost(dst []byte, host string, form SURTForm) []byte {
	host, whole := surtHostForm(host, form)
	if whole {
		return append(dst, host...)
	}
	return appendReversedHost(dst, host, form&SURTTrailingComma != 0)
}

// surtHostForm returns what of host a SURT in form writes, and whether
// it writes that whole (else with its labels reversed): with SURTKeepIP
// an IP address is whole; without, an IP literal's brackets are dropped,
// as the surt library's URL parser drops them, and every host is
// reversed. A key's IP literal ends in "]" (the parser checks the
// brackets).
func surtHostForm(host string, form SURTForm) (string, bool) {
	if form&SURTKeepIP != 0 {
		return host, isSURTAddress(host)
	}
	if n := len(host); n >= 2 && host[0] == '[' && host[n-1] == ']' {
		return host[1 : n-1], false
	}
	return host, false
}

// appendReversedHost appends the dot-separated labels of host in reverse
// order, joined by ",", and a "," after the last if trailingComma:
// "x.y.z" -> "z,y,x" ("z,y,x,"), "x.y.z." -> ",z,y,x". The result is as
// long as host (plus the comma).
func appendReversedHost(dst []byte, host string, trailingComma bool) []byte {
	end := len(host)
	for {
		dot := strings.LastIndexByte(host[:end], '.')
		dst = append(dst, host[dot+1:end]...)
		if dot < 0 {
			break
		}
		dst = append(dst, ',')
		end = dot
	}
	if trailingComma {
		dst = append(dst, ',')
	}
	return dst
}

// isSURTAddress reports whether host is an IP address that SURTKeepIP
// keeps whole: an IP literal in brackets, or four dot-separated runs of
// one to three ASCII digits (which is how Heritrix's SURT and the surt
// library tell an IPv4 address; a key's IPv4 address is in that form).
func isSURTAddress(host string) bool {
	if host != "" && host[0] == '[' {
		return true
	}
	parts, digits := 0, 0
	for i := 0; i < len(host); i++ {
		switch c := host[i]; {
		case c >= '0' && c <= '9':
			if digits++; digits > 3 {
				return false
			}
		case c == '.' && digits > 0 && parts < 3:
			parts, digits = parts+1, 0
		default:
			return false
		}
	}
	return parts == 3 && digits > 0
}

// The surt library's writing of a SURT, which [SURT] and [AppendSURT]
// follow unless the form has SURTVerbatim. The Internet Archive's surt
// library (and the Wayback Machine and pywb, which share its keys) does
// more than reorder a URL: its canonicalizer decodes the path and the
// query and writes them again its own way. A key of Archive has done the
// rest of its work (case, "www", ports, dots, session ids, the order of
// the query); what is left cannot be in a key that reads back as the same
// URL ("%3F" decoded into a path is a query), so it is the SURT writer's.
// The rules, as the surt library 0.3.1 writes a key (its
// GoogleURLCanonicalizer, IAURLCanonicalizer and handyurl):
//
//   - The path is decoded until no triplet is left, its dot segments and
//     empty segments are removed as the library's normalizePath removes
//     them (a ".." above the root is kept; only with a host), then the
//     bytes below "!" or above "~", "#" and "%" are escaped again, every
//     letter lowercased (the triplets' hex too), and a final "/" dropped
//     unless the path is "/".
//   - The query is decoded until no triplet is left, escaped again the
//     same way, lowercased, and its parameters ("&"-separated, a name and
//     what follows its first "=") sorted by name then value as bytes, a
//     parameter without "=" before one with it; an empty query is dropped
//     with its "?". A "/" is written before a query when the path is
//     empty.
//   - The fragment is dropped; so is a port of 0.
//   - A URL without a host (file:///etc/hosts, mailto:x) is the scheme,
//     ":", the path and the query, written as above: file:/etc/hosts. So
//     is one whose host is dots alone (http://./x -> http:/x): the
//     library removes ".." and the dots at both ends of a host.

// surtLibraryEscaped reports whether the surt library's escapeOnce
// escapes c: a byte outside "!" to "~", and "#" and "%".
func surtLibraryEscaped(c byte) bool { return c <= ' ' || c >= 0x7f || c == '#' || c == '%' }

// appendSURTLibraryPart appends part (a path or query of a key) decoded
// until no triplet is left, its dot segments removed as the surt library
// removes them when path and normalize, escaped again (surtLibraryEscaped)
// and lowercased.
func appendSURTLibraryPart(dst []byte, part string, normalize bool, mask uint16) []byte {
	// Nearly every key's path and query (all of Archive's but those with
	// a triplet or a character the library escapes) are written as they
	// are: the byte classes the parser gathered tell (mask; or one pass
	// when it has none), and a path is looked at for "//" and "/." only
	// when it may need its dots or empty segments removed.
	const notPlain = clsCtl | clsNonASCII | clsPct | clsUpper | clsOutside
	plain := mask&notPlain == 0
	if mask == maskUnknown {
		plain = true
		for i := 0; i < len(part); i++ {
			if byteClass[part[i]]&notPlain != 0 || part[i] == '#' {
				plain = false
				break
			}
		}
	}
	if plain && normalize {
		// (strings.Contains is the fastest look for a two-byte run; a
		// path without a "." needs no look for "/.")
		plain = part != "" && part[0] == '/' && !strings.Contains(part, "//") &&
			(mask&clsDot == 0 || !strings.Contains(part, "/."))
	}
	if plain {
		return append(dst, part...)
	}
	start := len(dst)
	dst = append(dst, part...)
	decoded := decodeRepeatedlyInPlace(dst[start:])
	dst = dst[:start+len(decoded)]
	if normalize {
		dst = append(dst[:start], surtNormalizePath(decoded)...)
	}
	// Escape again, growing the buffer once for the triplets.
	n := 0
	for _, c := range dst[start:] {
		if surtLibraryEscaped(c) {
			n++
		}
	}
	if n > 0 {
		end := len(dst)
		dst = slices.Grow(dst, 2*n)[:end+2*n]
		w := len(dst)
		for r := end - 1; r >= start; r-- {
			c := dst[r]
			if surtLibraryEscaped(c) {
				w -= 3
				dst[w], dst[w+1], dst[w+2] = '%', lowerHex[c>>4], lowerHex[c&15]
				continue
			}
			w--
			dst[w] = c
		}
	}
	lowerASCII(dst[start:])
	return dst
}

// maskUnknown stands for the byte classes of a part the parser did not
// gather (a key whose host is over MaxHostLength, which parseSURT reads
// no further).
const maskUnknown = 0xffff

// surtNormalizePath returns path with the segments "." removed, each ".."
// removing the segment before it (or kept, at the root), and empty
// segments removed but a last one (a final "/"), as the surt library's
// normalizePath writes a path: "/a//b/./c/../d/" -> "/a/b/d/". Its first
// segment, before the first "/", is dropped, as the library drops it (a
// path with a host starts with "/"); an empty path is "/". It writes into
// a new slice only when something changes.
func surtNormalizePath(path []byte) []byte {
	if len(path) == 0 {
		return append(path, '/')
	}
	if path[0] == '/' && !needsSURTNormalize(path) {
		return path
	}
	segs := strings.Split(string(path), "/")[1:]
	kept := segs[:0]
	for _, s := range segs {
		switch s {
		case ".":
		case "..":
			if len(kept) > 0 {
				kept = kept[:len(kept)-1]
			} else {
				kept = append(kept, s)
			}
		default:
			kept = append(kept, s)
		}
	}
	out := make([]byte, 0, len(path)+1)
	out = append(out, '/')
	for i, s := range kept {
		if i == len(kept)-1 {
			out = append(out, s...)
		} else if s != "" {
			out = append(append(out, s...), '/')
		}
	}
	return out
}

// needsSURTNormalize reports whether path, which starts with "/", has a
// segment "." or "..", or an empty segment that is not the last.
func needsSURTNormalize(path []byte) bool {
	for i := 0; i < len(path); i++ {
		if path[i] != '/' {
			continue
		}
		seg := path[i+1:]
		if k := slices.Index(seg, '/'); k >= 0 {
			seg = seg[:k]
			if k == 0 {
				return true // "//" before the end
			}
		}
		if string(seg) == "." || string(seg) == ".." {
			return true
		}
	}
	return false
}

// appendSURTLibraryQuery appends query as the surt library writes it
// (without the "?"): decoded, escaped again, lowercased, and its
// parameters sorted (see the rules above). A query already in that order
// (a key's, nearly always) is not copied.
func appendSURTLibraryQuery(dst []byte, query string, mask uint16) []byte {
	start := len(dst)
	dst = appendSURTLibraryPart(dst, query, false, mask)
	if len(dst)-start <= 1 || surtParamsSorted(dst[start:]) {
		return dst
	}
	params := strings.Split(string(dst[start:]), "&")
	slices.SortStableFunc(params, compareSURTParams[string])
	dst = dst[:start]
	for i, param := range params {
		if i > 0 {
			dst = append(dst, '&')
		}
		dst = append(dst, param...)
	}
	return dst
}

// surtParamsSorted reports whether the parameters of q are in the order
// compareSURTParams sorts them.
func surtParamsSorted(q []byte) bool {
	var prev []byte
	for i, first := 0, true; i <= len(q); first = false {
		k := slices.Index(q[i:], '&')
		if k < 0 {
			k = len(q) - i
		}
		param := q[i : i+k]
		if !first && compareSURTParams(prev, param) > 0 {
			return false
		}
		prev = param
		i += k + 1
	}
	return true
}

// appendSURTLibrary appends the SURT of the key in p as the surt library
// writes it (see the rules above), in form (without SURTVerbatim).
func appendSURTLibrary(dst []byte, p *parts, form SURTForm) []byte {
	s := p.s
	var path, query string
	var hasQuery bool
	pathMask, queryMask := uint16(maskUnknown), uint16(maskUnknown)
	if p.pathEnd >= p.pathStart {
		// The parser split the rest (see parseSURT) and gathered its
		// byte classes.
		path, pathMask = s[p.pathStart:p.pathEnd], p.mPath
		if hasQuery = p.hasQuery; hasQuery {
			query, queryMask = s[p.queryStart:p.queryEnd], p.mQuery
		}
	} else {
		rest := s[p.pathStart:]
		if k := strings.IndexByte(rest, '#'); k >= 0 {
			rest = rest[:k] // the fragment is dropped
		}
		path, query, hasQuery = strings.Cut(rest, "?")
	}
	// A host of dots alone ("http://../", which TrimHostDots leaves as
	// ".") is none to the library: it removes ".." and the dots at both
	// ends of a host, then writes a URL without one.
	host := surtHost(p) && strings.Trim(s[p.hostStart:p.hostEnd], ".") != ""
	if host {
		if form&SURTWithScheme != 0 {
			dst = append(dst, s[:p.schemeEnd]...)
			dst = append(dst, "://("...)
		}
		h, whole := surtHostForm(s[p.hostStart:p.hostEnd], form)
		if whole {
			dst = append(dst, h...)
		} else {
			dst = appendReversedHost(dst, h, false)
		}
		if port := s[p.hostEnd:p.authEnd]; p.hasPort && strings.Trim(port[1:], "0") != "" {
			dst = append(dst, ':')
			dst = append(dst, strings.TrimLeft(port[1:], "0")...)
		}
		if form&SURTTrailingComma != 0 && !whole {
			dst = append(dst, ',') // (after the port, as the library writes it)
		}
		dst = append(dst, ')')
	} else {
		dst = append(dst, s[:p.schemeEnd+1]...) // "file:", "mailto:"
	}
	start := len(dst)
	dst = appendSURTLibraryPart(dst, path, host, pathMask)
	if n := len(dst) - start; n > 1 && dst[len(dst)-1] == '/' {
		dst = dst[:len(dst)-1] // a final "/", unless the path is "/"
	}
	if hasQuery && query != "" {
		if len(dst) == start {
			dst = append(dst, '/')
		}
		dst = append(dst, '?')
		qs := len(dst)
		if dst = appendSURTLibraryQuery(dst, query, queryMask); len(dst) == qs {
			dst = dst[:qs-1] // (no query is left: no "?")
		}
	}
	return dst
}

// compareSURTParams orders two parameters as the surt library's
// alphaReorderQuery sorts them, as the tuples of a name and, after the
// first "=", a value: by name, then one without a value first, then by
// value.
func compareSURTParams[T string | []byte](a, b T) int {
	an, av, ahas := cutParam(a)
	bn, bv, bhas := cutParam(b)
	if c := compareBytes(an, bn); c != 0 {
		return c
	}
	switch {
	case ahas == bhas:
		return compareBytes(av, bv)
	case !ahas:
		return -1
	}
	return 1
}

// compareBytes is strings.Compare for either kind of bytes, without a
// conversion (which would allocate in a generic function).
func compareBytes[T string | []byte](a, b T) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return cmp.Compare(len(a), len(b))
}

// cutParam splits a parameter at its first "=".
func cutParam[T string | []byte](p T) (name, value T, hasValue bool) {
	for i := 0; i < len(p); i++ {
		if p[i] == '=' {
			return p[:i], p[i+1:], true
		}
	}
	return p, p[len(p):], false
}
