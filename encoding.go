package canon

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
)

// Page encodings: the WHATWG URL Standard's parser takes the encoding of
// the document a URL was read from, and encodes the query of a special
// URL other than ws: and wss: in it before percent-encoding ("query
// state"; "percent-encode after encoding"), where the path, the fragment,
// the userinfo and the host stay UTF-8 and IDNA. This file owns the
// encodings: their labels (the Encoding Standard's "get an encoding",
// through golang.org/x/text/encoding/htmlindex), their encoders (the
// Encoding Standard's, transcribed, over the indexes that
// golang.org/x/text's decoders hold: x/text's own encoders depart from
// the standard for some code points, its decoders read the same indexes)
// and the query they write (appendQuery).

// Encoding is the character encoding of the page a URL was read from, as
// the Encoding Standard names it: the zero Encoding is UTF-8. Under a
// profile with [ParseWHATWG] (WHATWG, Crawler, Archive, Aggressive), the
// query of a special URL (http, https, ftp, file) is encoded in it, as a
// browser encodes the links of such a page:
//
//	<a href="?q=日本"> on a Shift_JIS page -> ?q=%93%FA%96{
//
// URLs are given as text all the same (Go strings of UTF-8: the page
// decoded, as an HTML parser decodes it); the encoding says which bytes
// the query's characters become. A character the encoding cannot
// represent becomes "%26%23" N "%3B" (the decimal code point: "&#N;"
// percent-encoded, which a literal "&#N;" in the query is not). The
// encoding is a property of the input, not of the profile: keys made
// with and without it have one KeyVersion. Encodings are comparable.
type Encoding struct {
	pe *pageEncoding // nil: UTF-8
}

// LookupEncoding returns the encoding a label names, as the Encoding
// Standard's "get an encoding" resolves it (ASCII case and surrounding
// ASCII whitespace ignored): "sjis", "x-sjis" and "Shift_JIS" are Shift_JIS;
// "latin1", "iso-8859-1" and "ascii" are windows-1252; "gbk" is GBK. As
// the standard's "get an output encoding" says for URLs, "replacement"
// (and the labels that name it, such as "iso-2022-kr") and UTF-16BE/LE
// are UTF-8. An unknown label is an error wrapping [ErrEncoding].
func LookupEncoding(label string) (Encoding, error) {
	// "get an encoding": ASCII whitespace (TAB, LF, FF, CR, space)
	// removed, the rest matched ASCII case-insensitively. htmlindex trims
	// and lowercases by Unicode (a vertical tab, U+0085 and U+00A0 are
	// space to it, the Kelvin sign a "k"); every label is printable
	// ASCII, so anything else is no label.
	l := strings.Trim(label, "\t\n\f\r ")
	for i := 0; i < len(l); i++ {
		if l[i] <= ' ' || l[i] > '~' {
			return Encoding{}, labelError{label}
		}
	}
	e, err := htmlindex.Get(l)
	if err != nil {
		return Encoding{}, labelError{label}
	}
	name, _ := htmlindex.Name(e)
	for _, pe := range pageEncodings {
		if pe.label == name {
			return Encoding{pe}, nil
		}
	}
	return Encoding{}, nil // UTF-8 and the ones whose output encoding is UTF-8
}

// labelError is LookupEncoding's error: a label no encoding has.
type labelError struct{ label string }

func (e labelError) Error() string {
	return "canon: unknown encoding label " + strconv.Quote(e.label) + " (not one of the Encoding Standard's)"
}

func (e labelError) Unwrap() error { return ErrEncoding }

// Name returns the encoding's name in the Encoding Standard: "UTF-8",
// "Shift_JIS", "windows-1252", "gb18030", ...
func (enc Encoding) Name() string {
	if enc.pe == nil {
		return "UTF-8"
	}
	return enc.pe.name
}

// String returns the encoding's name (see Name).
func (enc Encoding) String() string { return enc.Name() }

// encoderKind is which of the Encoding Standard's encoders an encoding
// has.
type encoderKind uint8

const (
	encoderSingleByte encoderKind = iota
	encoderGB18030
	encoderGBK
	encoderBig5
	encoderEUCJP
	encoderISO2022JP
	encoderShiftJIS
	encoderEUCKR
	encoderXUserDefined
)

// pageEncoding is one encoding of the Encoding Standard other than UTF-8:
// its names, its encoder, and the index its encoder reads (built at first
// use from x/text's decoder).
type pageEncoding struct {
	name  string // as the standard writes it
	label string // as htmlindex.Name writes it
	kind  encoderKind

	once  sync.Once
	index map[rune]uint16 // code point -> the pointer the encoder writes
}

// Places in pageEncodings of the encodings whose indexes serve others
// too (see pointer).
const (
	gb18030 = 29
	eucJP   = 31
)

// pageEncodings are the encodings of the Encoding Standard that a URL's
// query can be written in: every one but UTF-8, replacement and
// UTF-16BE/LE (their output encoding is UTF-8).
var pageEncodings = [...]*pageEncoding{
	{name: "IBM866", label: "ibm866"},
	{name: "ISO-8859-2", label: "iso-8859-2"},
	{name: "ISO-8859-3", label: "iso-8859-3"},
	{name: "ISO-8859-4", label: "iso-8859-4"},
	{name: "ISO-8859-5", label: "iso-8859-5"},
	{name: "ISO-8859-6", label: "iso-8859-6"},
	{name: "ISO-8859-7", label: "iso-8859-7"},
	{name: "ISO-8859-8", label: "iso-8859-8"},
	{name: "ISO-8859-8-I", label: "iso-8859-8-i"},
	{name: "ISO-8859-10", label: "iso-8859-10"},
	{name: "ISO-8859-13", label: "iso-8859-13"},
	{name: "ISO-8859-14", label: "iso-8859-14"},
	{name: "ISO-8859-15", label: "iso-8859-15"},
	{name: "ISO-8859-16", label: "iso-8859-16"},
	{name: "KOI8-R", label: "koi8-r"},
	{name: "KOI8-U", label: "koi8-u"},
	{name: "macintosh", label: "macintosh"},
	{name: "windows-874", label: "windows-874"},
	{name: "windows-1250", label: "windows-1250"},
	{name: "windows-1251", label: "windows-1251"},
	{name: "windows-1252", label: "windows-1252"},
	{name: "windows-1253", label: "windows-1253"},
	{name: "windows-1254", label: "windows-1254"},
	{name: "windows-1255", label: "windows-1255"},
	{name: "windows-1256", label: "windows-1256"},
	{name: "windows-1257", label: "windows-1257"},
	{name: "windows-1258", label: "windows-1258"},
	{name: "x-mac-cyrillic", label: "x-mac-cyrillic"},
	{name: "GBK", label: "gbk", kind: encoderGBK},
	gb18030: {name: "gb18030", label: "gb18030", kind: encoderGB18030},
	{name: "Big5", label: "big5", kind: encoderBig5},
	eucJP: {name: "EUC-JP", label: "euc-jp", kind: encoderEUCJP},
	{name: "ISO-2022-JP", label: "iso-2022-jp", kind: encoderISO2022JP},
	{name: "Shift_JIS", label: "shift_jis", kind: encoderShiftJIS},
	{name: "EUC-KR", label: "euc-kr", kind: encoderEUCKR},
	{name: "x-user-defined", label: "x-user-defined", kind: encoderXUserDefined},
}

// decoder returns x/text's decoder of pe, which holds pe's index.
func (pe *pageEncoding) decoder() *encoding.Decoder {
	e, err := htmlindex.Get(pe.label)
	if err != nil {
		panic("canon: htmlindex lacks " + pe.label) // (TestEncodingLabels)
	}
	return e.NewDecoder()
}

// The two bytes of a pointer, as the encoders write them and the
// decoders read them (the Encoding Standard's "gb18030 encoder", "Big5
// encoder" and "Shift_JIS encoder"): a leading byte and a trailing one
// whose offset skips the bytes the encoding leaves out.

func gb18030Bytes(p int) (byte, byte) {
	t, off := p%190, 0x40
	if t >= 0x3F {
		off = 0x41 // (no 0x7F)
	}
	return byte(p/190 + 0x81), byte(t + off)
}

func big5Bytes(p int) (byte, byte) {
	t, off := p%157, 0x40
	if t >= 0x3F {
		off = 0x62 // (0x7F to 0xA0 left out)
	}
	return byte(p/157 + 0x81), byte(t + off)
}

func shiftJISBytes(p int) (byte, byte) {
	lead, t := p/188, p%188
	leadOff, off := 0x81, 0x40
	if lead >= 0x1F {
		leadOff = 0xC1 // (0xA0 to 0xDF are single bytes)
	}
	if t >= 0x3F {
		off = 0x41 // (no 0x7F)
	}
	return byte(lead + leadOff), byte(t + off)
}

// decodeOne returns the one code point x/text's decoder d reads b as, or
// -1 (none: the pointer is not in the index).
func decodeOne(d *encoding.Decoder, b ...byte) rune {
	out, err := d.Bytes(b)
	if err != nil {
		return -1
	}
	r, n := utf8.DecodeRune(out)
	if n != len(out) || r == utf8.RuneError {
		return -1
	}
	return r
}

// addFirst records p as the pointer of r unless r has one: the index
// pointer is the first (the Encoding Standard's "index pointer").
func addFirst(m map[rune]uint16, r rune, p int) {
	if _, ok := m[r]; !ok && r >= 0 {
		m[r] = uint16(p)
	}
}

// load builds pe's index: for each pointer, the code point x/text's
// decoder reads its bytes as, with the pointers the encoder may write.
func (pe *pageEncoding) load() {
	if pe.kind == encoderXUserDefined {
		return // arithmetic
	}
	d := pe.decoder()
	m := make(map[rune]uint16)
	switch pe.kind {
	case encoderSingleByte:
		for p := 0; p < 128; p++ {
			r := decodeOne(d, byte(p+0x80))
			if r < 0 && p < 0x20 {
				// x/text reads the bytes 0x80-0x9F that its tables
				// leave out as U+FFFD; the standard's indexes have no
				// hole there: they are the C1 controls U+0080-U+009F.
				r = rune(p + 0x80)
			}
			addFirst(m, r, p)
		}
	case encoderGB18030:
		// index gb18030: two bytes, leading 0x81-0xFE, trailing
		// 0x40-0x7E and 0x80-0xFE; x/text's decoder reads GB18030-2005
		// and leaves out the entries of gb18030LeftOut.
		var index [126 * 190]rune
		for p := range index {
			b, c := gb18030Bytes(p)
			index[p] = decodeOne(d, b, c)
		}
		for _, x := range gb18030LeftOut {
			for k := range int(x.n) {
				index[int(x.p)+k] = x.r + rune(k)
			}
		}
		for p, r := range index {
			addFirst(m, r, p)
		}
	case encoderBig5:
		// "index Big5 pointer": index Big5 without the pointers below
		// (0xA1-0x81)*157 (Hong Kong Supplementary Character Set
		// extensions); the first pointer, but the last for six code
		// points.
		for p := (0xA1 - 0x81) * 157; p < 126*157; p++ {
			b, c := big5Bytes(p)
			r := decodeOne(d, b, c)
			switch r {
			case 0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345:
				m[r] = uint16(p)
			default:
				addFirst(m, r, p)
			}
		}
	case encoderEUCKR:
		for p := 0; p < 126*190; p++ {
			if t := p%190 + 0x41; t <= 0xFE {
				addFirst(m, decodeOne(d, byte(p/190+0x81), byte(t)), p)
			}
		}
	case encoderEUCJP:
		// index jis0208 up to pointer 8835, read through the EUC-JP
		// decoder (two bytes 0xA1-0xFE): a code point's first pointer
		// is below 8836 (the standard's note in "EUC-JP encoder").
		for p := 0; p < 94*94; p++ {
			addFirst(m, decodeOne(d, byte(p/94+0xA1), byte(p%94+0xA1)), p)
		}
	case encoderShiftJIS:
		// "index Shift_JIS pointer": index jis0208 without the pointers
		// 8272 to 8835 (NEC's selection of IBM extensions, whose code
		// points come again at 10716 and after), read through the
		// Shift_JIS decoder; 8836 to 10715 are no index entries (the
		// decoder's private use area).
		for p := 0; p < 11104; p++ {
			if p >= 8272 && p < 10716 {
				continue
			}
			b, c := shiftJISBytes(p)
			addFirst(m, decodeOne(d, b, c), p)
		}
	}
	pe.index = m
}

// pointer returns the pointer pe's encoder writes r with, or -1. GBK
// reads gb18030's index, ISO-2022-JP EUC-JP's: each is built once.
func (pe *pageEncoding) pointer(r rune) int {
	switch pe.kind {
	case encoderGBK:
		pe = pageEncodings[gb18030]
	case encoderISO2022JP:
		pe = pageEncodings[eucJP]
	}
	pe.once.Do(pe.load)
	if p, ok := pe.index[r]; ok {
		return int(p)
	}
	return -1
}

// Encoder states of ISO-2022-JP (the Encoding Standard's "ISO-2022-JP
// encoder state"); the other encoders have none.
const (
	iso2022ASCII = iota
	iso2022Roman
	iso2022JIS0208
)

// encodeRune appends the bytes pe's encoder writes for r (the Encoding
// Standard's encoder handler for the encoding), in the state *state
// (ISO-2022-JP's), and returns them with ok; or the code point the
// standard's "encode or fail" reports (r, or U+FFFD for ISO-2022-JP's
// shift and escape controls) and false. r is not ASCII, but under
// ISO-2022-JP, whose ASCII depends on its state.
func (pe *pageEncoding) encodeRune(dst []byte, r rune, state *int) ([]byte, rune, bool) {
	if r < utf8.RuneSelf && pe.kind != encoderISO2022JP {
		return append(dst, byte(r)), 0, true
	}
	switch pe.kind {
	case encoderSingleByte:
		if p := pe.pointer(r); p >= 0 {
			return append(dst, byte(p+0x80)), 0, true
		}
	case encoderXUserDefined:
		if r >= 0xF780 && r <= 0xF7FF {
			return append(dst, byte(r-0xF780+0x80)), 0, true
		}
	case encoderGB18030, encoderGBK:
		return pe.encodeGB18030(dst, r)
	case encoderBig5:
		if p := pe.pointer(r); p >= 0 {
			b, c := big5Bytes(p)
			return append(dst, b, c), 0, true
		}
	case encoderEUCJP:
		switch {
		case r == 0xA5:
			return append(dst, 0x5C), 0, true
		case r == 0x203E:
			return append(dst, 0x7E), 0, true
		case r >= 0xFF61 && r <= 0xFF9F:
			return append(dst, 0x8E, byte(r-0xFF61+0xA1)), 0, true
		case r == 0x2212:
			r = 0xFF0D
		}
		if p := pe.pointer(r); p >= 0 {
			return append(dst, byte(p/94+0xA1), byte(p%94+0xA1)), 0, true
		}
	case encoderShiftJIS:
		switch {
		case r == 0x80:
			return append(dst, 0x80), 0, true
		case r == 0xA5:
			return append(dst, 0x5C), 0, true
		case r == 0x203E:
			return append(dst, 0x7E), 0, true
		case r >= 0xFF61 && r <= 0xFF9F:
			return append(dst, byte(r-0xFF61+0xA1)), 0, true
		case r == 0x2212:
			r = 0xFF0D
		}
		if p := pe.pointer(r); p >= 0 {
			b, c := shiftJISBytes(p)
			return append(dst, b, c), 0, true
		}
	case encoderEUCKR:
		if p := pe.pointer(r); p >= 0 {
			return append(dst, byte(p/190+0x81), byte(p%190+0x41)), 0, true
		}
	case encoderISO2022JP:
		return pe.encodeISO2022JP(dst, r, state)
	}
	return dst, r, false
}

// gb18030PUA are the code points the gb18030 encoder writes with two
// bytes of its own ("gb18030 encoder", the table kept for compatibility
// with GB18030-2005), as code point, bytes.
var gb18030PUA = [...]struct {
	r    rune
	b, c byte
}{
	{0xE78D, 0xA6, 0xD9}, {0xE78E, 0xA6, 0xDA}, {0xE78F, 0xA6, 0xDB},
	{0xE790, 0xA6, 0xDC}, {0xE791, 0xA6, 0xDD}, {0xE792, 0xA6, 0xDE},
	{0xE793, 0xA6, 0xDF}, {0xE794, 0xA6, 0xEC}, {0xE795, 0xA6, 0xED},
	{0xE796, 0xA6, 0xF3}, {0xE81E, 0xFE, 0x59}, {0xE826, 0xFE, 0x61},
	{0xE82B, 0xFE, 0x66}, {0xE82C, 0xFE, 0x67}, {0xE832, 0xFE, 0x6D},
	{0xE843, 0xFE, 0x7E}, {0xE854, 0xFE, 0x90}, {0xE864, 0xFE, 0xA0},
}

// encodeGB18030 is the Encoding Standard's "gb18030 encoder" (GBK's with
// its "is GBK" flag): a pointer of index gb18030 in two bytes, else (not
// GBK) a pointer of index gb18030 ranges in four.
func (pe *pageEncoding) encodeGB18030(dst []byte, r rune) ([]byte, rune, bool) {
	gbk := pe.kind == encoderGBK
	switch {
	case r == 0xE5E5:
		return dst, r, false
	case gbk && r == 0x20AC:
		return append(dst, 0x80), 0, true
	}
	for _, x := range gb18030PUA {
		if x.r == r {
			return append(dst, x.b, x.c), 0, true
		}
	}
	if p := pe.pointer(r); p >= 0 {
		b, c := gb18030Bytes(p)
		return append(dst, b, c), 0, true
	}
	if gbk {
		return dst, r, false
	}
	p := gb18030RangesPointer(r)
	b1 := p / (10 * 126 * 10)
	p %= 10 * 126 * 10
	b2 := p / (10 * 126)
	p %= 10 * 126
	return append(dst, byte(b1+0x81), byte(b2+0x30), byte(p/10+0x81), byte(p%10+0x30)), 0, true
}

// gb18030RangesPointer is the Encoding Standard's "index gb18030 ranges
// pointer" for r.
func gb18030RangesPointer(r rune) int {
	if r == 0xE7C7 {
		return 7457
	}
	// The last range whose code point is at most r.
	lo, hi := 0, len(gb18030Ranges)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if gb18030Ranges[mid].r <= r {
			lo = mid
		} else {
			hi = mid
		}
	}
	return int(gb18030Ranges[lo].p) + int(r-gb18030Ranges[lo].r)
}

// encodeISO2022JP is the Encoding Standard's "ISO-2022-JP encoder" for r
// in *state: an escape sequence is written when the state changes (the
// standard's "restore code point to ioQueue" and go on).
func (pe *pageEncoding) encodeISO2022JP(dst []byte, r rune, state *int) ([]byte, rune, bool) {
	for {
		s := *state
		if s != iso2022JIS0208 && (r == 0x0E || r == 0x0F || r == 0x1B) {
			return dst, 0xFFFD, false // U+FFFD, not r: the standard's note "to prevent attacks"
		}
		if s == iso2022ASCII && r < utf8.RuneSelf {
			return append(dst, byte(r)), 0, true
		}
		if s == iso2022Roman && (r < utf8.RuneSelf && r != '\\' && r != '~' || r == 0xA5 || r == 0x203E) {
			switch r {
			case 0xA5:
				return append(dst, 0x5C), 0, true
			case 0x203E:
				return append(dst, 0x7E), 0, true
			}
			return append(dst, byte(r)), 0, true
		}
		if r < utf8.RuneSelf { // state is not ASCII
			dst, *state = append(dst, 0x1B, '(', 'B'), iso2022ASCII
			continue
		}
		if (r == 0xA5 || r == 0x203E) && s != iso2022Roman {
			dst, *state = append(dst, 0x1B, '(', 'J'), iso2022Roman
			continue
		}
		if r == 0x2212 {
			r = 0xFF0D
		}
		if r >= 0xFF61 && r <= 0xFF9F {
			r = rune(iso2022JPKatakana[r-0xFF61])
		}
		p := pe.pointer(r)
		if p < 0 {
			if s == iso2022JIS0208 {
				dst, *state = append(dst, 0x1B, '(', 'B'), iso2022ASCII
				continue
			}
			return dst, r, false
		}
		if s != iso2022JIS0208 {
			dst, *state = append(dst, 0x1B, '$', 'B'), iso2022JIS0208
			continue
		}
		return append(dst, byte(p/94+0x21), byte(p%94+0x21)), 0, true
	}
}

// appendQuery appends query, the text of a special URL's query, to dst as
// the WHATWG URL Standard's "percent-encode after encoding" writes it
// with pe and the special-query percent-encode set: each code point
// encoded by pe's encoder, each byte of the result that is in the set
// (every one above 0x7E) percent-encoded; a code point the encoder
// cannot write becomes "%26%23" N "%3B". query is UTF-8 (checked before).
func (pe *pageEncoding) appendQuery(dst []byte, query string) []byte {
	state := iso2022ASCII
	var buf [8]byte
	for _, r := range query {
		b, bad, ok := pe.encodeRune(buf[:0], r, &state)
		dst = appendSpecialQueryBytes(dst, b)
		if !ok {
			dst = append(dst, "%26%23"...)
			dst = strconv.AppendInt(dst, int64(bad), 10)
			dst = append(dst, "%3B"...)
		}
	}
	if state != iso2022ASCII { // the encoder's end-of-queue
		dst = append(dst, "%1B(B"...)
	}
	return dst
}

// appendSpecialQueryBytes appends b, percent-encoding the bytes of the
// special-query percent-encode set.
func appendSpecialQueryBytes(dst, b []byte) []byte {
	for _, c := range b {
		if encodeSet[c]&setSpecialQuery != 0 {
			dst = appendEscaped(dst, c)
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// appendQuery is pe's appendQuery, UTF-8's for the zero Encoding.
func (enc Encoding) appendQuery(dst []byte, query string) []byte {
	if enc.pe == nil {
		var buf [utf8.UTFMax]byte
		for _, r := range query {
			dst = appendSpecialQueryBytes(dst, buf[:utf8.EncodeRune(buf[:], r)])
		}
		return dst
	}
	return enc.pe.appendQuery(dst, query)
}

// queryInPageEncoding reports whether the WHATWG URL Standard writes the
// query of a URL of kind k in the page's encoding ("query state": not in
// a URL that is not special, nor in ws: and wss:).
func queryInPageEncoding(k schemeKind) bool {
	return k.special() && k != schemeWS && k != schemeWSS
}

// changes reports whether pe may write some of s differently from UTF-8:
// whether s has a character that is not ASCII, or, in ISO-2022-JP, a
// shift or escape control.
func (pe *pageEncoding) changes(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || pe.kind == encoderISO2022JP && (c == 0x0E || c == 0x0F || c == 0x1B) {
			return true
		}
	}
	return false
}

// encodeQueryText returns s with its query s[i:j] written in pe (see
// appendQuery) and true, when the query has a character that is not
// ASCII; else s and false. ASCII is the same in every encoding a query is
// written in, but for ISO-2022-JP's shift and escape controls, which are
// errors there.
func encodeQueryText(s string, i, j int, pe *pageEncoding) (string, bool) {
	q := s[i:j]
	k := 0
	for k < len(q) && q[k] < utf8.RuneSelf && (pe.kind != encoderISO2022JP || q[k] != 0x0E && q[k] != 0x0F && q[k] != 0x1B) {
		k++
	}
	if k == len(q) {
		return s, false
	}
	b := make([]byte, 0, len(s)+3*(len(q)-k)+8)
	b = append(b, s[:i+k]...)
	b = pe.appendQuery(b, q[k:])
	b = append(b, s[j:]...)
	return ownedString(b), true
}

// iso2022JPKatakana is the Encoding Standard's index ISO-2022-JP
// katakana: the fullwidth katakana ISO-2022-JP writes U+FF61 to U+FF9F
// as.
var iso2022JPKatakana = [...]uint16{
	0x3002, 0x300C, 0x300D, 0x3001, 0x30FB, 0x30F2, 0x30A1, 0x30A3, 0x30A5, 0x30A7,
	0x30A9, 0x30E3, 0x30E5, 0x30E7, 0x30C3, 0x30FC, 0x30A2, 0x30A4, 0x30A6, 0x30A8,
	0x30AA, 0x30AB, 0x30AD, 0x30AF, 0x30B1, 0x30B3, 0x30B5, 0x30B7, 0x30B9, 0x30BB,
	0x30BD, 0x30BF, 0x30C1, 0x30C4, 0x30C6, 0x30C8, 0x30CA, 0x30CB, 0x30CC, 0x30CD,
	0x30CE, 0x30CF, 0x30D2, 0x30D5, 0x30D8, 0x30DB, 0x30DE, 0x30DF, 0x30E0, 0x30E1,
	0x30E2, 0x30E4, 0x30E6, 0x30E8, 0x30E9, 0x30EA, 0x30EB, 0x30EC, 0x30ED, 0x30EF,
	0x30F3, 0x309B, 0x309C,
}

// gb18030LeftOut are the entries of the Encoding Standard's index
// gb18030 (2024-09-18) that golang.org/x/text's GB18030 decoder does not
// read: the user-defined areas (private use code points) and the
// characters GB18030-2022 moved out of them, as runs of pointer, code
// point and length. TestGB18030LeftOut derives them again from the index.
var gb18030LeftOut = [...]struct {
	p int32
	r rune
	n int32
}{
	{6080, 0xE4C6, 96}, {6270, 0xE526, 96}, {6376, 0xE766, 6}, {6433, 0xE76D, 1},
	{6444, 0xE76E, 2}, {6458, 0xE770, 2}, {6460, 0xE586, 95}, {6650, 0xE5E6, 96},
	{6829, 0xE772, 11}, {6840, 0xE646, 96}, {7022, 0xE77D, 8}, {7030, 0xE6A6, 96},
	{7150, 0xE785, 8}, {7182, 0xFE10, 1}, {7183, 0xFE12, 1}, {7184, 0xFE11, 1},
	{7185, 0xFE13, 4}, {7201, 0xFE17, 2}, {7208, 0xFE19, 1}, {7211, 0xE797, 9},
	{7220, 0xE706, 96}, {7349, 0xE7A0, 15}, {7397, 0xE7AF, 13}, {7495, 0xE7BC, 11},
	{7533, 0x1E3F, 1}, {7538, 0xE7C9, 4}, {7579, 0xE7CD, 21}, {7624, 0xE7E2, 1},
	{7627, 0xE7E3, 1}, {7629, 0xE7E4, 3}, {7686, 0xE7F4, 13}, {7775, 0xE801, 15},
	{7886, 0xE000, 94}, {8076, 0xE05E, 94}, {8266, 0xE0BC, 94}, {8456, 0xE11A, 94},
	{8646, 0xE178, 94}, {8836, 0xE1D6, 94}, {16525, 0xE810, 5}, {22706, 0xE234, 94},
	{22896, 0xE292, 94}, {23086, 0xE2F0, 94}, {23276, 0xE34E, 94}, {23466, 0xE3AC, 94},
	{23656, 0xE40A, 94}, {23767, 0xE816, 3}, {23775, 0x9FB4, 1}, {23783, 0x9FB5, 1},
	{23788, 0x9FB6, 2}, {23794, 0xE831, 1}, {23795, 0x9FB8, 1}, {23804, 0xE83B, 1},
	{23812, 0x9FB9, 1}, {23829, 0x9FBA, 1}, {23830, 0xE855, 1}, {23845, 0x9FBB, 1},
	{23846, 0xE468, 94},
}

// gb18030Ranges is the Encoding Standard's index gb18030 ranges (2024-09-18):
// pointer, code point.
var gb18030Ranges = [...]struct {
	p int32
	r rune
}{
	{0, 0x0080}, {36, 0x00A5}, {38, 0x00A9}, {45, 0x00B2}, {50, 0x00B8}, {81, 0x00D8},
	{89, 0x00E2}, {95, 0x00EB}, {96, 0x00EE}, {100, 0x00F4}, {103, 0x00F8}, {104, 0x00FB},
	{105, 0x00FD}, {109, 0x0102}, {126, 0x0114}, {133, 0x011C}, {148, 0x012C}, {172, 0x0145},
	{175, 0x0149}, {179, 0x014E}, {208, 0x016C}, {306, 0x01CF}, {307, 0x01D1}, {308, 0x01D3},
	{309, 0x01D5}, {310, 0x01D7}, {311, 0x01D9}, {312, 0x01DB}, {313, 0x01DD}, {341, 0x01FA},
	{428, 0x0252}, {443, 0x0262}, {544, 0x02C8}, {545, 0x02CC}, {558, 0x02DA}, {741, 0x03A2},
	{742, 0x03AA}, {749, 0x03C2}, {750, 0x03CA}, {805, 0x0402}, {819, 0x0450}, {820, 0x0452},
	{7922, 0x2011}, {7924, 0x2017}, {7925, 0x201A}, {7927, 0x201E}, {7934, 0x2027}, {7943, 0x2031},
	{7944, 0x2034}, {7945, 0x2036}, {7950, 0x203C}, {8062, 0x20AD}, {8148, 0x2104}, {8149, 0x2106},
	{8152, 0x210A}, {8164, 0x2117}, {8174, 0x2122}, {8236, 0x216C}, {8240, 0x217A}, {8262, 0x2194},
	{8264, 0x219A}, {8374, 0x2209}, {8380, 0x2210}, {8381, 0x2212}, {8384, 0x2216}, {8388, 0x221B},
	{8390, 0x2221}, {8392, 0x2224}, {8393, 0x2226}, {8394, 0x222C}, {8396, 0x222F}, {8401, 0x2238},
	{8406, 0x223E}, {8416, 0x2249}, {8419, 0x224D}, {8424, 0x2253}, {8437, 0x2262}, {8439, 0x2268},
	{8445, 0x2270}, {8482, 0x2296}, {8485, 0x229A}, {8496, 0x22A6}, {8521, 0x22C0}, {8603, 0x2313},
	{8936, 0x246A}, {8946, 0x249C}, {9046, 0x254C}, {9050, 0x2574}, {9063, 0x2590}, {9066, 0x2596},
	{9076, 0x25A2}, {9092, 0x25B4}, {9100, 0x25BE}, {9108, 0x25C8}, {9111, 0x25CC}, {9113, 0x25D0},
	{9131, 0x25E6}, {9162, 0x2607}, {9164, 0x260A}, {9218, 0x2641}, {9219, 0x2643}, {11329, 0x2E82},
	{11331, 0x2E85}, {11334, 0x2E89}, {11336, 0x2E8D}, {11346, 0x2E98}, {11361, 0x2EA8}, {11363, 0x2EAB},
	{11366, 0x2EAF}, {11370, 0x2EB4}, {11372, 0x2EB8}, {11375, 0x2EBC}, {11389, 0x2ECB}, {11682, 0x2FFC},
	{11686, 0x3004}, {11687, 0x3018}, {11692, 0x301F}, {11694, 0x302A}, {11714, 0x303F}, {11716, 0x3094},
	{11723, 0x309F}, {11725, 0x30F7}, {11730, 0x30FF}, {11736, 0x312A}, {11982, 0x322A}, {11989, 0x3232},
	{12102, 0x32A4}, {12336, 0x3390}, {12348, 0x339F}, {12350, 0x33A2}, {12384, 0x33C5}, {12393, 0x33CF},
	{12395, 0x33D3}, {12397, 0x33D6}, {12510, 0x3448}, {12553, 0x3474}, {12851, 0x359F}, {12962, 0x360F},
	{12973, 0x361B}, {13738, 0x3919}, {13823, 0x396F}, {13919, 0x39D1}, {13933, 0x39E0}, {14080, 0x3A74},
	{14298, 0x3B4F}, {14585, 0x3C6F}, {14698, 0x3CE1}, {15583, 0x4057}, {15847, 0x4160}, {16318, 0x4338},
	{16434, 0x43AD}, {16438, 0x43B2}, {16481, 0x43DE}, {16729, 0x44D7}, {17102, 0x464D}, {17122, 0x4662},
	{17315, 0x4724}, {17320, 0x472A}, {17402, 0x477D}, {17418, 0x478E}, {17859, 0x4948}, {17909, 0x497B},
	{17911, 0x497E}, {17915, 0x4984}, {17916, 0x4987}, {17936, 0x499C}, {17939, 0x49A0}, {17961, 0x49B8},
	{18664, 0x4C78}, {18703, 0x4CA4}, {18814, 0x4D1A}, {18962, 0x4DAF}, {19043, 0x9FA6}, {33469, 0xE76C},
	{33470, 0xE7C8}, {33471, 0xE7E7}, {33484, 0xE815}, {33485, 0xE819}, {33490, 0xE81F}, {33497, 0xE827},
	{33501, 0xE82D}, {33505, 0xE833}, {33513, 0xE83C}, {33520, 0xE844}, {33536, 0xE856}, {33550, 0xE865},
	{37845, 0xF92D}, {37921, 0xF97A}, {37948, 0xF996}, {38029, 0xF9E8}, {38038, 0xF9F2}, {38064, 0xFA10},
	{38065, 0xFA12}, {38066, 0xFA15}, {38069, 0xFA19}, {38075, 0xFA22}, {38076, 0xFA25}, {38078, 0xFA2A},
	{39108, 0xFE32}, {39109, 0xFE45}, {39113, 0xFE53}, {39114, 0xFE58}, {39115, 0xFE67}, {39116, 0xFE6C},
	{39265, 0xFF5F}, {39394, 0xFFE6}, {189000, 0x10000},
}
