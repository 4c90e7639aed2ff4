package canon

import (
	"strings"
	"unicode/utf8"
)

// The pipeline driver: the order of the stages of one call. keyInto runs
// the quick scan (scan.go) or the general path (trim, the rewrites before
// parsing, parts.parse, engine.run), or Safe Browsing's reader in their
// place, then the key passes (keys.go). The engine's writers that run
// writes a component with are in engine.go, host.go and whatwg.go; the
// API (canon.go) and NormalizeRef's resolution (resolve.go) call down
// into this file, and nothing here calls up.

// keyValue returns the value keyInto writes the key of rawURL into, with
// dst's spare capacity as the writer's buffer (nil: the writer allocates
// at the first change). The caller holds it in a local variable: set
// there, the pointer to the input costs no write barrier, which a store
// through keyInto's pointer does while the collector runs (it was a few
// per cent of a changed URL's time).
func keyValue(rawURL string, dst []byte) url {
	return url{w: writer{src: rawURL, buf: dst, base: len(dst), slack: 1}}
}

// keyInto writes the key of the input u was made for (see keyValue) by pl
// into u: the quick scan on the input as given when it can, the general
// path (trimmed, rewritten, parsed, written) otherwise, then the key
// passes. It returns where the trimmed input starts in the input, for the
// offsets of a failure.
func keyInto(u *url, pl *plan) (int, *failure) {
	rawURL := u.w.src
	if pl.safeBrowsing {
		shift, f := safeBrowsingInto(u, rawURL) // its own reader (safebrowsing.go)
		if f == nil {
			u.check()
			f = finishKey(u, rawURL, pl) // (no key steps: the host's length)
		}
		return shift, f
	}
	// The quick scan (scan.go) over rawURL as given: on nearly every URL
	// it is all the work. It stops at the start when one of the rewrites
	// that come before parsing applies (trimming, the WHATWG URL
	// Standard's removal of tabs and newlines, DecodeAll, PlusToSpace,
	// DefaultScheme).
	var h handover
	r := scanNone
	if len(rawURL) <= MaxLength {
		r = u.scan(rawURL, pl, &h)
	}
	if r == scanDone {
		u.check()
		if pl.blob != nil && u.isBlob() {
			return keyBlobInto(u, pl.blob)
		}
		if pl.keys != 0 {
			runKeyPasses(u, pl)
			u.check()
		}
		if u.hostEnd-u.hostStart > MaxHostLength { // (finishKey, inline on the path of most URLs)
			return 0, keyHostFits(u, rawURL, pl) // (the scan reads only untrimmed input)
		}
		if pl.defaultScheme && !u.hasAuth {
			return 0, keyReadsAsHostPort(u)
		}
		return 0, nil
	}
	return keyIntoGeneral(u, rawURL, pl, r, &h)
}

// keyIntoGeneral is keyInto where the quick scan stopped (r): after the
// authority, the general writers go on from the path when nothing after
// it would be rewritten; otherwise the general path starts over.
func keyIntoGeneral(u *url, rawURL string, pl *plan, r scanResult, h *handover) (int, *failure) {
	var f *failure
	ok := false
	if r == scanFromPath {
		f, ok = fromPath(u, rawURL, pl, h)
	}
	shift := 0
	if !ok {
		var in string
		if in, shift, f = trim(rawURL); f != nil {
			return 0, f
		}
		e := engine{u: *u, pl: pl}
		f = e.normalize(in)
		*u = e.u
	}
	if f != nil {
		return shift, f
	}
	u.check()
	if pl.blob != nil && u.isBlob() {
		return keyBlobInto(u, pl.blob)
	}
	return shift, finishKey(u, rawURL, pl)
}

// finishKey runs pl's key passes on u, the key pl.base wrote of the input
// src, then checks the key's host (keyHostFits): every writer of a key
// ends here.
func finishKey(u *url, src string, pl *plan) *failure {
	if pl.keys != 0 {
		runKeyPasses(u, pl)
		u.check()
	}
	if u.hostEnd-u.hostStart > MaxHostLength {
		return keyHostFits(u, src, pl)
	}
	if pl.defaultScheme && !u.hasAuth {
		return keyReadsAsHostPort(u)
	}
	return nil
}

// keyReadsAsHostPort refuses the key of a profile with DefaultScheme that
// has no authority and that DefaultScheme would read as host and port:
// "A:%30" (scheme A, path "%30") decoded by DecodeUnreserved is "A:0",
// which reads as http://A:0. Such a key is no fixed point; the input is
// refused, as NormalizeRef refuses a resolved URI that reads so
// (readsAsHostPort).
func keyReadsAsHostPort(u *url) *failure {
	if schemeLength(u.str()) < 0 {
		return fail(ComponentScheme, 0, ErrInvalidScheme, "key reads as host and port")
	}
	return nil
}

// keyHostFits returns ErrTooLong when the key's host is longer than
// MaxHostLength as the profile measures it when the key is read again: as
// written (RFC 3986), with each triplet one byte (the WHATWG URL
// Standard's parser, parse.go; DecodeAll, which decodes the input once),
// or decoded until no escape is left (Safe Browsing). The input's host passed that rule, but the key
// may write it longer: A-labels are longer than the Unicode labels they
// spell ("éé" and 1020 "z" is 1,024 bytes, 1,031 as "xn--…"), and an
// opaque host's non-ASCII is written as triplets. Such a key would be
// refused when read again, so the input is refused: every key is a fixed
// point, in every profile. src is the input, for the failure's offset
// ("": none).
func keyHostFits(u *url, src string, pl *plan) *failure {
	host := u.str()[u.hostStart:u.hostEnd]
	n := len(host)
	switch {
	case pl.safeBrowsing: // it decodes the whole URL until no escape is left
		n = len(decodeRepeatedlyInPlace([]byte(host)))
	case pl.whatwg || pl.decodeAll: // each triplet one byte (DecodeAll: decoded once)
		n = decodedLength(host)
	}
	if n <= MaxHostLength {
		return nil
	}
	// The offset of the input's host, where the input is read as written
	// (no tabs or newlines for the WHATWG URL Standard to remove, a
	// scheme of its own): the error path only.
	in, _, _ := trim(src)
	off := -1
	if !strings.ContainsAny(in, "\t\n\r") {
		var p parts
		p.split(in, pl.syn)
		if p.hasAuth {
			off = p.hostStart
		}
	}
	return fail(ComponentHost, off, ErrTooLong, "host longer than MaxHostLength as the key writes it")
}

// keyBlobInto writes the key of a blob: URL into u again, from the input,
// by blob, the plan's blob plan (see plan.blob): the profile's steps
// would have merged two entries of a blob URL store. A blob: URL is rare,
// and checked for only in the plans that have a blob plan.
func keyBlobInto(u *url, blob *plan) (int, *failure) {
	enc := u.enc
	*u = keyValue(u.w.src, u.w.buf[:u.w.base])
	u.enc = enc
	return keyInto(u, blob)
}

// keyString returns the key of s by pl (see keyInto), read from a page
// in enc, as NormalizeRef and Equal make it, with op and arg for its
// errors.
func keyString(op, arg, s string, pl *plan, enc *pageEncoding) (string, error) {
	u := keyValue(s, nil)
	u.enc = enc
	if shift, f := keyInto(&u, pl); f != nil {
		return "", toArgError(op, arg, s, shift, f)
	}
	return u.result(), nil
}

// normalize runs the engine's plan over the trimmed input in, writing to
// e.u (whose writer's buffer the caller set). The input may be rewritten
// first (the WHATWG URL Standard's removal of tabs and newlines,
// DefaultScheme, DecodeAll, PlusToSpace); failures found after such a
// rewrite have offset -1. This is the general path: the quick scan
// (quick) has run first, or could not.
func (e *engine) normalize(in string) *failure {
	pl := e.pl
	s := in
	rewritten := false
	if pl.whatwg {
		if k := invalidUTF8At(in); k >= 0 {
			// The standard reads a string of code points; bytes that are
			// none are an error rather than U+FFFD, which would give two
			// different inputs one key. (Checked before the tabs go:
			// "\xeb\t\x8f\xb3" is no character.)
			return fail(ComponentURL, k, ErrInvalidChar, "invalid UTF-8")
		}
		s = preprocessWHATWG(in)
		rewritten = len(s) != len(in)
	}
	if pl.defaultScheme || pl.decodeAll || pl.plusToSpace {
		before := s
		var f *failure
		s, f = prepass(s, pl)
		if f != nil {
			if rewritten {
				f.off = -1
			}
			return f
		}
		rewritten = rewritten || len(s) != len(before) || s != before
	}
	e.s = s
	w := e.u.w
	w.reset(s, w.buf, w.base)
	w.slack = 32
	e.u = url{w: w, enc: e.u.enc}
	f := e.readAll()
	if f == nil && e.u.enc != nil && e.pr.hasQuery && queryInPageEncoding(e.pr.kind) {
		// The query in the page's encoding, written as the standard's
		// "percent-encode after encoding" writes it, replaces the
		// input's (before any writer runs: its bytes are ASCII, read as
		// any input's).
		if q, ok := encodeQueryText(e.s, e.pr.queryStart, e.pr.queryEnd, e.u.enc); ok {
			e.s = q
			e.u.w.reset(q, e.u.w.buf, e.u.w.base)
			rewritten = true
			f = e.readAll()
		}
	}
	if f == nil {
		f = e.run()
	}
	if f != nil && (rewritten || e.s != s) {
		f.off = -1
	}
	return f
}

// fromPath goes on from the path of rawURL where the quick scan handed
// over after the authority (h; see keyInto): the scheme and the authority
// are written into u, and the general writers write the rest, when
// nothing in it would be rewritten before parsing (tabs and newlines,
// bytes that are not UTF-8, anything DecodeAll's checks read). ok is
// false when the general path must start over.
func fromPath(u *url, rawURL string, pl *plan, h *handover) (f *failure, ok bool) {
	rest := rawURL[h.pathStart:]
	if rawURL[len(rawURL)-1] <= ' ' || pl.defaultScheme || pl.decodeAll || pl.plusToSpace || u.enc != nil && u.enc.changes(rest) ||
		(pl.whatwg || pl.esc == escapeIRI) && (strings.ContainsAny(rest, "\t\n\r") || !utf8.ValidString(rest)) {
		return nil, false
	}
	e := engine{u: *u, s: rawURL, pl: pl}
	h.parts(&e.pr, rawURL, pl)
	f = e.pr.readTail(h.pathStart, pl.syn, false)
	if f == nil {
		f = e.runTail()
	}
	*u = e.u
	return f, true
}

// readAll parses e.s into e.pr. An input with an octet that is not UTF-8
// is rewritten for EncodeToIRI first (see below).
func (e *engine) readAll() *failure {
	pr, pl := &e.pr, e.pl
	f := pr.parse(e.s, pl.syn)
	if f == nil && pl.esc == escapeIRI && (pr.mUser|pr.mHost|pr.mPath|pr.mQuery|pr.mFrag)&clsNonASCII != 0 && !utf8.ValidString(e.s) {
		// An octet that is not UTF-8 is mapped to its escape first (RFC
		// 3987 §3.1), so that it decodes together with the escapes next
		// to it exactly as it will when the key is read again:
		// "\xD3%80" is "%D3%80", which is U+04C0.
		e.s = escapeInvalidUTF8(e.s)
		e.u.w.src = e.s
		f = pr.parse(e.s, syntaxRFC3986)
	}
	return f
}

// run writes the key of the parsed input: the scheme and the authority,
// then the rest (runTail).
func (e *engine) run() *failure {
	pr, w, pl, u := &e.pr, &e.u.w, e.pl, &e.u
	if pr.schemeEnd < 0 {
		return fail(ComponentScheme, 0, ErrRelative, "missing scheme")
	}
	e.kind = pr.kind

	// Scheme (RFC 3986 §3.1, §6.2.2.1; the WHATWG URL Standard lowercases it).
	if pl.lowerScheme && pr.mScheme&clsUpper != 0 {
		e.lowerRun(0, pr.schemeEnd)
	} else {
		w.run(0, pr.schemeEnd)
	}
	u.schemeEnd = w.length()
	w.byte(':')

	// Authority (§3.2).
	u.hasAuth = pr.hasAuth
	if pr.hasAuth {
		w.str("//")
		u.authStart = w.length()
		switch {
		case pl.whatwg:
			if pr.hasUser {
				if pr.hostStart == pr.hostEnd {
					return fail(ComponentHost, pr.hostStart, ErrInvalidHost, "missing host after the userinfo")
				}
				e.whatwgCredentials()
			}
		case pr.hasUser:
			if f := e.component(pr.authStart, pr.userEnd, pr.mUser, ComponentUserinfo); f != nil {
				return f
			}
			w.byte('@')
		}
		if u.hostStart = w.length(); u.hostStart > u.authStart {
			u.hasUser, u.userEnd = true, u.hostStart-1
		}
		var f *failure
		if pl.whatwg {
			_, f = e.whatwgHost()
		} else {
			_, f = e.host()
		}
		if f != nil {
			return f
		}
		u.hostEnd = w.length()
		if f := e.port(); f != nil {
			return f
		}
	}
	return e.runTail()
}

// runTail writes the path, the query and the fragment, after the scheme
// and the authority (written by run or by the quick scan, whose offsets
// are in e.u), and sets their offsets.
func (e *engine) runTail() *failure {
	pr, w, u := &e.pr, &e.u.w, &e.u
	e.kind = pr.kind
	u.kind = pr.kind
	if u.hasAuth {
		u.authEnd = w.length()
		u.hasPort = u.authEnd > u.hostEnd
	} else {
		n := w.length()
		u.authStart, u.hostStart, u.hostEnd, u.authEnd = n, n, n, n
	}
	if e.kind.needsHost() && u.hostEnd == u.hostStart {
		return fail(ComponentHost, pr.authStart, ErrInvalidHost, "missing host")
	}
	if f := e.writePath(w.length()); f != nil {
		return f
	}
	if f := e.writeQuery(); f != nil {
		return f
	}
	return e.writeFragment()
}

// writePath writes the path (§3.3) at output offset pathAt, where the
// output may hold its first segments already (resolution: the base's
// path, its last segment cut), and sets its offsets.
func (e *engine) writePath(pathAt int) *failure {
	pr, w, pl, u := &e.pr, &e.u.w, e.pl, &e.u
	u.pathStart = pathAt
	if pl.whatwg {
		e.whatwgPath(pathAt)
	} else {
		if f := e.component(pr.pathStart, pr.pathEnd, pr.mPath, ComponentPath); f != nil {
			return f
		}
		e.dots(pathAt)
	}
	if w.length() == pathAt && pr.hasAuth && pl.addsRoot(e.kind) {
		w.byte('/')
	}
	u.pathEnd = w.length()
	u.opaque = !u.hasAuth && (u.pathEnd == u.pathStart || w.byteAt(u.pathStart) != '/')
	u.queryStart, u.queryEnd, u.fragStart = u.pathEnd, u.pathEnd, u.pathEnd
	return nil
}

// writeQuery writes the query (§3.4), if the input has one, and sets its
// offsets.
func (e *engine) writeQuery() *failure {
	pr, w, u := &e.pr, &e.u.w, &e.u
	u.hasQuery = pr.hasQuery
	u.queryStart, u.queryEnd = u.pathEnd, u.pathEnd
	if pr.hasQuery {
		w.byte('?')
		u.queryStart = w.length()
		if f := e.component(pr.queryStart, pr.queryEnd, pr.mQuery, ComponentQuery); f != nil {
			return f
		}
		u.queryEnd = w.length()
	}
	u.fragStart = u.queryEnd
	return nil
}

// writeFragment writes the fragment (§3.5), if the input has one and
// the plan keeps it, sets its offset, and ends the output.
func (e *engine) writeFragment() *failure {
	pr, w, pl, u := &e.pr, &e.u.w, e.pl, &e.u
	u.hasFrag = pr.hasFrag && !pl.dropFragment
	u.fragStart = u.queryEnd
	if u.hasFrag {
		w.byte('#')
		u.fragStart = w.length()
		if f := e.component(pr.fragStart, len(e.s), pr.mFrag, ComponentFragment); f != nil {
			return f
		}
	}
	if pl.esc <= escapeNorm { // only these modes write raw spaces
		u.encodeFinalSpaces()
	}
	return nil
}
