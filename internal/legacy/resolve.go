package legacy

import "strings"

// Resolve makes ref absolute against base, as RFC 3986 §5.2.2 says, in
// strict mode: a reference with a scheme is absolute even when the scheme
// is the base's ("http:g" stays "http:g"). The fragment of base is
// ignored (§5.1); dot segments are removed from the merged path (§5.2.4).
//
// base must have a scheme, or the error wraps [ErrRelative]. Both inputs
// are parsed as [Parse] does; nothing else is normalized.
//
// One deviation from the letter of §5.3: when the result has no
// authority and its path starts with "//", it is written with a "/."
// prefix ("foo:/a/..//b" -> "foo:/.//b"), as the WHATWG URL Standard does;
// otherwise the path would be read back as an authority.
func Resolve(base, ref string) (string, error) {
	if _, end, ok := fast(nil, ref, Profile{steps: 1 << RemoveDots}); ok && end >= 0 {
		// An absolute reference without dot segments (RemoveDots would
		// change nothing) resolves to itself (§5.2.2); only the base
		// remains to be checked.
		if _, end, ok := fast(nil, base, Profile{}); ok && end >= 0 {
			return ref, nil
		}
	}
	b, bshift, f := parseInput(base)
	if f != nil {
		return "", withArg(toError("Resolve", base, bshift, f), "base")
	}
	if b.schemeEnd < 0 {
		return "", withArg(toError("Resolve", base, bshift, fail(ComponentScheme, 0, ErrRelative, "base has no scheme")), "base")
	}
	r, rshift, f := parseInput(ref)
	if f != nil {
		return "", withArg(toError("Resolve", ref, rshift, f), "ref")
	}
	return resolve3986(&b, &r), nil
}

// resolve3986 returns the target of r against b (RFC 3986 §5.2.2, strict):
// r itself, without allocating, when it is absolute and has no dot
// segment, a new string otherwise.
func resolve3986(b, r *parts) string {
	if r.schemeEnd >= 0 && !hasDotSegment(r.s[r.pathStart:r.pathEnd]) {
		return r.s
	}
	return ownedString(appendResolved(make([]byte, 0, len(b.s)+len(r.s)+2), b, r))
}

func parseInput(s string) (parts, int, *failure) {
	in, shift, f := trim(s)
	if f != nil {
		return parts{}, 0, f
	}
	var p parts
	f = p.parse(in, syntaxRFC3986)
	return p, shift, f
}

// appendResolved appends the target URI of r against b (RFC 3986 §5.2.2,
// strict) to dst, recomposed as §5.3 says.
func appendResolved(dst []byte, b, r *parts) []byte {
	rs, bs := r.s, b.s
	rpath := rs[r.pathStart:r.pathEnd]
	var scheme string
	if r.schemeEnd >= 0 {
		scheme = rs[:r.schemeEnd]
	} else {
		scheme = bs[:b.schemeEnd]
	}
	dst = append(dst, scheme...)
	dst = append(dst, ':')

	var auth *parts // whose authority the target has, if any
	switch {
	case r.schemeEnd >= 0 || r.hasAuth:
		if r.hasAuth {
			auth = r
		}
	case b.hasAuth:
		auth = b
	}
	if auth != nil {
		dst = append(dst, "//"...)
		dst = append(dst, auth.s[auth.authStart:auth.authEnd]...)
	}

	pathAt := len(dst)
	query, hasQuery := rs[r.queryStart:r.queryEnd], r.hasQuery
	switch {
	case r.schemeEnd >= 0 || r.hasAuth || strings.HasPrefix(rpath, "/"):
		dst = append(dst, rpath...)
	case rpath == "":
		dst = append(dst, bs[b.pathStart:b.pathEnd]...)
		if !hasQuery {
			query, hasQuery = bs[b.queryStart:b.queryEnd], b.hasQuery
		}
	default:
		// merge (§5.2.3)
		bpath := bs[b.pathStart:b.pathEnd]
		if b.hasAuth && bpath == "" {
			dst = append(dst, '/')
		} else if k := strings.LastIndexByte(bpath, '/'); k >= 0 {
			dst = append(dst, bpath[:k+1]...)
		}
		dst = append(dst, rpath...)
	}
	if !(r.schemeEnd < 0 && !r.hasAuth && rpath == "") {
		dst = append(dst[:pathAt], removeDotSegmentsInPlace(dst[pathAt:])...)
	}
	if auth == nil {
		dst = guardPath(dst, pathAt)
	}
	return appendQueryFragment(dst, query, hasQuery, r)
}

// guardPath writes a path that starts with "//", in a URI without an
// authority, as "/.//": read again, "//" would start an authority and the
// path's first segment would become a host ("foo:/a/..//evil.com" must
// not turn into "foo://evil.com"). The "/." is a dot segment, so the path
// is the same one (RFC 3986 §3.3 forbids the "//" form; the WHATWG URL
// Standard writes the same prefix). dst holds the path from pathAt on.
// Every place that makes such a path calls it: both resolvers and the
// dot-segment steps.
func guardPath(dst []byte, pathAt int) []byte {
	if len(dst)-pathAt < 2 || dst[pathAt] != '/' || dst[pathAt+1] != '/' {
		return dst
	}
	dst = append(dst, "/."...) // room for the prefix
	copy(dst[pathAt+2:], dst[pathAt:len(dst)-2])
	dst[pathAt], dst[pathAt+1] = '/', '.'
	return dst
}

// appendQueryFragment ends a recomposed reference (RFC 3986 §5.3): the
// query, if any, and the fragment of r, if any.
func appendQueryFragment(dst []byte, query string, hasQuery bool, r *parts) []byte {
	if hasQuery {
		dst = append(dst, '?')
		dst = append(dst, query...)
	}
	if r.hasFrag {
		dst = append(dst, '#')
		dst = append(dst, r.s[r.fragStart:]...)
	}
	return dst
}

// resolve1808 makes ref absolute against base with the algorithm of
// RFC 1808 §4, which the PDF Reference's "URL Strings" cites (step 1).
// It differs from RFC 3986 §5.2: an empty reference keeps the
// base's fragment; ";x" keeps the base path ("http://a/b/c/d;x"); a
// reference whose path starts with "/" is used as is, dots included; and
// ".." above the root stays ("http://a/../g").
//
// RFC 1808 parses ";params" off the path at its first ";" (§2.4.5).
//
// Two rules are added to the RFC's, for what its steps leave open: a path
// that would start with "//" without an authority is written "/.//" (see
// guardPath), and a reference with an empty net_loc ("///evil.com/x")
// against a base whose scheme needs a host is an error rather than the
// base's host with the path "/evil.com/x": a browser contacts evil.com.
func resolve1808(b, r *parts) (string, *failure) {
	// Step 2a: an empty reference is the base URL, fragment included.
	if r.s == "" {
		return b.s, nil
	}
	// Step 2b: a reference with a scheme is absolute.
	if r.schemeEnd >= 0 {
		return r.s, nil
	}
	bs, rs := b.s, r.s
	dst := make([]byte, 0, len(bs)+len(rs)+4)
	dst = append(dst, bs[:b.schemeEnd+1]...) // step 2c: the base's scheme
	// Step 3: a non-empty net_loc makes the reference absolute.
	if r.hasAuth && r.authStart < r.authEnd {
		return ownedString(append(dst, rs...)), nil
	}
	if r.hasAuth && kindOf(bs[:b.schemeEnd]).needsHost() {
		return "", fail(ComponentHost, r.authStart, ErrInvalidHost, "empty host in a reference against a base that needs one")
	}
	hasAuth := b.hasAuth
	if hasAuth {
		dst = append(dst, "//"...)
		dst = append(dst, bs[b.authStart:b.authEnd]...)
	}
	rpath, rparams, hasRParams := splitParams(rs[r.pathStart:r.pathEnd])
	rquery, hasRQuery := rs[r.queryStart:r.queryEnd], r.hasQuery
	pathAt := len(dst)
	switch {
	case strings.HasPrefix(rpath, "/"):
		// Step 4: the path is not relative.
		dst = append(dst, rpath...)
	case rpath == "":
		// Step 5: inherit the base path, then its params and query
		// unless the reference has non-empty ones.
		bpath, bparams, hasBParams := splitParams(bs[b.pathStart:b.pathEnd])
		dst = append(dst, bpath...)
		if rparams == "" {
			rparams, hasRParams = bparams, hasBParams
			if rquery == "" {
				rquery, hasRQuery = bs[b.queryStart:b.queryEnd], b.hasQuery
			}
		}
	default:
		// Step 6: replace the last segment of the base path and apply
		// the dot rules a-d.
		bpath, _, _ := splitParams(bs[b.pathStart:b.pathEnd])
		if k := strings.LastIndexByte(bpath, '/'); k >= 0 {
			dst = append(dst, bpath[:k+1]...)
		} else if hasAuth {
			dst = append(dst, '/')
		}
		dst = append(dst, rpath...)
		dst = append(dst[:pathAt], removeDotSegments1808(dst[pathAt:])...)
	}
	if !hasAuth {
		// Dot removal (step 6) or an empty net_loc ("////" against a
		// base without one: step 4) can leave a path that starts with
		// "//".
		dst = guardPath(dst, pathAt)
	}
	// Step 7: recombine.
	if hasRParams {
		dst = append(dst, ';')
		dst = append(dst, rparams...)
	}
	if hasAuth && len(dst) > pathAt && dst[pathAt] != '/' {
		// (webcapture/2, applied to the oracle too: "/" rel_path)
		dst = append(dst, 0)
		copy(dst[pathAt+1:], dst[pathAt:])
		dst[pathAt] = '/'
	}
	return ownedString(appendQueryFragment(dst, rquery, hasRQuery, r)), nil
}

// splitParams splits an RFC 1808 path at its first ";".
func splitParams(path string) (p, params string, hasParams bool) {
	if i := strings.IndexByte(path, ';'); i >= 0 {
		return path[:i], path[i+1:], true
	}
	return path, "", false
}

// normalizeRefWHATWG parses ref against base as the WHATWG URL Standard's
// basic URL parser does, then writes it as profile p says (which has
// ParseWHATWG). The base is parsed first, alone; a reference with a scheme
// is parsed alone unless it is relative after all (a special scheme equal
// to the base's: "http:foo" against an http base). Otherwise the
// reference's form - network-path ("//h", "\\h"), absolute-path, query,
// fragment, empty or path - takes the base's parts that the standard's
// relative states take, and the result, an absolute URL, is parsed again:
// the two give the same URL, as every state the reference still passes
// through is one an absolute URL passes through too. (The file states'
// drive-letter rules, which look at the base's path, are applied here.)
func normalizeRefWHATWG(base, ref string, p Profile) (string, error) {
	const op = "NormalizeRef"
	bkey, err := Normalize(base, Profile{steps: 1 << ParseWHATWG}) // no allocation when it is a key
	if err != nil {
		return "", withArg(relabel(err, op), "base")
	}
	in, shift, f := trim(ref)
	if f == nil {
		if k := invalidUTF8At(in); k >= 0 {
			f = fail(ComponentURL, k, ErrInvalidChar, "invalid UTF-8")
		}
	}
	if f != nil {
		return "", withArg(toError(op, ref, shift, f), "ref")
	}
	r := preprocessWHATWG(in)
	if r != in {
		shift = -1 // offsets into the rewritten reference are unknown
	}
	rest := r
	if n := whatwgSchemeLength(r); n >= 0 {
		bn := whatwgSchemeLength(bkey)
		if !kindOf(bkey[:bn]).special() || !strings.EqualFold(r[:n], bkey[:bn]) {
			key, err := Normalize(ref, p) // an absolute URL: the base plays no part
			return key, withArg(relabel(err, op), "ref")
		}
		rest = r[n+1:] // "http:foo" against an http base is relative
	}
	var b parts
	if f := b.parse(bkey, syntaxWHATWG); f != nil {
		return "", withArg(toError(op, base, 0, f), "base") // cannot happen: bkey is a key
	}
	abs, f := resolveWHATWG(&b, rest, r)
	if f != nil {
		if shift < 0 {
			f.off = -1
		}
		return "", withArg(toError(op, ref, max(shift, 0), f), "ref")
	}
	key, err := Normalize(abs, p)
	return key, withArg(relabel(err, op), "resolved")
}

// whatwgSchemeLength returns the length of the scheme of s as the
// standard's scheme state reads it (an ASCII letter, then letters, digits,
// "+", "-" and ".", then ":"), or -1.
func whatwgSchemeLength(s string) int {
	if s == "" || (s[0]|0x20) < 'a' || (s[0]|0x20) > 'z' {
		return -1
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == ':':
			return i
		case byteClass[c]&clsScheme == 0:
			return -1
		}
	}
	return -1
}

// resolveWHATWG composes the absolute URL that the relative reference
// rest means against the base b (a WHATWG key, parsed), as the standard's
// "no scheme", "relative", "relative slash", "file" and "file slash"
// states do. ref is the whole reference, for error offsets.
func resolveWHATWG(b *parts, rest, ref string) (string, *failure) {
	bs := b.s
	if b.opaque {
		// "no scheme state": only a fragment may follow a base with an
		// opaque path.
		if strings.HasPrefix(rest, "#") {
			return cutFragment(b) + rest, nil
		}
		return "", fail(ComponentURL, 0, ErrRelative, "relative reference against a base with an opaque path")
	}
	isSep := func(c byte) bool { return c == '/' || (b.special && c == '\\') }
	file := kindOf(bs[:b.schemeEnd]) == schemeFile
	switch {
	case rest == "":
		return cutFragment(b), nil
	case rest[0] == '?':
		return bs[:b.pathEnd] + rest, nil
	case rest[0] == '#':
		return cutFragment(b) + rest, nil
	case isSep(rest[0]) && len(rest) > 1 && isSep(rest[1]):
		// A network-path reference: the base's scheme and the reference.
		return bs[:b.schemeEnd+1] + rest, nil
	case isSep(rest[0]):
		// An absolute-path reference: the base's scheme and authority. A
		// file URL keeps the base's drive letter unless the reference
		// names its own ("file slash state").
		prefix := bs[:b.pathStart]
		if file && !startsWithDriveLetter(rest[1:]) {
			if d := baseDriveLetter(b); d != "" {
				prefix += d
			}
		}
		return prefix + rest, nil
	case file && startsWithDriveLetter(rest):
		// "file state": a drive letter replaces the base's path.
		return bs[:b.pathStart] + "/" + rest, nil
	}
	// A path reference: the base's path without its last segment
	// ("shorten"), then the reference.
	path := bs[b.pathStart:b.pathEnd]
	dir := path[:strings.LastIndexByte(path, '/')+1]
	switch {
	case file && len(path) == 3 && baseDriveLetter(b) != "":
		dir = path + "/" // a lone drive letter is never shortened
	case dir == "":
		dir = "/"
	}
	return bs[:b.pathStart] + dir + rest, nil
}

// cutFragment returns the key b without its fragment.
func cutFragment(b *parts) string {
	if b.hasFrag {
		return b.s[:b.fragStart-1]
	}
	return b.s
}

// baseDriveLetter returns the first segment of b's path, with its "/",
// when it is a normalized Windows drive letter ("/C:"), else "".
func baseDriveLetter(b *parts) string {
	path := b.s[b.pathStart:b.pathEnd]
	if len(path) >= 3 && path[0] == '/' && isWindowsDriveLetter(path[1:3]) && path[2] == ':' && (len(path) == 3 || path[3] == '/') {
		return path[:3]
	}
	return ""
}

// startsWithDriveLetter is the standard's "starts with a Windows drive
// letter": a drive letter, then the end or one of "/", "\", "?" and "#".
func startsWithDriveLetter(s string) bool {
	return len(s) >= 2 && isWindowsDriveLetter(s[:2]) &&
		(len(s) == 2 || s[2] == '/' || s[2] == '\\' || s[2] == '?' || s[2] == '#')
}
