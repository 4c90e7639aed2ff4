package canon

import "strings"

// The W3C POWDER steps that act on the input as text, before it is
// parsed (DecodeAll, PlusToSpace, DefaultScheme), and the checks that
// keep their rewrites from reading as another URI: of the raw authority
// before decoding, and of a resolved URI that NormalizeRef reads again.

// prepass rewrites the input for the steps that act before parsing:
// DecodeAll, DefaultScheme and PlusToSpace, in the order of the W3C
// POWDER canonicalization rules: decode every triplet, then "+" to space,
// with the scheme defaulted to http. It returns in itself when nothing changes,
// and otherwise builds the new input in one buffer.
func prepass(in string, pl *plan) (string, *failure) {
	decodeAll := pl.decodeAll
	if decodeAll {
		// DecodeAll parses the decoded input leniently, so the raw input
		// is checked here against the same policy as in other profiles:
		// no control characters, no backslash before the query.
		if k := firstOf(in, 0, len(in), clsCtl); k < len(in) {
			return "", fail(ComponentURL, k, ErrInvalidChar, "control character")
		}
		end := len(in)
		if k := strings.IndexAny(in, "?#"); k >= 0 {
			end = k
		}
		if k := strings.IndexByte(in[:end], '\\'); k >= 0 {
			return "", fail(ComponentURL, k, ErrInvalidChar, "backslash")
		}
		if f := checkRawAuthority(in); f != nil {
			return "", f
		}
	}
	decode := decodeAll && strings.IndexByte(in, '%') >= 0
	if !decode {
		// Nothing to decode: the input is rewritten only if it lacks a
		// scheme or holds a "+" after it.
		n := schemeLength(in)
		noScheme := n < 0 && pl.defaultScheme
		plus := pl.plusToSpace && strings.IndexByte(in[max(n, 0):], '+') >= 0
		if !noScheme && !plus {
			return in, nil
		}
	}

	// Room for the default scheme in front, so that no copy is needed
	// when it turns out to be missing.
	const prefix = "http://"
	b := make([]byte, len(prefix), len(prefix)+len(in))
	for k := 0; k < len(in); k++ {
		c := in[k]
		if c == '%' && decode && validEscape(in, k) {
			c = tripletValue(in, k)
			k += 2
		}
		b = append(b, c)
	}
	body := b[len(prefix):]
	start := len(prefix)
	schemeEnd := schemeLength(body)
	if schemeEnd < 0 && pl.defaultScheme {
		if pl.whatwg && len(body) > 0 && isSlash(body[0]) && (len(body) == 1 || !isSlash(body[1])) {
			// "/a/b" is a path: "http:///a/b" would read its first
			// segment as the host, as the standard skips the slashes
			// after a special scheme. (Without ParseWHATWG the empty
			// host is an error anyway.)
			return "", fail(ComponentURL, 0, ErrRelative, "a path without a host")
		}
		if len(body) >= 2 && body[0] == '/' && body[1] == '/' {
			start = 2 // "http:" + "//..."
		} else {
			start = 0
		}
		copy(b[start:], prefix[:len(prefix)-start])
		schemeEnd = 4
	} else if schemeEnd >= 0 {
		schemeEnd += start
	}
	if pl.plusToSpace {
		// The scheme cannot hold a space ("svn+ssh" stays).
		for k := max(schemeEnd, start); k < len(b); k++ {
			if b[k] == '+' {
				b[k] = ' '
			}
		}
	}
	s := ownedString(b[start:])
	if s == in {
		return in, nil
	}
	return s, nil
}

// checkRawAuthority keeps DecodeAll from moving the host. When the
// input, read before decoding as the parser reads it (an optional scheme,
// then "//"), has an authority, decoding must not change where that
// authority, or the host and port in it, start and end: an escape in it
// that decodes to "/", "?" or "#", or after its last "@" to "@", ":", "["
// or "]", is an error. Otherwise "http://good.com%2F@evil.com/" would
// decode to the host good.com while a browser contacts evil.com, and a
// POWDER label for one would describe the other. An input whose "://" is
// itself encoded ("http%3A%2F%2Fwww.example.com%2Ffoo", the POWDER
// document's example) has no authority before decoding and is decoded
// as the document says. An input without a scheme, which DefaultScheme
// reads as an authority, is held to the same rule when its authority
// holds an "@" ("good.com%2F@evil.com/"): that is the form that names
// one host in the text and another after decoding.
func checkRawAuthority(in string) *failure {
	var pr parts
	pr.split(in, syntaxRFC3986) // as the parser reads it: any scheme, then "//"
	switch {
	case pr.hasAuth:
		return checkRawHost(in, pr.authStart, pr.authEnd, false)
	case schemeLength(in) < 0:
		// DefaultScheme: the input is an authority, after "//" or not.
		a := 0
		if len(in) >= 2 && in[0] == '/' && in[1] == '/' {
			a = 2
		}
		end := a
		for end < len(in) && in[end] != '/' && in[end] != '?' && in[end] != '#' {
			end++
		}
		return checkRawHost(in, a, end, true)
	}
	return nil
}

// checkRawHost checks the authority in[a:end] (see checkRawAuthority);
// onlyWithAt limits the check to one that holds "@".
func checkRawHost(in string, a, end int, onlyWithAt bool) *failure {
	at := strings.LastIndexByte(in[a:end], '@')
	host := at + a + 1 // a when there is no "@"
	if host < end && in[host] == '[' {
		// An RFC 6874 zone identifier is introduced by "%25", which
		// DecodeAll decodes: "[::1%25eth0]" would be read "[::1%eth0]",
		// and "[::%2525eth0]" keyed "[::%25eth0]", which reads back as
		// the first. No zone survives DecodeAll ("[::%31]" is "[::1]").
		lit := end
		if k := strings.IndexByte(in[host:end], ']'); k >= 0 {
			lit = host + k
		}
		for k := host; k+2 < lit; k++ {
			if in[k] == '%' && validEscape(in, k) && tripletValue(in, k) == '%' {
				return fail(ComponentHost, k, ErrInvalidHost, "invalid zone identifier: DecodeAll decodes its %25")
			}
		}
	}
	if at < 0 && onlyWithAt {
		return nil
	}
	for k := strings.IndexByte(in[a:end], '%'); k >= 0; k = strings.IndexByte(in[a:end], '%') {
		k += a
		if validEscape(in, k) {
			switch v := tripletValue(in, k); {
			case v == '/' || v == '?' || v == '#',
				k >= host && (v == '@' || v == ':' || v == '[' || v == ']'):
				return fail(ComponentHost, k, ErrInvalidHost, "percent-encoded delimiter that would move the host")
			}
		}
		a = k + 1
	}
	return nil
}

// readsAsHostPort returns the failure of a resolved URI whose text read
// is what DefaultScheme, in pl, would read as host and port ("a:80/x"),
// or nil: NormalizeRef's rule for every profile with DefaultScheme (see
// checkResolvedPOWDER and readsBack).
func readsAsHostPort(read string, pl *plan) *failure {
	if pl.defaultScheme && schemeLength(read) < 0 {
		return fail(ComponentScheme, 0, ErrInvalidScheme, "resolved URI reads as host and port")
	}
	return nil
}

// checkResolvedPOWDER keeps NormalizeRef from giving the resolved URI abs,
// which has a scheme, an authority it did not have: DefaultScheme would
// read "a:80" (scheme a, path 80) as host and port, and DecodeAll would
// read "foo:/%2Fx" as the authority x. Resolution made the scheme and the
// path; reading a host out of them would describe a host neither the base
// nor the reference named.
func checkResolvedPOWDER(abs string, pl *plan) *failure {
	if pl.defaultScheme {
		// DefaultScheme reads the input after DecodeAll: "A:0%23" is
		// "A:0#", host and port.
		read := abs
		if pl.decodeAll {
			read = string(percentDecode(abs))
		}
		if f := readsAsHostPort(read, pl); f != nil {
			return f
		}
	}
	n := schemeLength(abs)
	if !pl.decodeAll || n < 0 {
		return nil
	}
	// Two slashes after the scheme, at least one of them encoded.
	k, encoded := n+1, false
	for slashes := 0; slashes < 2; slashes++ {
		switch {
		case k < len(abs) && abs[k] == '/':
			k++
		case k+2 < len(abs) && abs[k] == '%' && abs[k+1] == '2' && (abs[k+2]|0x20) == 'f':
			k += 3
			encoded = true
		default:
			return nil
		}
	}
	if encoded {
		return fail(ComponentPath, n+1, ErrInvalidHost, "decoding would make the resolved path an authority")
	}
	return nil
}
