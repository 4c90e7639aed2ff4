package main

import (
	"bytes"
	"slices"
	"strconv"
	"unsafe"

	"github.com/seed15588f71/canon"
)

// rekeyBatch implements -rekey on the lines of b: each is "input TAB
// oldkey", as -format tsv writes it (with -format surt, "input TAB
// oldSURT", the SURT of the key); for each whose key the profile now
// makes differently it writes "input TAB oldkey TAB newkey". See doc.go
// ("Rekey") for what becomes of failures, blank inputs and bad lines.
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
		line, data = nextLine(data)
		b.nlines++
		if isBlank(line) {
			continue // no input, no key: what -format tsv never writes, and nothing to change
		}
		tab := bytes.IndexByte(line, '\t')
		if tab < 0 || bytes.IndexByte(line[tab+1:], '\t') >= 0 {
			b.rekeyFail(i, errNotTSV)
			continue
		}
		input := line[:tab]
		if cfg.escapedTSV && bytes.IndexByte(input, '\\') >= 0 {
			var ok bool
			if field, ok = unescapeTSVField(field[:0], input); !ok {
				b.rekeyFail(i, errBadEscape)
				continue
			}
			input = field
		}
		in := unsafe.String(unsafe.SliceData(input), len(input))
		old := unsafe.String(unsafe.SliceData(line[tab+1:]), len(line)-tab-1)
		var key string
		var fail *lineError
		switch {
		case len(in) > canon.MaxLength:
			// Failed as the other modes fail it, without quoting
			// 4 MiB of input in the error.
			fail = &errLineTooLong
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
			if old == "" {
				continue // no key then, none now: nothing changed
			}
			b.rekeyFail(i, *fail) // the key is gone: reported, counted, and written with an empty new key
		}
		if key == old {
			continue
		}
		b.out = slices.Grow(b.out, len(line)+len(key)+2) // (one allocation for a line of 16 MiB)
		b.out = append(b.out, line...)
		b.out = append(b.out, '\t')
		b.out = append(b.out, key...)
		b.out = append(b.out, '\n')
	}
}

// errNotTSV is the error of a -rekey line that is not "input TAB key".
var errNotTSV = lineError{
	msg:    `not an "input TAB key" line (-rekey reads what -format tsv writes, without -u -c)`,
	kind:   "error",
	offset: -1,
}

// errRekeyLineTooLong is the error of a -rekey line longer than
// maxLineBytes: more than an input of canon.MaxLength, escaped, a TAB and
// its key.
var errRekeyLineTooLong = lineError{
	msg:       "line longer than " + strconv.Itoa(maxLineBytes(&config{rekey: true})) + " bytes (an input of canon.MaxLength, escaped, a TAB and its key)",
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
