package canon

import (
	"errors"
	"strconv"
	"strings"
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

// Error implements the error interface. It sizes its buffer for the
// common case, a quoted input of printable ASCII, so that it allocates
// once: the command line tool formats one error per bad line.
func (e *Error) Error() string {
	reason := e.reason
	if reason == "" {
		reason = e.Err.Error()
	}
	at := ""
	if e.Offset >= 0 && e.Offset < len(e.Input) {
		at = e.Input[e.Offset:]
	}
	comp := e.Component.String()
	const fixed = len(`canon.`) + len(`("`) + len(`"): `) + len(`: `) + len(` (at "`) + len(`")`) + len(` `)
	b := make([]byte, 0, fixed+len(e.Op)+len(e.Arg)+len(e.Input)+len(comp)+len(reason)+len(at))
	b = append(b, "canon."...)
	b = append(b, e.Op...)
	b = append(b, '(')
	if e.Arg != "" {
		b = append(b, e.Arg...)
		b = append(b, ' ')
	}
	b = strconv.AppendQuote(b, e.Input)
	b = append(b, "): "...)
	b = append(b, comp...)
	b = append(b, ": "...)
	b = append(b, reason...)
	if at != "" {
		b = append(b, " (at "...)
		b = strconv.AppendQuote(b, at)
		b = append(b, ')')
	}
	return ownedString(b)
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
	red, off := redactPasswords(input, off)
	return &Error{Op: op, Input: strings.Clone(red), Component: f.comp, Offset: off, Err: f.err, reason: f.reason}
}

// passwordMask replaces a password in error text.
const passwordMask = "xxxxx"

// redactPasswords replaces every stretch of s that some reading of s
// takes for the password of a userinfo with "xxxxx", and maps off (an
// offset in s, or -1) to the same place in the result. An error must never
// carry a password, whichever way the input would be read, so every
// reading the package makes counts (see passwordSpans); the cost is on the
// error path only.
func redactPasswords(s string, off int) (string, int) {
	spans := passwordSpans(s)
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
// disjoint, that hold a password under any of the readings the package
// makes of an input: the parser's (spaces and controls trimmed, an
// optional scheme that ends at the first ":" before any "/", "?" or "#",
// then "//" and the authority up to "/", "?" or "#", the userinfo up to
// its last "@", the password after its first ":"); DefaultScheme's, which
// reads an input without a scheme as an authority ("user:pw@h/x"); and
// DecodeAll's, which decodes every triplet first (POWDER reads
// "http%3A%2F%2Fuser:pw@h/" with a userinfo), whose password is mapped
// back to the bytes of s it was decoded from.
func passwordSpans(s string) [][2]int {
	spans := passwordsIn(s)
	if strings.IndexByte(s, '%') >= 0 {
		dec, from := decodeWithOffsets(s)
		for _, sp := range passwordsIn(dec) {
			// The raw bytes that decoded to dec[sp[0]:sp[1]].
			spans = append(spans, [2]int{from[sp[0]], from[sp[1]]})
		}
	}
	return mergeSpans(spans)
}

// passwordsIn returns the password ranges of s under the parser's and
// DefaultScheme's readings (see passwordSpans).
func passwordsIn(s string) [][2]int {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	var out [][2]int
	try := func(auth int) {
		if pw, at, ok := passwordAt(s, auth, j, false); ok {
			out = append(out, [2]int{pw, at})
		}
	}
	// The parser: an optional scheme (valid or not: the text is the same),
	// then "//".
	k := i
	for k < j && s[k] != ':' && s[k] != '/' && s[k] != '?' && s[k] != '#' {
		k++
	}
	if k < j && s[k] == ':' {
		k++
	} else {
		k = i
	}
	if j-k >= 2 && s[k] == '/' && s[k+1] == '/' {
		try(k + 2)
	}
	// DefaultScheme: no scheme in its sense, so the input is an authority
	// (or starts with "//" and one).
	if schemeLength(s[i:j]) < 0 {
		if j-i >= 2 && s[i] == '/' && s[i+1] == '/' {
			try(i + 2)
		} else {
			try(i)
		}
	}
	// The WHATWG URL Standard, as browsers read links: after the scheme of
	// an http-like URL, any run of "/" and "\" (none included) starts
	// the authority, which "\" also ends ("http:/user:pw@h/").
	if k > i && kindOf(s[i:k-1]).special() {
		a := k
		for a < j && (s[a] == '/' || s[a] == '\\') {
			a++
		}
		if pw, at, ok := passwordAt(s, a, j, true); ok {
			out = append(out, [2]int{pw, at})
		}
	}
	return out
}

// passwordAt finds the password of the authority that starts at s[auth]
// and ends at the first "/", "?" or "#" (or "\\", if backslashEnds)
// before end: the bytes between the first ":" of the userinfo and the
// last "@".
func passwordAt(s string, auth, end int, backslashEnds bool) (pw, at int, ok bool) {
	e := auth
	for e < end && s[e] != '/' && s[e] != '?' && s[e] != '#' && !(backslashEnds && s[e] == '\\') {
		e++
	}
	at = strings.LastIndexByte(s[auth:e], '@')
	if at < 0 {
		return 0, 0, false
	}
	at += auth
	colon := strings.IndexByte(s[auth:at], ':')
	if colon < 0 {
		return 0, 0, false
	}
	return auth + colon + 1, at, true
}

// decodeWithOffsets decodes every valid triplet of s once, as DecodeAll
// does, and returns for each byte of the result (and its end) the offset
// in s it came from.
func decodeWithOffsets(s string) (string, []int) {
	b := make([]byte, 0, len(s))
	from := make([]int, 0, len(s)+1)
	for k := 0; k < len(s); k++ {
		from = append(from, k)
		if s[k] == '%' && validEscape(s, k) {
			b = append(b, unhex(s[k+1])<<4|unhex(s[k+2]))
			k += 2
			continue
		}
		b = append(b, s[k])
	}
	from = append(from, len(s))
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
