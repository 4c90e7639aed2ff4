package canon

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

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

func kindOf(scheme string) schemeKind {
	// Schemes are ASCII: c|0x20 lowercases a letter, and a byte that is
	// not a letter cannot match one of the lowercase letters compared.
	is := func(name string) bool {
		for i := 0; i < len(name); i++ {
			if scheme[i]|0x20 != name[i] {
				return false
			}
		}
		return true
	}
	switch len(scheme) {
	case 2:
		if is("ws") {
			return schemeWS
		}
	case 3:
		if is("wss") {
			return schemeWSS
		}
		if is("ftp") {
			return schemeFTP
		}
	case 4:
		if is("http") {
			return schemeHTTP
		}
		if is("file") {
			return schemeFile
		}
	case 5:
		if is("https") {
			return schemeHTTPS
		}
	}
	return schemeOther
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

// engine carries one run of a profile over one input.
type engine struct {
	w    writer // by value: a pointer here would make every writer escape
	s    string
	pr   parts
	p    Profile
	mode escapeMode
	kind schemeKind
}

// normalize runs profile p over the trimmed input in, writing to e.w.
// e.w.src may be replaced by a rewritten input (DefaultScheme, DecodeAll,
// PlusToSpace); failures found after such a rewrite have offset -1.
func (e *engine) normalize(in string, p Profile) *failure {
	w := &e.w
	s := in
	rewritten := false
	if p.Has(ParseWHATWG) {
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
	if pl := p.plan(); pl.defaultScheme || pl.decodeAll || pl.plusToSpace {
		before := s
		var f *failure
		s, f = prepass(s, p)
		if f != nil {
			if rewritten {
				f.off = -1
			}
			return f
		}
		rewritten = rewritten || len(s) != len(before) || s != before
	}
	w.src = s
	e.s, e.p, e.mode = s, p, p.escapeMode()
	var f *failure
	f = e.pr.parse(s, e.syntax())
	if f == nil && e.mode == escapeIRI && (e.pr.mUser|e.pr.mHost|e.pr.mPath|e.pr.mQuery|e.pr.mFrag)&clsNonASCII != 0 && !utf8.ValidString(s) {
		// An octet that is not UTF-8 is mapped to its escape first (RFC
		// 3987 §3.1), so that it decodes together with the escapes next
		// to it exactly as it will when the key is read again:
		// "\xD3%80" is "%D3%80", which is U+04C0.
		s = escapeInvalidUTF8(s)
		rewritten = true
		w.src, e.s = s, s
		f = e.pr.parse(s, syntaxRFC3986)
	}
	if f == nil {
		f = e.run()
	}
	if f != nil && rewritten {
		f.off = -1
	}
	return f
}

// syntax returns the parser rules of the profile.
func (e *engine) syntax() syntax {
	switch e.mode {
	case escapeWHATWG:
		return syntaxWHATWG
	case escapePOWDER:
		return syntaxLenient
	}
	return syntaxRFC3986
}

func (e *engine) run() *failure {
	pr, w, s, p := &e.pr, &e.w, e.s, e.p
	if pr.schemeEnd < 0 {
		return fail(ComponentScheme, 0, ErrRelative, "missing scheme")
	}
	e.kind = kindOf(s[:pr.schemeEnd])

	whatwg := e.mode == escapeWHATWG

	// Scheme (RFC 3986 §3.1, §6.2.2.1; the WHATWG URL Standard lowercases it).
	if (whatwg || p.Has(LowercaseScheme)) && pr.mScheme&clsUpper != 0 {
		e.lowerRun(0, pr.schemeEnd)
	} else {
		w.run(0, pr.schemeEnd)
	}
	w.byte(':')

	// Authority (§3.2).
	hostLen := 0
	if pr.hasAuth {
		w.str("//")
		var f *failure
		switch {
		case whatwg:
			if pr.hasUser {
				if pr.hostStart == pr.hostEnd {
					return fail(ComponentHost, pr.hostStart, ErrInvalidHost, "missing host after the userinfo")
				}
				e.whatwgCredentials()
			}
			hostLen, f = e.whatwgHost()
		case pr.hasUser:
			if f = e.component(pr.authStart, pr.userEnd, pr.mUser, ComponentUserinfo); f != nil {
				return f
			}
			w.byte('@')
			fallthrough
		default:
			hostLen, f = e.host()
		}
		if f != nil {
			return f
		}
		if f := e.port(); f != nil {
			return f
		}
	}
	if e.kind.needsHost() && hostLen == 0 {
		return fail(ComponentHost, pr.authStart, ErrInvalidHost, "missing host")
	}

	// Path (§3.3).
	pathAt := w.length()
	if whatwg {
		e.whatwgPath()
	} else {
		if f := e.component(pr.pathStart, pr.pathEnd, pr.mPath, ComponentPath); f != nil {
			return f
		}
		e.dots(pathAt)
	}
	if w.length() == pathAt && pr.hasAuth &&
		(p.Has(AddRootPath) || (p.Has(AddHTTPRootPath) && e.kind.defaultPort() > 0)) {
		w.byte('/')
	}

	// Query (§3.4) and fragment (§3.5).
	if pr.hasQuery {
		w.byte('?')
		if f := e.component(pr.queryStart, pr.queryEnd, pr.mQuery, ComponentQuery); f != nil {
			return f
		}
	}
	if pr.hasFrag && !p.Has(RemoveFragment) {
		w.byte('#')
		if f := e.component(pr.fragStart, len(s), pr.mFrag, ComponentFragment); f != nil {
			return f
		}
	}
	if e.mode <= escapeNorm {
		e.encodeTrailingSpaces() // only these modes write raw spaces
	}
	return nil
}

// encodeTrailingSpaces writes spaces that end the output as "%20". Only
// profiles that keep characters outside the grammar (WebCapture) can end
// a key with a space, when RemoveFragment cuts "http://h/a #f" to
// "http://h/a ". Read again, that key would lose the space to trimming;
// "%20" keeps it apart from "http://h/a", as a browser does (it sends
// /a%20), and keeps the profile idempotent.
func (e *engine) encodeTrailingSpaces() {
	str, b := e.w.tail(0)
	n := len(str) + len(b)
	k := n
	for k > 0 && (b == nil && str[k-1] == ' ' || b != nil && b[k-1] == ' ') {
		k--
	}
	if k == n {
		return
	}
	e.w.truncate(k)
	for ; k < n; k++ {
		e.w.str("%20")
	}
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
// appended in one tight loop.
func (e *engine) lowerRun(i, j int) {
	s, w := e.s, &e.w
	k := i
	for k < j && byteClass[s[k]]&clsUpper == 0 {
		k++
	}
	w.run(i, k)
	if k == j {
		return
	}
	if !w.dirty {
		w.spill()
	}
	for ; k < j; k++ {
		w.buf = append(w.buf, lower(s[k]))
	}
}

// port writes the port as the profile's port steps say.
func (e *engine) port() *failure {
	pr, w, s := &e.pr, &e.w, e.s
	if !pr.hasPort {
		return nil
	}
	i, j := pr.hostEnd+1, pr.authEnd
	v, f := portValue(s, i, j) // checked by parse; cannot fail
	if f != nil {
		return f
	}
	switch {
	case e.p.Has(RemoveDefaultPort) || e.mode == escapeWHATWG:
		if v < 0 || v == e.kind.defaultPort() {
			return nil
		}
		for i < j-1 && s[i] == '0' { // leading zeros (§3.2.3 port = *DIGIT)
			i++
		}
	case e.p.Has(RemoveHTTPFTPPort):
		if (v == 80 && e.kind == schemeHTTP) || (v == 21 && e.kind == schemeFTP) {
			return nil
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
	w, s := &e.w, e.s
	var look uint16 // the classes that need a closer look in this mode
	switch e.mode {
	case escapeWHATWG:
		set := setFragment
		if comp == ComponentQuery {
			set = setQuery
			if e.pr.special {
				set = setSpecialQuery
			}
		}
		e.whatwgEncode(i, j, set)
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
	if e.mode == escapePOWDER {
		e.powderEscape(i, j)
		return nil
	}
	p := e.p
	at := w.length()
	decUnres := p.Has(DecodeUnreserved)
	decIRI := p.Has(DecodeIUnreserved)
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
			if v := unhex(s[k+1])<<4 | unhex(s[k+2]); decIRI && v >= 0x80 {
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
		case c >= utf8.RuneSelf && e.mode == escapeIRI:
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
		case e.mode == escapeURI || e.mode == escapeIRI:
			w.run(start, k)
			w.escaped(c)
			k++
			start = k
		default:
			k++ // escapeNorm keeps characters outside the grammar
		}
	}
	w.run(start, j)
	if p.Has(NFC) && m&(clsNonASCII|clsPct) != 0 {
		e.nfc(at)
	}
	return nil
}

func isUpperHex(c byte) bool { return c <= '9' || c >= 'A' && c <= 'F' }

// escapeTriplet writes the valid triplet s[k:k+3], after the pending run
// s[start:k], as the profile's escape steps say: decoded when decode is
// set and it is unreserved (RFC 3986 §6.2.2.2; lowercased if
// lowerDecoded, in a host), in uppercase hex with UppercaseEscapes
// (§6.2.2.1). It reports false, writing nothing, when the triplet stays as
// written. Every component that reads escapes writes them through it.
func (e *engine) escapeTriplet(start, k int, decode, lowerDecoded bool) bool {
	s, w := e.s, &e.w
	v := unhex(s[k+1])<<4 | unhex(s[k+2])
	switch {
	case decode && byteClass[v]&clsUnreserved != 0:
		w.run(start, k)
		if lowerDecoded {
			v = lower(v)
		}
		w.byte(v)
	case e.p.Has(UppercaseEscapes) && (!isUpperHex(s[k+1]) || !isUpperHex(s[k+2])):
		w.run(start, k)
		w.byte('%')
		w.byte(upper(s[k+1]))
		w.byte(upper(s[k+2]))
	default:
		return false
	}
	return true
}

// powderEscape writes s[i:j] of a decoded POWDER input with the octets
// that would not read back the same encoded: "%", space, "\", control
// characters, DEL and non-ASCII (and the rest of clsOutside is kept).
func (e *engine) powderEscape(i, j int) {
	w, s := &e.w, e.s
	start := i
	for k := i; k < j; k++ {
		c := s[k]
		if c == '%' || c <= ' ' || c == '\\' || c >= 0x7f {
			w.run(start, k)
			w.escaped(c)
			start = k + 1
		}
	}
	w.run(start, j)
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
	str, b := e.w.tail(at)
	if b != nil {
		str = string(b) // dirty already: this path allocates anyway
	}
	if isNFCRuns(str) {
		return
	}
	e.w.replaceTail(at, appendNFCRuns(make([]byte, 0, len(str)+len(str)/2), str))
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

// dots removes dot segments from the path written at offset pathAt.
func (e *engine) dots(pathAt int) {
	if !e.p.Has(RemoveDots) && !e.p.Has(RemoveDots1808) {
		return
	}
	e.removeDots(pathAt)
	if !e.pr.hasAuth {
		// Only dot removal can make such a path start with "//".
		e.fixDoubleSlash(pathAt)
	}
}

func (e *engine) removeDots(pathAt int) {
	w := &e.w
	str, b := w.tail(pathAt)
	if b == nil {
		if e.pr.mPath&clsDot == 0 || !hasDotSegment(str) {
			return
		}
		w.spill()
		_, b = w.tail(pathAt)
	} else if !hasDotSegment(b) {
		return
	}
	var out []byte
	if e.p.Has(RemoveDots1808) {
		out = removeDotSegments1808(b)
	} else {
		out = removeDotSegmentsInPlace(b)
	}
	w.truncate(pathAt + len(out))
}

// fixDoubleSlash guards a path that dot removal made start with "//" in
// a URI without an authority ("foo:/a/..//b" -> "foo:/.//b"; guardPath).
func (e *engine) fixDoubleSlash(pathAt int) {
	str, b := e.w.tail(pathAt)
	if b == nil {
		if !strings.HasPrefix(str, "//") {
			return
		}
		e.w.spill()
	}
	e.w.buf = guardPath(e.w.buf, e.w.base+pathAt)
}
