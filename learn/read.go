package learn

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed15588f71/canon"
)

// Format is a kind of capture index.
type Format string

const (
	CDX      Format = "cdx"       // CDX (9 or 11 fields, with or without the " CDX …" header line that names the fields)
	CDXJ     Format = "cdxj"      // urlkey timestamp {JSON} (pywb, OutbackCDX)
	CrawlLog Format = "crawl-log" // Heritrix crawl.log
	Pairs    Format = "pairs"     // url TAB digest [TAB timestamp]
)

// Formats returns the formats ReadCaptures reads, in the order a
// flag's help lists them (a new slice each time).
func Formats() []Format { return []Format{CDX, CDXJ, CrawlLog, Pairs} }

// formatNames lists the formats for a message: "cdx, cdxj, crawl-log,
// pairs".
func formatNames() string {
	var b strings.Builder
	for i, f := range Formats() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(f))
	}
	return b.String()
}

// ParseFormat returns the format named name (as Formats writes them),
// or an error that lists them.
func ParseFormat(name string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == name {
			return f, nil
		}
	}
	return "", fmt.Errorf("learn: unknown index format %s: want one of %s", quoteField(name), formatNames())
}

// ErrMalformed is wrapped by the error of a line ReadCaptures cannot read.
var ErrMalformed = errors.New("learn: malformed index line")

// maxLine is the longest line ReadCaptures reads: twice canon's longest
// URL, so that a line holds any URL canon takes with the fields around
// it (a CDXJ line's JSON may escape the URL's bytes). A longer line is
// malformed, and skipped without being held.
const maxLine = 2 * canon.MaxLength

// LineError is the error of a line ReadCaptures cannot read: which line
// and why. It wraps ErrMalformed. Reason quotes no more of the line than
// the field at fault, with any password masked ("xxxxx"), as canon's
// errors do.
type LineError struct {
	Line   int    // the line's number, from 1
	Format Format // the index's format; "" when no line had shown it yet
	Reason string // why the line is malformed: "bad timestamp \"2024x\""
}

func (e *LineError) Error() string {
	f := string(e.Format)
	if f == "" {
		f = "format unknown"
	}
	return "learn: malformed index line " + strconv.Itoa(e.Line) + " (" + f + "): " + e.Reason
}

func (e *LineError) Unwrap() error { return ErrMalformed }

// quoteField quotes a field of a line for an error: at most 100 bytes of
// it (and an ellipsis), with any password masked (redactField: the field
// is no URL, and all before an "@" in it goes).
func quoteField(s string) string {
	s = redactField(s)
	if len(s) > 100 {
		cut := 100
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}

// skippable reports whether a line is empty or a comment, which every
// format skips.
func skippable(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || t[0] == '#'
}

// isCDXHeader reports whether a line is a CDX header (" CDX N b a …").
func isCDXHeader(line string) bool {
	t := strings.TrimLeft(line, " ")
	return t == "CDX" || strings.HasPrefix(t, "CDX ")
}

// DetectFormat returns the format of an index from its first non-empty,
// non-comment line. Its error quotes nothing of the line.
func DetectFormat(line string) (Format, error) {
	f, ok := detect(line)
	if !ok {
		return "", errors.New("learn: " + undetected)
	}
	return f, nil
}

// undetected is why a line shows no format.
var undetected = "cannot tell the index format from the line (formats: " + formatNames() + ")"

// detect is DetectFormat.
func detect(line string) (Format, bool) {
	line = strings.TrimRight(line, "\r\n")
	if isCDXHeader(line) {
		return CDX, true
	}
	if sp := strings.SplitN(line, " ", 3); len(sp) == 3 && strings.HasPrefix(sp[2], "{") {
		return CDXJ, true
	}
	if strings.Contains(line, "\t") {
		return Pairs, true
	}
	if fs := strings.Fields(line); len(fs) >= 10 {
		if _, ok := parseISO(fs[0]); ok {
			return CrawlLog, true
		}
	}
	if sp := strings.Split(line, " "); (len(sp) == 9 || len(sp) == 11) && len(sp[1]) == 14 && allDigits(sp[1]) {
		return CDX, true
	}
	return "", false
}

// ReadCaptures returns the captures of the index r holds, in format f
// ("": detected from the first line that is not empty or a comment and
// shows one; a line before it that shows none is malformed), in the
// order of its lines. Each step gives a capture and nil, or, for a
// malformed line, the zero Capture and a *LineError (wrapping
// ErrMalformed), after which reading goes on; or an error of another
// kind (r's, or an unknown f) as its last step. Empty lines and lines
// starting with "#" are skipped in every format; lines may end in CRLF,
// and the first may start with a UTF-8 byte order mark.
// A line longer than twice canon.MaxLength is malformed; it is skipped
// without being held in memory.
func ReadCaptures(r io.Reader, f Format) iter.Seq2[Capture, error] {
	return func(yield func(Capture, error) bool) {
		if f != "" {
			if _, err := ParseFormat(string(f)); err != nil {
				yield(Capture{}, err)
				return
			}
		}
		p := parser{f: f}
		lr := lineReader{br: bufio.NewReaderSize(r, 64<<10)}
		for {
			b, err := lr.next()
			if err != nil {
				if err != io.EOF {
					yield(Capture{}, err)
				}
				return
			}
			n := lr.n
			if n == 1 {
				b = bytes.TrimPrefix(b, []byte("\ufeff")) // (a byte order mark)
			}
			if lr.long {
				if !yield(Capture{}, &LineError{Line: n, Format: p.f, Reason: "longer than " + strconv.Itoa(maxLine) + " bytes"}) {
					return
				}
				continue
			}
			line := string(b)
			if skippable(line) {
				continue
			}
			if p.f == "" {
				df, ok := detect(line)
				if !ok {
					if !yield(Capture{}, &LineError{Line: n, Reason: undetected}) {
						return
					}
					continue
				}
				p.f = df
			}
			c, ok, why := p.parse(line, b)
			switch {
			case why != "":
				if !yield(Capture{}, &LineError{Line: n, Format: p.f, Reason: why}) {
					return
				}
			case ok:
				if !yield(c, nil) {
					return
				}
			}
		}
	}
}

// lineReader reads lines of at most maxLine bytes, without their line
// end, and skips the rest of a longer line (long).
type lineReader struct {
	br   *bufio.Reader
	buf  []byte
	n    int  // the number of the line last read
	long bool // the line last read is longer than maxLine
}

func (lr *lineReader) next() ([]byte, error) {
	lr.buf, lr.long = lr.buf[:0], false
	for {
		chunk, err := lr.br.ReadSlice('\n')
		if len(chunk) > 0 && !lr.long {
			if len(lr.buf)+len(chunk) > maxLine+2 { // (+2: the CRLF)
				lr.long, lr.buf = true, lr.buf[:0]
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && (len(lr.buf) > 0 || lr.long):
			// The last line, without a line end.
		case err != nil:
			return nil, err
		}
		lr.n++
		b := lr.buf
		b = bytes.TrimSuffix(b, []byte("\n"))
		b = bytes.TrimSuffix(b, []byte("\r"))
		if len(b) > maxLine {
			lr.long = true
		}
		return b, nil
	}
}

// parser reads the lines of one index.
type parser struct {
	f Format

	// CDX: the fields' positions (-1: absent) and count (0: no header,
	// 9 or 11 fields in the default order).
	hdr            bool
	nf             int
	ia, ib, is, ik int

	rec cdxjRecord
}

// parse reads a line: a capture (ok), nothing (a header), or why the
// line is malformed.
func (p *parser) parse(line string, b []byte) (c Capture, ok bool, why string) {
	switch p.f {
	case CDX:
		return p.cdx(line)
	case CDXJ:
		return p.cdxj(line, b)
	case CrawlLog:
		return crawlLog(line)
	default:
		return pairs(line)
	}
}

// cdx reads a CDX line or header.
func (p *parser) cdx(line string) (Capture, bool, string) {
	if isCDXHeader(line) {
		codes := strings.Fields(line)[1:]
		ia, ib, is, ik := -1, -1, -1, -1
		for i, code := range codes {
			if len(code) != 1 {
				return Capture{}, false, "header field code " + quoteField(code) + " is not a single letter"
			}
			switch code[0] {
			case 'a':
				ia = i
			case 'b':
				ib = i
			case 's':
				is = i
			case 'k':
				ik = i
			}
		}
		if ia < 0 {
			return Capture{}, false, "header names no original URL field (a)"
		}
		p.hdr, p.nf = true, len(codes)
		p.ia, p.ib, p.is, p.ik = ia, ib, is, ik
		return Capture{}, false, ""
	}
	line = strings.TrimRight(line, " \r")
	fs := strings.Split(line, " ")
	ia, ib, is, ik := 2, 1, 4, 5
	if p.hdr {
		if len(fs) != p.nf {
			return Capture{}, false, fmt.Sprintf("%d fields, the header names %d", len(fs), p.nf)
		}
		ia, ib, is, ik = p.ia, p.ib, p.is, p.ik
	} else if len(fs) != 9 && len(fs) != 11 {
		return Capture{}, false, fmt.Sprintf("%d fields, want 9 or 11", len(fs))
	}
	var c Capture
	var why string
	if c.URL, why = checkURL(fs[ia]); why != "" {
		return Capture{}, false, why
	}
	if ib >= 0 && fs[ib] != "-" {
		t, ok := parseDigits(fs[ib])
		if !ok {
			return Capture{}, false, "bad timestamp " + quoteField(fs[ib])
		}
		c.Time = t
	}
	if is >= 0 {
		s, ok := parseStatus(fs[is])
		if !ok {
			return Capture{}, false, "bad status " + quoteField(fs[is])
		}
		c.Status = s
	}
	if ik >= 0 {
		c.Digest = fs[ik]
	}
	return c, true, ""
}

// cdxjRecord is the part of a CDXJ line's JSON that a Capture takes.
type cdxjRecord struct {
	URL    *string    `json:"url"`
	Status jsonStatus `json:"status"`
	Digest string     `json:"digest"`
}

// jsonStatus is a status written as a string ("200", "-") or a number.
type jsonStatus int

func (s *jsonStatus) UnmarshalJSON(b []byte) error {
	v := string(b)
	if v == "null" {
		*s = 0
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
	}
	n, ok := parseStatus(v)
	if !ok {
		return errors.New("bad status " + quoteField(v)) // (the value, its JSON escapes decoded)
	}
	*s = jsonStatus(n)
	return nil
}

// cdxj reads a CDXJ line: urlkey timestamp {json}.
func (p *parser) cdxj(line string, b []byte) (Capture, bool, string) {
	i := strings.IndexByte(line, ' ')
	if i <= 0 {
		return Capture{}, false, "want urlkey timestamp {json}"
	}
	j := strings.IndexByte(line[i+1:], ' ')
	if j < 0 {
		return Capture{}, false, "want urlkey timestamp {json}"
	}
	j += i + 1
	ts := line[i+1 : j]
	js := bytes.TrimSpace(b[j+1:])
	if len(js) == 0 || js[0] != '{' {
		return Capture{}, false, "the third field is not a JSON object"
	}
	var c Capture
	t, ok := parseDigits(ts)
	if !ok {
		return Capture{}, false, "bad timestamp " + quoteField(ts)
	}
	c.Time = t
	p.rec = cdxjRecord{}
	if err := json.Unmarshal(js, &p.rec); err != nil {
		return Capture{}, false, "bad JSON: " + redact(err.Error())
	}
	if p.rec.URL == nil {
		return Capture{}, false, `the JSON has no "url"`
	}
	var why string
	if c.URL, why = checkURL(*p.rec.URL); why != "" {
		return Capture{}, false, why
	}
	c.Status = int(p.rec.Status)
	c.Digest = p.rec.Digest
	return c, true, ""
}

// crawlLog reads a Heritrix crawl.log line: log time, status, size, URL,
// discovery path, via, MIME type, thread, fetch time+duration, digest,
// source tag, annotations (and, optionally, more).
func crawlLog(line string) (Capture, bool, string) {
	fs := strings.Fields(line)
	if len(fs) < 10 {
		return Capture{}, false, fmt.Sprintf("%d columns, want at least 10", len(fs))
	}
	logTime, ok := parseISO(fs[0])
	if !ok {
		return Capture{}, false, "bad log timestamp " + quoteField(fs[0])
	}
	status, err := strconv.Atoi(fs[1])
	if err != nil || status < -99999 || status > 99999 {
		return Capture{}, false, "bad fetch status " + quoteField(fs[1])
	}
	var c Capture
	var why string
	if c.URL, why = checkURL(fs[3]); why != "" {
		return Capture{}, false, why
	}
	c.Status = status
	c.Time = logTime
	d := fs[8]
	k := 0
	for k < len(d) && d[k] >= '0' && d[k] <= '9' {
		k++
	}
	switch {
	case k >= 17:
		k = 17
	case k >= 14:
		k = 14
	default:
		k = 0
	}
	if k > 0 {
		if t, ok := parseDigits(d[:k]); ok {
			c.Time = t
		}
	}
	c.Digest = fs[9]
	return c, true, ""
}

// pairs reads a line: url TAB digest [TAB timestamp].
func pairs(line string) (Capture, bool, string) {
	line = strings.TrimRight(line, "\r")
	fs := strings.Split(line, "\t")
	if len(fs) != 2 && len(fs) != 3 {
		return Capture{}, false, fmt.Sprintf("%d tab-separated columns, want 2 or 3", len(fs))
	}
	var c Capture
	var why string
	if c.URL, why = checkURL(strings.TrimSpace(fs[0])); why != "" {
		return Capture{}, false, why
	}
	c.Digest = strings.TrimSpace(fs[1])
	if len(fs) == 3 {
		ts := strings.TrimSpace(fs[2])
		switch {
		case ts == "" || ts == "-":
		case allDigits(ts):
			t, ok := parseDigits(ts)
			if !ok {
				return Capture{}, false, "bad timestamp " + quoteField(ts)
			}
			c.Time = t
		default:
			t, err := time.Parse(time.RFC3339Nano, ts)
			if err != nil {
				return Capture{}, false, "bad timestamp " + quoteField(ts) + " (want 14 digits or RFC 3339)"
			}
			c.Time = t.UTC()
		}
	}
	return c, true, ""
}

// checkURL returns a capture's URL, or why it is none: empty, "-", or
// with white space or control characters.
func checkURL(s string) (string, string) {
	if s == "" || s == "-" {
		return "", "no URL"
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] == 0x7f {
			return "", fmt.Sprintf("URL with a space or control character at byte %d", i)
		}
	}
	return s, ""
}

// parseStatus reads an HTTP status: up to three digits, or "-" or ""
// (unknown, 0).
func parseStatus(s string) (int, bool) {
	if s == "-" || s == "" {
		return 0, true
	}
	if len(s) > 3 || !allDigits(s) {
		return 0, false
	}
	n, _ := strconv.Atoi(s)
	return n, true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseDigits reads a timestamp yyyyMMddhhmmss in UTC, or a prefix of at
// least the year padded with the earliest value ("2024" is 2024-01-01
// 00:00:00, "20241" 2024-10-01), or 17 digits (with milliseconds).
func parseDigits(s string) (time.Time, bool) {
	n := len(s)
	if n < 4 || n > 14 && n != 17 || !allDigits(s) {
		return time.Time{}, false
	}
	var b [17]byte
	copy(b[:], s)
	for i := n; i < 14; i++ {
		b[i] = '0'
		if (i == 5 || i == 7) && b[i-1] == '0' {
			b[i] = '1' // month and day start at 01
		}
	}
	num := func(i, j int) int {
		v := 0
		for _, d := range b[i:j] {
			v = v*10 + int(d-'0')
		}
		return v
	}
	y, mo, d := num(0, 4), num(4, 6), num(6, 8)
	h, mi, sec := num(8, 10), num(10, 12), num(12, 14)
	ms := 0
	if n == 17 {
		ms = num(14, 17)
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ms*int(time.Millisecond), time.UTC)
	if t.Day() != d {
		return time.Time{}, false // 31 April
	}
	return t, true
}

// parseISO reads an ISO 8601 time as crawl.log writes it
// (2024-05-01T12:00:01.234Z), with or without a zone (UTC).
func parseISO(s string) (time.Time, bool) {
	if len(s) < 19 || s[4] != '-' || s[10] != 'T' {
		return time.Time{}, false
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), true
	}
	if t, err := time.Parse("2006-01-02T15:04:05.999999999", s); err == nil {
		return t, true
	}
	return time.Time{}, false
}
