package canon

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// engine carries one run of a profile over one input: it reads the input
// in s by its parts and writes the key into u, the value the later
// stages (the key passes) take.
type engine struct {
	u    url // by value: through a pointer the value itself would move to the heap
	s    string
	pr   parts
	pl   *plan
	kind schemeKind
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
	e.u = url{w: w}
	f := e.readAll()
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
	if rawURL[len(rawURL)-1] <= ' ' || pl.defaultScheme || pl.decodeAll || pl.plusToSpace ||
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

// invalidUTF8At returns the offset of the first byte of s that is not
// part of a valid UTF-8 sequence, or -1.
func invalidUTF8At(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for k := 0; k < len(s); {
		r, size := utf8.DecodeRuneInString(s[k:])
		if r == utf8.RuneError && size == 1 {
			return k
		}
		k += size
	}
	return -1
}

// escapeInvalidUTF8 returns s with every octet that is not part of a
// valid UTF-8 sequence percent-encoded.
func escapeInvalidUTF8(s string) string {
	b := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = appendEscaped(b, s[i])
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return ownedString(b)
}

// lowerRun writes s[i:j] with ASCII letters lowercased. From the first
// uppercase letter on, the output differs from the input, so the rest is
// appended by the one lowercase loop (appendLower).
func (e *engine) lowerRun(i, j int) {
	s, w := e.s, &e.u.w
	k := i
	for k < j && byteClass[s[k]]&clsUpper == 0 {
		k++
	}
	w.run(i, k)
	if k < j {
		w.lower(k, j)
	}
}

// port writes the port as the plan's port rule says.
func (e *engine) port() *failure {
	pr, w, s := &e.pr, &e.u.w, e.s
	if !pr.hasPort {
		return nil
	}
	i, j := pr.hostEnd+1, pr.authEnd
	v, f := portValue(s, i, j) // checked by parse; cannot fail
	if f != nil {
		return f
	}
	if e.pl.dropsPort(e.kind, v) {
		return nil
	}
	if e.pl.port == portDefault {
		for i < j-1 && s[i] == '0' { // leading zeros (§3.2.3 port = *DIGIT)
			i++
		}
	}
	w.byte(':')
	w.run(i, j)
	return nil
}

// notAllowed returns the byte class of bytes that cannot stay raw in comp.
func notAllowed(comp Component) uint16 {
	switch comp {
	case ComponentPath:
		return clsNotPath
	case ComponentUserinfo:
		return clsNotUser
	}
	return clsNotQuery
}

// component writes s[i:j], a userinfo, path, query or fragment whose byte
// classes are m, applying the profile's percent-encoding steps.
func (e *engine) component(i, j int, m uint16, comp Component) *failure {
	w, s := &e.u.w, e.s
	var look uint16 // the classes that need a closer look in this mode
	switch e.pl.esc {
	case escapeWHATWG:
		set := setFragment
		if comp == ComponentQuery {
			set = setQuery
			if e.pr.special {
				set = setSpecialQuery
			}
		}
		e.encode(i, j, set)
		return nil
	case escapeKeep:
		w.run(i, j)
		return nil
	case escapeNorm:
		look = clsPct
	case escapePOWDER:
		look = clsPct | clsCtl | clsNonASCII | clsOutside
	default:
		look = notAllowed(comp)
	}
	if m&look == 0 {
		w.run(i, j)
		return nil
	}
	if e.pl.esc == escapePOWDER {
		e.encode(i, j, setPOWDER)
		return nil
	}
	pl := e.pl
	at := w.length()
	decUnres := pl.has(DecodeUnreserved)
	decIRI := pl.has(DecodeIUnreserved)
	inQuery := comp == ComponentQuery
	start := i
	for k := i; k < j; {
		c := s[k]
		if byteClass[c]&look == 0 {
			k++
			continue
		}
		switch {
		case c == '%':
			if !validEscapeBefore(s, k, j) {
				return fail(comp, k, ErrInvalidEscape, "invalid percent-encoding")
			}
			if v := tripletValue(s, k); decIRI && v >= 0x80 {
				if r, size := decodeEscapedRune(s, k, j); size > 0 && iriAllowed(r, inQuery) {
					w.run(start, k)
					var b [utf8.UTFMax]byte
					n := utf8.EncodeRune(b[:], r)
					for _, x := range b[:n] {
						w.byte(x)
					}
					k += size
					start = k
					continue
				}
			}
			if e.escapeTriplet(start, k, decUnres, false) {
				k += 3
				start = k
				continue
			}
			k += 3
		case c >= utf8.RuneSelf && e.pl.esc == escapeIRI:
			r, size := utf8.DecodeRuneInString(s[k:j])
			if (r != utf8.RuneError || size > 1) && iriAllowed(r, inQuery) {
				k += size
				continue
			}
			w.run(start, k)
			for x := k; x < k+size; x++ {
				w.escaped(s[x])
			}
			k += size
			start = k
		case e.pl.esc == escapeURI || e.pl.esc == escapeIRI:
			w.run(start, k)
			w.escaped(c)
			k++
			start = k
		default:
			k++ // escapeNorm keeps characters outside the grammar
		}
	}
	w.run(start, j)
	if pl.has(NFC) && m&(clsNonASCII|clsPct) != 0 {
		e.nfc(at)
	}
	return nil
}

// escapeTriplet writes the valid triplet s[k:k+3], after the pending run
// s[start:k], by the plan's rule (plan.triplet), lowercased when decoded
// in a host (lowerDecoded). It reports false, writing nothing, when the
// triplet stays as written.
func (e *engine) escapeTriplet(start, k int, decode, lowerDecoded bool) bool {
	s, w := e.s, &e.u.w
	v := tripletValue(s, k)
	switch e.pl.triplet(v, s[k+1], s[k+2], decode) {
	case tripletDecode:
		w.run(start, k)
		if lowerDecoded {
			v = lower(v)
		}
		w.byte(v)
	case tripletUpper:
		w.run(start, k)
		w.byte('%')
		w.byte(upper(s[k+1]))
		w.byte(upper(s[k+2]))
	default:
		return false
	}
	return true
}

// nfc normalizes to NFC the output from offset at on, run by run (RFC
// 3987 §5.3.2.2). A run is a stretch of letters, digits and non-ASCII
// characters: every other ASCII byte, and every percent-encoded triplet, is
// a barrier no character composes across. A triplet is an encoding
// artifact, and letting "%3A" + U+0301 compose to "%3Á" would corrupt it;
// an ASCII delimiter is syntax, and letting "=" + U+0338 compose to "≠"
// would remove it, so that "?a=%CC%B8b" and "?a≠b" got one key. (The code
// points whose NFC is itself ASCII punctuation, U+037E and U+1FEF, never
// reach here raw: EncodeToIRI keeps them encoded, see iriAllowed.)
// The check is quick and allocation-free when the text is already NFC.
func (e *engine) nfc(at int) {
	str, b := e.u.w.tail(at)
	if b != nil {
		str = string(b) // dirty already: this path allocates anyway
	}
	if isNFCRuns(str) {
		return
	}
	e.u.w.replaceTail(at, appendNFCRuns(make([]byte, 0, len(str)+len(str)/2), str))
}

// appendNFCRuns appends str to out with each run (see nfc) normalized
// to NFC. Every "%" in str must start a valid triplet.
func appendNFCRuns(out []byte, str string) []byte {
	for len(str) > 0 {
		k := nfcRunEnd(str)
		// Not AppendString: it would compose with the bytes already in out.
		out = append(out, norm.NFC.String(str[:k])...)
		if k == len(str) {
			break
		}
		n := 1
		if str[k] == '%' {
			n = 3 // a valid triplet: checked by component
		}
		out = append(out, str[k:k+n]...)
		str = str[k+n:]
	}
	return out
}

// nfcRunEnd returns the length of the run of t that NFC may work on: the
// bytes before the first ASCII byte that is neither a letter nor a digit.
func nfcRunEnd(t string) int {
	for k := 0; k < len(t); k++ {
		if c := t[k]; c < utf8.RuneSelf && !isAlnum(c) {
			return k
		}
	}
	return len(t)
}

// isNFCRuns reports whether each run of t (see nfc) is NFC.
// QuickSpanString is used rather than IsNormalString, which allocates;
// a run it cannot vouch for is normalized by nfc, which returns the same
// bytes when the run was NFC after all.
func isNFCRuns(t string) bool {
	for len(t) > 0 {
		k := nfcRunEnd(t)
		run := t[:k]
		ascii := true
		for x := 0; x < len(run); x++ {
			if run[x] >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		if !ascii && norm.NFC.QuickSpanString(run) != len(run) {
			return false
		}
		if k == len(t) {
			break
		}
		if t[k] == '%' {
			k += 2
		}
		t = t[min(k+1, len(t)):]
	}
	return true
}

// dots removes dot segments from the path written at offset pathAt, by
// the plan's rule (RFC 3986 or RFC 1808; WHATWG paths are written by
// whatwgPath).
func (e *engine) dots(pathAt int) {
	if e.pl.dots == dotsRFC3986 || e.pl.dots == dotsRFC1808 {
		hint := dotsNoDot
		if e.pr.mPath&clsDot != 0 {
			hint = dotsMaybe
		}
		removeOutputDots(&e.u.w, pathAt, e.pl, e.pr.hasAuth, hint)
	}
}

// What a writer of a path knows of its dot segments.
const (
	dotsNoDot = iota // the path holds no "."
	dotsMaybe        // it may hold a dot segment
	dotsSeen         // it holds one
)

// removeOutputDots removes the dot segments of the path written from
// offset pathAt on by the plan's rule; hint says what the writer knows
// of them. A path that this makes start with "//" in a URI without an
// authority is written "/.//" (see guardPath): "foo:/a/..//b" ->
// "foo:/.//b".
func removeOutputDots(w *writer, pathAt int, pl *plan, hasAuth bool, hint int) {
	str, b := w.tail(pathAt)
	if b == nil {
		if hint == dotsNoDot || hint == dotsMaybe && !hasDotSegment(str) {
			return
		}
		if len(str) <= 256 && !(hint == dotsSeen && pl.dots != dotsRFC1808) {
			// The path is still the input's, and may stay so: it is
			// rewritten on the stack and copied once if it changed (RFC
			// 1808 keeps a ".." with nothing to cancel, and then the path
			// stays uncopied). A dot segment seen under the other rules
			// always goes: the path is copied and rewritten in place.
			var tmp [256]byte
			out := removeDots(append(tmp[:0], str...), pl.dots, false)
			if len(out) == len(str) {
				return
			}
			w.replaceTail(pathAt, out)
			b = nil
		} else {
			// A long path, or one that loses a dot segment: rewritten in
			// place in the writer's buffer. If RFC 1808 kept it as it was
			// (a ".." with nothing to cancel), the output goes back to
			// being the input's, uncopied, as above.
			clean := *w
			w.spill()
			_, b = w.tail(pathAt)
			n := len(removeDots(b, pl.dots, false))
			if n == len(b) {
				*w = clean
				return
			}
			w.truncate(pathAt + n)
			b = nil
		}
	} else if hint != dotsSeen && !hasDotSegment(b) {
		return
	}
	if b != nil {
		w.truncate(pathAt + len(removeDots(b, pl.dots, false)))
	}
	if !hasAuth {
		// Only dot removal can make such a path start with "//".
		w.spill()
		w.guard(pathAt)
	}
}
