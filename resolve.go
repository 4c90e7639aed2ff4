package canon

import (
	"strings"
	"unicode/utf8"
)

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
	b, bshift, f := parseInput(base)
	if f != nil {
		return "", toArgError("Resolve", "base", base, bshift, f)
	}
	if b.schemeEnd < 0 {
		return "", toArgError("Resolve", "base", base, bshift, fail(ComponentScheme, 0, ErrRelative, "base has no scheme"))
	}
	r, rshift, f := parseInput(ref)
	if f != nil {
		return "", toArgError("Resolve", "ref", ref, rshift, f)
	}
	abs, _ := resolve3986(&b, &r)
	return abs, nil
}

// normalizeRef is NormalizeRef under a plan without ParseWHATWG (which
// NormalizeRef sends to normalizeRefWHATWG itself): the resolution the
// plan names (Google Safe Browsing's, RFC 1808 §4 or RFC 3986 §5.2),
// then the key of the target.
func normalizeRef(base, ref string, pl *plan) (string, error) {
	if pl.safeBrowsing {
		return normalizeRefSafeBrowsing(base, ref)
	}
	const op = "NormalizeRef"
	b, err := rfcBase(op, base)
	if err != nil {
		return "", err
	}
	return refRFC(op, &b, ref, pl)
}

// rfcBase returns the parts of base, the base of a resolution by RFC 3986
// §5.2 or RFC 1808 §4: it must have a scheme.
func rfcBase(op, base string) (parts, error) {
	b, bshift, f := parseInput(base)
	if f != nil {
		return parts{}, toArgError(op, "base", base, bshift, f)
	}
	if b.schemeEnd < 0 {
		return parts{}, toArgError(op, "base", base, bshift, fail(ComponentScheme, 0, ErrRelative, "base has no scheme"))
	}
	return b, nil
}

// refRFC returns the key of ref against the base b (see rfcBase) by the
// resolution pl names (RFC 1808 §4 or RFC 3986 §5.2).
func refRFC(op string, b *parts, ref string, pl *plan) (string, error) {
	r, rshift, f := parseInput(ref)
	if f != nil {
		return "", toArgError(op, "ref", ref, rshift, f)
	}
	var abs string
	var t parts
	if pl.resolve1808 {
		if abs, t, f = resolve1808(b, &r); f != nil {
			return "", toArgError(op, "ref", ref, rshift, f)
		}
	} else {
		abs, t = resolve3986(b, &r)
	}
	if pl.decodeAll || pl.defaultScheme || pl.plusToSpace || pl.esc == escapeIRI && !utf8.ValidString(abs) {
		// These read the resolved URI as text first: DecodeAll decodes
		// it before it is split, PlusToSpace and DefaultScheme rewrite
		// it, and EncodeToIRI escapes an octet that is not UTF-8 together
		// with its neighbours. The text is what they define their work
		// on; it is composed, and read, as any input is.
		abs = escapeTrailingTrimmed(abs)
		if pl.decodeAll || pl.defaultScheme {
			if f := checkResolvedPOWDER(abs, pl); f != nil {
				return "", toArgError(op, "resolved", abs, 0, f)
			}
		}
		return keyString(op, "resolved", abs, pl, nil)
	}
	// The resolved URI's parts come from its composition (or are the
	// reference's, when it is its own target): the engine writes it
	// without reading it again. A failure is in the resolved URI, which
	// mixes both inputs.
	e := engine{s: abs, pr: t, pl: pl}
	e.u.w.reset(abs, nil, 0)
	e.u.w.slack = 32
	if f := e.run(); f != nil {
		return "", toArgError(op, "resolved", abs, 0, f)
	}
	e.u.check()
	if f := finishKey(&e.u, abs, pl); f != nil {
		return "", toArgError(op, "resolved", abs, 0, f)
	}
	return e.u.result(), nil
}

// resolve3986 returns the target of r against b (RFC 3986 §5.2.2,
// strict), and its parts: r itself, without allocating, when it is
// absolute and has no dot segment (its parts are r's), a new string
// otherwise.
func resolve3986(b, r *parts) (string, parts) {
	if r.schemeEnd >= 0 && !hasDotSegment(r.s[r.pathStart:r.pathEnd]) {
		return r.s, *r
	}
	c := composer{b: make([]byte, 0, len(b.s)+len(r.s)+4)}
	c.resolve3986(b, r)
	return c.done()
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

// composer builds a resolved URI from the components of a base and a
// reference, which were read when they were parsed, and records where
// each lands: the parts of the result come from its composition, and it
// is not parsed again. (TestComposedParts holds them to a parse of the
// result.)
type composer struct {
	b []byte
	t parts
}

// done returns the composed URI and its parts.
func (c *composer) done() (string, parts) {
	s := ownedString(c.b)
	c.t.s = s
	if checkParts != nil {
		checkParts(s, &c.t)
	}
	return s, c.t
}

// scheme writes the scheme of src and ":".
func (c *composer) scheme(src *parts) {
	c.b = append(c.b, src.s[:src.schemeEnd]...)
	c.t.schemeEnd, c.t.mScheme, c.t.kind = src.schemeEnd, src.mScheme, src.kind
	c.b = append(c.b, ':')
}

// authority writes "//" and the authority of src.
func (c *composer) authority(src *parts) {
	c.b = append(c.b, "//"...)
	d := len(c.b) - src.authStart
	c.b = append(c.b, src.s[src.authStart:src.authEnd]...)
	t := &c.t
	t.hasAuth, t.authStart, t.authEnd = true, src.authStart+d, src.authEnd+d
	t.hasUser, t.mUser, t.hasPort, t.mHost = src.hasUser, src.mUser, src.hasPort, src.mHost
	t.hostStart, t.hostEnd = src.hostStart+d, src.hostEnd+d
	if src.hasUser {
		t.userEnd = src.userEnd + d
	}
}

// path records the path written from offset at on.
func (c *composer) path(at int) {
	c.t.pathStart, c.t.pathEnd = at, len(c.b)
	c.t.mPath = classesOf(c.b[at:])
}

// queryFragment ends the URI (RFC 3986 §5.3): the query, if any, with
// its byte classes m, and the fragment of r, if any.
func (c *composer) queryFragment(query string, hasQuery bool, m uint16, r *parts) {
	if hasQuery {
		c.b = append(c.b, '?')
		c.t.hasQuery, c.t.queryStart, c.t.mQuery = true, len(c.b), m
		c.b = append(c.b, query...)
		c.t.queryEnd = len(c.b)
	}
	if r.hasFrag {
		c.b = append(c.b, '#')
		c.t.hasFrag, c.t.fragStart, c.t.mFrag = true, len(c.b), r.mFrag
		c.b = append(c.b, r.s[r.fragStart:]...)
	}
}

// classesOf is classes for bytes.
func classesOf(b []byte) uint16 {
	var m uint16
	for _, c := range b {
		m |= byteClass[c]
	}
	return m
}

// resolve3986 composes the target URI of r against b (RFC 3986 §5.2.2,
// strict), recomposed as §5.3 says.
func (c *composer) resolve3986(b, r *parts) {
	rs, bs := r.s, b.s
	rpath := rs[r.pathStart:r.pathEnd]
	if r.schemeEnd >= 0 {
		c.scheme(r)
	} else {
		c.scheme(b)
	}
	hasAuth := false
	switch {
	case r.schemeEnd >= 0 || r.hasAuth:
		if r.hasAuth {
			c.authority(r)
			hasAuth = true
		}
	case b.hasAuth:
		c.authority(b)
		hasAuth = true
	}

	pathAt := len(c.b)
	query, hasQuery, mQuery := rs[r.queryStart:r.queryEnd], r.hasQuery, r.mQuery
	switch {
	case r.schemeEnd >= 0 || r.hasAuth || strings.HasPrefix(rpath, "/"):
		c.b = append(c.b, rpath...)
	case rpath == "":
		c.b = append(c.b, bs[b.pathStart:b.pathEnd]...)
		if !hasQuery {
			query, hasQuery, mQuery = bs[b.queryStart:b.queryEnd], b.hasQuery, b.mQuery
		}
	default:
		// merge (§5.2.3)
		bpath := bs[b.pathStart:b.pathEnd]
		if b.hasAuth && bpath == "" {
			c.b = append(c.b, '/')
		} else if k := strings.LastIndexByte(bpath, '/'); k >= 0 {
			c.b = append(c.b, bpath[:k+1]...)
		}
		c.b = append(c.b, rpath...)
	}
	if !(r.schemeEnd < 0 && !r.hasAuth && rpath == "") {
		c.b = append(c.b[:pathAt], removeDots(c.b[pathAt:], dotsRFC3986, false)...)
	}
	if !hasAuth {
		c.b = guardPath(c.b, pathAt)
	}
	c.path(pathAt)
	if !hasQuery {
		mQuery = 0
	}
	c.queryFragment(query, hasQuery, mQuery, r)
}

// guardPath writes a path that starts with "//", in a URI without an
// authority, as "/.//": read again, "//" would start an authority and the
// path's first segment would become a host ("foo:/a/..//evil.com" must
// not turn into "foo://evil.com"). The "/." is a dot segment, so the path
// is the same one (RFC 3986 §3.3 forbids the "//" form; the WHATWG URL
// Standard writes the same prefix). dst holds the path from pathAt on.
// Every place that makes such a path calls it: both resolvers and the
// dot-segment steps (the writers through writer.guard).
func guardPath(dst []byte, pathAt int) []byte {
	if len(dst)-pathAt < 2 || dst[pathAt] != '/' || dst[pathAt+1] != '/' {
		return dst
	}
	dst = append(dst, "/."...) // room for the prefix
	copy(dst[pathAt+2:], dst[pathAt:len(dst)-2])
	dst[pathAt], dst[pathAt+1] = '/', '.'
	return dst
}

// resolve1808 makes ref absolute against base with the algorithm of
// RFC 1808 §4, which the PDF Reference's "URL Strings" cites (step 1),
// and returns it with its parts.
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
func resolve1808(b, r *parts) (string, parts, *failure) {
	// Step 2a: an empty reference is the base URL, fragment included.
	if r.s == "" {
		return b.s, *b, nil
	}
	// Step 2b: a reference with a scheme is absolute.
	if r.schemeEnd >= 0 {
		return r.s, *r, nil
	}
	bs, rs := b.s, r.s
	c := composer{b: make([]byte, 0, len(bs)+len(rs)+4)}
	c.scheme(b) // step 2c: the base's scheme
	// Step 3: a non-empty net_loc makes the reference absolute.
	if r.hasAuth && r.authStart < r.authEnd {
		c.authority(r)
		pathAt := len(c.b)
		c.b = append(c.b, rs[r.pathStart:r.pathEnd]...)
		c.path(pathAt)
		c.queryFragment(rs[r.queryStart:r.queryEnd], r.hasQuery, r.mQuery, r)
		s, t := c.done()
		return s, t, nil
	}
	if r.hasAuth && b.kind.needsHost() {
		return "", parts{}, fail(ComponentHost, r.authStart, ErrInvalidHost, "empty host in a reference against a base that needs one")
	}
	hasAuth := b.hasAuth
	if hasAuth {
		c.authority(b)
	}
	rpath, rparams, hasRParams := splitParams(rs[r.pathStart:r.pathEnd])
	rquery, hasRQuery, mQuery := rs[r.queryStart:r.queryEnd], r.hasQuery, r.mQuery
	pathAt := len(c.b)
	switch {
	case strings.HasPrefix(rpath, "/"):
		// Step 4: the path is not relative.
		c.b = append(c.b, rpath...)
	case rpath == "":
		// Step 5: inherit the base path, then its params and query
		// unless the reference has non-empty ones.
		bpath, bparams, hasBParams := splitParams(bs[b.pathStart:b.pathEnd])
		c.b = append(c.b, bpath...)
		if rparams == "" {
			rparams, hasRParams = bparams, hasBParams
			if rquery == "" {
				rquery, hasRQuery, mQuery = bs[b.queryStart:b.queryEnd], b.hasQuery, b.mQuery
			}
		}
	default:
		// Step 6: replace the last segment of the base path and apply
		// the dot rules a-d.
		bpath, _, _ := splitParams(bs[b.pathStart:b.pathEnd])
		if k := strings.LastIndexByte(bpath, '/'); k >= 0 {
			c.b = append(c.b, bpath[:k+1]...)
		} else if hasAuth {
			c.b = append(c.b, '/')
		}
		c.b = append(c.b, rpath...)
		c.b = append(c.b[:pathAt], removeDotSegments1808(c.b[pathAt:])...)
	}
	if !hasAuth {
		// Dot removal (step 6) or an empty net_loc ("////" against a
		// base without one: step 4) can leave a path that starts with
		// "//".
		c.b = guardPath(c.b, pathAt)
	}
	// Step 7: recombine.
	if hasRParams {
		c.b = append(c.b, ';')
		c.b = append(c.b, rparams...)
	}
	if hasAuth && len(c.b) > pathAt && c.b[pathAt] != '/' {
		// A path after a net_loc is "/" rel_path (RFC 1808 §2.2): the
		// base's empty path with the reference's params (";x" against
		// "http://a") is "/;x", not text that reads back as the host
		// "a;x".
		c.b = append(c.b, 0)
		copy(c.b[pathAt+1:], c.b[pathAt:])
		c.b[pathAt] = '/'
	}
	c.path(pathAt)
	if !hasRQuery {
		mQuery = 0
	}
	c.queryFragment(rquery, hasRQuery, mQuery, r)
	s, t := c.done()
	return s, t, nil
}

// splitParams splits an RFC 1808 path at its first ";".
func splitParams(path string) (p, params string, hasParams bool) {
	if i := strings.IndexByte(path, ';'); i >= 0 {
		return path[:i], path[i+1:], true
	}
	return path, "", false
}

// normalizeRefWHATWG reads ref against base as the WHATWG URL Standard's
// basic URL parser does, and writes it as the plan says (which has
// ParseWHATWG). The base is read first, alone, into a value: its key with
// its components' offsets. A reference with a scheme is read alone unless
// it is relative after all (a special scheme equal to the base's:
// "http:foo" against an http base). Otherwise the reference's form -
// empty, query, fragment, absolute-path or path - takes the parts of the
// base's value that the standard's relative states take, as they are,
// and the reference is read once, into the same value: its path goes on
// from the base's segments ("shorten", then the path state), its query
// and fragment after it. A network-path reference ("//h", "\\h") reads
// as the absolute URL of the base's scheme and the reference (the
// standard's relative slash state goes on in the authority states that
// an absolute URL takes), once.
func normalizeRefWHATWG(base, ref string, pl *plan, pe *pageEncoding) (string, error) {
	if pl.surtRead {
		return normalizeRefSURT(base, ref, pl, pe)
	}
	key, _, err := normalizeRefStandard(base, ref, pl, pe)
	return key, err
}

// normalizeRefSURT is normalizeRefWHATWG under pl, a plan with
// ReadAsSURT (see plan.surtRef).
func normalizeRefSURT(base, ref string, pl *plan, pe *pageEncoding) (string, error) {
	key, hostless, err := normalizeRefStandard(base, ref, pl.surtRef, pe)
	if err != nil || !hostless {
		return key, err
	}
	return refSURTHostless("NormalizeRef", base, ref, pl, pe)
}

// normalizeRefStandard is normalizeRefWHATWG under pl, a plan without
// ReadAsSURT; it also reports whether the key has no host and a path of
// segments (url.hostlessPath).
func normalizeRefStandard(base, ref string, pl *plan, pe *pageEncoding) (key string, hostless bool, err error) {
	const op = "NormalizeRef"
	// (The values are made in this frame: see keyValue.)
	bu := keyValue(base, nil)
	bu.enc = pe
	pl, err = whatwgBase(&bu, op, pl)
	if err != nil {
		return "", false, err
	}
	u := keyValue(ref, nil)
	u.enc = pe
	var h handover
	if len(ref) <= MaxLength && u.scan(ref, pl, &h) == scanDone {
		// (refWHATWG's first case, here: most links are absolute, and
		// a call less is a few per cent of their time.)
		if pl.blob == nil || !u.isBlob() {
			u.check()
			if f := finishKey(&u, ref, pl); f != nil {
				return "", false, toArgError(op, "ref", ref, 0, f)
			}
			return u.result(), u.hostlessPath(), nil
		}
		u = keyValue(ref, nil) // (the blob plan's, in refWHATWG)
		u.enc = pe
		if err := refWHATWG(&u, op, &bu, pl, nil, false); err != nil {
			return "", false, err
		}
		return u.result(), u.hostlessPath(), nil
	}
	if err := refWHATWG(&u, op, &bu, pl, nil, true); err != nil {
		return "", false, err
	}
	return u.result(), u.hostlessPath(), nil
}

// whatwgBase makes bu, a value keyValue made of the base (with its page
// encoding), the value references are resolved against under the WHATWG
// plan pl: keyed by pl.refBase, or, for a blob: base under a plan with a
// blob plan, by the blob plan's (the targets of its relative references
// are blob: URLs, which the blob plan keys: see plan.blob and
// plan.relative). It returns pl. The value's writer is frozen over the
// base's key, a string nothing writes to again: resolutions copy what
// they take of it, so the value serves any number of them, at once too
// (Base).
func whatwgBase(bu *url, op string, pl *plan) (*plan, error) {
	base := bu.w.src
	if shift, f := keyInto(bu, pl.refBase); f != nil {
		return nil, toArgError(op, "base", base, shift, f)
	}
	if pl.blob != nil && bu.isBlob() {
		pe := bu.enc
		*bu = keyValue(base, nil)
		bu.enc = pe
		if _, err := whatwgBase(bu, op, pl.blob); err != nil {
			return nil, err
		}
		return pl, nil
	}
	key := bu.result()
	bu.w = writer{src: key, to: len(key)}
	return pl, nil
}

// relative returns the plan that keys the target of a relative
// reference against the base bu under pl: pl.blob for a blob: base
// (the target is a blob: URL) when pl has one, pl otherwise. A
// reference with a scheme or an authority of its own is keyed by pl,
// whose keyInto keys a blob: URL by the blob plan itself.
func (pl *plan) relative(bu *url) *plan {
	if pl.blob != nil && bu.isBlob() {
		return pl.blob
	}
	return pl
}

// keyRef writes into *u the key of s by pl, read from a page in pe, with
// dst as the writer's buffer (see keyValue), as NormalizeRef makes the
// key of a reference that is absolute; op and arg are for its errors.
func keyRef(u *url, op, arg, s string, pl *plan, pe *pageEncoding, dst []byte) error {
	*u = keyValue(s, dst)
	u.enc = pe
	if shift, f := keyInto(u, pl); f != nil {
		return toArgError(op, arg, s, shift, f)
	}
	return nil
}

// plainRef reports whether ref is a reference that trim, the UTF-8 check
// and the removal of tabs and newlines leave as it is: printable ASCII at
// both ends, and no byte above 0x7F, tab, LF or CR in it (most links).
func plainRef(ref string) bool {
	if len(ref) == 0 || len(ref) > MaxLength || ref[0] <= ' ' || ref[len(ref)-1] <= ' ' {
		return false
	}
	for i := 0; i < len(ref); i++ {
		if notPlain[ref[i]] {
			return false
		}
	}
	return true
}

// notPlain holds the bytes a plain reference has not (see plainRef).
var notPlain = func() (t [256]bool) {
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = true
	}
	t['\t'], t['\n'], t['\r'] = true, true, true
	return t
}()

// refWHATWG writes into u, a value keyValue made of the reference (with
// its page encoding, and dst as its buffer: nil for a buffer of its
// own), the key of the reference against the base bu (see whatwgBase)
// under pl; where the key is not a string that exists already, it is
// written after dst. scanned says that the caller ran the quick scan on
// u and it did not finish (u is then only the reference's source).
func refWHATWG(u *url, op string, bu *url, pl *plan, dst []byte, scanned bool) error {
	ref, pe := u.w.src, u.enc
	// Most links are relative references that the writers would copy as
	// they are (leanInto); one that starts with a letter may be an
	// absolute URL, which the quick scan reads first.
	letter := ref != "" && ref[0] >= 'A'
	if !letter {
		if rp := pl.relative(bu); leanInto(u, bu, ref, rp, dst) {
			return finishRef(u, op, rp)
		}
	}
	if len(ref) > 1 && ref[0] == '/' && ref[1] == '/' && !bu.opaque {
		// A network-path reference (below), read with the base's scheme
		// as it is: what trimming and the removal of tabs and newlines
		// would change in the reference they change in that URL alike.
		// An error is the one below, which names the reference.
		bkey := bu.str()
		if keyRef(u, op, "resolved", bkey[:bu.schemeEnd+1]+ref, pl, pe, dst) == nil {
			return nil
		}
		*u = keyValue(ref, dst)
		u.enc = pe
	}
	// A reference that starts with a scheme and "//" is read as an
	// absolute URL, whatever the base ("special authority slashes state",
	// "authority state"): when the quick scan keys it whole, that is its
	// key.
	var h handover
	if !scanned && len(ref) <= MaxLength && u.scan(ref, pl, &h) == scanDone {
		u.check()
		if pl.blob != nil && u.isBlob() {
			return keyRef(u, op, "ref", ref, pl.blob, pe, dst) // (see plan.blob)
		}
		if f := finishKey(u, ref, pl); f != nil {
			return toArgError(op, "ref", ref, 0, f)
		}
		return nil
	}
	if letter {
		if rp := pl.relative(bu); leanInto(u, bu, ref, rp, dst) {
			return finishRef(u, op, rp)
		}
	}
	// A plain reference (plainRef) needs no trimming nor rewriting.
	r, shift, n := ref, 0, -1
	if plainRef(ref) {
		n = whatwgSchemeLength(ref)
	} else {
		in, sh, f := trim(ref)
		if f == nil {
			if k := invalidUTF8At(in); k >= 0 {
				f = fail(ComponentURL, k, ErrInvalidChar, "invalid UTF-8")
			}
		}
		if f != nil {
			return toArgError(op, "ref", ref, sh, f)
		}
		r, shift = preprocessWHATWG(in), sh
		if r != in {
			shift = -1 // offsets into the rewritten reference are unknown
		}
		n = whatwgSchemeLength(r)
	}
	bkey := bu.str()
	rest := r
	if n >= 0 {
		if !bu.kind.special() || !strings.EqualFold(r[:n], bkey[:bu.schemeEnd]) {
			// An absolute URL: the base plays no part.
			if err := keyRef(u, op, "ref", ref, pl.absRef, pe, dst); err != nil {
				return err
			}
			return readsBack(op, u.str(), pl)
		}
		rest = r[n+1:] // "http:foo" against an http base is relative
	}
	if bu.opaque && !strings.HasPrefix(rest, "#") {
		// "no scheme state": only a fragment may follow a base with an
		// opaque path.
		f := fail(ComponentURL, 0, ErrRelative, "relative reference against a base with an opaque path")
		if shift < 0 {
			f.off = -1
		}
		return toArgError(op, "ref", ref, max(shift, 0), f)
	}
	if bu.special() && len(rest) > 1 && isSlash(rest[0]) && isSlash(rest[1]) || !bu.special() && strings.HasPrefix(rest, "//") {
		// A network-path reference: the base's scheme and the reference.
		// When the reference has that scheme itself ("HTTP://h/" against
		// an http base), that is the reference, read alone (its scheme
		// differs in case at most, which the key does not keep).
		if len(rest) < len(r) {
			if err := keyRef(u, op, "resolved", r, pl, pe, dst); err == nil {
				return nil
			}
		}
		return keyRef(u, op, "resolved", bkey[:bu.schemeEnd+1]+rest, pl, pe, dst)
	}
	rp := pl.relative(bu)
	if f := resolveWHATWGInto(u, bu, rest, rp, dst); f != nil {
		if shift < 0 {
			f.off = -1
		}
		return toArgError(op, "ref", ref, max(shift, 0), f)
	}
	return finishRef(u, op, rp)
}

// finishRef ends refWHATWG for a relative reference, u holding the URL
// it resolved to: the key passes and the checks of finishKey, and
// readsBack.
func finishRef(u *url, op string, pl *plan) error {
	if f := finishKey(u, "", pl); f != nil {
		return toArgError(op, "resolved", u.result(), 0, f)
	}
	if !pl.defaultScheme {
		return nil // (readsBack: nothing to read)
	}
	return readsBack(op, u.str(), pl)
}

// readsBack returns an error when key, the target of NormalizeRef under
// the WHATWG plan pl, is one that pl's DefaultScheme would read again as
// host and port: the base "a:0/x" (scheme a, opaque path "0/x") and the
// reference "#f" give "a:0/x", and the reference "localhost:80/x" is the
// scheme localhost as the standard reads a reference; Normalize reads
// both as http URLs. As in checkResolvedPOWDER, resolution made the
// scheme and the path, and a host read out of them is one neither input
// named.
func readsBack(op, key string, pl *plan) error {
	if f := readsAsHostPort(key, pl); f != nil {
		return toArgError(op, "resolved", key, 0, f)
	}
	return nil
}

// whatwgSchemeLength returns the length of the scheme of s as the
// standard's scheme state reads it (see schemeEnd), or -1.
func whatwgSchemeLength(s string) int {
	n, _ := schemeEnd(s, syntaxWHATWG, false)
	return n
}

// refPrefix returns what the relative reference rest (no network-path
// one) keeps of the base bu, a key of ParseWHATWG, as the standard's
// "no scheme", "relative", "relative slash", "file" and "file slash"
// states do: a prefix of its key, through prefixEnd (the end of its path
// at most), for the reference's path to go on from; skip, the bytes
// after the path's start that the prefix leaves out (the "/." of
// guardPath); and whether the reference has no path, so that the
// base's, whole, is the target's (pathFromBase).
func refPrefix(bu *url, rest string) (prefixEnd, skip int, pathFromBase bool) {
	file := bu.kind == schemeFile
	switch {
	case rest == "" || rest[0] == '#':
		return bu.queryEnd, 0, true // the base without its fragment
	case rest[0] == '?':
		return bu.pathEnd, 0, true
	case isSlash(rest[0]) && bu.special() || rest[0] == '/':
		// An absolute-path reference: the base's scheme and authority. A
		// file URL keeps the base's drive letter unless the reference
		// names its own ("file slash state").
		if file && !startsWithDriveLetter(rest[1:]) && bu.driveLetter() {
			return bu.pathStart + 3, 0, false
		}
		return bu.pathStart, 0, false
	case file && startsWithDriveLetter(rest):
		// "file state": a drive letter replaces the base's path.
		return bu.pathStart, 0, false
	}
	// A path reference: the base's path without its last segment
	// ("shorten"), then the reference. A path without an authority that
	// starts with an empty segment is written "/.//" (see guardPath): its
	// segments start after the "/.".
	path := bu.str()[bu.pathStart:bu.pathEnd]
	if !bu.hasAuth && strings.HasPrefix(path, "/.//") {
		skip = 2
	}
	k := strings.LastIndexByte(path, '/')
	if file && len(path) == 3 && bu.driveLetter() {
		k = 3 // a lone drive letter is never shortened
	}
	return bu.pathStart + max(k, skip), skip, false
}

// resolveWHATWGInto writes into u the URL that the relative reference
// rest (no network-path one) means against the base bu, a key of
// ParseWHATWG, as the standard's "no scheme", "relative", "relative
// slash", "file" and "file slash" states do, by the plan pl.
func resolveWHATWGInto(u *url, bu *url, rest string, pl *plan, dst []byte) *failure {
	bkey := bu.str()
	prefixEnd, skip, pathFromBase := refPrefix(bu, rest)
	if rest == "" {
		// The base without its fragment: a prefix of its key, which the
		// writer copies after dst when a key pass edits it (bu's writer
		// is frozen: see whatwgBase).
		*u = *bu
		u.w.buf, u.w.base = dst, len(dst)
		u.w.truncate(prefixEnd)
		u.hasFrag = false
		u.fragStart = u.queryEnd
		u.check()
		return nil
	}

	// The value starts as the prefix of the base's key, copied, and the
	// reference is written after it: its path going on from the base's
	// segments, or, when it has none, its query or fragment after the
	// base's.
	// (The engine holds the value, which it takes from the base: one
	// copy of it.)
	e := engine{u: *bu, s: rest, pl: pl, kind: bu.kind,
		pr: parts{s: rest, schemeEnd: -1, hasAuth: bu.hasAuth, kind: bu.kind, special: bu.special()}}
	w := &e.u.w
	*w = writer{src: rest, dirty: true, slack: 32, buf: dst, base: len(dst)}
	if dst == nil {
		w.buf = make([]byte, 0, prefixEnd+len(rest)+32)
	}
	w.buf = append(w.buf, bkey[:bu.pathStart]...)
	w.buf = append(w.buf, bkey[bu.pathStart+skip:prefixEnd]...)
	e.pr.readTail(0, syntaxWHATWG, false) // (a leading separator is the path state's to skip)
	rewritten := false
	if e.u.enc != nil && e.pr.hasQuery && queryInPageEncoding(bu.kind) {
		// The query in the page's encoding (see engine.normalize).
		if q, ok := encodeQueryText(rest, e.pr.queryStart, e.pr.queryEnd, e.u.enc); ok {
			e.s, e.u.w.src, rewritten = q, q, true
			e.pr = parts{s: q, schemeEnd: -1, hasAuth: bu.hasAuth, kind: bu.kind, special: bu.special()}
			e.pr.readTail(0, syntaxWHATWG, false)
		}
	}
	var f *failure
	switch {
	case !pathFromBase:
		if f = e.writePath(bu.pathStart); f == nil {
			if f = e.writeQuery(); f == nil {
				f = e.writeFragment()
			}
		}
	case rest[0] == '?':
		if f = e.writeQuery(); f == nil {
			f = e.writeFragment()
		}
	default: // "#": the base's query stays
		f = e.writeFragment()
	}
	*u = e.u
	if f == nil {
		u.check()
	} else if rewritten {
		f.off = -1 // (an offset into the rewritten reference)
	}
	return f
}

// leanSplit is where leanRef splits a relative reference.
type leanSplit struct {
	lead              int // the length of the "./" and "../" segments it starts with
	pathEnd, queryEnd int // its first "?" and "#" (or its length)
}

// leanBase reports whether references are resolved against bu, a value
// of whatwgBase, by resolveLean when leanRef takes them: bu is a
// special URL with an authority that is no file URL (whose states
// treat drive letters apart).
func leanBase(bu *url) bool {
	return bu.hasAuth && bu.special() && bu.kind != schemeFile
}

// leanInto writes into u the target of ref against bu by resolveLean,
// and reports whether it did: when bu is a base leanBase takes, and ref
// a relative reference leanRef takes, no network-path one ("//h") and
// without a scheme ("a:b": no ":" before the path ends, in a reference
// that starts with a letter). No scheme to read and nothing to trim:
// the base's key and the reference after it.
func leanInto(u *url, bu *url, ref string, pl *plan, dst []byte) bool {
	if ref == "" || len(ref) > MaxLength || !leanBase(bu) || len(ref) > 1 && ref[0] == '/' && ref[1] == '/' {
		return false
	}
	lr, ok := leanRef(ref)
	if !ok || ref[0] >= 'A' && strings.IndexByte(ref[:lr.pathEnd], ':') >= 0 {
		return false
	}
	resolveLean(u, bu, ref, lr, pl, dst)
	return true
}

// leanRef splits ref, a reference that is not empty, and reports whether
// it is relative and the WHATWG writers would copy it as it is after the
// "./" and "../" segments it starts with: printable ASCII that no
// percent-encode set of its component holds, no "%" (the plan's triplet
// rules), no "\" (a slash), no second "?" or "#", and no other "." or
// ".." segment in its path; what follows its leading dot segments does
// not start with "/", "?" or "#". It does not read the scheme: a
// reference leanRef takes and that has a ":" before its first "/" may
// have one. Most links of a page are such references; resolveLean writes
// them.
func leanRef(ref string) (lr leanSplit, ok bool) {
	i, n := 0, len(ref)
	if ref[0] == '.' {
		for {
			if strings.HasPrefix(ref[i:], "./") {
				i += 2
			} else if strings.HasPrefix(ref[i:], "../") {
				i += 3
			} else {
				break
			}
		}
		if i > 0 && i < n && (ref[i] == '/' || ref[i] == '?' || ref[i] == '#') {
			return lr, false // (an empty segment, or no path: the engine's)
		}
		lr.lead = i
	}
	// The path: runs of leanPath bytes; a "." that starts a segment may
	// make a dot segment.
	for {
		for i < n && leanPath[ref[i]] {
			i++
		}
		if i == n || ref[i] != '.' {
			break
		}
		if i == lr.lead || ref[i-1] == '/' {
			k := i + 1
			if k < n && ref[k] == '.' {
				k++
			}
			if k == n || ref[k] == '/' || ref[k] == '?' || ref[k] == '#' {
				return lr, false // a "." or ".." segment
			}
		}
		i++
	}
	lr.pathEnd = i
	if i < n && ref[i] == '?' {
		for i++; i < n && leanTail[ref[i]]; i++ {
		}
	}
	lr.queryEnd = i
	if i < n && ref[i] == '#' {
		for i++; i < n && leanTail[ref[i]]; i++ {
		}
	}
	return lr, i == n
}

// leanTail holds the bytes that the WHATWG writers copy as they are in
// the path, the query and the fragment of a special URL: printable ASCII
// but "%", "\" and the bytes of the path, special-query and fragment
// percent-encode sets ("?" and "#" among them: leanRef's delimiters).
// leanPath is leanTail without ".", which leanRef reads apart in a path.
var leanTail, leanPath = func() (tail, path [256]bool) {
	for c := 0x21; c < 0x7F; c++ {
		tail[c] = encodeSet[c]&(setPath|setSpecialQuery|setFragment) == 0 && c != '%' && c != '\\'
		path[c] = tail[c] && c != '.'
	}
	return tail, path
}()

// resolveLean writes into u the target of ref, a relative reference
// leanRef splits as lr, against bu (leanBase): the base's key through
// what refPrefix keeps of it, shortened once for each leading "../",
// then the reference after its leading dot segments as it is (a path
// reference after a "/": the base's last segment was cut), its fragment
// left out where the plan drops it; the offsets are the base's up to
// where the reference starts. What the engine would write is exactly
// that: whatwgPath writes each segment, after a "/", as it is, and the
// query and the fragment are copied.
func resolveLean(u *url, bu *url, ref string, lr leanSplit, pl *plan, dst []byte) {
	prefixEnd, _, pathFromBase := refPrefix(bu, ref)
	bkey := bu.str()
	for k := 0; k < lr.lead; k += 2 {
		if ref[k+1] == '.' { // "../": "shorten"
			prefixEnd = bu.pathStart + max(strings.LastIndexByte(bkey[bu.pathStart:prefixEnd], '/'), 0)
			k++
		}
	}
	rest := ref[lr.lead:]
	pathEnd, queryEnd := lr.pathEnd-lr.lead, lr.queryEnd-lr.lead
	*u = *bu
	buf := dst
	if buf == nil {
		// The key's length exactly, and room for the key passes' edits.
		n := prefixEnd + 1 + len(rest)
		if pl.keys != 0 {
			n += 32
		}
		buf = make([]byte, 0, n)
	}
	base := len(buf)
	buf = append(buf, bkey[:prefixEnd]...)
	if !pathFromBase {
		if rest == "" || rest[0] != '/' {
			buf = append(buf, '/')
		}
		buf = append(buf, rest[:pathEnd]...)
		u.pathEnd = len(buf) - base
		u.hasQuery, u.queryStart, u.queryEnd = false, u.pathEnd, u.pathEnd
	}
	if pathEnd < queryEnd { // "?" and the query (a special URL keeps an empty one)
		buf = append(buf, rest[pathEnd:queryEnd]...)
		u.hasQuery, u.queryStart, u.queryEnd = true, u.pathEnd+1, len(buf)-base
	}
	u.hasFrag, u.fragStart = false, u.queryEnd
	if queryEnd < len(rest) && !pl.dropFragment {
		buf = append(buf, rest[queryEnd:]...)
		u.hasFrag, u.fragStart = true, u.queryEnd+1
	}
	u.opaque = false
	u.w = writer{src: ref, buf: buf, base: base, dirty: true, slack: 32}
	u.check()
}

// startsWithDriveLetter is the standard's "starts with a Windows drive
// letter": a drive letter, then the end or one of "/", "\", "?" and "#".
func startsWithDriveLetter(s string) bool {
	return len(s) >= 2 && isWindowsDriveLetter(s[:2]) &&
		(len(s) == 2 || s[2] == '/' || s[2] == '\\' || s[2] == '?' || s[2] == '#')
}

// escapeTrailingTrimmed returns the resolved text abs with the spaces
// and controls at its end percent-encoded. An input is trimmed of them
// before it is read (see trim), but at the end of a resolved URI they are
// part of its path: the base "http://h/a #f" and the reference "" give
// "http://h/a ", which read as an input would lose its space and be
// "http://h/a", another URI ("A:0 " would even read as host and port).
// Every profile that reads the resolved text writes a space as "%20", so
// the escape is what the key holds anyway. (url.encodeFinalSpaces is the
// same rule for a key being written; this text is read again instead.)
func escapeTrailingTrimmed(abs string) string {
	j := len(abs)
	for j > 0 && abs[j-1] <= ' ' {
		j--
	}
	if j == len(abs) {
		return abs
	}
	b := make([]byte, j, j+3*(len(abs)-j))
	copy(b, abs)
	for _, c := range []byte(abs[j:]) {
		b = append(b, '%', upperHex[c>>4], upperHex[c&15])
	}
	return string(b)
}

// normalizeRefSafeBrowsing is NormalizeRef under SafeBrowsing: ref is
// resolved against base as a browser resolves a link (the WHATWG URL
// Standard), and the URL it makes is canonicalized as Safe Browsing's
// document says, which works on a URL's text.
func normalizeRefSafeBrowsing(base, ref string) (string, error) {
	abs, err := normalizeRefWHATWG(base, ref, whatwgResolvePlan, nil)
	if err != nil {
		return "", err
	}
	return keyString("NormalizeRef", "resolved", abs, safeBrowsingPlan, nil)
}

// refSURTHostless is NormalizeRef under pl, a plan with ReadAsSURT, of a
// reference whose key by pl.surtRef has no host (see plan.surtRef): the
// key by pl of the URL the reference resolves to as the URL Standard
// resolves it. As in finishRef, a URL that DefaultScheme would read again
// as a host and port is an error. It reads the base again: such targets
// are rare (the links of a file: page), and a Base keeps no value of the
// base by the standard alone for them.
func refSURTHostless(op, base, ref string, pl *plan, pe *pageEncoding) (string, error) {
	abs, err := normalizeRefWHATWG(base, ref, whatwgResolvePlan, pe)
	if err != nil {
		return "", err
	}
	if pl.defaultScheme {
		if err := readsBack(op, abs, pl); err != nil {
			return "", err
		}
	}
	return keyString(op, "resolved", abs, pl, nil)
}

// refSafeBrowsing is normalizeRefSafeBrowsing against the base bu, a
// value of whatwgBase under whatwgResolvePlan.
func refSafeBrowsing(op string, bu *url, ref string) (string, error) {
	u := keyValue(ref, nil)
	if err := refWHATWG(&u, op, bu, whatwgResolvePlan, nil, false); err != nil {
		return "", err
	}
	return keyString(op, "resolved", u.result(), safeBrowsingPlan, nil)
}
