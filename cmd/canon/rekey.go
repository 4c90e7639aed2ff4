package main

import (
	"bytes"
	"slices"
	"strconv"
	"unsafe"

	"github.com/seed15588f71/canon"
)

// rekeyBatch implements -rekey and -inputs on the lines of b, records
// of the index in the format readIndexStart found (cfg.index):
//
//   - tsv: "input TAB oldkey", as -format tsv writes it (with -format
//     surt, "input TAB oldSURT"); for each whose key the profile now makes
//     differently it writes "input TAB oldkey TAB newkey";
//   - cdx, cdxj: a record whose original URL (a; "url") the profile now
//     keys differently is written as it is, with the new key (a SURT) in
//     place of the old one.
//
// With -inputs it writes each record's input instead. See doc.go
// ("Rekey", "Inputs") for what becomes of failures, blank inputs and
// bad lines.
func rekeyBatch(cfg *config, b *batch) {
	if b.long {
		b.nlines = 1
		b.rekeyFail(0, errRekeyLineTooLong)
		return
	}
	var buf, field, surt []byte
	data := b.data
	for i := 0; len(data) > 0; i++ {
		var line []byte
		raw := data
		line, data = nextLine(data)
		crlf := len(line) < len(raw) && raw[len(line)] == '\r' // (a CDX or CDXJ record keeps its line end)
		b.nlines++
		if len(line) > maxIndexLineBytes {
			// As the readers fail a longer line they do not keep: one
			// limit, whichever reader read the line.
			b.rekeyFail(i, errRekeyLineTooLong)
			continue
		}
		if isBlank(line) && (!cfg.inputs || cfg.index.format != indexTSV || bytes.IndexByte(line, '\t') < 0) {
			continue // no input, no key: nothing to change (-inputs: but the blank input of a tsv line)
		}
		// The record's input, and its old key at line[keyAt:keyEnd].
		var input []byte
		var keyAt, keyEnd int
		switch cfg.index.format {
		case indexTSV:
			if bytes.HasPrefix(line, []byte(indexHeader)) {
				if hdr, is, _ := tsvHeaderLine(line); is {
					switch {
					case cfg.index.escaped && string(hdr) == cfg.index.header:
						// The header again: indexes joined with cat.
					case cfg.index.escaped:
						b.rekeyFail(i, errOtherHeader)
					default:
						b.rekeyFail(i, errHeaderNotFirst)
					}
					continue
				}
			}
			tab := bytes.IndexByte(line, '\t')
			if tab < 0 || bytes.IndexByte(line[tab+1:], '\t') >= 0 {
				b.rekeyFail(i, errNotTSV)
				continue
			}
			input, keyAt, keyEnd = line[:tab], tab+1, len(line)
			if cfg.index.escaped && string(input) == tooLongField {
				// An input too long to keep: a failure then, reported
				// again, and a key gone if it had one.
				b.rekeyFail(i, errInputNotKept)
				if !cfg.inputs && keyEnd > keyAt {
					b.out = append(append(b.out, line...), "\t\n"...)
				}
				continue
			}
			if cfg.index.escaped && bytes.IndexByte(input, '\\') >= 0 {
				var ok bool
				if field, ok = unescapeTSVField(field[:0], input); !ok {
					b.rekeyFail(i, errBadEscape)
					continue
				}
				input = field
			}
		case indexCDX:
			if isCDXHeader(line) && !isCDXRecord(line) {
				switch {
				case string(line) == cfg.index.header:
					// The header again: indexes joined with cat.
				case cfg.index.header != "":
					b.rekeyFail(i, errOtherCDXHeader)
				default:
					b.rekeyFail(i, errCDXHeaderNotFirst)
				}
				continue
			}
			var urlAt, urlEnd int
			var why string
			if keyAt, keyEnd, urlAt, urlEnd, why = cfg.index.cdxRecord(line); why != "" {
				b.rekeyFail(i, recordError(why))
				continue
			}
			if input = line[urlAt:urlEnd]; len(input) == 0 || string(input) == noKey {
				b.rekeyFail(i, errNoURL)
				continue
			}
		case indexCDXJ:
			var hasURL bool
			var why string
			if keyEnd, field, hasURL, why = cdxjRecord(field[:0], line); why != "" {
				b.rekeyFail(i, recordError(why))
				continue
			}
			if input = field; !hasURL || len(input) == 0 {
				b.rekeyFail(i, errNoURLJSON)
				continue
			}
		}
		if cfg.inputs {
			if bytes.IndexByte(input, '\n') >= 0 {
				b.rekeyFail(i, errInputLF)
				continue
			}
			b.out = append(b.out, input...)
			if len(input) > 0 && input[len(input)-1] == '\r' {
				b.out = append(b.out, '\r') // (a line's last CR is read as part of its end)
			}
			b.out = append(b.out, '\n')
			continue
		}
		in := unsafe.String(unsafe.SliceData(input), len(input))
		old := unsafe.String(unsafe.SliceData(line[keyAt:keyEnd]), keyEnd-keyAt)
		none := "" // the key of a record that has none
		if cfg.index.format != indexTSV {
			none = noKey
		}
		var key string
		var fail *lineError
		switch {
		case len(in) > canon.MaxLength:
			// Failed as the other modes fail a line that long, without
			// quoting 4 MiB of input in the error, which names the
			// field.
			e := errFieldTooLong[cfg.index.format]
			fail = &e
		case isBlank(input):
			// A blank input has no key, as in the other modes. One that
			// had a key (in an index -format tsv did not write, or one
			// an old -base run keyed as the base) has lost it: the index
			// needs that change as much as a key that fails now.
			fail = &errBlankWithKey
		default:
			var err error
			if cfg.base != "" {
				key, err = cfg.page.Normalize(in)
			} else if buf, err = cfg.encoding.AppendNormalized(buf[:0], in, cfg.profile); err == nil {
				key = unsafe.String(unsafe.SliceData(buf), len(buf))
			}
			if err == nil && cfg.rekeySURT {
				if surt, err = canon.AppendSURT(surt[:0], key, 0); err == nil {
					key = unsafe.String(unsafe.SliceData(surt), len(surt))
				}
			}
			if err != nil {
				le := newLineError(in, err)
				fail = &le
			}
		}
		if fail != nil {
			if old == none && cfg.index.format == indexTSV {
				continue // no key then, none now: nothing changed (a tsv index said so when it was written)
			}
			b.rekeyFail(i, *fail) // the key is gone: reported, counted, and written as none
			key = none
		}
		if key == old {
			continue
		}
		b.out = slices.Grow(b.out, len(line)+len(key)+2) // (one allocation for a line of 16 MiB)
		if cfg.index.format == indexTSV {
			b.out = append(b.out, line...)
			b.out = append(b.out, '\t')
			b.out = append(b.out, key...)
		} else {
			b.out = append(b.out, line[:keyAt]...)
			b.out = append(b.out, key...)
			b.out = append(b.out, line[keyEnd:]...)
			if crlf {
				b.out = append(b.out, '\r')
			}
		}
		b.out = append(b.out, '\n')
	}
}

// errNotTSV is the error of a -rekey line that is not "input TAB key".
var errNotTSV = lineError{
	msg:    `not an "input TAB key" line (-rekey reads what -format tsv writes, without -u -c)`,
	kind:   "error",
	offset: -1,
}

// errHeaderNotFirst is the error of a "#canon" header after the first
// line of a tsv index: the header says how the lines after it are read
// (escaped) and under which key version, so it must come first. LC_ALL=C
// sort moves it below the lines that start with a byte before "#" (a
// space, "!", "\"", a blank input's TAB).
var errHeaderNotFirst = lineError{
	msg:    `a "#canon" header that is not the first line (it must stay first: it says how the lines after it are read; to sort an index, sort the lines after it: (head -n 1 index.tsv; tail -n +2 index.tsv | LC_ALL=C sort))`,
	kind:   "error",
	offset: -1,
}

// errOtherHeader is the error of a second "#canon" header that is not the
// first one: an index of another key version joined to this one. (The
// same header again, as cat writes two indexes of one key version, is
// skipped.)
var errOtherHeader = lineError{
	msg:    `a "#canon" header other than the index's first (two indexes of two key versions joined: rekey each alone)`,
	kind:   "error",
	offset: -1,
}

// errCDXHeaderNotFirst and errOtherCDXHeader are the same for a " CDX"
// header after the first line of a CDX index: it names the fields of the
// records after it, and must come first (its leading space sorts it
// first); the same header again is skipped.
var (
	errCDXHeaderNotFirst = lineError{
		msg:    `a " CDX" header after records of an index without one (it must come first: it names the fields of the records after it)`,
		kind:   "error",
		offset: -1,
	}
	errOtherCDXHeader = lineError{
		msg:    `a " CDX" header other than the index's first (two indexes of two layouts joined: rekey each alone)`,
		kind:   "error",
		offset: -1,
	}
)

// errRekeyLineTooLong is the error of a -rekey or -inputs line longer
// than maxIndexLineBytes (its line end aside): more than an input of
// canon.MaxLength, escaped, a TAB and its key.
var errRekeyLineTooLong = lineError{
	msg:       "line longer than " + strconv.Itoa(maxIndexLineBytes) + " bytes (an input of canon.MaxLength, escaped, a TAB and its key)",
	kind:      "ErrTooLong",
	component: canon.ComponentURL.String(),
	offset:    -1,
}

// errFieldTooLong is the error of an index record whose input (a tsv
// line's input field, a CDX record's URL, a CDXJ record's "url") is
// longer than canon.MaxLength, by the index's format: the error of a
// line that long in the other modes, named for the field.
var errFieldTooLong = map[string]lineError{
	indexTSV:  tooLongError("input field"),
	indexCDX:  tooLongError(`URL (the "a" field)`),
	indexCDXJ: tooLongError(`URL (the JSON's "url")`),
}

func tooLongError(field string) lineError {
	e := errLineTooLong
	e.msg = field + " longer than " + strconv.Itoa(canon.MaxLength) + " bytes"
	return e
}

// errInputNotKept is the error of a line of a tsv index whose input
// field is tooLongField: -format tsv -header did not keep the input,
// longer than canon.MaxLength, and wrote "\L" in its place.
var errInputNotKept = lineError{
	msg:       "input longer than " + strconv.Itoa(canon.MaxLength) + ` bytes, not kept in the index (-format tsv -header wrote \L in its place)`,
	kind:      "ErrTooLong",
	component: canon.ComponentURL.String(),
	offset:    -1,
}

// errBlankWithKey is the error of a -rekey line whose input is blank and
// whose key is not empty: a blank line is not a URL, and has no key now.
var errBlankWithKey = lineError{
	msg:    "blank input with a key (a blank line is not a URL: it has no key now)",
	kind:   "error",
	offset: -1,
}

// errNoURL is the error of a CDX record whose original URL (a) is "-"
// or empty: it has no input to key. It is written as it is, never with a
// key made of nothing.
var errNoURL = lineError{
	msg:    `CDX record without a URL (its "a" field is "-")`,
	kind:   "error",
	offset: -1,
}

// errNoURLJSON is errNoURL for a CDXJ record: its JSON has no "url"
// string, or an empty one.
var errNoURLJSON = lineError{
	msg:    `CDXJ record without a URL (its JSON has no "url" string)`,
	kind:   "error",
	offset: -1,
}

// errInputLF is the error of -inputs for an input that holds an LF (\n
// in an escaped field or in a CDXJ "url"; canon itself reads none, as it
// reads lines): it cannot be written as one line.
var errInputLF = lineError{
	msg:    "input with a line feed: it cannot be written as a line",
	kind:   "error",
	offset: -1,
}

// recordError is the error of a line that is no record of the index.
func recordError(why string) lineError {
	return lineError{msg: why, kind: "error", offset: -1}
}

// errBadEscape is the error of a -rekey line whose input field, in a file
// with the "#canon" header, holds a "\\" that starts no escape.
var errBadEscape = lineError{
	msg:    `input field with a "\" that is not one of \t \r \n \\ (-format tsv escapes those four after its "#canon" header)`,
	kind:   "error",
	offset: -1,
}

// rekeyFail records that line i of b failed with e; -rekey writes no
// output line for it (a key that is gone is written by rekeyBatch).
func (b *batch) rekeyFail(i int, e lineError) {
	b.errAt = append(b.errAt, i)
	b.errs = append(b.errs, e)
}
