package canon

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// engine carries one run of a profile over one input: it reads the input
// in s by its parts and writes the key into u, the value the later
// stages (the key passes) take. This file holds the writers every stage
// of the general path shares (a component by its escape rule, a
// triplet, lowercase, the port, NFC, the path's dot segments); the order
// of the stages is run.go's, the hosts are host.go's and whatwg.go's.
type engine struct {
	u    url // by value: through a pointer the value itself would move to the heap
	s    string
	pr   parts
	pl   *plan
	kind schemeKind
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
	if e.pl.port >= portDefault {
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
		at := w.length()
		w.run(i, j)
		if e.pl.nfc && m&clsNonASCII != 0 {
			return e.nfc(at, i, comp)
		}
		return nil
	case escapeNorm:
		look = clsPct
	case escapePOWDER:
		look = clsPct | clsCtl | clsNonASCII | clsOutside
	default:
		look = notAllowed(comp)
	}
	if m&look == 0 {
		at := w.length()
		w.run(i, j)
		if e.pl.nfc && m&clsNonASCII != 0 {
			return e.nfc(at, i, comp)
		}
		return nil
	}
	if e.pl.esc == escapePOWDER {
		e.encode(i, j, setPOWDER)
		return nil
	}
	pl := e.pl
	at := w.length()
	decUnres := pl.decodeUnres
	decIRI := pl.decodeIUnres
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
	if pl.nfc && m&(clsNonASCII|clsPct) != 0 {
		return e.nfc(at, i, comp)
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

// nfc normalizes to NFC the output from offset at on, the component
// comp written from the input at i, run by run (RFC 3987 §5.3.2.2). A run
// is a stretch of letters, digits and non-ASCII characters: every other
// ASCII byte, every percent-encoded triplet, and the two code points whose
// NFC is ASCII punctuation (U+037E is ";", U+1FEF is "`") are barriers no
// character composes across, kept as written. A triplet is an encoding
// artifact, and letting "%3A" + U+0301 compose to "%3Á" would corrupt it;
// an ASCII delimiter is syntax, and letting "=" + U+0338 compose to "≠"
// would remove it, so that "?a=%CC%B8b" and "?a≠b" got one key; and
// U+037E written ";" would make a delimiter (EncodeToIRI keeps the two
// encoded, see iriAllowed; without it they stay as they are). A run of
// more than 30 combining marks is an error: golang.org/x/text's NFC
// inserts U+034F COMBINING GRAPHEME JOINER into it (UAX #15's Stream-Safe
// Text Format), which would give it the key of the text that holds that
// U+034F. The check is quick and allocation-free when the text is
// already NFC.
func (e *engine) nfc(at, i int, comp Component) *failure {
	str, b := e.u.w.tail(at)
	if b != nil {
		str = string(b) // dirty already: this path allocates anyway
	}
	if isNFCRuns(str) {
		return nil
	}
	out, ok := appendNFCRuns(make([]byte, 0, len(str)+len(str)/2), str)
	if !ok {
		return fail(comp, i, ErrInvalidChar, "more than 30 combining marks in a row")
	}
	e.u.w.replaceTail(at, out)
	return nil
}

// appendNFCRuns appends str to out with each run (see nfc) normalized
// to NFC. It reports false where the normalizer inserted a U+034F (a run
// of more than 30 combining marks: see nfc).
func appendNFCRuns(out []byte, str string) ([]byte, bool) {
	ok := true
	for len(str) > 0 {
		k := nfcRunEnd(str)
		// Not AppendString: it would compose with the bytes already in out.
		n := norm.NFC.String(str[:k])
		if strings.Count(n, cgj) > strings.Count(str[:k], cgj) {
			ok = false
		}
		out = append(out, n...)
		if k == len(str) {
			break
		}
		b := nfcBarrierLen(str, k)
		out = append(out, str[k:k+b]...)
		str = str[k+b:]
	}
	return out, ok
}

// cgj is U+034F COMBINING GRAPHEME JOINER, which golang.org/x/text's NFC
// inserts after 30 combining marks in a row.
const cgj = "\u034f"

// The two code points whose NFC is ASCII punctuation (nfcIsASCIIPunct),
// in UTF-8: barriers of the runs NFC works on (see nfc).
const (
	greekQuestionMark = "\u037e" // NFC ";"
	greekVaria        = "\u1fef" // NFC "`"
)

// nfcBarrierLen returns the length of the barrier at t[k], where a run
// ends (see nfc): a valid triplet, U+037E or U+1FEF, or one ASCII byte. A
// "%" that starts no triplet is a byte like any other: a profile without
// the escape steps keeps it, and a component a key step rewrote
// (LowercasePath) may hold one before a character NFC composes.
func nfcBarrierLen(t string, k int) int {
	switch {
	case t[k] == '%' && validEscape(t, k):
		return 3
	case strings.HasPrefix(t[k:], greekQuestionMark):
		return len(greekQuestionMark)
	case strings.HasPrefix(t[k:], greekVaria):
		return len(greekVaria)
	}
	return 1
}

// nfcRunEnd returns the length of the run of t that NFC may work on: the
// bytes before the first barrier (see nfc, nfcBarrierLen).
func nfcRunEnd(t string) int {
	for k := 0; k < len(t); k++ {
		switch c := t[k]; {
		case c < utf8.RuneSelf && !isAlnum(c):
			return k
		case c == greekQuestionMark[0] && strings.HasPrefix(t[k:], greekQuestionMark),
			c == greekVaria[0] && strings.HasPrefix(t[k:], greekVaria):
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
		t = t[k+nfcBarrierLen(t, k):]
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

// encode writes s[i:j] with every byte in the percent-encode set bit
// percent-encoded (the WHATWG URL Standard's "UTF-8 percent-encode": the
// input is valid UTF-8, and every byte of a non-ASCII code point is in
// every set; POWDER's set for a decoded input). The escapes of the input
// are kept as written, or, when the plan rewrites them (pctTriplets),
// written by its triplet rule (whatwgTriplet).
func (e *engine) encode(i, j int, bit uint16) {
	s, w := e.s, &e.u.w
	bit |= e.pl.pctTriplets
	start := i
	for k := i; k < j; k++ {
		c := s[k]
		if encodeSet[c]&bit == 0 {
			continue
		}
		if encodeSet[c]&bit&setTriplet != 0 {
			if e.whatwgTriplet(start, k, j) {
				k += 2
				start = k + 1
			}
			continue
		}
		w.run(start, k)
		w.escaped(c)
		start = k + 1
	}
	w.run(start, j)
}

// whatwgTriplet writes the "%" at s[k] and what follows by the plan's
// triplet rule (RFC 3986 §6.2.2.1: uppercase hex; §6.2.2.2: an unreserved
// octet decoded), after the pending run s[start:k], when it starts a
// valid triplet before j that the rule changes; it reports whether it
// wrote it. The WHATWG URL Standard keeps a "%" that starts no triplet
// as a "%", and its percent-decode reads "%" and two hex digits wherever
// they meet: a hex digit decoded right after such a "%" ("%%34" + "1"
// -> "%41"), or after it and one hex digit ("%4%31" -> "%41"), would make
// a triplet that was not there, which names another resource and reads
// differently again; that triplet is kept (its hex is uppercase already:
// a hex digit's octet is 0x30-0x39, 0x41-0x46 or 0x61-0x66).
func (e *engine) whatwgTriplet(start, k, j int) bool {
	s, w := e.s, &e.u.w
	v, ok := tripletAt(s, k, j)
	if !ok {
		return false
	}
	rule := e.pl.triplet(v, s[k+1], s[k+2], e.pl.decodeUnres)
	if rule == tripletKeep {
		return false
	}
	if rule == tripletDecode && isHex(v) {
		// The output's last two bytes: the pending run's, then the
		// writer's.
		before := func(d int) byte {
			if k-start >= d {
				return s[k-d]
			}
			if n := w.length() - (d - (k - start)); n >= 0 {
				return w.byteAt(n)
			}
			return 0
		}
		if c1 := before(1); c1 == '%' || isHex(c1) && before(2) == '%' {
			return false
		}
	}
	w.run(start, k)
	if rule == tripletDecode {
		w.byte(v)
	} else {
		w.escaped(v)
	}
	return true
}
