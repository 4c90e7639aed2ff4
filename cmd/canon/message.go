package main

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

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

// quoteInput quotes a line of input, or a part of one, in a message the
// command writes itself (the first line of an index it cannot read, a
// header): its passwords masked (maskPasswords), then quoted as %q does,
// only its first 256 bytes (cut before a character) and "..." after the
// quote when it is longer: a line may be 20 MiB long, and a message
// should not be. Every message that quotes input quotes it so.
func quoteInput(b []byte) string {
	b = maskPasswords(b)
	if len(b) <= 256 {
		return strconv.Quote(string(b))
	}
	n := 256
	for n > 256-utf8.UTFMax && !utf8.RuneStart(b[n]) {
		n--
	}
	return strconv.Quote(string(b[:n])) + "..."
}

// maskPasswords returns b with everything that could be a password
// replaced by passwordMask, as the library redacts the input of its
// errors. The library's redaction is its own (the command uses the
// exported API only), so this one masks more, never less: the library
// masks, in each reading of the text (as written, without its TABs and
// line ends, with its triplets decoded once or until none is left),
// from a ":" to an "@" that could bound a userinfo; each such ":" is a
// ":" or the "%" of an escape, and each such "@" an "@" or the "%" of an
// escape, in b. So when b could hold an "@" at all (one written, or a
// "%", a "4" and a "0", which an escaped one takes), what lies after the
// first ":" or "%" and before the last "@" or "%" is masked. That masks
// every field of a line between the first and the last of them (a CDX
// record's URL and what follows), and some text that is no password;
// a message loses no more than a place to look.
func maskPasswords(b []byte) []byte {
	if bytes.IndexByte(b, '@') < 0 && (bytes.IndexByte(b, '%') < 0 || bytes.IndexByte(b, '4') < 0 || bytes.IndexByte(b, '0') < 0) {
		return b
	}
	from := bytes.IndexAny(b, ":%")
	to := max(bytes.LastIndexByte(b, '@'), bytes.LastIndexByte(b, '%'))
	if from < 0 || from+1 >= to {
		return b
	}
	m := make([]byte, 0, len(b)-(to-from-1)+len(passwordMask))
	m = append(m, b[:from+1]...)
	m = append(m, passwordMask...)
	return append(m, b[to:]...)
}

// passwordMask stands for a password in error text, as in the library's.
const passwordMask = "xxxxx"
