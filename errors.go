package canon

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// Sentinel errors. Every error a function of URLs returns (Normalize,
// AppendNormalized, NormalizeRef, Equal, Resolve, Parse, Explain, SURT,
// LookupExpressions, ...) is an [*Error] that wraps exactly one of them,
// so callers can test the cause with errors.Is. Building a profile is
// another matter: NewProfile and WithRules return a plain error naming
// the step or rule, WithRules' wrapping [ErrUnusedRules] for rules the
// profile would never use; so is LookupEncoding's, wrapping
// [ErrEncoding].
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
	// ErrEncoding: an encoding other than UTF-8 given with a profile
	// that does not read URLs as the WHATWG URL Standard does (without
	// [ParseWHATWG] a query is UTF-8, as RFC 3987 §3.1 maps it); and,
	// wrapped in a plain error, a label that names no encoding of the
	// Encoding Standard ([LookupEncoding]).
	ErrEncoding = errors.New("page encoding not supported")
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
// replaced by "xxxxx", so that error text and logs never carry it: what
// could be a password under any reading (between the first ":" and the
// last "@" wherever an authority could start, tabs removed or triplets
// decoded) is masked, at the cost of masking some text that is none
// ("mailto:joe:x@example.com" shows "mailto:xxxxx@example.com"); Offset
// is a byte offset into that Input, or -1 when the problem was found in a
// form of the input the package rewrote first (POWDER's decoding, an added
// scheme) and has no place in the input as given.
type Error struct {
	Op        string    // the function that failed: "Normalize", "Parse", "Resolve", "Base.Normalize", ...
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
//
// The text after "): " is [Error.Detail]'s.
func (e *Error) Error() string {
	in, inCut := quotePrefix(e.Input)
	d := e.detail()
	const fixed = len(`canon.`) + len(`("`) + len(`"...): `) + len(` `)
	b := make([]byte, 0, fixed+len(e.Op)+len(e.Arg)+len(in)+d.size())
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
	return ownedString(d.append(b))
}

// Detail returns the error's text without the function and the input
// it names: the component, the reason and, when the problem has a place
// in Input, the rest of Input from there, quoted and cut as Error quotes
// it (at most 256 bytes, then "..."). Where Error says
//
//	canon.Normalize("http://h:8x/"): port: invalid character (at "x/")
//
// Detail says
//
//	port: invalid character (at "x/")
//
// for a caller that names the input its own way, as the canon command
// does by its line number. Like Error's, its text never holds a
// password: the rest is quoted from Input, which is redacted.
func (e *Error) Detail() string {
	d := e.detail()
	return ownedString(d.append(make([]byte, 0, d.size())))
}

// errorDetail is the text of Error.Detail in its parts.
type errorDetail struct {
	comp, reason string
	at           string // the rest of Input from Offset, cut; "" when none
	atCut        bool
}

func (e *Error) detail() errorDetail {
	d := errorDetail{comp: e.Component.String(), reason: e.reason}
	if d.reason == "" {
		d.reason = e.Err.Error()
	}
	if e.Offset >= 0 && e.Offset < len(e.Input) {
		d.at, d.atCut = quotePrefix(e.Input[e.Offset:])
	}
	return d
}

// size is the length of d's text when the rest quotes as itself
// (printable ASCII without quotes or backslashes), the common case.
func (d errorDetail) size() int {
	return len(d.comp) + len(`: `) + len(d.reason) + len(` (at "`) + len(d.at) + len(`"...)`)
}

// append appends d's text to b.
func (d errorDetail) append(b []byte) []byte {
	b = append(b, d.comp...)
	b = append(b, ": "...)
	b = append(b, d.reason...)
	if d.at != "" {
		b = append(b, " (at "...)
		b = strconv.AppendQuote(b, d.at)
		if d.atCut {
			b = append(b, "..."...)
		}
		b = append(b, ')')
	}
	return b
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

// withArg records in an *Error which argument of a function of two its
// Input is (see Error.Arg).
func withArg(err error, arg string) error {
	if e, ok := err.(*Error); ok {
		e.Arg = arg
	}
	return err
}
