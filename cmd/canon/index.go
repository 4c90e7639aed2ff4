package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The formats of an index that -rekey and -inputs read (-index-format).
const (
	indexTSV  = "tsv"  // "input TAB key" lines, as -format tsv writes them, after a "#canon" header or not
	indexCDX  = "cdx"  // CDX: space-separated fields, after a " CDX" header that names them or not
	indexCDXJ = "cdxj" // CDXJ: "key timestamp {json}", the URL in the JSON's "url"
)

// indexFormats lists them, for messages.
const indexFormats = "tsv, cdx or cdxj"

// An indexLayout is what the first line of an index said: its format, and
// where a record's input and key are.
type indexLayout struct {
	format  string // indexTSV, indexCDX or indexCDXJ
	escaped bool   // tsv: after the "#canon" header, the input fields are escaped
	header  string // tsv: that header, without the TABs after it; cdx: the " CDX" header
	fields  int    // cdx: the number of fields its header names; 0: no header (7, 9 or 11 fields, N first, a third)
	keyAt   int    // cdx: the field of the key (N)
	urlAt   int    // cdx: the field of the original URL (a)
}

// noKey is the key of a CDX or CDXJ record that has none: CDX writes an
// absent field as "-", never as an empty one, which would shift the
// fields after it.
const noKey = "-"

// readIndexStart reads the start of the index -rekey or -inputs reads:
// the first line that is not blank says its format, unless
// -index-format named it, and is its header or its first record. It
// sets cfg.index, counts the lines it consumed (the blank ones before,
// and the header), writes the header of -rekey's output, and returns
// the input to read the records from.
//
// One design for every first line, from a file or a pipe alike (both
// read the line whole, up to the length of any line, maxIndexLineBytes):
//
//   - a line with a TAB is a tsv line: every line -format tsv writes has
//     one, and no CDX or CDXJ line has one (their fields are separated by
//     spaces; JSON encoders write a TAB as \t, and no TAB between
//     tokens). So an index line whose input starts with "#canon " or
//     " CDX" is an index line;
//   - "key digits {...}" is a CDXJ record, and 7, 9 or 11 space-separated
//     fields whose second is 14 digits (a timestamp) a CDX record without
//     a header: a record whose key is "#canon" or "CDX" is a record;
//   - then "#canon " starts the header of a tsv index (its KeyVersion),
//     and a line whose first field is "CDX" the header of a CDX index;
//   - anything else is no index -rekey reads: a usage error (exit 2),
//     which -index-format settles.
//
// Leading blank lines without a TAB give nothing in any format, and are
// skipped. A first line longer than any line is a reading error when it
// starts as a header would, or when the format is to be told from it.
func readIndexStart(cfg *config, in io.Reader, w *output) (io.Reader, int) {
	var (
		line  []byte // the first line that is not blank, without its end
		whole []byte // with its end: the bytes read from a pipe, to be read again
		long  bool   // it is longer than maxIndexLineBytes (line holds its start)
		crlf  bool   // it ends in CR LF
		found bool
		br    *bufio.Reader
	)
	skipped := 0 // blank lines before it
	if m := w.mapped; m != nil {
		for at := m.start; at < len(m.data); {
			l, _ := nextLine(m.data[at:])
			if len(l) > maxIndexLineBytes {
				line, long, found = l[:maxIndexLineBytes+1], true, true
				break
			}
			if !isBlank(l) || bytes.IndexByte(l, '\t') >= 0 {
				line, found = l, true
				crlf = at+len(l) < len(m.data) && m.data[at+len(l)] == '\r'
				break
			}
			if k := bytes.IndexByte(m.data[at:], '\n'); k >= 0 {
				at += k + 1
			} else {
				at = len(m.data)
			}
			m.start = at
			skipped++
		}
	} else {
		br = bufio.NewReaderSize(in, 64<<10)
		in = br
		for {
			var err error
			whole, err = readLineUpTo(br, maxIndexLineBytes+2) // (the longest line and "\r\n")
			if err != nil {
				fmt.Fprintf(w.stderr, "canon: reading input: %v\n", err)
				return in, exitProblem
			}
			if len(whole) == 0 {
				break // the end
			}
			l, _ := nextLine(whole)
			if len(l) > maxIndexLineBytes {
				line, long, found = l, true, true
				break
			}
			if !isBlank(l) || bytes.IndexByte(l, '\t') >= 0 {
				line, found = l, true
				crlf = len(l) < len(whole) && whole[len(l)] == '\r'
				break
			}
			skipped++
		}
	}
	w.lines += skipped
	format := cfg.indexFormat
	if !found {
		// Nothing but blank lines: no record to read, in any format.
		if format == "" {
			format = indexTSV
		}
		cfg.index = indexLayout{format: format}
		return in, exitOK
	}
	hdr, tsvHeader, tabbed := tsvHeaderLine(line)
	if tabbed && (format == "" || format == indexTSV) {
		// Not the header: say so, as an awk may have given the header a TAB.
		fmt.Fprintf(w.stderr, "canon: %s: the first line %s holds a TAB: it is read as an index line (its input, then its key), not as a \"#canon\" header, which holds none (an awk that assigns a field writes one after the header: remove it and run again)\n",
			cfg.mode(), quoteInput(line))
	}
	cdxHeader := isCDXHeader(line) && !isCDXRecord(line) // (a header's second field is a letter, a record's a timestamp)
	if format == "" {
		format = detectIndex(line)
		if format == "" {
			if long && (tsvHeader || cdxHeader) {
				format = indexTSV
				if cdxHeader {
					format = indexCDX
				}
			} else {
				why := ""
				if long {
					why = fmt.Sprintf(", longer than %d bytes", maxIndexLineBytes)
				}
				fmt.Fprintf(w.stderr, "canon: %s: cannot tell the index's format from its first line (%s%s): it reads a -format tsv index (\"input TAB key\" lines, after a \"#canon\" header or not), a CDX index (after its \" CDX\" header or not) or a CDXJ one; -index-format names the format\n",
					cfg.mode(), quoteInput(line), why)
				return in, exitUsage
			}
		}
	}
	if format != indexTSV && cfg.rekey && cfg.formatFlag == "tsv" {
		fmt.Fprintf(w.stderr, "canon: -rekey: the index is %s (its first line is %s), not -format tsv's \"input TAB key\" lines: its keys are SURTs (-format surt, or no -format)\n", strings.ToUpper(format), quoteInput(line))
		return in, exitUsage
	}
	cfg.index = indexLayout{format: format}
	if format == indexCDX || format == indexCDXJ {
		cfg.rekeySURT = true // CDX keys are SURTs
		if cfg.rekey && !cfg.profileSet {
			// As a tsv index's header says when it is another
			// profile's: a CDX index has no key version to compare,
			// and its keys are seldom rfc3986's.
			fmt.Fprintf(w.stderr, "canon: -rekey: a %s index rekeyed without -p, under %q: an archive's keys are -p archive's; a forgotten -p lists every key the profiles make differently as changed\n",
				strings.ToUpper(format), cfg.profile.KeyVersion())
		}
	}
	header := format == indexTSV && tsvHeader || format == indexCDX && cdxHeader
	if !header {
		if whole != nil {
			in = io.MultiReader(bytes.NewReader(whole), br) // a record: read again
		}
		return in, exitOK
	}
	if long {
		fmt.Fprintf(w.stderr, "canon: reading input: the header line (%s) is longer than %d bytes\n", quoteInput(line), maxIndexLineBytes)
		return in, exitProblem
	}
	if format == indexCDX {
		cfg.index.header = string(line)
		if why := cfg.index.readCDXHeader(line); why != "" {
			fmt.Fprintf(w.stderr, "canon: %s: the CDX header %s %s\n", cfg.mode(), quoteInput(line), why)
			return in, exitUsage
		}
	}
	if m := w.mapped; m != nil {
		if k := bytes.IndexByte(m.data[m.start:], '\n'); k >= 0 {
			m.start += k + 1
		} else {
			m.start = len(m.data) // the header alone, without a line end
		}
	}
	w.lines++ // (the header is a line of the input)
	switch {
	case format == indexCDX:
		if cfg.rekey {
			w.out.Write(line) // the index's own header: the records written keep its fields
			if crlf {
				w.out.WriteByte('\r') // (and their line ends)
			}
			w.out.WriteByte('\n')
		}
	case cfg.rekey && bytes.HasSuffix(hdr, []byte(expressionsMark)):
		fmt.Fprintf(w.stderr, "canon: -rekey: the index is of lookup expressions (its header %s: -format expressions -header wrote it): its lines are the expressions of each input that had a key, not \"input TAB key\" lines, and -rekey cannot migrate them; write it again from its inputs: canon -inputs < index.tsv | uniq | canon -p safebrowsing -format expressions -header\n",
			quoteInput(hdr))
		return in, exitUsage
	case cfg.rekey:
		readKeyVersion(cfg, hdr, w)
		fallthrough
	default:
		cfg.index.escaped = true
		cfg.index.header = string(hdr)
	}
	return in, exitOK
}

// tsvHeaderLine reports whether line is the "#canon" header of a tsv
// index: "#canon " and a key version, with no TAB. Every line canon
// writes in a tsv index holds a TAB ("input TAB key", a failing input's
// key empty), so a line with a TAB is an index line, even one whose input
// starts with "#canon " and whose key is empty, which is what -format tsv
// writes for that input when it fails (-rekey must read it back as
// unchanged). tabbed reports such a line that has the shape of a header
// ("#canon ", " unicode-" in it as in every key version, TABs only
// after it): an awk that assigns a field of each line
// (awk -F'\t' -v OFS='\t' '{$2=$2} 1') writes the header back so, and
// the command says how it read it.
func tsvHeaderLine(line []byte) (header []byte, is, tabbed bool) {
	if !bytes.HasPrefix(line, []byte(indexHeader)) {
		return nil, false, false
	}
	tab := bytes.IndexByte(line, '\t')
	if tab < 0 {
		return line, true, false
	}
	return nil, false, bytes.Contains(line[:tab], []byte(" unicode-")) && len(bytes.Trim(line[tab:], "\t")) == 0
}

// readLineUpTo reads a line from br, with its end; of a line longer than
// max it reads a little more than max bytes, and leaves the rest (the
// reader of the lines, given the bytes read again first, skips such a
// line). At the end of the input it returns what is left, nil when
// nothing is.
func readLineUpTo(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for len(line) <= max {
		piece, err := br.ReadSlice('\n') // (a line longer than the buffer comes in pieces)
		line = append(line, piece...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		break
	}
	return line, nil
}

// readKeyVersion compares the KeyVersion of a tsv index's header with the
// one the keys are made under now, and says on standard error when they
// are the same (no key should change) or of two profiles (a forgotten -p
// lists every key of another profile as changed); then it writes the
// header of the key version of the output's keys.
func readKeyVersion(cfg *config, line []byte, w *output) {
	old := strings.TrimSpace(string(line[len(indexHeader):]))
	now := cfg.profile.KeyVersion()
	switch {
	case old == now:
		fmt.Fprintf(w.stderr, "canon: -rekey: the index was made under %s, the key version this build makes: no key should change\n", quoteInput([]byte(old)))
	case keyVersionProfile(old) != keyVersionProfile(now):
		// Rekeying to another profile is a use of -rekey too, but a
		// forgotten -p is the likelier one: said, not refused.
		fmt.Fprintf(w.stderr, "canon: -rekey: the index was made under %s, another profile than the keys now (%q): keys of two profiles differ wherever their steps do\n", quoteInput([]byte(old)), now)
	}
	writeIndexHeader(w.out, cfg.profile, "")
}

// detectIndex returns the format of an index from its first line that is
// not blank (see readIndexStart), or "" when that line is none of them.
func detectIndex(line []byte) string {
	switch {
	case bytes.IndexByte(line, '\t') >= 0:
		return indexTSV
	case isCDXJRecord(line):
		return indexCDXJ
	case isCDXRecord(line):
		return indexCDX
	case bytes.HasPrefix(line, []byte(indexHeader)):
		return indexTSV
	case isCDXHeader(line):
		return indexCDX
	}
	return ""
}

// isCDXHeader reports whether line is a CDX header: "CDX" as its first
// space-separated field (" CDX N b a m s k r M S V g"; the leading space
// sorts it first).
func isCDXHeader(line []byte) bool {
	t := bytes.TrimLeft(line, " ")
	return bytes.Equal(t, []byte("CDX")) || bytes.HasPrefix(t, []byte("CDX "))
}

// isCDXJRecord reports whether line has the shape of a CDXJ record: a
// key, a space, a timestamp (digits), a space, and a JSON object, "{" to
// "}".
func isCDXJRecord(line []byte) bool {
	i := bytes.IndexByte(line, ' ')
	if i <= 0 {
		return false
	}
	j := i + 1
	for j < len(line) && '0' <= line[j] && line[j] <= '9' {
		j++
	}
	if j == i+1 || j == len(line) || line[j] != ' ' {
		return false
	}
	js := bytes.TrimRight(line[j+1:], " ")
	return len(js) >= 2 && js[0] == '{' && js[len(js)-1] == '}'
}

// isCDXRecord reports whether line has the shape of a record of a CDX
// index without a header: 7, 9 or 11 fields separated by single spaces,
// the second a timestamp of 14 digits.
func isCDXRecord(line []byte) bool {
	if !headerlessCDXFields(bytes.Count(line, []byte(" ")) + 1) {
		return false
	}
	f := line[bytes.IndexByte(line, ' ')+1:]
	f = f[:bytes.IndexByte(f, ' ')]
	if len(f) != 14 {
		return false
	}
	for _, c := range f {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// headerlessCDXFields reports whether a record of n fields is one of a
// CDX index without a header, the key first and the URL third: 11
// (" CDX N b a m s k r M S V g", the Wayback Machine's and pywb's), 9
// (" CDX N b a m s k V g", the older one) or 7 (urlkey timestamp original
// mimetype statuscode digest length: what the Wayback CDX server writes
// by default).
func headerlessCDXFields(n int) bool { return n == 7 || n == 9 || n == 11 }

// readCDXHeader reads the field letters of a CDX header (one letter a
// field, after "CDX"): where the key (N, the massaged URL: the SURT) and
// the original URL (a) are, and how many fields a record has. It returns
// why they cannot be read, or "".
func (l *indexLayout) readCDXHeader(line []byte) string {
	codes := strings.Fields(string(line))[1:]
	l.keyAt, l.urlAt = -1, -1
	for i, c := range codes {
		if len(c) != 1 {
			// (Not quoted: the message quotes the line, masked, and a
			// field alone may hold a part of a password.)
			return fmt.Sprintf("has a field code of %d bytes (field %d): each field is named by one letter", len(c), i+1)
		}
		switch c {
		case "N":
			if l.keyAt >= 0 {
				return "names two key fields (N)"
			}
			l.keyAt = i
		case "a":
			if l.urlAt >= 0 {
				return "names two original URL fields (a)"
			}
			l.urlAt = i
		}
	}
	switch {
	case l.keyAt < 0:
		return "names no key field (N, the massaged URL)"
	case l.urlAt < 0:
		return "names no original URL field (a)"
	}
	l.fields = len(codes)
	return ""
}

// cdxRecord finds the key and the original URL of a CDX record: their
// offsets in line and lengths. It returns why line is no record of the
// index, or "".
func (l *indexLayout) cdxRecord(line []byte) (keyAt, keyEnd, urlAt, urlEnd int, why string) {
	line = bytes.TrimRight(line, " ")
	keyField, urlField := l.keyAt, l.urlAt
	if l.fields == 0 {
		keyField, urlField = 0, 2
	}
	n, start := 0, 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) && line[i] != ' ' {
			continue
		}
		switch n {
		case keyField:
			keyAt, keyEnd = start, i
		case urlField:
			urlAt, urlEnd = start, i
		}
		n++
		start = i + 1
	}
	switch {
	case l.fields > 0 && n != l.fields:
		return 0, 0, 0, 0, fmt.Sprintf("not a record of the CDX index: %d fields, its header names %d", n, l.fields)
	case l.fields == 0 && !headerlessCDXFields(n):
		return 0, 0, 0, 0, fmt.Sprintf("not a CDX record: %d fields (a CDX index without a header has 7, 9 or 11, the key first and the URL third)", n)
	case keyEnd == keyAt:
		return 0, 0, 0, 0, "not a CDX record: its key field is empty"
	}
	return keyAt, keyEnd, urlAt, urlEnd, ""
}

// cdxjRecord finds the key of a CDXJ record ("key timestamp {json}") and
// appends its URL, the JSON's "url" string, to dst. It returns why line
// is no CDXJ record, or has no URL, or "".
func cdxjRecord(dst, line []byte) (keyEnd int, url []byte, hasURL bool, why string) {
	if !isCDXJRecord(line) {
		return 0, dst, false, `not a CDXJ record ("key timestamp {json}")`
	}
	keyEnd = bytes.IndexByte(line, ' ')
	js := line[keyEnd+1:]
	js = js[bytes.IndexByte(js, ' ')+1:]
	if !json.Valid(js) {
		return 0, dst, false, "not a CDXJ record: its JSON is not valid"
	}
	url, hasURL, why = jsonMember(dst, js, "url")
	return keyEnd, url, hasURL, why
}

// jsonMember appends the string value of the member name of the JSON
// object js (valid JSON) to dst, decoded, and reports whether js has
// one. A member whose value is not a string (null, a number) is none; two
// members of that name are an error, as what they mean is not clear.
func jsonMember(dst, js []byte, name string) ([]byte, bool, string) {
	i := skipJSONSpace(js, 0) + 1 // after "{"
	var key []byte
	found := false
	start := len(dst)
	for {
		i = skipJSONSpace(js, i)
		if js[i] == '}' {
			return dst, found, ""
		}
		end := jsonStringEnd(js, i)
		key = appendJSONText(key[:0], js[i+1:end-1])
		i = skipJSONSpace(js, end) + 1 // after ":"
		i = skipJSONSpace(js, i)
		if string(key) == name {
			if found {
				return dst[:start], false, `not a CDXJ record: its JSON has two "` + name + `" members`
			}
			if js[i] == '"' {
				end := jsonStringEnd(js, i)
				dst = appendJSONText(dst, js[i+1:end-1])
				found = true
			}
		}
		i = skipJSONValue(js, i)
		i = skipJSONSpace(js, i)
		if js[i] == ',' {
			i++
		}
	}
}

func skipJSONSpace(js []byte, i int) int {
	for i < len(js) && (js[i] == ' ' || js[i] == '\t' || js[i] == '\n' || js[i] == '\r') {
		i++
	}
	return i
}

// jsonStringEnd returns the offset after the string that starts at js[i].
func jsonStringEnd(js []byte, i int) int {
	for k := i + 1; k < len(js); k++ {
		switch js[k] {
		case '\\':
			k++
		case '"':
			return k + 1
		}
	}
	return len(js)
}

// skipJSONValue returns the offset after the value that starts at js[i].
func skipJSONValue(js []byte, i int) int {
	switch js[i] {
	case '"':
		return jsonStringEnd(js, i)
	case '{', '[':
		depth := 0
		for k := i; k < len(js); k++ {
			switch js[k] {
			case '"':
				k = jsonStringEnd(js, k) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return k + 1
				}
			}
		}
		return len(js)
	}
	for i < len(js) && !bytes.ContainsRune([]byte(",}] \t\n\r"), rune(js[i])) {
		i++
	}
	return i
}

// appendJSONText appends the text of the JSON string s (without its
// quotes, valid) to dst, its escapes decoded; a lone surrogate is
// U+FFFD, as encoding/json decodes it. Other bytes are kept as they are.
func appendJSONText(dst, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		switch s[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(s[i+1 : i+5])
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
					r2 = hex4(s[i+3 : i+7])
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, s[i])
		}
	}
	return dst
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
