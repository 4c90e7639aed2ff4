package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/seed15588f71/canon"
)

// A lineError is why an input line has no key, in the parts that
// "-format jsonl" writes as fields.
type lineError struct {
	msg       string // errorText: "component: reason (at \"rest\")"
	kind      string // the sentinel's name, e.g. "ErrInvalidPort"
	component string // e.g. "port"
	offset    int    // byte offset in the line of the text msg points at, or -1
}

// errLineTooLong is the error of a line longer than canon.MaxLength. The
// command does not keep such a line, so it reports it itself.
var errLineTooLong = lineError{
	msg:       fmt.Sprintf("line longer than %d bytes", canon.MaxLength),
	kind:      "ErrTooLong",
	component: canon.ComponentURL.String(),
	offset:    -1,
}

// sentinels names the library's sentinel errors for the "kind" field:
// the names of the Go variables, which are stable where their text might
// be reworded.
var sentinels = [...]struct {
	err  error
	name string
}{
	{canon.ErrRelative, "ErrRelative"},
	{canon.ErrInvalidEscape, "ErrInvalidEscape"},
	{canon.ErrInvalidHost, "ErrInvalidHost"},
	{canon.ErrInvalidPort, "ErrInvalidPort"},
	{canon.ErrInvalidScheme, "ErrInvalidScheme"},
	{canon.ErrInvalidChar, "ErrInvalidChar"},
	{canon.ErrTooLong, "ErrTooLong"},
}

// newLineError describes err, which the library returned for line.
func newLineError(line string, err error) lineError {
	le := lineError{msg: errorText(err), kind: "error", offset: -1}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			le.kind = s.name
			break
		}
	}
	e := asError(err)
	if e == nil {
		return le
	}
	le.component = e.Component.String()
	// e.Offset indexes e.Input, which is the line with any password
	// replaced by "xxxxx", or, under -base, the resolved URL. The text
	// from the offset on, which the message quotes, is where the problem
	// is: when the line ends with that text, the offset maps back to it.
	switch {
	case e.Offset < 0 || e.Offset > len(e.Input):
	case e.Input == line:
		le.offset = e.Offset
	case e.Offset < len(e.Input) && strings.HasSuffix(line, e.Input[e.Offset:]):
		le.offset = len(line) - (len(e.Input) - e.Offset)
	}
	return le
}

// errorText returns the text of err without what the command's messages
// say otherwise: a *canon.Error reads
//
//	canon.AppendNormalized("http://h:8x/"): port: invalid character (at "x/")
//	canon.NormalizeRef(resolved "http://h/x%zz"): path: invalid percent-encoding (at "%zz")
//
// and errorText returns what follows the quoted input,
// `port: invalid character (at "x/")`, with "resolved against -base: "
// before it when the problem is in the URL that NormalizeRef made of the
// base and the line, and "SURT of the key: " when SURT rejected the key
// (-format surt). The function is the command's business, and the
// input is the user's line, which the message names by its number (and
// which may carry a password that the library redacted in Input only).
// Any other error, or a text of another shape, comes whole.
func errorText(err error) string {
	s := err.Error()
	e := asError(err)
	if e == nil {
		return s
	}
	rest, ok := strings.CutPrefix(s, "canon.")
	if ok {
		rest, ok = strings.CutPrefix(rest, e.Op)
	}
	if ok {
		rest, ok = strings.CutPrefix(rest, "(")
	}
	if !ok {
		return s
	}
	// Which argument Input is, for a function of two: a word and a space
	// before the quoted input, as in `NormalizeRef(ref "x")`.
	arg := ""
	if k := strings.IndexByte(rest, ' '); k > 0 && !strings.Contains(rest[:k], `"`) {
		arg, rest = rest[:k], rest[k+1:]
	}
	// The input is quoted, so a "): " inside it is escaped: the end of
	// the quoted string is the end of the prefix.
	q, qerr := strconv.QuotedPrefix(rest)
	if qerr != nil {
		return s
	}
	msg, ok := strings.CutPrefix(rest[len(q):], "): ")
	if !ok {
		return s
	}
	if arg == "resolved" {
		// The quoted rest is then from that URL, not from the line.
		return "resolved against -base: " + msg
	}
	if e.Op == "SURT" || e.Op == "AppendSURT" {
		// -format surt: the problem is in the key, which the quoted
		// rest is from.
		return "SURT of the key: " + msg
	}
	return msg
}

// asError returns err as a *canon.Error, or nil. The library returns
// one as it is; errors.As, which costs more, is for a wrapped one.
func asError(err error) *canon.Error {
	if e, ok := err.(*canon.Error); ok {
		return e
	}
	var e *canon.Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}
