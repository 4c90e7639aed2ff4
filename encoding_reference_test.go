package canon

// A slow reference of the WHATWG Encoding Standard's encoders
// (https://encoding.spec.whatwg.org/, encoding.bs of whatwg/encoding at
// commit a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a) and of the URL
// Standard's "percent-encode after encoding"
// (https://url.spec.whatwg.org/#string-percent-encode-after-encoding),
// transcribed step by step for clarity, not speed: the oracle for
// Encoding.appendQuery (encoding.go). The indexes are the standard's own,
// read from testdata/encoding/indexes.json.gz; the labels and names from
// testdata/encoding/encodings.json (see testdata/encoding/README.md).
// Each handler quotes, briefly, the section it implements; the standard's
// names are kept (handler, index pointer, is GBK, ISO-2022-JP encoder
// state, restore, encode or fail, ...). Written from the standards' text;
// no code of any implementation was copied. Everything below up to the
// tests is the reference; the tests follow it.

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// encRefDir holds the Encoding Standard's data (testdata/encoding/README.md).
var encRefDir = filepath.Join("testdata", "encoding")

// encRefEntry is an entry of an index: "An index is an ordered list of
// entries, each entry consisting of a pointer and a corresponding code
// point. Within an index pointers are unique and code points can be
// duplicated." (§5 Indexes)
type encRefEntry struct {
	pointer   int
	codePoint rune
}

// encRefIndex is an index: its entries, in pointer order.
type encRefIndex []encRefEntry

// encRefTables is the data of the standard: every index of indexes.json
// (index gb18030 ranges as its list of (pointer, code point) pairs), the
// two derived indexes that "index Shift_JIS pointer" and "index Big5
// pointer" define, and the table of names and labels (§4.2 Names and
// labels). The maps of first (and last) pointers are built once: they are
// what "index pointer" would find by walking the entries in order.
type encRefTables struct {
	indexes map[string]encRefIndex // by indexes.json's key ("jis0208", "windows-1252", ...)
	ranges  encRefIndex            // index gb18030 ranges

	first map[string]map[rune]int // index key -> code point -> first pointer
	last  map[string]map[rune]int // index key -> code point -> last pointer

	names  []string          // every encoding's name, in the table's order
	labels map[string]string // label -> name
	byName map[string][]string
}

// The derived indexes of §5, kept in indexes under these keys.
const (
	// "Let index be index jis0208 excluding all entries whose pointer is
	// in the range 8272 to 8835, inclusive." (index Shift_JIS pointer)
	encRefShiftJISIndex = "jis0208 excluding 8272 to 8835"
	// "Let index be index Big5 excluding all entries whose pointer is less
	// than (0xA1 - 0x81) × 157." (index Big5 pointer)
	encRefBig5Index = "Big5 excluding pointers below (0xA1 - 0x81) × 157"
)

var (
	encRefOnce   sync.Once
	encRefData   *encRefTables
	encRefLoadEr error
)

// encRefLoad reads the standard's data once.
func encRefLoad(t testing.TB) *encRefTables {
	t.Helper()
	encRefOnce.Do(func() { encRefData, encRefLoadEr = encRefRead() })
	if encRefLoadEr != nil {
		t.Fatal(encRefLoadEr)
	}
	return encRefData
}

func encRefRead() (*encRefTables, error) {
	f, err := os.Open(filepath.Join(encRefDir, "indexes.json.gz"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	// indexes.json: each index is an array whose position is the pointer
	// and whose value is the code point, or null; index gb18030 ranges is
	// an array of [pointer, code point] pairs ("a slightly different
	// format here, to be able to represent ranges", §5).
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("indexes.json: %v", err)
	}
	t := &encRefTables{
		indexes: map[string]encRefIndex{},
		first:   map[string]map[rune]int{},
		last:    map[string]map[rune]int{},
		labels:  map[string]string{},
		byName:  map[string][]string{},
	}
	for key, v := range doc {
		if key == "gb18030-ranges" {
			var pairs [][2]int
			if err := json.Unmarshal(v, &pairs); err != nil {
				return nil, fmt.Errorf("indexes.json %s: %v", key, err)
			}
			for _, p := range pairs {
				t.ranges = append(t.ranges, encRefEntry{p[0], rune(p[1])})
			}
			continue
		}
		var cps []*int32
		if err := json.Unmarshal(v, &cps); err != nil {
			return nil, fmt.Errorf("indexes.json %s: %v", key, err)
		}
		var idx encRefIndex
		for pointer, cp := range cps {
			if cp != nil {
				idx = append(idx, encRefEntry{pointer, *cp})
			}
		}
		t.indexes[key] = idx
	}
	for _, key := range []string{"jis0208", "big5", "gb18030", "euc-kr", "iso-2022-jp-katakana"} {
		if len(t.indexes[key]) == 0 {
			return nil, fmt.Errorf("indexes.json: no index %s", key)
		}
	}
	if len(t.ranges) != 207 {
		return nil, fmt.Errorf("indexes.json: index gb18030 ranges has %d ranges, want 207", len(t.ranges))
	}
	for _, e := range t.indexes["jis0208"] {
		if e.pointer < 8272 || e.pointer > 8835 {
			t.indexes[encRefShiftJISIndex] = append(t.indexes[encRefShiftJISIndex], e)
		}
	}
	for _, e := range t.indexes["big5"] {
		if e.pointer >= (0xA1-0x81)*157 {
			t.indexes[encRefBig5Index] = append(t.indexes[encRefBig5Index], e)
		}
	}
	for key, idx := range t.indexes {
		first, last := map[rune]int{}, map[rune]int{}
		for _, e := range idx { // in pointer order
			if _, ok := first[e.codePoint]; !ok {
				first[e.codePoint] = e.pointer
			}
			last[e.codePoint] = e.pointer
		}
		t.first[key], t.last[key] = first, last
	}

	b, err := os.ReadFile(filepath.Join(encRefDir, "encodings.json"))
	if err != nil {
		return nil, err
	}
	var groups []struct {
		Heading   string `json:"heading"`
		Encodings []struct {
			Name   string   `json:"name"`
			Labels []string `json:"labels"`
		} `json:"encodings"`
	}
	if err := json.Unmarshal(b, &groups); err != nil {
		return nil, fmt.Errorf("encodings.json: %v", err)
	}
	for _, g := range groups {
		for _, e := range g.Encodings {
			t.names = append(t.names, e.Name)
			t.byName[e.Name] = e.Labels
			for _, l := range e.Labels {
				t.labels[l] = e.Name
			}
		}
	}
	if len(t.names) != 40 {
		return nil, fmt.Errorf("encodings.json: %d encodings, want 40", len(t.names))
	}
	return t, nil
}

// "The index code point for pointer in index is the code point
// corresponding to pointer in index, or null if pointer is not in index."
// (§5) ok is false for null.
func (t *encRefTables) indexCodePoint(pointer int, index string) (rune, bool) {
	for _, e := range t.indexes[index] {
		if e.pointer == pointer {
			return e.codePoint, true
		}
	}
	return 0, false
}

// "The index pointer for codePoint in index is the first pointer
// corresponding to codePoint in index, or null if codePoint is not in
// index." (§5) ok is false for null.
func (t *encRefTables) indexPointer(codePoint rune, index string) (int, bool) {
	p, ok := t.first[index][codePoint]
	return p, ok
}

// "The index gb18030 ranges pointer for codePoint" (§5).
func (t *encRefTables) gb18030RangesPointer(codePoint rune) int {
	// "1. If codePoint is U+E7C7, then return pointer 7457."
	if codePoint == 0xE7C7 {
		return 7457
	}
	// "2. Let offset be the last code point in index gb18030 ranges that is
	// less than or equal to codePoint and let pointerOffset be its
	// corresponding pointer."
	offset, pointerOffset := rune(-1), 0
	for _, e := range t.ranges {
		if e.codePoint <= codePoint {
			offset, pointerOffset = e.codePoint, e.pointer
		}
	}
	// "3. Return a pointer whose value is pointerOffset + codePoint −
	// offset."
	return pointerOffset + int(codePoint-offset)
}

// "The index Shift_JIS pointer for codePoint" (§5): "1. Let index be index
// jis0208 excluding all entries whose pointer is in the range 8272 to 8835,
// inclusive. 2. Return the index pointer for codePoint in index."
func (t *encRefTables) shiftJISPointer(codePoint rune) (int, bool) {
	return t.indexPointer(codePoint, encRefShiftJISIndex)
}

// "The index Big5 pointer for codePoint" (§5).
func (t *encRefTables) big5Pointer(codePoint rune) (int, bool) {
	// "1. Let index be index Big5 excluding all entries whose pointer is
	// less than (0xA1 - 0x81) × 157."
	index := encRefBig5Index
	// "2. If codePoint is U+2550 (═), U+255E (╞), U+2561 (╡), U+256A (╪),
	// U+5341 (十), or U+5345 (卅), then return the last pointer
	// corresponding to codePoint in index."
	switch codePoint {
	case 0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345:
		p, ok := t.last[index][codePoint]
		return p, ok
	}
	// "3. Return the index pointer for codePoint in index."
	return t.indexPointer(codePoint, index)
}

// encRefEndOfQueue is end-of-queue: "a special item that can be present in
// I/O queues of any type and it signifies that there are no more items in
// the queue" (§3 Terminology).
const encRefEndOfQueue rune = -1

// encRefQueue is an immediate I/O queue of scalar values (§3): its items,
// followed by end-of-queue (implicit after the last item).
type encRefQueue struct{ items []rune }

// "To convert a ... string input into an I/O queue": "an I/O queue
// containing the items in input, in order, followed by end-of-queue."
func encRefToQueue(input string) *encRefQueue { return &encRefQueue{[]rune(input)} }

// "To read an item from an I/O queue ioQueue: ... 2. If ioQueue[0] is
// end-of-queue, then return end-of-queue. 3. Remove ioQueue[0] and return
// it."
func (q *encRefQueue) read() rune {
	if len(q.items) == 0 {
		return encRefEndOfQueue
	}
	c := q.items[0]
	q.items = q.items[1:]
	return c
}

// "To restore an item other than end-of-queue to an I/O queue, perform the
// list prepend operation."
func (q *encRefQueue) restore(item rune) {
	q.items = append([]rune{item}, q.items...)
}

// encRefResult is what a handler returns (§4.1 Encoders and decoders):
// "finished, one or more items, error optionally with a code point, or
// continue".
type encRefResult struct {
	kind      int    // one of the encRef* result kinds
	items     []byte // for encRefItems
	codePoint rune   // for encRefError
}

const (
	encRefFinished = iota
	encRefItems
	encRefError
	encRefContinue
)

func encRefBytes(b ...byte) encRefResult  { return encRefResult{kind: encRefItems, items: b} }
func encRefErrorWith(c rune) encRefResult { return encRefResult{kind: encRefError, codePoint: c} }
func encRefIsASCIICodePoint(c rune) bool  { return c >= 0 && c <= 0x7F } // "U+0000 NULL to U+007F DELETE, inclusive" (Infra)
func encRefFinishedResult() encRefResult  { return encRefResult{kind: encRefFinished} }
func encRefByte(c rune) encRefResult      { return encRefBytes(byte(c)) }
func encRefTwo(leading, trailing int) encRefResult {
	return encRefBytes(byte(leading), byte(trailing))
}

// encRefEncoder is an instance of an encoding's encoder: its handler, and
// its state if it has one (§4.1).
type encRefEncoder interface {
	handler(ioQueue *encRefQueue, codePoint rune) encRefResult
}

// "UTF-8 encoder" (§8.1.2).
type encRefUTF8Encoder struct{}

func (encRefUTF8Encoder) handler(_ *encRefQueue, codePoint rune) encRefResult {
	// "1. If codePoint is end-of-queue, then return finished."
	if codePoint == encRefEndOfQueue {
		return encRefFinishedResult()
	}
	// "2. If codePoint is an ASCII code point, then return a byte whose
	// value is codePoint."
	if encRefIsASCIICodePoint(codePoint) {
		return encRefByte(codePoint)
	}
	// "3. Set count and offset based on the range codePoint is in."
	var count, offset int
	switch {
	case codePoint >= 0x80 && codePoint <= 0x7FF:
		count, offset = 1, 0xC0
	case codePoint >= 0x800 && codePoint <= 0xFFFF:
		count, offset = 2, 0xE0
	case codePoint >= 0x10000 && codePoint <= 0x10FFFF:
		count, offset = 3, 0xF0
	}
	// "4. Let bytes be a byte sequence whose first byte is (codePoint >>
	// (6 × count)) + offset."
	bytes := []byte{byte(int(codePoint>>(6*count)) + offset)}
	// "5. While count is greater than 0: set temp to codePoint >> (6 ×
	// (count − 1)); append to bytes 0x80 | (temp & 0x3F); decrease count by
	// one."
	for count > 0 {
		temp := codePoint >> (6 * (count - 1))
		bytes = append(bytes, byte(0x80|(temp&0x3F)))
		count--
	}
	// "6. Return bytes bytes, in order."
	return encRefBytes(bytes...)
}

// "single-byte encoder" (§9.2), with the index single-byte of the
// encoding in use (the table of §9: ISO-8859-8-I shares ISO-8859-8's).
type encRefSingleByteEncoder struct {
	t     *encRefTables
	index string
}

func (e encRefSingleByteEncoder) handler(_ *encRefQueue, codePoint rune) encRefResult {
	// "1. If codePoint is end-of-queue, then return finished."
	if codePoint == encRefEndOfQueue {
		return encRefFinishedResult()
	}
	// "2. If codePoint is an ASCII code point, then return a byte whose
	// value is codePoint."
	if encRefIsASCIICodePoint(codePoint) {
		return encRefByte(codePoint)
	}
	// "3. Let pointer be the index pointer for codePoint in index
	// single-byte."
	pointer, ok := e.t.indexPointer(codePoint, e.index)
	// "4. If pointer is null, then return error with codePoint."
	if !ok {
		return encRefErrorWith(codePoint)
	}
	// "5. Return a byte whose value is pointer + 0x80."
	return encRefBytes(byte(pointer + 0x80))
}

// The gb18030 encoder's table of Private Use code points (§10.2.2 step 5:
// "This asymmetric encoder table preserves compatibility with the
// GB18030-2005 standard.").
var encRefGB18030PUA = map[rune][2]byte{
	0xE78D: {0xA6, 0xD9},
	0xE78E: {0xA6, 0xDA},
	0xE78F: {0xA6, 0xDB},
	0xE790: {0xA6, 0xDC},
	0xE791: {0xA6, 0xDD},
	0xE792: {0xA6, 0xDE},
	0xE793: {0xA6, 0xDF},
	0xE794: {0xA6, 0xEC},
	0xE795: {0xA6, 0xED},
	0xE796: {0xA6, 0xF3},
	0xE81E: {0xFE, 0x59},
	0xE826: {0xFE, 0x61},
	0xE82B: {0xFE, 0x66},
	0xE82C: {0xFE, 0x67},
	0xE832: {0xFE, 0x6D},
	0xE843: {0xFE, 0x7E},
	0xE854: {0xFE, 0x90},
	0xE864: {0xFE, 0xA0},
}

// "gb18030 encoder" (§10.2.2); "GBK's encoder is gb18030's encoder with
// its is GBK set to true" (§10.1.2).
type encRefGB18030Encoder struct {
	t *encRefTables
	// "gb18030's encoder has an associated is GBK, which is a boolean,
	// initially false."
	isGBK bool
}

func (e *encRefGB18030Encoder) handler(_ *encRefQueue, codePoint rune) encRefResult {
	// "1. If codePoint is end-of-queue, then return finished."
	if codePoint == encRefEndOfQueue {
		return encRefFinishedResult()
	}
	// "2. If codePoint is an ASCII code point, then return a byte whose
	// value is codePoint."
	if encRefIsASCIICodePoint(codePoint) {
		return encRefByte(codePoint)
	}
	// "3. If codePoint is U+E5E5, then return error with codePoint."
	if codePoint == 0xE5E5 {
		return encRefErrorWith(codePoint)
	}
	// "4. If is GBK is true and codePoint is U+20AC (€), then return byte
	// 0x80."
	if e.isGBK && codePoint == 0x20AC {
		return encRefBytes(0x80)
	}
	// "5. If there is a row in the table below whose first column is
	// codePoint, then return the two bytes on the same row listed in the
	// second column."
	if b, ok := encRefGB18030PUA[codePoint]; ok {
		return encRefBytes(b[0], b[1])
	}
	// "6. Let pointer be the index pointer for codePoint in index gb18030."
	pointer, ok := e.t.indexPointer(codePoint, "gb18030")
	// "7. If pointer is non-null: ..."
	if ok {
		// "1. Let leading be pointer / 190 + 0x81."
		leading := pointer/190 + 0x81
		// "2. Let trailing be pointer % 190."
		trailing := pointer % 190
		// "3. Let offset be 0x40 if trailing is less than 0x3F, otherwise
		// 0x41."
		offset := 0x41
		if trailing < 0x3F {
			offset = 0x40
		}
		// "4. Return two bytes whose values are leading and trailing +
		// offset."
		return encRefTwo(leading, trailing+offset)
	}
	// "8. If is GBK is true, then return error with codePoint."
	if e.isGBK {
		return encRefErrorWith(codePoint)
	}
	// "9. Set pointer to the index gb18030 ranges pointer for codePoint."
	pointer = e.t.gb18030RangesPointer(codePoint)
	// "10. Let byte1 be pointer / (10 × 126 × 10)."
	byte1 := pointer / (10 * 126 * 10)
	// "11. Set pointer to pointer % (10 × 126 × 10)."
	pointer %= 10 * 126 * 10
	// "12. Let byte2 be pointer / (10 × 126)."
	byte2 := pointer / (10 * 126)
	// "13. Set pointer to pointer % (10 × 126)."
	pointer %= 10 * 126
	// "14. Let byte3 be pointer / 10."
	byte3 := pointer / 10
	// "15. Let byte4 be pointer % 10."
	byte4 := pointer % 10
	// "16. Return four bytes whose values are byte1 + 0x81, byte2 + 0x30,
	// byte3 + 0x81, byte4 + 0x30."
	return encRefBytes(byte(byte1+0x81), byte(byte2+0x30), byte(byte3+0x81), byte(byte4+0x30))
}

// "Big5 encoder" (§11.1.2).
type encRefBig5Encoder struct{ t *encRefTables }

func (e encRefBig5Encoder) handler(_ *encRefQueue, codePoint rune) encRefResult {
	// "1. If codePoint is end-of-queue, then return finished."
	if codePoint == encRefEndOfQueue {
		return encRefFinishedResult()
	}
	// "2. If codePoint is an ASCII code point, then return a byte whose
	// value is codePoint."
	if encRefIsASCIICodePoint(codePoint) {
		return encRefByte(codePoint)
	}
	// "3. Let pointer be the index Big5 pointer for codePoint."
	pointer, ok := e.t.big5Pointer(codePoint)
	// "4. If pointer is null, then return error with codePoint."
	if !ok {
		return encRefErrorWith(codePoint)
	}
	// "5. Let leading be pointer / 157 + 0x81."
	leading := pointer/157 + 0x81
	// "6. Let trailing be pointer % 157."
	trailing := pointer % 157
	// "7. Let offset be 0x40 if trailing is less than 0x3F, otherwise
	// 0x62."
	offset := 0x62
	if trailing < 0x3F {
		offset = 0x40
	}
	// "8. Return two bytes whose values are leading and trailing + offset."
	return encRefTwo(leading, trailing+offset)
}

// "EUC-JP encoder" (§12.1.2).
type encRefEUCJPEncoder struct{ t *encRefTables }

func (e encRefEUCJPEncoder) handler(_ *encRefQueue, codePoint rune) encRefResult {
	// "1. If codePoint is end-of-queue, then return finished."
	if codePoint == encRefEndOfQueue {
		return encRefFinishedResult()
	}
	// "2. If codePoint is an ASCII code point, then return a byte whose
	// value is codePoint."
	if encRefIsASCIICodePoint(codePoint) {
		return encRefByte(codePoint)
	}
	// "3. If codePoint is U+00A5 (¥), then return byte 0x5C."
	if codePoint == 0x00A5 {
		return encRefBytes(0x5C)
	}
	// "4. If codePoint is U+203E (‾), then return byte 0x7E."
	if codePoint == 0x203E {
		return encRefBytes(0x7E)
	}
	// "5. If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ), inclusive,
	// then return two bytes whose values are 0x8E and codePoint − 0xFF61 +
	// 0xA1."
	if codePoint >= 0xFF61 && codePoint <= 0xFF9F {
		return encRefTwo(0x8E, int(codePoint-0xFF61+0xA1))
	}
	// "6. If codePoint is U+2212 (−), then set it to U+FF0D (－)."
	if codePoint == 0x2212 {
		codePoint = 0xFF0D
	}
	// "7. Let pointer be the index pointer for codePoint in index jis0208."
	pointer, ok := e.t.indexPointer(codePoint, "jis0208")
	// "8. If pointer is null, then return error with codePoint."
	if !ok {
		return encRefErrorWith(codePoint)
	}
	// "9. Let leading be pointer / 94 + 0xA1."
	leading := pointer/94 + 0xA1
	// "10. Let trailing be pointer % 94 + 0xA1."
	trailing := pointer%94 + 0xA1
	// "11. Return two bytes whose values are leading and trailing."
	return encRefTwo(leading, trailing)
}

// The ISO-2022-JP encoder state (§12.2.2).
const (
	encRefStateASCII = iota
	encRefStateRoman
	encRefStateJIS0208
)

// "ISO-2022-JP encoder" (§12.2.2).
type encRefISO2022JPEncoder struct {
	t *encRefTables
	// "ISO-2022-JP's encoder has an associated ISO-2022-JP encoder state
	// which is ASCII, Roman, or jis0208, initially ASCII."
	state int
}

func (e *encRefISO2022JPEncoder) handler(ioQueue *encRefQueue, codePoint rune) encRefResult {
	// "1. If codePoint is end-of-queue and ISO-2022-JP encoder state is not
	// ASCII, then set ISO-2022-JP encoder state to ASCII and return three
	// bytes 0x1B 0x28 0x42."
	if codePoint == encRefEndOfQueue && e.state != encRefStateASCII {
		e.state = encRefStateASCII
		return encRefBytes(0x1B, 0x28, 0x42)
	}
	// "2. If codePoint is end-of-queue and ISO-2022-JP encoder state is
	// ASCII, then return finished."
	if codePoint == encRefEndOfQueue && e.state == encRefStateASCII {
		return encRefFinishedResult()
	}
	// "3. If ISO-2022-JP encoder state is ASCII or Roman, and codePoint is
	// U+000E, U+000F, or U+001B, then return error with U+FFFD (�)."
	if (e.state == encRefStateASCII || e.state == encRefStateRoman) &&
		(codePoint == 0x000E || codePoint == 0x000F || codePoint == 0x001B) {
		return encRefErrorWith(0xFFFD)
	}
	// "4. If ISO-2022-JP encoder state is ASCII and codePoint is an ASCII
	// code point, then return a byte whose value is codePoint."
	if e.state == encRefStateASCII && encRefIsASCIICodePoint(codePoint) {
		return encRefByte(codePoint)
	}
	// "5. If ISO-2022-JP encoder state is Roman and codePoint is an ASCII
	// code point, excluding U+005C (\) and U+007E (~), or is U+00A5 (¥) or
	// U+203E (‾): ..."
	if e.state == encRefStateRoman &&
		((encRefIsASCIICodePoint(codePoint) && codePoint != 0x005C && codePoint != 0x007E) ||
			codePoint == 0x00A5 || codePoint == 0x203E) {
		// "1. If codePoint is an ASCII code point, then return a byte whose
		// value is codePoint."
		if encRefIsASCIICodePoint(codePoint) {
			return encRefByte(codePoint)
		}
		// "2. If codePoint is U+00A5 (¥), then return byte 0x5C."
		if codePoint == 0x00A5 {
			return encRefBytes(0x5C)
		}
		// "3. If codePoint is U+203E (‾), then return byte 0x7E."
		if codePoint == 0x203E {
			return encRefBytes(0x7E)
		}
	}
	// "6. If codePoint is an ASCII code point, and ISO-2022-JP encoder state
	// is not ASCII, then restore codePoint to ioQueue, set ISO-2022-JP
	// encoder state to ASCII, and return three bytes 0x1B 0x28 0x42."
	if encRefIsASCIICodePoint(codePoint) && e.state != encRefStateASCII {
		ioQueue.restore(codePoint)
		e.state = encRefStateASCII
		return encRefBytes(0x1B, 0x28, 0x42)
	}
	// "7. If codePoint is either U+00A5 (¥) or U+203E (‾), and ISO-2022-JP
	// encoder state is not Roman, then restore codePoint to ioQueue, set
	// ISO-2022-JP encoder state to Roman, and return three bytes 0x1B 0x28
	// 0x4A."
	if (codePoint == 0x00A5 || codePoint == 0x203E) && e.state != encRefStateRoman {
		ioQueue.restore(codePoint)
		e.state = encRefStateRoman
		return encRefBytes(0x1B, 0x28, 0x4A)
	}
	// "8. If codePoint is U+2212 (−), then set it to U+FF0D (－)."
	if codePoint == 0x2212 {
		codePoint = 0xFF0D
	}
	// "9. If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ), inclusive,
	// then set it to the index code point for codePoint − 0xFF61 in index
	// ISO-2022-JP katakana."
	if codePoint >= 0xFF61 && codePoint <= 0xFF9F {
		codePoint, _ = e.t.indexCodePoint(int(codePoint-0xFF61), "iso-2022-jp-katakana")
	}
	// "10. Let pointer be the index pointer for codePoint in index
	// jis0208."
	pointer, ok := e.t.indexPointer(codePoint, "jis0208")
	// "11. If pointer is null: ..."
	if !ok {
		// "1. If ISO-2022-JP encoder state is jis0208, then restore
		// codePoint to ioQueue, set ISO-2022-JP encoder state to ASCII, and
		// return three bytes 0x1B 0x28 0x42."
		if e.state == encRefStateJIS0208 {
			ioQueue.restore(codePoint)
			e.state = encRefStateASCII
			return encRefBytes(0x1B, 0x28, 0x42)
		}
		// "2. Return error with codePoint."
		return encRefErrorWith(codePoint)
	}
	// "12. If ISO-2022-JP encoder state is not jis0208, then restore
	// codePoint to ioQueue, set ISO-2022-JP encoder state to jis0208, and
	// return three bytes 0x1B 0x24 0x42."
	if e.state != encRefStateJIS0208 {
		ioQueue.restore(codePoint)
		e.state = encRefStateJIS0208
		return encRefBytes(0x1B, 0x24, 0x42)
	}
	// "13. Let leading be pointer / 94 + 0x21."
	leading := pointer/94 + 0x21
	// "14. Let trailing be pointer % 94 + 0x21."
	trailing := pointer%94 + 0x21
	// "15. Return two bytes whose values are leading and trailing."
	return encRefTwo(leading, trailing)
}

// "Shift_JIS encoder" (§12.3.2).
type encRefShiftJISEncoder struct{ t *encRefTables }

func (e encRefShiftJISEncoder) handler(_ *encRefQueue, codePoint rune) encRefResult {
	// "1. If codePoint is end-of-queue, then return finished."
	if codePoint == encRefEndOfQueue {
		return encRefFinishedResult()
	}
	// "2. If codePoint is an ASCII code point or U+0080, then return a byte
	// whose value is codePoint."
	if encRefIsASCIICodePoint(codePoint) || codePoint == 0x0080 {
		return encRefByte(codePoint)
	}
	// "3. If codePoint is U+00A5 (¥), then return byte 0x5C."
	if codePoint == 0x00A5 {
		return encRefBytes(0x5C)
	}
	// "4. If codePoint is U+203E (‾), then return byte 0x7E."
	if codePoint == 0x203E {
		return encRefBytes(0x7E)
	}
	// "5. If codePoint is in the range U+FF61 (｡) to U+FF9F (ﾟ), inclusive,
	// then return a byte whose value is codePoint − 0xFF61 + 0xA1."
	if codePoint >= 0xFF61 && codePoint <= 0xFF9F {
		return encRefBytes(byte(codePoint - 0xFF61 + 0xA1))
	}
	// "6. If codePoint is U+2212 (−), then set it to U+FF0D (－)."
	if codePoint == 0x2212 {
		codePoint = 0xFF0D
	}
	// "7. Let pointer be the index Shift_JIS pointer for codePoint."
	pointer, ok := e.t.shiftJISPointer(codePoint)
	// "8. If pointer is null, then return error with codePoint."
	if !ok {
		return encRefErrorWith(codePoint)
	}
	// "9. Let leading be pointer / 188."
	leading := pointer / 188
	// "10. Let leadingOffset be 0x81 if leading is less than 0x1F;
	// otherwise 0xC1."
	leadingOffset := 0xC1
	if leading < 0x1F {
		leadingOffset = 0x81
	}
	// "11. Let trailing be pointer % 188."
	trailing := pointer % 188
	// "12. Let offset be 0x40 if trailing is less than 0x3F; otherwise
	// 0x41."
	offset := 0x41
	if trailing < 0x3F {
		offset = 0x40
	}
	// "13. Return two bytes whose values are leading + leadingOffset and
	// trailing + offset."
	return encRefTwo(leading+leadingOffset, trailing+offset)
}

// "EUC-KR encoder" (§13.1.2).
type encRefEUCKREncoder struct{ t *encRefTables }

func (e encRefEUCKREncoder) handler(_ *encRefQueue, codePoint rune) encRefResult {
	// "1. If codePoint is end-of-queue, then return finished."
	if codePoint == encRefEndOfQueue {
		return encRefFinishedResult()
	}
	// "2. If codePoint is an ASCII code point, then return a byte whose
	// value is codePoint."
	if encRefIsASCIICodePoint(codePoint) {
		return encRefByte(codePoint)
	}
	// "3. Let pointer be the index pointer for codePoint in index EUC-KR."
	pointer, ok := e.t.indexPointer(codePoint, "euc-kr")
	// "4. If pointer is null, then return error with codePoint."
	if !ok {
		return encRefErrorWith(codePoint)
	}
	// "5. Let leading be pointer / 190 + 0x81."
	leading := pointer/190 + 0x81
	// "6. Let trailing be pointer % 190 + 0x41."
	trailing := pointer%190 + 0x41
	// "7. Return two bytes whose values are leading and trailing."
	return encRefTwo(leading, trailing)
}

// "x-user-defined encoder" (§14.5.2).
type encRefXUserDefinedEncoder struct{}

func (encRefXUserDefinedEncoder) handler(_ *encRefQueue, codePoint rune) encRefResult {
	// "1. If codePoint is end-of-queue, then return finished."
	if codePoint == encRefEndOfQueue {
		return encRefFinishedResult()
	}
	// "2. If codePoint is an ASCII code point, then return a byte whose
	// value is codePoint."
	if encRefIsASCIICodePoint(codePoint) {
		return encRefByte(codePoint)
	}
	// "3. If codePoint is in the range U+F780 to U+F7FF, inclusive, then
	// return a byte whose value is codePoint − 0xF780 + 0x80."
	if codePoint >= 0xF780 && codePoint <= 0xF7FF {
		return encRefBytes(byte(codePoint - 0xF780 + 0x80))
	}
	// "4. Return error with codePoint."
	return encRefErrorWith(codePoint)
}

// "To get an encoding from a string label: 1. Remove any leading and
// trailing ASCII whitespace from label. 2. If label is an ASCII
// case-insensitive match for any of the labels listed in the table below,
// then return the corresponding encoding; otherwise return failure."
// (§4.2) The encoding is returned as its name; ok is false for failure.
func (t *encRefTables) getAnEncoding(label string) (string, bool) {
	label = strings.Trim(label, "\t\n\f\r ") // ASCII whitespace (Infra)
	name, ok := t.labels[encRefASCIILowercase(label)]
	return name, ok
}

func encRefASCIILowercase(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 0x20
		}
	}
	return string(b)
}

// "To get an output encoding from an encoding encoding: 1. If encoding is
// replacement or UTF-16BE/LE, then return UTF-8. 2. Return encoding."
// (§4.3) The URL parser's encoding is one (the URL Standard's "encoding" of
// the basic URL parser).
func encRefGetAnOutputEncoding(name string) string {
	switch name {
	case "replacement", "UTF-16BE", "UTF-16LE":
		return "UTF-8"
	}
	return name
}

// encRefSingleByteIndex is the table of §9 (Legacy single-byte encodings):
// each single-byte encoding's index single-byte, by indexes.json's key.
// "All but two single-byte encodings have a unique index": ISO-8859-8 and
// ISO-8859-8-I share index-iso-8859-8.txt.
func encRefSingleByteIndex(name string) (string, bool) {
	switch name {
	case "IBM866", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6",
		"ISO-8859-7", "ISO-8859-8", "ISO-8859-10", "ISO-8859-13", "ISO-8859-14",
		"ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U", "macintosh", "windows-874",
		"windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
		"windows-1255", "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic":
		return strings.ToLower(name), true
	case "ISO-8859-8-I":
		return "iso-8859-8", true
	}
	return "", false
}

// "To get an encoder from an encoding encoding: 1. Assert: encoding is not
// replacement or UTF-16BE/LE. 2. Return an instance of encoding's
// encoder." (§7.1 Legacy hooks for standards)
func (t *encRefTables) getAnEncoder(name string) encRefEncoder {
	if index, ok := encRefSingleByteIndex(name); ok {
		return encRefSingleByteEncoder{t, index}
	}
	switch name {
	case "UTF-8":
		return encRefUTF8Encoder{}
	case "GBK":
		return &encRefGB18030Encoder{t: t, isGBK: true}
	case "gb18030":
		return &encRefGB18030Encoder{t: t}
	case "Big5":
		return encRefBig5Encoder{t}
	case "EUC-JP":
		return encRefEUCJPEncoder{t}
	case "ISO-2022-JP":
		return &encRefISO2022JPEncoder{t: t}
	case "Shift_JIS":
		return encRefShiftJISEncoder{t}
	case "EUC-KR":
		return encRefEUCKREncoder{t}
	case "x-user-defined":
		return encRefXUserDefinedEncoder{}
	}
	panic("get an encoder: Assert: encoding is not replacement or UTF-16BE/LE: " + name)
}

// "To process an item given an item item, encoding's encoder or decoder
// instance encoderDecoder, I/O queue input, I/O queue output, and error
// mode mode" (§4.1), for an encoder; output is a byte sequence (pushing
// end-of-queue to it changes nothing that is read).
func encRefProcessAnItem(item rune, encoder encRefEncoder, input *encRefQueue, output *[]byte, mode string) encRefResult {
	// "3. Assert: encoderDecoder is not an encoder instance or item is not a
	// surrogate."
	if item >= 0xD800 && item <= 0xDFFF {
		panic("process an item: a surrogate")
	}
	// "4. Let result be the result of running encoderDecoder's handler on
	// input and item."
	result := encoder.handler(input, item)
	switch result.kind {
	case encRefFinished:
		// "5. If result is finished: push end-of-queue to output; return
		// result."
		return result
	case encRefItems:
		// "6. Otherwise, if result is one or more items: ... push result
		// to output."
		*output = append(*output, result.items...)
	case encRefError:
		// "7. Otherwise, if result is an error, switch on mode":
		switch mode {
		case "html":
			// "Push 0x26 (&), 0x23 (#), followed by the shortest sequence
			// of 0x30 (0) to 0x39 (9), inclusive, representing result's
			// code point's value in base ten, followed by 0x3B (;) to
			// output."
			*output = append(*output, "&#"+strconv.Itoa(int(result.codePoint))+";"...)
		case "fatal":
			// "Return result."
			return result
		}
	}
	// "8. Return continue."
	return encRefResult{kind: encRefContinue}
}

// "To process a queue given an encoding's decoder or encoder instance
// encoderDecoder, I/O queue input, I/O queue output, and error mode mode:
// While true: 1. Let result be the result of processing an item with the
// result of reading from input, encoderDecoder, input, output, and mode.
// 2. If result is not continue, then return result." (§4.1)
func encRefProcessAQueue(encoder encRefEncoder, input *encRefQueue, output *[]byte, mode string) encRefResult {
	for {
		result := encRefProcessAnItem(input.read(), encoder, input, output, mode)
		if result.kind != encRefContinue {
			return result
		}
	}
}

// "To encode or fail an I/O queue of scalar values ioQueue given an encoder
// instance encoder and an I/O queue of bytes output: 1. Let potentialError
// be the result of processing a queue with encoder, ioQueue, output, and
// "fatal". 2. Push end-of-queue to output. 3. If potentialError is an
// error, then return error's code point's value. 4. Return null." (§7.1)
// ok is false for null.
func encRefEncodeOrFail(ioQueue *encRefQueue, encoder encRefEncoder, output *[]byte) (rune, bool) {
	potentialError := encRefProcessAQueue(encoder, ioQueue, output, "fatal")
	if potentialError.kind == encRefError {
		return potentialError.codePoint, true
	}
	return 0, false
}

// "The C0 control percent-encode set are the C0 controls and all code
// points greater than U+007E (~)." (URL Standard §1.3)
func encRefInC0ControlPercentEncodeSet(c rune) bool {
	return (c >= 0 && c <= 0x1F) || c > 0x7E
}

// "The query percent-encode set is the C0 control percent-encode set and
// U+0020 SPACE, U+0022 ("), U+0023 (#), U+003C (<), and U+003E (>)."
func encRefInQueryPercentEncodeSet(c rune) bool {
	return encRefInC0ControlPercentEncodeSet(c) || c == ' ' || c == '"' || c == '#' || c == '<' || c == '>'
}

// "The special-query percent-encode set is the query percent-encode set
// and U+0027 (')."
func encRefInSpecialQueryPercentEncodeSet(c rune) bool {
	return encRefInQueryPercentEncodeSet(c) || c == '\''
}

// "To percent-encode after encoding, given an encoding encoding, scalar
// value string input, a percentEncodeSet, and an optional boolean
// spaceAsPlus (default false)" (URL Standard §1.3 Percent-encoded bytes,
// https://url.spec.whatwg.org/#string-percent-encode-after-encoding).
// encoding is an encoding's name; the URL parser passes an output encoding
// (encRefGetAnOutputEncoding).
func (t *encRefTables) percentEncodeAfterEncoding(encoding, input string, percentEncodeSet func(rune) bool, spaceAsPlus bool) string {
	// "1. Let encoder be the result of getting an encoder from encoding."
	encoder := t.getAnEncoder(encoding)
	// "2. Let inputQueue be input converted to an I/O queue."
	inputQueue := encRefToQueue(input)
	// "3. Let output be the empty string."
	var output strings.Builder
	// "4. Let potentialError be 0." ("This needs to be a non-null value to
	// initiate the subsequent while loop.")
	potentialError, nonNull := rune(0), true
	// "5. While potentialError is non-null:"
	for nonNull {
		// "1. Let encodeOutput be an empty I/O queue."
		var encodeOutput []byte
		// "2. Set potentialError to the result of running encode or fail
		// with inputQueue, encoder, and encodeOutput."
		potentialError, nonNull = encRefEncodeOrFail(inputQueue, encoder, &encodeOutput)
		// "3. For each byte of encodeOutput converted to a byte sequence:"
		for _, b := range encodeOutput {
			// "1. If spaceAsPlus is true and byte is 0x20 (SP), then append
			// U+002B (+) to output and continue."
			if spaceAsPlus && b == 0x20 {
				output.WriteByte('+')
				continue
			}
			// "2. Let isomorph be a code point whose value is byte's value."
			isomorph := rune(b)
			// "3. Assert: percentEncodeSet includes all non-ASCII code
			// points."
			if !percentEncodeSet(0x80) {
				panic("percent-encode after encoding: the set leaves out non-ASCII code points")
			}
			// "4. If isomorph is not in percentEncodeSet, then append
			// isomorph to output."
			if !percentEncodeSet(isomorph) {
				output.WriteRune(isomorph)
			} else {
				// "5. Otherwise, percent-encode byte and append the result
				// to output." ("U+0025 (%), followed by two ASCII upper hex
				// digits representing byte")
				fmt.Fprintf(&output, "%%%02X", b)
			}
		}
		// "4. If potentialError is non-null, then append "%26%23", followed
		// by the shortest sequence of ASCII digits representing
		// potentialError in base ten, followed by "%3B", to output."
		if nonNull {
			output.WriteString("%26%23" + strconv.Itoa(int(potentialError)) + "%3B")
		}
	}
	// "6. Return output."
	return output.String()
}

// encRefQuery is what the URL parser's query state appends to a special
// URL's query for the query buffer (all of the query, worked on at once)
// in the document's output encoding: percent-encode after encoding with
// encoding, buffer and the special-query percent-encode set. The test's
// "want" for Encoding.appendQuery.
func (t *encRefTables) query(encoding, buffer string) string {
	return t.percentEncodeAfterEncoding(encRefGetAnOutputEncoding(encoding), buffer, encRefInSpecialQueryPercentEncodeSet, false)
}

// ---- tests ----

// encRefWPTCase is a row of testdata/encoding/percent-encoding.json
// (web-platform-tests url/resources/percent-encoding.json): output maps an
// encoding label to the query that "https://doc.example/?" + input gets
// when parsed in a document of that encoding (a link's href there).
type encRefWPTCase struct {
	Input  string            `json:"input"`
	Output map[string]string `json:"output"`
}

func encRefWPTCases(t *testing.T) []encRefWPTCase {
	t.Helper()
	var rows []json.RawMessage
	loadJSON(t, filepath.Join("encoding", "percent-encoding.json"), &rows)
	var cases []encRefWPTCase
	for _, r := range rows {
		if len(r) > 0 && r[0] == '"' { // a comment
			continue
		}
		var c encRefWPTCase
		if err := json.Unmarshal(r, &c); err != nil {
			t.Fatalf("percent-encoding.json: %v", err)
		}
		cases = append(cases, c)
	}
	if len(cases) != 7 {
		t.Fatalf("percent-encoding.json: %d cases, want 7", len(cases))
	}
	return cases
}

// TestEncodingReferenceWPT runs web-platform-tests' percent-encoding.json
// through the reference (which checks the reference) and through
// Encoding.appendQuery.
func TestEncodingReferenceWPT(t *testing.T) {
	tables := encRefLoad(t)
	checked := 0
	for _, c := range encRefWPTCases(t) {
		for _, label := range slices.Sorted(maps.Keys(c.Output)) {
			want := c.Output[label]
			name, ok := tables.getAnEncoding(label)
			if !ok {
				t.Errorf("percent-encoding.json: label %q is no encoding's", label)
				continue
			}
			if got := tables.query(name, c.Input); got != want {
				t.Errorf("reference: percent-encode after encoding(%s, %q) = %q, want %q (WPT)", name, c.Input, got, want)
			}
			enc, err := LookupEncoding(label)
			if err != nil {
				t.Errorf("LookupEncoding(%q): %v", label, err)
				continue
			}
			if got := string(enc.appendQuery(nil, c.Input)); got != want {
				t.Errorf("appendQuery(%q) in %s = %q, want %q (WPT)", c.Input, enc.Name(), got, want)
			}
			// appendQuery appends.
			if got := string(enc.appendQuery([]byte("x="), c.Input)); got != "x="+want {
				t.Errorf("appendQuery(\"x=\", %q) in %s = %q, want %q", c.Input, enc.Name(), got, "x="+want)
			}
			checked++
		}
	}
	if checked != 16 {
		t.Errorf("checked %d (case, encoding) pairs, want 16", checked)
	}
}

// TestEncodingReferenceLabels holds LookupEncoding to the standard's table
// of names and labels (§4.2 "get an encoding"): every label, in any ASCII
// case and with ASCII whitespace around it, names its encoding; replacement
// and UTF-16BE/LE, if LookupEncoding accepts them, percent-encode a query
// as UTF-8 does ("get an output encoding").
func TestEncodingReferenceLabels(t *testing.T) {
	tables := encRefLoad(t)
	for _, name := range tables.names {
		for _, label := range tables.byName[name] {
			for _, l := range []string{label, strings.ToUpper(label), " \t" + label + "\n\f\r"} {
				enc, err := LookupEncoding(l)
				switch encRefGetAnOutputEncoding(name) {
				case name:
					if err != nil {
						t.Errorf("LookupEncoding(%q): %v; want %s", l, err, name)
					} else if enc.Name() != name {
						t.Errorf("LookupEncoding(%q).Name() = %q, want %q", l, enc.Name(), name)
					}
				default:
					if err != nil {
						t.Logf("LookupEncoding(%q) (%s): %v", l, name, err)
						continue
					}
					const q = "\u00e9\u20ac\u2603'"
					if got, want := string(enc.appendQuery(nil, q)), tables.query(name, q); got != want {
						t.Errorf("appendQuery(%q) in %s (label %q) = %q, want %q (Encoding Standard: UTF-8, the output encoding)", q, enc.Name(), l, got, want)
					}
				}
			}
		}
	}
	for _, bad := range []string{"", "utf-7", "utf8 x", "\u017fhift_jis", "x-user-defined\x00", "latin\u0131"} {
		if _, err := LookupEncoding(bad); err == nil {
			t.Errorf("LookupEncoding(%q) succeeded; the standard has no such label", bad)
		}
	}
	var zero Encoding
	if zero.Name() != "UTF-8" {
		t.Errorf("the zero Encoding's Name() = %q, want UTF-8", zero.Name())
	}
}

// encRefScanNames are the encodings TestEncodingEveryCodePoint scans:
// every encoding of the standard but replacement and UTF-16BE/LE (whose
// output encoding is UTF-8).
func encRefScanNames(tables *encRefTables) []string {
	var names []string
	for _, n := range tables.names {
		if encRefGetAnOutputEncoding(n) == n {
			names = append(names, n)
		}
	}
	return names
}

// encRefCJK reports whether name is a multi-byte encoding: the sample
// without -long scans all of the BMP for those.
func encRefCJK(name string) bool {
	switch name {
	case "GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR":
		return true
	}
	return false
}

// encRefScanRunes returns the scalar values TestEncodingEveryCodePoint
// tries in name: all of them (U+0000 to U+10FFFF but the surrogates) when
// full; otherwise a deterministic sample: every scalar value of
// U+0000..U+FFFF for the multi-byte encodings and of U+0000..U+07FF
// for the others, every code point of the encoding's indexes with its
// neighbours, the code points the encoders name, the ends of the planes,
// and every 97th scalar value.
func encRefScanRunes(tables *encRefTables, name string, full bool) []rune {
	valid := func(r rune) bool { return r >= 0 && r <= 0x10FFFF && (r < 0xD800 || r > 0xDFFF) }
	if full {
		var all []rune
		for r := rune(0); r <= 0x10FFFF; r++ {
			if valid(r) {
				all = append(all, r)
			}
		}
		return all
	}
	set := map[rune]bool{}
	add := func(r rune) {
		if valid(r) {
			set[r] = true
		}
	}
	limit := rune(0x7FF)
	if encRefCJK(name) {
		limit = 0xFFFF
	}
	for r := rune(0); r <= limit; r++ {
		add(r)
	}
	for r := rune(0); r <= 0x10FFFF; r += 97 {
		add(r)
	}
	for _, r := range []rune{0xA5, 0x203E, 0x2212, 0x20AC, 0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345,
		0xE5E5, 0xE7C7, 0xE78D, 0xE864, 0xF780, 0xF7FF, 0xFF0D, 0xFF61, 0xFF9F, 0xFFFD, 0xFFFE, 0xFFFF} {
		for d := rune(-1); d <= 1; d++ {
			add(r + d)
		}
	}
	for plane := rune(0); plane <= 0x10; plane++ {
		for d := rune(-2); d <= 2; d++ {
			add(plane<<16 + d)
		}
	}
	var keys []string
	if index, ok := encRefSingleByteIndex(name); ok {
		keys = append(keys, index)
	}
	switch name {
	case "GBK", "gb18030":
		keys = append(keys, "gb18030")
		for _, e := range tables.ranges {
			for d := rune(-1); d <= 1; d++ {
				add(e.codePoint + d)
			}
		}
	case "Big5":
		keys = append(keys, "big5")
	case "EUC-JP", "ISO-2022-JP", "Shift_JIS":
		keys = append(keys, "jis0208", "jis0212", "iso-2022-jp-katakana")
	case "EUC-KR":
		keys = append(keys, "euc-kr")
	}
	for _, k := range keys {
		for _, e := range tables.indexes[k] {
			for d := rune(-1); d <= 1; d++ {
				add(e.codePoint + d)
			}
		}
	}
	out := make([]rune, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// encRefMismatches collects the mismatches of one encoding, reporting the
// first few.
type encRefMismatches struct {
	t     *testing.T
	name  string
	count int
}

const encRefMaxReported = 8

func (m *encRefMismatches) check(enc Encoding, tables *encRefTables, q string) {
	want := tables.query(m.name, q)
	got := string(enc.appendQuery(nil, q))
	if got == want {
		return
	}
	m.count++
	if m.count <= encRefMaxReported {
		m.t.Errorf("appendQuery(%q) in %s = %q, want %q (Encoding Standard)", q, m.name, got, want)
	}
}

func (m *encRefMismatches) done(n int) {
	if m.count > encRefMaxReported {
		m.t.Errorf("%s: %d mismatches in all (the first %d above), over %d queries", m.name, m.count, encRefMaxReported, n)
	}
}

// TestEncodingEveryCodePoint holds Encoding.appendQuery to the reference
// for every encoding of the standard but replacement and UTF-16BE/LE,
// for each scalar value alone and between "a" and "b"; in ISO-2022-JP also
// after U+00A5 and after a jis0208 character, and before each of '\', '~',
// U+00A5, U+203E, a jis0208 character, an unmappable one and U+000E, so
// that every state meets every code point. With -long it tries every
// scalar value, U+0000 to U+10FFFF but the surrogates (1,112,064; the
// subtests run in parallel); without it, a deterministic sample
// (encRefScanRunes: the whole BMP for the multi-byte encodings, U+0000 to
// U+07FF for the others, every code point of the encoding's indexes and
// its neighbours, and every 97th scalar value: about 150,000 queries per
// multi-byte encoding (820,000 in ISO-2022-JP), 27,000 per other, 2.5
// million in all, about a second), as the full scan of all 37 encodings
// (92 million queries) takes about a minute on two cores, longer than a
// test without -long may.
func TestEncodingEveryCodePoint(t *testing.T) {
	tables := encRefLoad(t)
	full := *longTests
	for _, name := range encRefScanNames(tables) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			enc, err := LookupEncoding(name)
			if err != nil {
				t.Fatalf("LookupEncoding(%q): %v", name, err)
			}
			if enc.Name() != name {
				t.Errorf("LookupEncoding(%q).Name() = %q", name, enc.Name())
			}
			start := time.Now()
			m := &encRefMismatches{t: t, name: name}
			n := 0
			for _, r := range encRefScanRunes(tables, name, full) {
				s := string(r)
				m.check(enc, tables, s)
				m.check(enc, tables, "a"+s+"b")
				n += 2
				if name == "ISO-2022-JP" {
					for _, prefix := range []string{"\u00a5", "\u3042"} {
						m.check(enc, tables, prefix+s)
						n++
					}
					for _, suffix := range []string{"\\", "~", "\u00a5", "\u203e", "\u3042", "\u2603", "\x0e"} {
						m.check(enc, tables, s+suffix)
						n++
					}
				}
			}
			m.done(n)
			t.Logf("%s: %d queries in %v", name, n, time.Since(start).Round(time.Millisecond))
		})
	}
}

// encRefQuerySamples are the queries TestEncodingReferenceNormalize puts in
// URLs: none holds '#', a tab or newline, or leading or trailing C0
// controls or spaces (the URL parser would change those before the query
// state).
var encRefQuerySamples = []string{
	"a=1&b=2",
	"q=\u00e9t\u00e9",
	"\u20ac=\u00a3\u00a5",
	"\u00a5\\~\u203e",
	"x\u203e\\y",
	"\u3042\u3044\u3046",
	"\u3042\u00a5\u3044a",
	"\uff71\uff9e\uff9f",
	"\u2212\uff0d",
	"k=\u2603&v=\U0001f4a9",
	"\u4e00\u4e01\u4e03",
	"\ud55c\uad6d\uc5b4",
	"\u4e2d\u6587\u5b57",
	"\u00e4\u00f6\u00fc\u00df",
	"\u0436\u0451",
	"\u05d0\u05d1",
	"\u0e01\u0e02",
	"%41%zz%",
	"a b'c\"d<e>f`g{h}i|j^k",
	"x\x0e\x0f\x1by",
	"\u00a5\x0ez",
	"\uE5E5\uE7C7\uE78D",
	"\U00010000\U0010fffd",
	"\u0080\u00a0\u00ff",
	"\uf780\uf7ff",
	"\ufffd\uffff",
	"\u2550\u5341\u5345",
	"\u3042\u2603\u3044",
	"\u00a5\u2603\u00a5\\",
	"\u203e\u3042\u00a5a\\~\u3042\x0ez",
	"",
}

// TestEncodingReferenceNormalize holds Encoding.Normalize to appendQuery: a
// special URL's query is encoded in the Encoding (and nothing else is);
// the queries of ws:, wss: and non-special URLs are UTF-8, as the URL
// parser's query state says ("If encoding is not UTF-8 and one of the
// following is true: url is not special; url's scheme is "ws" or "wss",
// then set encoding to UTF-8").
func TestEncodingReferenceNormalize(t *testing.T) {
	tables := encRefLoad(t)
	var zero Encoding
	for _, name := range tables.names {
		enc, err := LookupEncoding(name)
		if err != nil {
			if encRefGetAnOutputEncoding(name) == name {
				t.Errorf("LookupEncoding(%q): %v", name, err)
			}
			continue
		}
		for _, q := range encRefQuerySamples {
			want := tables.query(name, q)
			if got := string(enc.appendQuery(nil, q)); got != want {
				t.Errorf("appendQuery(%q) in %s = %q, want %q (Encoding Standard)", q, name, got, want)
			}
			// The query of a special URL: the encoding's.
			for _, prefix := range []string{"http://h/?", "https://h/p?", "ftp://h/?", "file:///p?"} {
				got, err := enc.Normalize(prefix+q, WHATWG)
				if err != nil {
					t.Errorf("%s.Normalize(%q, WHATWG): %v", name, prefix+q, err)
					continue
				}
				if got != prefix+want {
					t.Errorf("%s.Normalize(%q, WHATWG) = %q, want %q", name, prefix+q, got, prefix+want)
				}
			}
			// Path and fragment stay UTF-8; the query between them does
			// not.
			if !strings.ContainsRune(q, '?') {
				in := "http://h/" + q + "#" + q
				utf8Href, errUTF8 := Normalize(in, WHATWG)
				got, err := enc.Normalize(in, WHATWG)
				if errUTF8 != nil || err != nil {
					t.Errorf("Normalize(%q, WHATWG): %v; %s.Normalize: %v", in, errUTF8, name, err)
				} else if got != utf8Href {
					t.Errorf("%s.Normalize(%q, WHATWG) = %q, want %q (UTF-8: no query)", name, in, got, utf8Href)
				}
				if zeroHref, err := zero.Normalize(in, WHATWG); err != nil || zeroHref != utf8Href {
					t.Errorf("Encoding{}.Normalize(%q, WHATWG) = %q, %v; Normalize gives %q", in, zeroHref, err, utf8Href)
				}
				in = "http://h/" + q + "?" + q + "#" + q
				utf8Href, errUTF8 = Normalize(in, WHATWG)
				got, err = enc.Normalize(in, WHATWG)
				if errUTF8 != nil || err != nil {
					t.Errorf("Normalize(%q, WHATWG): %v; %s.Normalize: %v", in, errUTF8, name, err)
				} else {
					// utf8Href is path ? UTF-8 query # fragment; the query
					// holds no '#' (it is percent-encoded there).
					beforeQuery, _, _ := strings.Cut(utf8Href, "?")
					_, fragment, _ := strings.Cut(utf8Href, "#")
					if want := beforeQuery + "?" + want + "#" + fragment; got != want {
						t.Errorf("%s.Normalize(%q, WHATWG) = %q, want %q", name, in, got, want)
					}
				}
			}
			// The query of ws:, wss: and non-special URLs: UTF-8.
			for _, prefix := range []string{"ws://h/?", "wss://h/?", "foo://h/?", "foo:/p?", "foo:opaque?"} {
				in := prefix + q
				utf8Href, errUTF8 := Normalize(in, WHATWG)
				got, err := enc.Normalize(in, WHATWG)
				if (errUTF8 != nil) != (err != nil) || got != utf8Href {
					t.Errorf("%s.Normalize(%q, WHATWG) = %q, %v; want %q, %v (UTF-8)", name, in, got, err, utf8Href, errUTF8)
				}
			}
		}
	}
}

// encRefMixPool is what TestEncodingReferenceMixedQueries draws from: the
// ASCII code points ISO-2022-JP's states treat apart (\ ~ U+000E U+000F
// U+001B) and some the special-query set holds (space ' " # < >) or not (%
// &), U+00A5 and U+203E (Roman), jis0208 characters (あ ア, − through U+FF0D,
// ｱ through the katakana index), characters of the other encodings, and
// some that no legacy encoding has.
var encRefMixPool = []rune{
	'a', 'Z', '0', '\\', '~', 0x0E, 0x0F, 0x1B, 0x00, 0x7F, ' ', '\'', '"', '#', '<', '>', '%', '&', '=',
	0xA5, 0x203E, 0x3042, 0x30A2, 0x2212, 0xFF71, 0xFF9E, 0xFF0D, 0x2170, 0x2252,
	0x80, 0x81, 0xA0, 0xE9, 0xFF, 0x3A9, 0x416, 0x5D0, 0xE01, 0x20AC, 0x2550, 0x5341,
	0x4E00, 0xD55C, 0xAC02, 0xE5E5, 0xE7C7, 0xE78D, 0xF780, 0xFFFD, 0xFFFF, 0x2603,
	0x10000, 0x1F4A9, 0x10FFFF,
}

// TestEncodingReferenceMixedQueries holds Encoding.appendQuery to the
// reference on 3,000 deterministic pseudo-random queries of 1 to 12 code
// points of encRefMixPool per encoding: the states of ISO-2022-JP, and an
// error between characters, meet in every order.
func TestEncodingReferenceMixedQueries(t *testing.T) {
	tables := encRefLoad(t)
	for _, name := range encRefScanNames(tables) {
		enc, err := LookupEncoding(name)
		if err != nil {
			t.Errorf("LookupEncoding(%q): %v", name, err)
			continue
		}
		m := &encRefMismatches{t: t, name: name}
		rng := rand.New(rand.NewPCG(1, uint64(len(name))))
		const n = 3000
		for range n {
			q := make([]rune, 1+rng.IntN(12))
			for i := range q {
				q[i] = encRefMixPool[rng.IntN(len(encRefMixPool))]
			}
			m.check(enc, tables, string(q))
		}
		m.done(n)
	}
}

// TestEncodingReferenceSelf checks the reference on what the standard's
// text states outright (its examples and notes), so that a slip in the
// transcription does not pass for the standard.
func TestEncodingReferenceSelf(t *testing.T) {
	tables := encRefLoad(t)
	for _, c := range []struct{ encoding, input, want string }{
		// "Encoding U+00A5 (¥) gives 0x1B 0x28 0x4A 0x5C 0x1B 0x28 0x42."
		// (§12.2.2)
		{"ISO-2022-JP", "\u00a5", "%1B(J\\%1B(B"},
		// "If upon returning an error the ISO-2022-JP encoder is in the
		// Roman state, the caller cannot output 0x5C": the error's bytes
		// are written in that state, the switch back comes at the end.
		{"ISO-2022-JP", "\u00a5\u2603", "%1B(J\\%26%239731%3B%1B(B"},
		{"ISO-2022-JP", "\u3042\u2603", "%1B$B$%22%1B(B%26%239731%3B"},
		{"ISO-2022-JP", "\u3042\x0e", "%1B$B$%22%1B(B%26%2365533%3B"},
		{"ISO-2022-JP", "\uff71", "%1B$B%%22%1B(B"}, // U+30A2 (ア), 0x25 0x22
		{"ISO-2022-JP", "\u2212", "%1B$B!]%1B(B"},
		{"ISO-2022-JP", "a\u00a5~", "a%1B(J\\%1B(B~"},
		{"ISO-2022-JP", "\u203e\u00a5b", "%1B(J~\\b%1B(B"},
		// GBK writes U+20AC as 0x80; gb18030 as two bytes.
		{"GBK", "\u20ac", "%80"},
		{"gb18030", "\u20ac", "%A2%E3"},
		{"GBK", "\U00010000", "%26%2365536%3B"},
		{"gb18030", "\U00010000", "%900%810"},
		{"gb18030", "\U0010ffff", "%E32%9A5"},
		{"gb18030", "\ue7c7", "%815%F47"},
		{"gb18030", "\ue78d", "%A6%D9"},
		{"gb18030", "\u0080", "%810%810"},
		// Big5: the last pointer for U+2550 (0xF9 0xF9) and U+5341 (0xA4
		// 0x51), the first for others; no pointer below (0xA1-0x81)×157,
		// so U+00CA (Ê, only at 0x88 0x66) is an error.
		{"Big5", "\u2550", "%F9%F9"},
		{"Big5", "\u5341", "%A4Q"},
		{"Big5", "\u00ca", "%26%23202%3B"},
		// Shift_JIS: U+2252 from the NEC row 13 duplicates is written with
		// its JIS X 0208 pointer; U+2170 (ⅰ) by IBM's.
		{"Shift_JIS", "\u2252", "%81%E0"},
		{"Shift_JIS", "\u2170", "%FA@"},
		{"Shift_JIS", "\u0080\u00a5\u203e\uff61", "%80\\~%A1"},
		{"EUC-JP", "\u00a5\uff61\u2212", "\\%8E%A1%A1%DD"},
		{"EUC-KR", "\uac02", "%81A"},
		{"x-user-defined", "\uf780\u0080", "%80%26%23128%3B"},
		{"windows-1252", "\u20ac\u0081", "%80%81"},
		{"UTF-8", "\U0001f4a9'", "%F0%9F%92%A9%27"},
		{"replacement", "\u00e9", "%C3%A9"},
		{"UTF-16LE", "\u00e9", "%C3%A9"},
	} {
		if got := tables.query(c.encoding, c.input); got != c.want {
			t.Errorf("reference: %s %q = %q, want %q", c.encoding, c.input, got, c.want)
		}
	}
}
