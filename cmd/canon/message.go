package main

import (
	"errors"
	"fmt"
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

// errorText returns what the command's messages say of err: for a
// *canon.Error, its Detail, the text without the function and the input,
//
//	port: invalid character (at "x/")
//
// with "resolved against -base: " before it when the problem is in the
// URL that NormalizeRef made of the base and the line (the quoted rest
// is then from that URL), and "SURT of the key: " when SURT rejected the
// key (-format surt; the rest is from the key). The function is the
// command's business, and the input is the user's line, which the
// message names by its number (and which may carry a password that the
// library redacted in Input only). Any other error comes whole.
func errorText(err error) string {
	e := asError(err)
	if e == nil {
		return err.Error()
	}
	switch {
	case e.Arg == "resolved":
		return "resolved against -base: " + e.Detail()
	case e.Op == "SURT" || e.Op == "AppendSURT":
		return "SURT of the key: " + e.Detail()
	}
	return e.Detail()
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
