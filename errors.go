package canon

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sentinel errors. Every error the package returns is an [*Error] that
// wraps exactly one of them, so callers can test the cause with errors.Is.
var (
	// ErrRelative: the input has no scheme where an absolute URI is
	// needed (Normalize in every profile but POWDER, the base of Resolve).
	ErrRelative = errors.New("relative reference where an absolute URI is needed")
	// ErrInvalidEscape: a "%" not followed by two hexadecimal digits
	// (RFC 3986 §2.1; RFC 1630 reserves such sequences).
	ErrInvalidEscape = errors.New("invalid percent-encoding")
	// ErrInvalidHost: a host that is not a valid reg-name, IP literal,
	// IPv4 address or IDN, or a missing host where the scheme needs one.
	ErrInvalidHost = errors.New("invalid host")
	// ErrInvalidPort: a port that is not decimal digits or exceeds 65535.
	ErrInvalidPort = errors.New("invalid port")
	// ErrInvalidScheme: a scheme that does not match
	// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (RFC 3986 §3.1).
	ErrInvalidScheme = errors.New("invalid scheme")
	// ErrInvalidChar: a control character, or a backslash in the
	// authority or path, in the input.
	ErrInvalidChar = errors.New("invalid character")
	// ErrTooLong: the input exceeds MaxLength, or a host exceeds
	// MaxHostLength.
	ErrTooLong = errors.New("input too long")
)

// Component names the part of a URI reference an error was found in.
type Component uint8

// The components of a URI reference (RFC 3986 §3).
const (
	ComponentURL      Component = iota // the reference as a whole
	ComponentScheme                    // scheme
	ComponentUserinfo                  // userinfo of the authority
	ComponentHost                      // host of the authority
	ComponentPort                      // port of the authority
	ComponentPath                      // path
	ComponentQuery                     // query
	ComponentFragment                  // fragment
)

var componentNames = [...]string{"url", "scheme", "userinfo", "host", "port", "path", "query", "fragment"}

// String returns the lowercase name of the component, as used in error text.
func (c Component) String() string {
	if int(c) < len(componentNames) {
		return componentNames[c]
	}
	return "component(" + strconv.Itoa(int(c)) + ")"
}

// Error describes why an input was rejected. Its text reads like net/netip's:
//
//	canon.Normalize("http://h:8x/"): port: invalid character (at "x/")
//
// Arg is "" for the functions of one input. Resolve and NormalizeRef say
// "base" or "ref", and NormalizeRef "resolved" when the problem is in the
// URL it made of the two (a reference "%zz" is fine alone, but not in
// the path of "http://h/%zz"); Equal says "a" or "b". Error's text then
// names it: canon.NormalizeRef(ref "…"): ….
//
// Input is the input as given with the password of its userinfo, if any,
// replaced by "xxxxx", so that error text and logs never carry it; Offset
// is a byte offset into that Input, or -1 when the problem was found in a
// form of the input the package rewrote first (POWDER's decoding, an added
// scheme) and has no place in the input as given.
type Error struct {
	Op        string    // the function that failed: "Normalize", "Parse", "Resolve", ...
	Arg       string    // which argument Input is, for functions of two (see below)
	Input     string    // the input, password redacted
	Component Component // where in the input the problem is
	Offset    int       // byte offset of the problem in Input
	Err       error     // one of the Err* sentinels
	reason    string    // finer reason than Err's text, e.g. "invalid character"
}

// errorQuoteMax is the most bytes of the input, and of the rest of it
// from the offset, that Error's text quotes: an input may be MaxLength
// (4 MiB) long, and a log line should not be. A longer one is cut at a
// character boundary and marked with "..." after the quote.
const errorQuoteMax = 256

// Error implements the error interface. It sizes its buffer for the
// common case, a quoted input of printable ASCII, so that it allocates
// once: the command line tool formats one error per bad line. Input and
// the rest of it from Offset are quoted up to errorQuoteMax bytes each:
//
//	canon.Normalize("http://h/aaaaaaaa"...): url: input too long
func (e *Error) Error() string {
	reason := e.reason
	if reason == "" {
		reason = e.Err.Error()
	}
	at := ""
	if e.Offset >= 0 && e.Offset < len(e.Input) {
		at = e.Input[e.Offset:]
	}
	in, inCut := quotePrefix(e.Input)
	at, atCut := quotePrefix(at)
	comp := e.Component.String()
	const fixed = len(`canon.`) + len(`("`) + len(`"...): `) + len(`: `) + len(` (at "`) + len(`"...)`) + len(` `)
	b := make([]byte, 0, fixed+len(e.Op)+len(e.Arg)+len(in)+len(comp)+len(reason)+len(at))
	b = append(b, "canon."...)
	b = append(b, e.Op...)
	b = append(b, '(')
	if e.Arg != "" {
		b = append(b, e.Arg...)
		b = append(b, ' ')
	}
	b = strconv.AppendQuote(b, in)
	if inCut {
		b = append(b, "..."...)
	}
	b = append(b, "): "...)
	b = append(b, comp...)
	b = append(b, ": "...)
	b = append(b, reason...)
	if at != "" {
		b = append(b, " (at "...)
		b = strconv.AppendQuote(b, at)
		if atCut {
			b = append(b, "..."...)
		}
		b = append(b, ')')
	}
	return ownedString(b)
}

// quotePrefix returns s, or its longest prefix of at most errorQuoteMax
// bytes that ends before a character (or a byte that starts none, which
// reads as one U+FFFD) and whether it cut.
func quotePrefix(s string) (string, bool) {
	if len(s) <= errorQuoteMax {
		return s, false
	}
	n := 0
	for {
		_, size := utf8.DecodeRuneInString(s[n:])
		if n+size > errorQuoteMax {
			return s[:n], true
		}
		n += size
	}
}

// Unwrap returns the sentinel error, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }

// failure is the error value used inside the package before the operation
// name and the caller's input are known; offsets index the string that was
// being parsed. It never escapes the package: toError turns it into *Error.
type failure struct {
	comp   Component
	off    int
	err    error
	reason string
	// segments: a failure of Safe Browsing's reader, whose text is also
	// redacted wherever an authority could be (sbSegmentSpans).
	segments bool
}

func (f *failure) Error() string { return f.comp.String() + ": " + f.err.Error() }

func fail(comp Component, off int, err error, reason string) *failure {
	return &failure{comp: comp, off: off, err: err, reason: reason}
}

// toError builds the exported *Error for a failure found while working on
// in, which is the caller's input (after any trimming, shift bytes in).
// The input is cloned only here, on the error path (as strconv does), and
// its passwords are redacted. A failure whose offset is unknown (-1: it
// was found in a rewritten input) keeps -1.
func toError(op, input string, shift int, err error) error {
	f, ok := err.(*failure)
	if !ok {
		return err
	}
	off := f.off
	if off >= 0 {
		off += shift
	}
	red, off := redactPasswords(input, off, f.segments)
	return &Error{Op: op, Input: strings.Clone(red), Component: f.comp, Offset: off, Err: f.err, reason: f.reason}
}

// passwordMask replaces a password in error text.
const passwordMask = "xxxxx"

// redactPasswords replaces every stretch of s that some reading of s
// takes for the password of a userinfo with "xxxxx" (with segments, also
// every stretch sbSegmentSpans finds), and maps off (an offset in s, or
// -1) to the same place in the result. An error must never
// carry a password, whichever way the input would be read, so every
// reading the package makes counts (see passwordSpans); the cost is on the
// error path only.
func redactPasswords(s string, off int, segments bool) (string, int) {
	spans := passwordSpans(s)
	if segments {
		in, shift, _ := trim(s)
		spans = mergeSpans(sbSegmentSpans(spans, in, shift))
	}
	if len(spans) == 0 {
		return s, off
	}
	var b strings.Builder
	b.Grow(len(s))
	newOff, last := off, 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		at := b.Len()
		b.WriteString(passwordMask)
		switch {
		case off < 0:
		case off >= sp[1]:
			newOff += len(passwordMask) - (sp[1] - sp[0])
		case off > sp[0]:
			newOff = at // inside the password: point at its mask
		}
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String(), newOff
}

// passwordSpans returns the [start, end) byte ranges of s, sorted and
// disjoint, that hold a password under any reading of s a profile or a
// browser makes. A reader first rewrites the input, then parses it:
//
//   - the views: s as written; without its tabs and newlines (the WHATWG
//     URL Standard removes them before anything else, so that
//     "http:/\t/user:pw@h/" has a userinfo); and each of those with every
//     triplet decoded once (POWDER's DecodeAll: "http%3A%2F%2Fuser:pw@h/")
//     and decoded until none is left (as Google Safe Browsing and the
//     Internet Archive decode);
//   - the parses of each view, by the package's one parser (parts.split,
//     which checks nothing): outside-in as the RFC 2396 drafts split, with
//     any scheme, valid or not; as the WHATWG URL Standard reads an
//     absolute URL (any run of "/" and "\\" after a special scheme starts
//     the authority) or a reference against a special base ("\\\\user:pw@h");
//     and, for a view without a scheme in DefaultScheme's sense, as
//     "http://" + view ("user:pw@h/x");
//   - Google Safe Browsing's reading (sbPasswordSpans): the fragment cut
//     first, then the tabs and newlines dropped and every triplet decoded
//     until none is left, and the authority read from the text that
//     leaves.
//
// In each, the password is what follows the first ":" of the userinfo;
// its bytes in the view are mapped back to the bytes of s they came from,
// the removed tabs and the triplets included. The cost is on the error
// path only, linear in s.
func passwordSpans(s string) [][2]int {
	if strings.IndexByte(s, '@') < 0 && !hasValidEscape(s) {
		// A userinfo ends at "@", written or decoded from escapes by the
		// readers that decode: without either there is none.
		return nil
	}
	in, shift, _ := trim(s)
	var spans [][2]int
	add := func(v string, from []int32, prefix int) {
		for _, syn := range [...]syntax{syntaxRFC3986, syntaxWHATWG} {
			var pr parts
			pr.split(v, syn)
			if !pr.hasUser {
				continue
			}
			colon := strings.IndexByte(v[pr.authStart:pr.userEnd], ':')
			if colon < 0 {
				continue
			}
			a, b := pr.authStart+colon+1-prefix, pr.userEnd-prefix
			if a < 0 {
				continue // in the prefix DefaultScheme added
			}
			if from != nil {
				a, b = int(from[a]), int(from[b])
			}
			spans = append(spans, [2]int{a + shift, b + shift})
		}
	}
	read := func(v string, from []int32) {
		add(v, from, 0)
		if schemeLength(v) < 0 {
			prefix := "http://"
			if strings.HasPrefix(v, "//") {
				prefix = "http:"
			}
			add(prefix+v, from, len(prefix))
		}
	}
	for _, dropTabs := range [...]bool{false, true} {
		if dropTabs && !strings.ContainsAny(in, "\t\n\r") {
			continue
		}
		for decode := 0; decode <= 2; decode++ {
			if decode > 0 && strings.IndexByte(in, '%') < 0 {
				break
			}
			v, from := readerView(in, dropTabs, decode)
			read(v, from)
		}
	}
	spans = sbPasswordSpans(spans, in, shift)
	return mergeSpans(spans)
}

// hasValidEscape reports whether s holds a valid percent-encoded triplet.
func hasValidEscape(s string) bool {
	for i := 0; ; i++ {
		j := strings.IndexByte(s[i:], '%')
		if j < 0 {
			return false
		}
		if i += j; validEscape(s, i) {
			return true
		}
	}
}

// readerView returns s as a reader rewrites it before parsing (see
// passwordSpans): without tabs and newlines if dropTabs; with every valid
// triplet decoded once (decode 1) or until none is left (decode 2); and,
// when it differs from s, for each of its bytes and its end the offset
// in s the byte came from (nil when it is s).
func readerView(s string, dropTabs bool, decode int) (string, []int32) {
	if !dropTabs && decode == 0 {
		return s, nil
	}
	b := make([]byte, 0, len(s))
	from := make([]int32, 0, len(s)+1)
	for k := 0; k < len(s); k++ {
		c := s[k]
		if dropTabs && (c == '\t' || c == '\n' || c == '\r') {
			continue
		}
		if decode == 1 && c == '%' && validEscape(s, k) {
			// Decoded once, the triplet is one byte that is not read
			// again; from[...] records where the triplet started.
			b = append(b, tripletValue(s, k))
			from = append(from, int32(k))
			k += 2
			continue
		}
		b = append(b, c)
		from = append(from, int32(k))
		if decode == 2 {
			// A triplet can only end at the byte just written: decode
			// it, and look back again (see decodeRepeatedlyInPlace).
			for w := len(b); w >= 3 && b[w-3] == '%' && isHex(b[w-2]) && isHex(b[w-1]); w = len(b) {
				b[w-3] = tripletValue(b, w-3)
				b, from = b[:w-2], from[:w-2]
			}
		}
	}
	from = append(from, int32(len(s)))
	return string(b), from
}

// mergeSpans sorts spans by start and merges those that overlap.
func mergeSpans(spans [][2]int) [][2]int {
	for i := 1; i < len(spans); i++ {
		for k := i; k > 0 && spans[k][0] < spans[k-1][0]; k-- {
			spans[k], spans[k-1] = spans[k-1], spans[k]
		}
	}
	out := spans[:0]
	for _, sp := range spans {
		if sp[0] >= sp[1] {
			continue
		}
		if n := len(out); n > 0 && sp[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}
