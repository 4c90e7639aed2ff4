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
// Input is the input as given with the password of its userinfo, if any,
// replaced by "xxxxx", so that error text and logs never carry it; Offset
// is a byte offset into that Input.
type Error struct {
	Op        string    // the function that failed: "Normalize", "Parse", "Resolve", ...
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
	const fixed = len(`canon.`) + len(`("`) + len(`"): `) + len(`: `) + len(` (at "`) + len(`")`)
	b := make([]byte, 0, fixed+len(e.Op)+len(e.Input)+len(comp)+len(reason)+len(at))
	b = append(b, "canon."...)
	b = append(b, e.Op...)
	b = append(b, '(')
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
// its password is redacted.
func toError(op, input string, shift int, err error) error {
	f, ok := err.(*failure)
	if !ok {
		return err
	}
	red, off := redactPassword(input, f.off+shift)
	return &Error{Op: op, Input: strings.Clone(red), Component: f.comp, Offset: off, Err: f.err, reason: f.reason}
}

// redactPassword replaces the password of the userinfo of s, if any, with
// "xxxxx" and maps off (an offset in s) to the same place in the result.
// It finds the authority the way the parser does, but tolerates any input.
func redactPassword(s string, off int) (string, int) {
	i := strings.Index(s, "://")
	if i < 0 {
		return s, off
	}
	auth := i + 3
	end := len(s)
	if k := strings.IndexAny(s[auth:], "/?#"); k >= 0 {
		end = auth + k
	}
	at := strings.LastIndexByte(s[auth:end], '@')
	if at < 0 {
		return s, off
	}
	at += auth
	colon := strings.IndexByte(s[auth:at], ':')
	if colon < 0 {
		return s, off
	}
	pw := auth + colon + 1 // password is s[pw:at]
	const mask = "xxxxx"
	red := s[:pw] + mask + s[at:]
	switch {
	case off >= at:
		off += len(mask) - (at - pw)
	case off > pw:
		off = pw
	}
	return red, off
}
