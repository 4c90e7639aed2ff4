package legacy

import "strings"

// SURTForm selects how [AppendSURT] writes a SURT (bit flags; zero is the
// CDX form). The flags combine:
//
//	0                                  http://www.example.com:81/a -> com,example,www:81)/a
//	SURTTrailingComma                  http://www.example.com:81/a -> com,example,www,:81)/a
//	SURTWithScheme                     http://www.example.com:81/a -> http://(com,example,www:81)/a
//	SURTWithScheme|SURTTrailingComma   http://www.example.com:81/a -> http://(com,example,www,:81)/a
//	0                                  http://10.1.2.3:81/a        -> 3,2,1,10:81)/a
//	SURTKeepIP                         http://10.1.2.3:81/a        -> 10.1.2.3:81)/a
//
// The zero form is the key of the CDX format of the Internet Archive's
// Wayback Machine (its surt library's default), which pywb also uses;
// SURTWithScheme|SURTTrailingComma|SURTKeepIP is the form Heritrix
// writes, and the one the SURT prefixes of Heritrix's crawl scopes
// match.
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
)

// SURT returns the SURT (Sort-friendly URI Reordering Transform) of key in
// the form CDX indexes key their records by (the Internet Archive's CDX
// format, as its surt library, the Wayback Machine and pywb write it):
// the labels of the host in reverse order joined by ",", the port, ")",
// then the path, query and fragment as key has them.
//
//	http://www.archive.org/goo/?a=1             -> org,archive,www)/goo/?a=1
//	http://user:pass@foo.example.org:81/p?q#f   -> org,example,foo:81)/p?q#f
//	http://192.168.1.254/info                   -> 254,1,168,192)/info
//
// SURT is [AppendSURT] with a nil buffer and the zero [SURTForm]; see
// AppendSURT for the rules. An IPv4 address is reversed like a name, as
// the surt library reverses it by default; [SURTKeepIP] keeps it whole.
// key should be a key from [Normalize]: SURT reorders it, and drops its
// userinfo (as the surt library and urlcanon do; see AppendSURT). The CDX
// tools also canonicalize the URL first (the surt library's default
// lowercases it, drops "www." and session ids and sorts the query; the
// [Archive] profile does that); SURT leaves all of that to the profile
// that made key. It also departs from how the surt library writes a key
// in the few places AppendSURT lists.
//
// SURT allocates at most once, for the result, and not at all when it
// returns key unchanged.
func SURT(key string) (string, error) {
	var p parts
	if f := parseSURT(&p, key); f != nil {
		return "", toError("SURT", key, 0, f)
	}
	if !surtHost(&p) {
		return key, nil
	}
	b := appendSURT(make([]byte, 0, surtLen(&p, 0)), &p, 0)
	return ownedString(b), nil
}

// AppendSURT appends the SURT of key in form (see [SURTForm]) to dst and
// returns the extended buffer. On error it returns dst unchanged.
//
//	http://user:pass@foo.example.org:81/path?query#frag, SURTWithScheme|SURTTrailingComma
//	    -> http://(org,example,foo,:81)/path?query#frag
//	http://192.168.1.254/info, 0           -> 254,1,168,192)/info
//	http://192.168.1.254/info, SURTKeepIP  -> 192.168.1.254)/info
//
// key must be an absolute URL (it should be a key from [Normalize]); an
// empty key, or one without a scheme, is an error wrapping [ErrRelative],
// and one the parser cannot split (an invalid scheme or port, say) wraps
// the cause, as [Parse] reports it. AppendSURT changes nothing but the
// order, and drops the userinfo (in every form, the Heritrix form too,
// where Heritrix itself keeps it): it does not change case, decode
// triplets, add a "/" for an empty path or remove a default port. The rules follow the Internet Archive's
// surt library (its code and tests), Heritrix's SURT and the SURT test
// data of the IIPC's urlcanon; where those differ, the rule says which it
// follows:
//
//   - A URL with a host: the labels of the host (the parts between its
//     dots) in reverse order, joined by ","; then "," with
//     SURTTrailingComma (before the port, as Heritrix and urlcanon write
//     it; the surt library writes it after the port); then ":" and the
//     port as key writes it, when key has a port (an empty one,
//     "http://h:/", as ":"; the surt library writes the port as a number
//     and drops an empty one); then ")"; then the path, query and
//     fragment as written ("http://h.org:81?q" -> "org,h:81)?q", as
//     urlcanon writes it; the surt library adds a "/" before a query or
//     fragment). The userinfo is dropped, as the surt library and
//     urlcanon drop it (Heritrix writes it after the port). With
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
//     Heritrix and urlcanon agree).
//   - A "," inside a label is kept, as the surt library and Heritrix keep
//     it (http://a,b.example/ -> example,a,b)/; urlcanon writes it as
//     "."), so such a host's SURT is the same as that of the host with
//     the "," read as a dot: DNS names have no ",".
//   - A URL without an authority comes back unchanged in every form:
//     dns:alexa.com, warcinfo:foo.warc.gz, mailto:x,
//     screenshot:http://example.com/, as the surt library returns them
//     (and urlcanon, when it writes the scheme). So does one with an
//     empty host, such as file:///etc/passwd (the surt library writes
//     file:/etc/passwd, urlcanon the path alone).
//   - A URL whose scheme is filedesc (the header record of an ARC file)
//     comes back unchanged, authority or not: filedesc://foo.arc.gz, as
//     the surt library returns it.
//   - Any other scheme is reordered like http:
//     whois://whois.isoc.org.il/shaveh.co.il -> il,org,isoc,whois)/shaveh.co.il.
func AppendSURT(dst []byte, key string, form SURTForm) ([]byte, error) {
	var p parts
	if f := parseSURT(&p, key); f != nil {
		return dst, toError("AppendSURT", key, 0, f)
	}
	if !surtHost(&p) {
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
	return p.hasAuth && p.hostEnd > p.hostStart && !strings.EqualFold(p.s[:p.schemeEnd], "filedesc")
}

// surtLen returns the length of the SURT of p (which has a host) in form.
func surtLen(p *parts, form SURTForm) int {
	host, whole := surtHostForm(p.s[p.hostStart:p.hostEnd], form)
	n := len(host) + 1 + len(p.s) - p.pathStart // host ")" rest
	if form&SURTWithScheme != 0 {
		n += p.schemeEnd + len("://(")
	}
	if form&SURTTrailingComma != 0 && !whole {
		n++
	}
	if p.hasPort {
		n += p.authEnd - p.hostEnd // ":" and the port
	}
	return n
}

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
