package canon

// A slow reference of the WHATWG URL Standard (https://url.spec.whatwg.org/,
// the 2026 text): the basic URL parser (without state override, as a URL is
// parsed by new URL(input, base)), the host parser and the URL serializer,
// transcribed step by step for clarity, not speed. The input is worked on as
// code points ([]rune) with a pointer, as the standard does; components are
// kept as strings, hosts as the standard's host kinds. It is the oracle for
// the WHATWG profile (whatwg_wpt_test.go). Comments quote, briefly, the step
// each part implements. Written from the standard's text; no code of any
// implementation was copied.

import (
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// slowWHATWGHost is a host (§3.1): a domain, an IPv4 address, an IPv6
// address, an opaque host or an empty host.
type slowWHATWGHost struct {
	kind   int // one of the slowHost* constants
	domain string
	ipv4   uint32
	ipv6   [8]uint16
}

const (
	slowHostDomain = iota // a domain (also used for an opaque host)
	slowHostIPv4
	slowHostIPv6
	slowHostEmpty
)

// slowWHATWGURL is a URL record (§4.1).
type slowWHATWGURL struct {
	scheme     string
	username   string
	password   string
	host       *slowWHATWGHost // nil: null
	port       int             // -1: null
	path       []string        // a list of URL path segments, unless opaque
	opaque     bool            // "a URL has an opaque path if its path is a URL path segment"
	opaquePath string
	query      *string // nil: null
	fragment   *string // nil: null
}

// whatwgSpecialSchemes maps each special scheme to its default port (-1:
// null, for "file").
var whatwgSpecialSchemes = map[string]int{
	"ftp": 21, "file": -1, "http": 80, "https": 443, "ws": 80, "wss": 443,
}

// "A URL is special if its scheme is a special scheme."
func (u *slowWHATWGURL) special() bool {
	_, ok := whatwgSpecialSchemes[u.scheme]
	return ok
}

// "A URL includes credentials if its username or password is not the empty string."
func (u *slowWHATWGURL) includesCredentials() bool {
	return u.username != "" || u.password != ""
}

// ---------------------------------------------------------------------------
// Infra code point classes.

func wIsC0Control(c rune) bool        { return c >= 0 && c <= 0x1F }
func wIsC0ControlOrSpace(c rune) bool { return wIsC0Control(c) || c == ' ' }
func wIsASCIITabOrNewline(c rune) bool {
	return c == '\t' || c == '\n' || c == '\r'
}
func wIsASCIIDigit(c rune) bool { return c >= '0' && c <= '9' }
func wIsASCIIUpperAlpha(c rune) bool {
	return c >= 'A' && c <= 'Z'
}
func wIsASCIILowerAlpha(c rune) bool {
	return c >= 'a' && c <= 'z'
}
func wIsASCIIAlpha(c rune) bool { return wIsASCIIUpperAlpha(c) || wIsASCIILowerAlpha(c) }
func wIsASCIIAlphanumeric(c rune) bool {
	return wIsASCIIAlpha(c) || wIsASCIIDigit(c)
}
func wIsASCIIHexDigit(c rune) bool {
	return wIsASCIIDigit(c) || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f')
}

func wASCIILowercase(s string) string {
	b := []rune(s)
	for i, c := range b {
		if wIsASCIIUpperAlpha(c) {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// ---------------------------------------------------------------------------
// §1.3 Percent-encoded bytes.

// "The C0 control percent-encode set are the C0 controls and all code
// points greater than U+007E (~)."
func inC0ControlPercentEncodeSet(c rune) bool { return wIsC0Control(c) || c > 0x7E }

// "The fragment percent-encode set is the C0 control percent-encode set and
// U+0020 SPACE, U+0022 ("), U+003C (<), U+003E (>), and U+0060 (`)."
func inFragmentPercentEncodeSet(c rune) bool {
	return inC0ControlPercentEncodeSet(c) || strings.ContainsRune(" \"<>`", c)
}

// "The query percent-encode set is the C0 control percent-encode set and
// U+0020 SPACE, U+0022 ("), U+0023 (#), U+003C (<), and U+003E (>)."
func inQueryPercentEncodeSet(c rune) bool {
	return inC0ControlPercentEncodeSet(c) || strings.ContainsRune(" \"#<>", c)
}

// "The special-query percent-encode set is the query percent-encode set and U+0027 (')."
func inSpecialQueryPercentEncodeSet(c rune) bool {
	return inQueryPercentEncodeSet(c) || c == '\''
}

// "The path percent-encode set is the query percent-encode set and U+003F
// (?), U+005E (^), U+0060 (`), U+007B ({), and U+007D (})."
func inPathPercentEncodeSet(c rune) bool {
	return inQueryPercentEncodeSet(c) || strings.ContainsRune("?^`{}", c)
}

// "The userinfo percent-encode set is the path percent-encode set and U+002F
// (/), U+003A (:), U+003B (;), U+003D (=), U+0040 (@), U+005B ([) to U+005E
// (^), inclusive, and U+007C (|)."
func inUserinfoPercentEncodeSet(c rune) bool {
	return inPathPercentEncodeSet(c) || strings.ContainsRune("/:;=@|", c) || (c >= '[' && c <= '^')
}

// "To percent-encode a byte byte, return a string consisting of U+0025 (%),
// followed by two ASCII upper hex digits representing byte."
func wPercentEncodeByte(b byte) string { return fmt.Sprintf("%%%02X", b) }

// "To UTF-8 percent-encode a scalar value scalarValue using a
// percentEncodeSet, return the result of running percent-encode after
// encoding with UTF-8, scalarValue as a string, and percentEncodeSet."
func wUTF8PercentEncode(c rune, set func(rune) bool) string {
	return wPercentEncodeAfterEncoding(string(c), set, false)
}

// "To UTF-8 percent-encode a string input using a percentEncodeSet ..."
func wUTF8PercentEncodeString(s string, set func(rune) bool) string {
	return wPercentEncodeAfterEncoding(s, set, false)
}

// percent-encode after encoding, with encoding UTF-8 (the only encoding a
// URL given to new URL() uses):
// "3. Let encodeOutput be the result of encoding input with encoder.
// 4. For each byte of encodeOutput: ... 2. Let isomorph be a code point
// whose value is byte's value. ... 4. If isomorph is not in
// percentEncodeSet, append isomorph to output. 5. Otherwise, percent-encode
// byte and append the result to output."
func wPercentEncodeAfterEncoding(input string, set func(rune) bool, spaceAsPlus bool) string {
	var out strings.Builder
	for _, b := range []byte(input) { // UTF-8 is the encoder
		isomorph := rune(b)
		if spaceAsPlus && isomorph == ' ' {
			out.WriteByte('+')
			continue
		}
		if !set(isomorph) {
			out.WriteRune(isomorph)
		} else {
			out.WriteString(wPercentEncodeByte(b))
		}
	}
	return out.String()
}

// "To percent-decode a byte sequence input: ... For each byte byte in input:
// 1. If byte is not 0x25 (%), then append byte to output. 2. Otherwise, if
// byte is 0x25 (%) and the next two bytes after byte in input are not in the
// ranges 0x30 (0) to 0x39 (9), 0x41 (A) to 0x46 (F), and 0x61 (a) to 0x66
// (f), all inclusive, append byte to output. 3. Otherwise: ... append a byte
// whose value is bytePoint; skip the next two bytes."
func wPercentDecodeBytes(input []byte) []byte {
	var out []byte
	for i := 0; i < len(input); i++ {
		b := input[i]
		if b != '%' {
			out = append(out, b)
		} else if i+2 >= len(input) || !wIsASCIIHexDigit(rune(input[i+1])) || !wIsASCIIHexDigit(rune(input[i+2])) {
			out = append(out, b)
		} else {
			out = append(out, wHexValue(rune(input[i+1]))<<4|wHexValue(rune(input[i+2])))
			i += 2
		}
	}
	return out
}

func wHexValue(c rune) byte {
	switch {
	case wIsASCIIDigit(c):
		return byte(c - '0')
	case c >= 'A' && c <= 'F':
		return byte(c - 'A' + 10)
	default:
		return byte(c - 'a' + 10)
	}
}

// "UTF-8 decode without BOM": invalid sequences become U+FFFD; a leading
// BOM is kept. (Go's []rune conversion gives one U+FFFD per bad byte where
// the Encoding Standard gives one per maximal subpart; a U+FFFD fails domain
// to ASCII either way, so the count never shows.)
func wUTF8DecodeWithoutBOM(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string([]rune(string(b)))
}

// ---------------------------------------------------------------------------
// §3.2 Host miscellaneous.

// "A forbidden host code point is U+0000 NULL, U+0009 TAB, U+000A LF, U+000D
// CR, U+0020 SPACE, U+0023 (#), U+002F (/), U+003A (:), U+003C (<), U+003E
// (>), U+003F (?), U+0040 (@), U+005B ([), U+005C (\), U+005D (]), U+005E
// (^), or U+007C (|)."
func wIsForbiddenHostCodePoint(c rune) bool {
	return strings.ContainsRune("\x00\t\n\r #/:<>?@[\\]^|", c)
}

// "A forbidden domain code point is a forbidden host code point, a C0
// control, U+0025 (%), or U+007F DELETE."
func wIsForbiddenDomainCodePoint(c rune) bool {
	return wIsForbiddenHostCodePoint(c) || wIsC0Control(c) || c == '%' || c == 0x7F
}

// ---------------------------------------------------------------------------
// §3.3 IDNA.

// whatwgSlowIDNA is UTS #46 ToASCII with the flags of "domain to ASCII":
// "CheckHyphens set to false, CheckBidi set to true, CheckJoiners set to
// true, UseSTD3ASCIIRules set to false, Transitional_Processing set to
// false, VerifyDnsLength set to beStrict (false here), IgnoreInvalidPunycode
// set to false". x/net/idna's MapForLookup sets STD3 rules, which
// StrictDomainName(false) undoes. Its tables are Unicode 15.0.0.
var whatwgSlowIDNA = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.Transitional(false),
	idna.VerifyDNSLength(false),
)

// wDomainToASCII is "domain to ASCII" with beStrict false:
//
//  1. "If beStrict is false, domain is an ASCII string, ... [the result is]
//     ASCII lowercasing domain": in the 2026 text an ASCII domain is only
//     lowercased, so a pure-ASCII "xn--" label that is not valid Punycode
//     (or decodes to something UTS #46 disallows) is kept, as toascii.json's
//     "xn--a" -> "xn--a" and "xn--zn7c.com" rows expect; a domain with any
//     non-ASCII code point goes through UTS #46 as a whole ("xn--a.ß" fails).
//  2. "Let result be the result of running Unicode ToASCII ..." with the
//     flags above. Before it, U+1E9E (ẞ) is mapped to U+00DF (ß), as UTS #46
//     15.1 does; x/net/idna has the 15.0 mapping to "ss".
//  3. "If result is a failure value, ... return failure."
//  4. "If result is the empty string, ... return failure."
//  5. "If result contains a forbidden domain code point, ... return failure."
//     (x/net/idna lets C0 controls and DEL through.)
func wDomainToASCII(domain string) (string, bool) {
	var result string
	isASCII := true
	for _, c := range domain {
		if c > 0x7F {
			isASCII = false
		}
	}
	if isASCII {
		result = wASCIILowercase(domain)
	} else {
		mapped := strings.ReplaceAll(domain, "\u1E9E", "\u00DF")
		if !wUTS46ACELabelsASCII(mapped) {
			return "", false
		}
		r, err := whatwgSlowIDNA.ToASCII(mapped)
		if err != nil {
			return "", false
		}
		result = r
	}
	if result == "" {
		return "", false
	}
	for _, c := range result {
		if wIsForbiddenDomainCodePoint(c) {
			return "", false
		}
	}
	return result, true
}

// wUTS46Map is the UTS #46 mapping step alone, applied code point by code
// point below.
var wUTS46Map = idna.New(idna.MapForLookup(), idna.StrictDomainName(false), idna.Transitional(false))

// wUTS46ACELabelsASCII is UTS #46 §4 Processing, step 4.1, on the labels
// of domain after the mapping step (step 1) and the split at full stops
// (step 3): "If the label starts with "xn--": 1. If the label contains
// any non-ASCII code point (i.e., not in U+0000..U+007F), record that
// there was an error ... 2. Attempt to convert the rest of the label to
// Unicode according to Punycode [RFC3492]. If that conversion fails,
// record that there was an error ... 3. If the label is empty, or if the
// label contains only ASCII code points, record that there was an
// error." x/net/idna skips 1 (it returns the A-label of the non-ASCII
// part of "xn--é-", golang/go#81116) and, for "xn--", 3 (it returns an
// empty label).
func wUTS46ACELabelsASCII(domain string) bool {
	var mapped strings.Builder
	for _, r := range domain {
		m, _ := wUTS46Map.ToUnicode(string(r))
		mapped.WriteString(m)
	}
	for _, label := range strings.Split(mapped.String(), ".") {
		if strings.HasPrefix(strings.ToLower(label), "xn--") {
			for _, c := range label {
				if c > 0x7F {
					return false
				}
			}
			decoded, err := idna.Punycode.ToUnicode(strings.ToLower(label))
			if err != nil || decoded == "" || len(label) == 4 {
				return false
			}
			ascii := true
			for _, c := range decoded {
				if c > 0x7F {
					ascii = false
				}
			}
			if ascii {
				return false
			}
		}
	}
	return true
}

// ---------------------------------------------------------------------------
// §3.5 Host parsing.

// wHostParse is the host parser: "given a scalar value string input with an
// optional boolean isOpaque (default false)".
func wHostParse(input []rune, isOpaque bool) (*slowWHATWGHost, bool) {
	// "1. If input starts with U+005B ([), then: 1. If input does not end
	// with U+005D (]), IPv6-unclosed validation error, return failure.
	// 2. Return the result of IPv6 parsing input with its leading U+005B ([)
	// and trailing U+005D (]) removed."
	if len(input) > 0 && input[0] == '[' {
		if input[len(input)-1] != ']' {
			return nil, false
		}
		addr, ok := wIPv6Parse(input[1 : len(input)-1])
		if !ok {
			return nil, false
		}
		return &slowWHATWGHost{kind: slowHostIPv6, ipv6: addr}, true
	}
	// "2. If isOpaque is true, then return the result of opaque-host parsing input."
	if isOpaque {
		return wOpaqueHostParse(input)
	}
	// "3. Assert: input is not the empty string."
	if len(input) == 0 {
		panic("host parser: empty input")
	}
	// "4. Let domain be the result of running UTF-8 decode without BOM on
	// the percent-decoding of input."
	domain := wUTF8DecodeWithoutBOM(wPercentDecodeBytes([]byte(string(input))))
	// "5. Let asciiDomain be the result of running domain to ASCII with
	// domain and false. 6. If asciiDomain is failure, then return failure."
	asciiDomain, ok := wDomainToASCII(domain)
	if !ok {
		return nil, false
	}
	// "7. If asciiDomain ends in a number, then return the result of IPv4
	// parsing asciiDomain."
	if wEndsInANumber([]rune(asciiDomain)) {
		v, ok := wIPv4Parse([]rune(asciiDomain))
		if !ok {
			return nil, false
		}
		return &slowWHATWGHost{kind: slowHostIPv4, ipv4: v}, true
	}
	// "8. Return asciiDomain."
	return &slowWHATWGHost{kind: slowHostDomain, domain: asciiDomain}, true
}

// wSplitOnDot is "strictly split on U+002E (.)".
func wSplitOnDot(input []rune) [][]rune {
	parts := [][]rune{{}}
	for _, c := range input {
		if c == '.' {
			parts = append(parts, []rune{})
		} else {
			parts[len(parts)-1] = append(parts[len(parts)-1], c)
		}
	}
	return parts
}

// The ends in a number checker.
func wEndsInANumber(input []rune) bool {
	// "1. Let parts be the result of strictly splitting input on U+002E (.)."
	parts := wSplitOnDot(input)
	// "2. If the last item in parts is the empty string, then: 1. If parts's
	// size is 1, return false. 2. Remove the last item from parts."
	if len(parts[len(parts)-1]) == 0 {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	// "3. Let last be the last item in parts."
	last := parts[len(parts)-1]
	// "4. If last is non-empty and contains only ASCII digits, then return true."
	if len(last) > 0 {
		allDigits := true
		for _, c := range last {
			if !wIsASCIIDigit(c) {
				allDigits = false
			}
		}
		if allDigits {
			return true
		}
	}
	// "5. If parsing last as an IPv4 number does not return failure, then
	// return true. This is equivalent to checking that last is "0X" or "0x",
	// followed by zero or more ASCII hex digits."
	if _, _, ok := wIPv4NumberParse(last); ok {
		return true
	}
	// "6. Return false."
	return false
}

// The IPv4 parser. It returns the address as a 32-bit number.
func wIPv4Parse(input []rune) (uint32, bool) {
	// "1. Let parts be the result of strictly splitting input on U+002E (.)."
	parts := wSplitOnDot(input)
	// "2. If the last item in parts is the empty string, then: 1. IPv4-empty-part
	// validation error. 2. If parts's size is greater than 1, then remove the
	// last item from parts."
	if len(parts[len(parts)-1]) == 0 && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	// "3. If parts's size is greater than 4, IPv4-too-many-parts validation
	// error, return failure."
	if len(parts) > 4 {
		return 0, false
	}
	// "4. Let numbers be an empty list. 5. For each part of parts: 1. Let
	// result be the result of parsing part. 2. If result is failure,
	// IPv4-non-numeric-part validation error, return failure. ... 4. Append
	// result[0] to numbers."
	var numbers []*big.Int
	for _, part := range parts {
		n, _, ok := wIPv4NumberParse(part)
		if !ok {
			return 0, false
		}
		numbers = append(numbers, n)
	}
	// "6. If any item in numbers is greater than 255, IPv4-out-of-range-part
	// validation error. 7. If any but the last item in numbers is greater
	// than 255, then return failure."
	b255 := big.NewInt(255)
	for i, n := range numbers {
		if i < len(numbers)-1 && n.Cmp(b255) > 0 {
			return 0, false
		}
	}
	// "8. If the last item in numbers is greater than or equal to 256^(5 −
	// numbers's size), then return failure."
	limit := new(big.Int).Exp(big.NewInt(256), big.NewInt(int64(5-len(numbers))), nil)
	if numbers[len(numbers)-1].Cmp(limit) >= 0 {
		return 0, false
	}
	// "9. Let ipv4 be the last item in numbers. 10. Remove the last item from
	// numbers. 11. Let counter be 0. 12. For each n of numbers: 1. Increment
	// ipv4 by n × 256^(3 − counter). 2. Increment counter by 1."
	ipv4 := new(big.Int).Set(numbers[len(numbers)-1])
	numbers = numbers[:len(numbers)-1]
	for counter, n := range numbers {
		f := new(big.Int).Exp(big.NewInt(256), big.NewInt(int64(3-counter)), nil)
		ipv4.Add(ipv4, f.Mul(f, n))
	}
	// "13. Return ipv4."
	return uint32(ipv4.Uint64()), true
}

// The IPv4 number parser. It returns the number, the validationError flag
// and false for failure.
func wIPv4NumberParse(input []rune) (*big.Int, bool, bool) {
	// "1. If input is the empty string, then return failure."
	if len(input) == 0 {
		return nil, false, false
	}
	// "2. Let validationError be false. 3. Let R be 10."
	validationError := false
	R := 10
	// "4. If input contains at least two code points and the first two code
	// points are either "0X" or "0x", then: set validationError to true,
	// remove the first two code points from input, set R to 16."
	if len(input) >= 2 && input[0] == '0' && (input[1] == 'X' || input[1] == 'x') {
		validationError = true
		input = input[2:]
		R = 16
	} else if len(input) >= 2 && input[0] == '0' {
		// "5. Otherwise, if input contains at least two code points and the
		// first code point is U+0030 (0), then: set validationError to true,
		// remove the first code point from input, set R to 8."
		validationError = true
		input = input[1:]
		R = 8
	}
	// "6. If input is the empty string, then return (0, true)."
	if len(input) == 0 {
		return big.NewInt(0), true, true
	}
	// "7. If input contains a code point that is not a radix-R digit, then
	// return failure."
	for _, c := range input {
		ok := false
		switch R {
		case 10:
			ok = wIsASCIIDigit(c)
		case 16:
			ok = wIsASCIIHexDigit(c)
		case 8:
			ok = c >= '0' && c <= '7'
		}
		if !ok {
			return nil, false, false
		}
	}
	// "8. Let output be the mathematical integer value that is represented by
	// input in radix-R notation, using ASCII hex digits for digits with
	// values 0 through 15. 9. Return (output, validationError)."
	output, _ := new(big.Int).SetString(string(input), R)
	return output, validationError, true
}

// The IPv6 parser.
func wIPv6Parse(input []rune) ([8]uint16, bool) {
	var fail [8]uint16
	// "1. Let address be a new IPv6 address whose IPv6 pieces are all 0.
	// 2. Let pieceIndex be 0. 3. Let compress be null. 4. Let pointer be a
	// pointer for input."
	var address [8]int
	pieceIndex := 0
	compress := -1 // null
	pointer := 0
	c := func() rune { // c: the code point at pointer, or EOF (-1)
		if pointer < len(input) {
			return input[pointer]
		}
		return -1
	}
	remainingStartsWith := func(r rune) bool {
		return pointer+1 < len(input) && input[pointer+1] == r
	}
	// "5. If c is U+003A (:), then: 1. If remaining does not start with
	// U+003A (:), IPv6-invalid-compression validation error, return failure.
	// 2. Increase pointer by 2. 3. Increase pieceIndex by 1 and then set
	// compress to pieceIndex."
	if c() == ':' {
		if !remainingStartsWith(':') {
			return fail, false
		}
		pointer += 2
		pieceIndex++
		compress = pieceIndex
	}
	// "6. While c is not the EOF code point:"
	for c() != -1 {
		// "1. If pieceIndex is 8, IPv6-too-many-pieces validation error, return failure."
		if pieceIndex == 8 {
			return fail, false
		}
		// "2. If c is U+003A (:), then: 1. If compress is non-null,
		// IPv6-multiple-compression validation error, return failure.
		// 2. Increase pointer and pieceIndex by 1, set compress to
		// pieceIndex, and then continue."
		if c() == ':' {
			if compress != -1 {
				return fail, false
			}
			pointer++
			pieceIndex++
			compress = pieceIndex
			continue
		}
		// "3. Let value and length be 0. 4. While length is less than 4 and c
		// is an ASCII hex digit, set value to value × 0x10 + c interpreted as
		// hexadecimal number, and increase pointer and length by 1."
		value, length := 0, 0
		for length < 4 && wIsASCIIHexDigit(c()) {
			value = value*0x10 + int(wHexValue(c()))
			pointer++
			length++
		}
		// "5. If c is U+002E (.), then:"
		if c() == '.' {
			// "1. If length is 0, IPv4-in-IPv6-invalid-code-point validation
			// error, return failure."
			if length == 0 {
				return fail, false
			}
			// "2. Decrease pointer by length."
			pointer -= length
			// "3. If pieceIndex is greater than 6, IPv4-in-IPv6-too-many-pieces
			// validation error, return failure."
			if pieceIndex > 6 {
				return fail, false
			}
			// "4. Let numbersSeen be 0."
			numbersSeen := 0
			// "5. While c is not the EOF code point:"
			for c() != -1 {
				// "1. Let ipv4Piece be null."
				ipv4Piece := -1
				// "2. If numbersSeen is greater than 0, then: 1. If c is a
				// U+002E (.) and numbersSeen is less than 4, then increase
				// pointer by 1. 2. Otherwise, IPv4-in-IPv6-invalid-code-point
				// validation error, return failure."
				if numbersSeen > 0 {
					if c() == '.' && numbersSeen < 4 {
						pointer++
					} else {
						return fail, false
					}
				}
				// "3. If c is not an ASCII digit, IPv4-in-IPv6-invalid-code-point
				// validation error, return failure."
				if !wIsASCIIDigit(c()) {
					return fail, false
				}
				// "4. While c is an ASCII digit:"
				for wIsASCIIDigit(c()) {
					// "1. Let number be c interpreted as decimal number."
					number := int(c() - '0')
					// "2. If ipv4Piece is null, then set ipv4Piece to number.
					// Otherwise, if ipv4Piece is 0, IPv4-in-IPv6-invalid-code-point
					// validation error, return failure. Otherwise, set
					// ipv4Piece to ipv4Piece × 10 + number."
					if ipv4Piece == -1 {
						ipv4Piece = number
					} else if ipv4Piece == 0 {
						return fail, false
					} else {
						ipv4Piece = ipv4Piece*10 + number
					}
					// "3. If ipv4Piece is greater than 255,
					// IPv4-in-IPv6-out-of-range-part validation error, return failure."
					if ipv4Piece > 255 {
						return fail, false
					}
					// "4. Increase pointer by 1."
					pointer++
				}
				// "5. Set address[pieceIndex] to address[pieceIndex] × 0x100 + ipv4Piece."
				address[pieceIndex] = address[pieceIndex]*0x100 + ipv4Piece
				// "6. Increase numbersSeen by 1."
				numbersSeen++
				// "7. If numbersSeen is 2 or 4, then increase pieceIndex by 1."
				if numbersSeen == 2 || numbersSeen == 4 {
					pieceIndex++
				}
			}
			// "6. If numbersSeen is not 4, IPv4-in-IPv6-too-few-parts
			// validation error, return failure."
			if numbersSeen != 4 {
				return fail, false
			}
			// "7. Break."
			break
		} else if c() == ':' {
			// "6. Otherwise, if c is U+003A (:): 1. Increase pointer by 1.
			// 2. If c is the EOF code point, IPv6-invalid-code-point
			// validation error, return failure."
			pointer++
			if c() == -1 {
				return fail, false
			}
		} else if c() != -1 {
			// "7. Otherwise, if c is not the EOF code point,
			// IPv6-invalid-code-point validation error, return failure."
			return fail, false
		}
		// "8. Set address[pieceIndex] to value. 9. Increase pieceIndex by 1."
		address[pieceIndex] = value
		pieceIndex++
	}
	// "7. If compress is non-null, then: 1. Let swaps be pieceIndex −
	// compress. 2. Set pieceIndex to 7. 3. While pieceIndex is not 0 and
	// swaps is greater than 0, swap address[pieceIndex] with
	// address[compress + swaps − 1], and then decrease both pieceIndex and
	// swaps by 1."
	if compress != -1 {
		swaps := pieceIndex - compress
		pieceIndex = 7
		for pieceIndex != 0 && swaps > 0 {
			address[pieceIndex], address[compress+swaps-1] = address[compress+swaps-1], address[pieceIndex]
			pieceIndex--
			swaps--
		}
	} else if pieceIndex != 8 {
		// "8. Otherwise, if compress is null and pieceIndex is not 8,
		// IPv6-too-few-pieces validation error, return failure."
		return fail, false
	}
	// "9. Return address."
	var out [8]uint16
	for i, p := range address {
		out[i] = uint16(p)
	}
	return out, true
}

// The opaque-host parser.
func wOpaqueHostParse(input []rune) (*slowWHATWGHost, bool) {
	// "1. If input contains a forbidden host code point, host-invalid-code-point
	// validation error, return failure."
	for _, c := range input {
		if wIsForbiddenHostCodePoint(c) {
			return nil, false
		}
	}
	// "2. If input contains a code point that is not a URL code point and not
	// U+0025 (%), invalid-URL-unit validation error. 3. If input contains a
	// U+0025 (%) and the two code points following it are not ASCII hex
	// digits, invalid-URL-unit validation error." (validation errors only)
	// "4. Return the result of running UTF-8 percent-encode on input using
	// the C0 control percent-encode set."
	s := wUTF8PercentEncodeString(string(input), inC0ControlPercentEncodeSet)
	if s == "" {
		return &slowWHATWGHost{kind: slowHostEmpty}, true
	}
	return &slowWHATWGHost{kind: slowHostDomain, domain: s}, true
}

// ---------------------------------------------------------------------------
// §3.6 Host serializing.

// The host serializer.
func wHostSerialize(h *slowWHATWGHost) string {
	switch h.kind {
	case slowHostIPv4:
		return wIPv4Serialize(h.ipv4)
	case slowHostIPv6:
		// "2. Otherwise, if host is an IPv6 address, return U+005B ([),
		// followed by the result of running the IPv6 serializer on host,
		// followed by U+005D (])."
		return "[" + wIPv6Serialize(h.ipv6) + "]"
	case slowHostEmpty:
		return ""
	default:
		// "3. Otherwise, host is a domain, opaque host, or empty host, return host."
		return h.domain
	}
}

// The IPv4 serializer: "1. Let output be the empty string. 2. Let n be the
// value of address. 3. For each i in the range 1 to 4, inclusive: 1. Prepend
// n % 256, serialized, to output. 2. If i is not 4, then prepend U+002E (.)
// to output. 3. Set n to floor(n / 256). 4. Return output."
func wIPv4Serialize(address uint32) string {
	output := ""
	n := address
	for i := 1; i <= 4; i++ {
		output = fmt.Sprint(n%256) + output
		if i != 4 {
			output = "." + output
		}
		n /= 256
	}
	return output
}

// The IPv6 serializer.
func wIPv6Serialize(address [8]uint16) string {
	// "1. Let output be the empty string."
	output := ""
	// "2. Let compress be an index to the first IPv6 piece in the first
	// longest sequences of address's IPv6 pieces that are 0. 3. If there is
	// no sequence of address's IPv6 pieces that are 0 that is longer than 1,
	// then set compress to null."
	compress, bestLen := -1, 1
	for i := 0; i < 8; {
		if address[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && address[j] == 0 {
			j++
		}
		if j-i > bestLen {
			compress, bestLen = i, j-i
		}
		i = j
	}
	// "4. Let ignore0 be false."
	ignore0 := false
	// "5. For each pieceIndex in the range 0 to 7, inclusive:"
	for pieceIndex := 0; pieceIndex <= 7; pieceIndex++ {
		// "1. If ignore0 is true and address[pieceIndex] is 0, then continue.
		// 2. Otherwise, if ignore0 is true, set ignore0 to false."
		if ignore0 && address[pieceIndex] == 0 {
			continue
		} else if ignore0 {
			ignore0 = false
		}
		// "3. If compress is pieceIndex, then: 1. Let separator be "::" if
		// pieceIndex is 0, and U+003A (:) otherwise. 2. Append separator to
		// output. 3. Set ignore0 to true and continue."
		if compress == pieceIndex {
			separator := ":"
			if pieceIndex == 0 {
				separator = "::"
			}
			output += separator
			ignore0 = true
			continue
		}
		// "4. Append address[pieceIndex], represented as the shortest possible
		// lowercase hexadecimal number, to output. 5. If pieceIndex is not 7,
		// then append U+003A (:) to output."
		output += fmt.Sprintf("%x", address[pieceIndex])
		if pieceIndex != 7 {
			output += ":"
		}
	}
	// "6. Return output."
	return output
}

// ---------------------------------------------------------------------------
// §4.1 URL miscellaneous: Windows drive letters, dot segments, shorten.

// "A Windows drive letter is two code points, of which the first is an
// ASCII alpha and the second is either U+003A (:) or U+007C (|)."
func wIsWindowsDriveLetter(s []rune) bool {
	return len(s) == 2 && wIsASCIIAlpha(s[0]) && (s[1] == ':' || s[1] == '|')
}

// "A normalized Windows drive letter is a Windows drive letter of which the
// second code point is U+003A (:)."
func wIsNormalizedWindowsDriveLetter(s []rune) bool {
	return wIsWindowsDriveLetter(s) && s[1] == ':'
}

// "A string starts with a Windows drive letter if all of the following are
// true: its length is greater than or equal to 2; its first two code points
// are a Windows drive letter; its length is 2 or its third code point is
// U+002F (/), U+005C (\), U+003F (?), or U+0023 (#)."
func wStartsWithWindowsDriveLetter(s []rune) bool {
	return len(s) >= 2 && wIsWindowsDriveLetter(s[:2]) &&
		(len(s) == 2 || s[2] == '/' || s[2] == '\\' || s[2] == '?' || s[2] == '#')
}

// "A single-dot URL path segment is a URL path segment that is "." or an
// ASCII case-insensitive match for "%2e"."
func wIsSingleDotSegment(s string) bool {
	return s == "." || wASCIILowercase(s) == "%2e"
}

// "A double-dot URL path segment is a URL path segment that is ".." or an
// ASCII case-insensitive match for ".%2e", "%2e.", or "%2e%2e"."
func wIsDoubleDotSegment(s string) bool {
	switch wASCIILowercase(s) {
	case "..", ".%2e", "%2e.", "%2e%2e":
		return true
	}
	return false
}

// "To shorten a url's path: 1. Assert: url does not have an opaque path.
// 2. Let path be url's path. 3. If url's scheme is "file", path's size is
// 1, and path[0] is a normalized Windows drive letter, then return.
// 4. Remove path's last item, if any."
func (u *slowWHATWGURL) shortenPath() {
	if u.opaque {
		panic("shorten an opaque path")
	}
	if u.scheme == "file" && len(u.path) == 1 && wIsNormalizedWindowsDriveLetter([]rune(u.path[0])) {
		return
	}
	if len(u.path) > 0 {
		u.path = u.path[:len(u.path)-1]
	}
}

// ---------------------------------------------------------------------------
// §4.4 URL parsing.

type whatwgState int

const (
	schemeStartState whatwgState = iota
	schemeState
	noSchemeState
	specialRelativeOrAuthorityState
	pathOrAuthorityState
	relativeState
	relativeSlashState
	specialAuthoritySlashesState
	specialAuthorityIgnoreSlashesState
	authorityState
	hostState
	portState
	fileState
	fileSlashState
	fileHostState
	pathStartState
	pathState
	opaquePathState
	queryState
	fragmentState
)

const wEOF rune = -1

func wStrPtr(s string) *string { return &s }

// wClone copies a query or fragment, so that url never shares base's.
func wClone(p *string) *string {
	if p == nil {
		return nil
	}
	return wStrPtr(*p)
}

func (u *slowWHATWGURL) clonePath() []string {
	return append([]string(nil), u.path...)
}

// whatwgSlowParse is the basic URL parser, given input and an optional base
// URL (nil: null), with no encoding override (UTF-8), no url and no state
// override. It returns false for failure.
func whatwgSlowParse(input string, base *slowWHATWGURL) (*slowWHATWGURL, bool) {
	in := []rune(input)
	// "1. If url is not given: 1. Set url to a new URL. 2. If input contains
	// any leading or trailing C0 control or space, invalid-URL-unit
	// validation error. 3. Remove any leading and trailing C0 control or
	// space from input."
	url := &slowWHATWGURL{port: -1}
	for len(in) > 0 && wIsC0ControlOrSpace(in[0]) {
		in = in[1:]
	}
	for len(in) > 0 && wIsC0ControlOrSpace(in[len(in)-1]) {
		in = in[:len(in)-1]
	}
	// "2. If input contains any ASCII tab or newline, invalid-URL-unit
	// validation error. 3. Remove all ASCII tab or newline from input."
	var stripped []rune
	for _, c := range in {
		if !wIsASCIITabOrNewline(c) {
			stripped = append(stripped, c)
		}
	}
	in = stripped
	// "4. Let state be state override if given, or scheme start state otherwise."
	state := schemeStartState
	// "5. Set encoding to the result of getting an output encoding from
	// encoding." (UTF-8)
	// "6. Let buffer be the empty string. 7. Let atSignSeen, insideBrackets,
	// and passwordTokenSeen be false. 8. Let pointer be a pointer for input."
	var buffer []rune
	atSignSeen, insideBrackets, passwordTokenSeen := false, false, false
	pointer := 0

	// remaining: "the code point substring from pointer + 1 to the end".
	remaining := func() []rune {
		if pointer+1 >= len(in) {
			return nil
		}
		return in[pointer+1:]
	}
	remainingStartsWith := func(s string) bool {
		return strings.HasPrefix(string(remaining()), s)
	}
	fromPointer := func() []rune { // "the code point substring from pointer to the end of the input"
		if pointer >= len(in) {
			return nil
		}
		return in[pointer:]
	}

	// "9. Keep running the following state machine by switching on state.
	// If after a run pointer points to the EOF code point, go to the next
	// step. Otherwise, increase pointer by 1 and continue with the state
	// machine."
	for {
		c := wEOF
		if pointer >= 0 && pointer < len(in) {
			c = in[pointer]
		}
		switch state {

		case schemeStartState:
			// "1. If c is an ASCII alpha, append c, lowercased, to buffer,
			// and set state to scheme state. 2. Otherwise, if state override
			// is not given, set state to no scheme state and decrease pointer
			// by 1."
			if wIsASCIIAlpha(c) {
				buffer = append(buffer, []rune(wASCIILowercase(string(c)))...)
				state = schemeState
			} else {
				state = noSchemeState
				pointer--
			}

		case schemeState:
			// "1. If c is an ASCII alphanumeric, U+002B (+), U+002D (-), or
			// U+002E (.), append c, lowercased, to buffer."
			if c != wEOF && (wIsASCIIAlphanumeric(c) || c == '+' || c == '-' || c == '.') {
				buffer = append(buffer, []rune(wASCIILowercase(string(c)))...)
			} else if c == ':' {
				// "2. Otherwise, if c is U+003A (:), then: ... 2. Set url's
				// scheme to buffer. ... 4. Set buffer to the empty string."
				url.scheme = string(buffer)
				buffer = nil
				switch {
				case url.scheme == "file":
					// "5. If url's scheme is "file", then: 1. If remaining
					// does not start with "//", special-scheme-missing-following-solidus
					// validation error. 2. Set state to file state."
					state = fileState
				case url.special() && base != nil && base.scheme == url.scheme:
					// "6. Otherwise, if url is special, base is non-null, and
					// base's scheme is url's scheme: 1. Assert: base is
					// special (and therefore does not have an opaque path).
					// 2. Set state to special relative or authority state."
					state = specialRelativeOrAuthorityState
				case url.special():
					// "7. Otherwise, if url is special, set state to special
					// authority slashes state."
					state = specialAuthoritySlashesState
				case remainingStartsWith("/"):
					// "8. Otherwise, if remaining starts with an U+002F (/),
					// set state to path or authority state and increase
					// pointer by 1."
					state = pathOrAuthorityState
					pointer++
				default:
					// "9. Otherwise, set url's path to the empty string and
					// set state to opaque path state."
					url.opaque, url.opaquePath = true, ""
					state = opaquePathState
				}
			} else {
				// "3. Otherwise, if state override is not given, set buffer
				// to the empty string, state to no scheme state, and start
				// over (from the first code point in input)."
				buffer = nil
				state = noSchemeState
				pointer = -1
			}

		case noSchemeState:
			// "1. If base is null, or base has an opaque path and c is not
			// U+0023 (#), missing-scheme-non-relative-URL validation error,
			// return failure."
			if base == nil || (base.opaque && c != '#') {
				return nil, false
			} else if base.opaque && c == '#' {
				// "2. Otherwise, if base has an opaque path and c is U+0023
				// (#), set url's scheme to base's scheme, url's path to
				// base's path, url's query to base's query, url's fragment
				// to the empty string, and set state to fragment state."
				url.scheme = base.scheme
				url.opaque, url.opaquePath = true, base.opaquePath
				url.query = wClone(base.query)
				url.fragment = wStrPtr("")
				state = fragmentState
			} else if base.scheme != "file" {
				// "3. Otherwise, if base's scheme is not "file", set state
				// to relative state and decrease pointer by 1."
				state = relativeState
				pointer--
			} else {
				// "4. Otherwise, set state to file state and decrease pointer by 1."
				state = fileState
				pointer--
			}

		case specialRelativeOrAuthorityState:
			// "1. If c is U+002F (/) and remaining starts with U+002F (/),
			// then set state to special authority ignore slashes state and
			// increase pointer by 1. 2. Otherwise, special-scheme-missing-following-solidus
			// validation error, set state to relative state and decrease
			// pointer by 1."
			if c == '/' && remainingStartsWith("/") {
				state = specialAuthorityIgnoreSlashesState
				pointer++
			} else {
				state = relativeState
				pointer--
			}

		case pathOrAuthorityState:
			// "1. If c is U+002F (/), then set state to authority state.
			// 2. Otherwise, set state to path state, and decrease pointer by 1."
			if c == '/' {
				state = authorityState
			} else {
				state = pathState
				pointer--
			}

		case relativeState:
			// "1. Assert: base's scheme is not "file". 2. Set url's scheme to
			// base's scheme."
			url.scheme = base.scheme
			if c == '/' {
				// "3. If c is U+002F (/), then set state to relative slash state."
				state = relativeSlashState
			} else if url.special() && c == '\\' {
				// "4. Otherwise, if url is special and c is U+005C (\),
				// invalid-reverse-solidus validation error, set state to
				// relative slash state."
				state = relativeSlashState
			} else {
				// "5. Otherwise: 1. Set url's username to base's username,
				// url's password to base's password, url's host to base's
				// host, url's port to base's port, url's path to a clone of
				// base's path, and url's query to base's query."
				url.username, url.password = base.username, base.password
				url.host, url.port = base.host, base.port
				url.path = base.clonePath()
				url.query = wClone(base.query)
				if c == '?' {
					// "2. If c is U+003F (?), then set url's query to the
					// empty string, and state to query state."
					url.query = wStrPtr("")
					state = queryState
				} else if c == '#' {
					// "3. Otherwise, if c is U+0023 (#), set url's fragment
					// to the empty string and state to fragment state."
					url.fragment = wStrPtr("")
					state = fragmentState
				} else if c != wEOF {
					// "4. Otherwise, if c is not the EOF code point: 1. Set
					// url's query to null. 2. Shorten url's path. 3. Set
					// state to path state and decrease pointer by 1."
					url.query = nil
					url.shortenPath()
					state = pathState
					pointer--
				}
			}

		case relativeSlashState:
			if url.special() && (c == '/' || c == '\\') {
				// "1. If url is special and c is U+002F (/) or U+005C (\),
				// then: 1. If c is U+005C (\), invalid-reverse-solidus
				// validation error. 2. Set state to special authority
				// ignore slashes state."
				state = specialAuthorityIgnoreSlashesState
			} else if c == '/' {
				// "2. Otherwise, if c is U+002F (/), then set state to
				// authority state."
				state = authorityState
			} else {
				// "3. Otherwise, set url's username to base's username,
				// url's password to base's password, url's host to base's
				// host, url's port to base's port, state to path state, and
				// then, decrease pointer by 1."
				url.username, url.password = base.username, base.password
				url.host, url.port = base.host, base.port
				state = pathState
				pointer--
			}

		case specialAuthoritySlashesState:
			// "1. If c is U+002F (/) and remaining starts with U+002F (/),
			// then set state to special authority ignore slashes state and
			// increase pointer by 1. 2. Otherwise,
			// special-scheme-missing-following-solidus validation error, set
			// state to special authority ignore slashes state and decrease
			// pointer by 1."
			if c == '/' && remainingStartsWith("/") {
				state = specialAuthorityIgnoreSlashesState
				pointer++
			} else {
				state = specialAuthorityIgnoreSlashesState
				pointer--
			}

		case specialAuthorityIgnoreSlashesState:
			// "1. If c is neither U+002F (/) nor U+005C (\), then set state
			// to authority state and decrease pointer by 1. 2. Otherwise,
			// special-scheme-missing-following-solidus validation error."
			if c != '/' && c != '\\' {
				state = authorityState
				pointer--
			}

		case authorityState:
			if c == '@' {
				// "1. If c is U+0040 (@), then: 1. Invalid-credentials
				// validation error. 2. If atSignSeen is true, then prepend
				// "%40" to buffer. 3. Set atSignSeen to true."
				if atSignSeen {
					buffer = append([]rune("%40"), buffer...)
				}
				atSignSeen = true
				// "4. For each codePoint in buffer: 1. If codePoint is
				// U+003A (:) and passwordTokenSeen is false, then set
				// passwordTokenSeen to true and continue. 2. Let
				// encodedCodePoints be the result of running UTF-8
				// percent-encode codePoint using the userinfo percent-encode
				// set. 3. If passwordTokenSeen is true, then append
				// encodedCodePoints to url's password. 4. Otherwise, append
				// encodedCodePoints to url's username."
				for _, codePoint := range buffer {
					if codePoint == ':' && !passwordTokenSeen {
						passwordTokenSeen = true
						continue
					}
					encodedCodePoints := wUTF8PercentEncode(codePoint, inUserinfoPercentEncodeSet)
					if passwordTokenSeen {
						url.password += encodedCodePoints
					} else {
						url.username += encodedCodePoints
					}
				}
				// "5. Set buffer to the empty string."
				buffer = nil
			} else if c == wEOF || c == '/' || c == '?' || c == '#' || (url.special() && c == '\\') {
				// "2. Otherwise, if one of the following is true: c is the
				// EOF code point, U+002F (/), U+003F (?), or U+0023 (#); url
				// is special and c is U+005C (\), then: 1. If atSignSeen is
				// true and buffer is the empty string, host-missing
				// validation error, return failure. 2. Decrease pointer by
				// buffer's code point length + 1, set buffer to the empty
				// string, and set state to host state."
				if atSignSeen && len(buffer) == 0 {
					return nil, false
				}
				pointer -= len(buffer) + 1
				buffer = nil
				state = hostState
			} else {
				// "3. Otherwise, append c to buffer."
				buffer = append(buffer, c)
			}

		case hostState:
			// "1. If state override is given and url's scheme is "file", ..."
			// (no state override)
			if c == ':' && !insideBrackets {
				// "2. Otherwise, if c is U+003A (:) and insideBrackets is
				// false, then: 1. If buffer is the empty string, host-missing
				// validation error, return failure. ... 3. Let host be the
				// result of host parsing buffer with url is not special.
				// 4. If host is failure, then return failure. 5. Set url's
				// host to host, buffer to the empty string, and state to port
				// state."
				if len(buffer) == 0 {
					return nil, false
				}
				host, ok := wHostParse(buffer, !url.special())
				if !ok {
					return nil, false
				}
				url.host = host
				buffer = nil
				state = portState
			} else if c == wEOF || c == '/' || c == '?' || c == '#' || (url.special() && c == '\\') {
				// "3. Otherwise, if one of the following is true: c is the
				// EOF code point, U+002F (/), U+003F (?), or U+0023 (#); url
				// is special and c is U+005C (\), then decrease pointer by 1,
				// and then: 1. If url is special and buffer is the empty
				// string, host-missing validation error, return failure. ...
				// 3. Let host be the result of host parsing buffer with url
				// is not special. 4. If host is failure, then return failure.
				// 5. Set url's host to host, buffer to the empty string, and
				// state to path start state."
				pointer--
				if url.special() && len(buffer) == 0 {
					return nil, false
				}
				// (For a non-special URL an empty buffer gives the empty
				// host: the opaque-host parser returns "".)
				host, ok := wHostParse(buffer, !url.special())
				if !ok {
					return nil, false
				}
				url.host = host
				buffer = nil
				state = pathStartState
			} else {
				// "4. Otherwise: 1. If c is U+005B ([), then set
				// insideBrackets to true. 2. If c is U+005D (]), then set
				// insideBrackets to false. 3. Append c to buffer."
				if c == '[' {
					insideBrackets = true
				}
				if c == ']' {
					insideBrackets = false
				}
				buffer = append(buffer, c)
			}

		case portState:
			if wIsASCIIDigit(c) {
				// "1. If c is an ASCII digit, append c to buffer."
				buffer = append(buffer, c)
			} else if c == wEOF || c == '/' || c == '?' || c == '#' || (url.special() && c == '\\') {
				// "2. Otherwise, if one of the following is true: c is the
				// EOF code point, U+002F (/), U+003F (?), or U+0023 (#); url
				// is special and c is U+005C (\); state override is given,
				// then: 1. If buffer is not the empty string: 1. Let port be
				// the mathematical integer value that is represented by
				// buffer in radix-10 using ASCII digits for digits with
				// values 0 through 9. 2. If port is greater than 2^16 − 1,
				// port-out-of-range validation error, return failure. 3. Set
				// url's port to null, if port is url's scheme's default
				// port; otherwise to port. 4. Set buffer to the empty
				// string. ... 3. Set state to path start state and decrease
				// pointer by 1."
				if len(buffer) != 0 {
					port, _ := new(big.Int).SetString(string(buffer), 10)
					if port.Cmp(big.NewInt(1<<16-1)) > 0 {
						return nil, false
					}
					p := int(port.Int64())
					if def, ok := whatwgSpecialSchemes[url.scheme]; ok && def == p {
						url.port = -1
					} else {
						url.port = p
					}
					buffer = nil
				}
				state = pathStartState
				pointer--
			} else {
				// "3. Otherwise, port-invalid validation error, return failure."
				return nil, false
			}

		case fileState:
			// "1. Set url's scheme to "file". 2. Set url's host to the empty string."
			url.scheme = "file"
			url.host = &slowWHATWGHost{kind: slowHostEmpty}
			if c == '/' || c == '\\' {
				// "3. If c is U+002F (/) or U+005C (\), then: 1. If c is
				// U+005C (\), invalid-reverse-solidus validation error.
				// 2. Set state to file slash state."
				state = fileSlashState
			} else if base != nil && base.scheme == "file" {
				// "4. Otherwise, if base is non-null and base's scheme is
				// "file": 1. Set url's host to base's host, url's path to a
				// clone of base's path, and url's query to base's query."
				url.host = base.host
				url.path = base.clonePath()
				url.query = wClone(base.query)
				if c == '?' {
					// "2. If c is U+003F (?), then set url's query to the
					// empty string and state to query state."
					url.query = wStrPtr("")
					state = queryState
				} else if c == '#' {
					// "3. Otherwise, if c is U+0023 (#), set url's fragment
					// to the empty string and state to fragment state."
					url.fragment = wStrPtr("")
					state = fragmentState
				} else if c != wEOF {
					// "4. Otherwise, if c is not the EOF code point: 1. Set
					// url's query to null. 2. If the code point substring
					// from pointer to the end of input does not start with a
					// Windows drive letter, then shorten url's path.
					// 3. Otherwise: 1. File-invalid-Windows-drive-letter
					// validation error. 2. Set url's path to « ». 4. Set
					// state to path state and decrease pointer by 1."
					url.query = nil
					if !wStartsWithWindowsDriveLetter(fromPointer()) {
						url.shortenPath()
					} else {
						url.path = []string{}
					}
					state = pathState
					pointer--
				}
			} else {
				// "5. Otherwise, set state to path state, and decrease pointer by 1."
				state = pathState
				pointer--
			}

		case fileSlashState:
			if c == '/' || c == '\\' {
				// "1. If c is U+002F (/) or U+005C (\), then: 1. If c is
				// U+005C (\), invalid-reverse-solidus validation error.
				// 2. Set state to file host state."
				state = fileHostState
			} else {
				// "2. Otherwise: 1. If base is non-null and base's scheme is
				// "file", then: 1. Set url's host to base's host. 2. If the
				// code point substring from pointer to the end of input does
				// not start with a Windows drive letter and base's path[0]
				// is a normalized Windows drive letter, then append base's
				// path[0] to url's path. 2. Set state to path state, and
				// decrease pointer by 1."
				if base != nil && base.scheme == "file" {
					url.host = base.host
					if !wStartsWithWindowsDriveLetter(fromPointer()) &&
						len(base.path) > 0 && wIsNormalizedWindowsDriveLetter([]rune(base.path[0])) {
						url.path = append(url.path, base.path[0])
					}
				}
				state = pathState
				pointer--
			}

		case fileHostState:
			if c == wEOF || c == '/' || c == '\\' || c == '?' || c == '#' {
				// "1. If c is the EOF code point, U+002F (/), U+005C (\),
				// U+003F (?), or U+0023 (#), then decrease pointer by 1 and
				// then:"
				pointer--
				if wIsWindowsDriveLetter(buffer) {
					// "1. If state override is not given and buffer is a
					// Windows drive letter, file-invalid-Windows-drive-letter-host
					// validation error, set state to path state." (The
					// buffer is kept: it becomes the first path segment.)
					state = pathState
				} else if len(buffer) == 0 {
					// "2. Otherwise, if buffer is the empty string, then:
					// 1. Set url's host to the empty string. ... 3. Set
					// state to path start state."
					url.host = &slowWHATWGHost{kind: slowHostEmpty}
					state = pathStartState
				} else {
					// "3. Otherwise, run these steps: 1. Let host be the
					// result of host parsing buffer with url is not special.
					// 2. If host is failure, then return failure. 3. If host
					// is "localhost", then set host to the empty string.
					// 4. Set url's host to host. ... 6. Set buffer to the
					// empty string and state to path start state."
					host, ok := wHostParse(buffer, !url.special())
					if !ok {
						return nil, false
					}
					if host.kind == slowHostDomain && host.domain == "localhost" {
						host = &slowWHATWGHost{kind: slowHostEmpty}
					}
					url.host = host
					buffer = nil
					state = pathStartState
				}
			} else {
				// "2. Otherwise, append c to buffer."
				buffer = append(buffer, c)
			}

		case pathStartState:
			if url.special() {
				// "1. If url is special, then: 1. If c is U+005C (\),
				// invalid-reverse-solidus validation error. 2. Set state to
				// path state. 3. If c is neither U+002F (/) nor U+005C (\),
				// then decrease pointer by 1."
				state = pathState
				if c != '/' && c != '\\' {
					pointer--
				}
			} else if c == '?' {
				// "2. Otherwise, if state override is not given and c is
				// U+003F (?), set url's query to the empty string and state
				// to query state."
				url.query = wStrPtr("")
				state = queryState
			} else if c == '#' {
				// "3. Otherwise, if state override is not given and c is
				// U+0023 (#), set url's fragment to the empty string and
				// state to fragment state."
				url.fragment = wStrPtr("")
				state = fragmentState
			} else if c != wEOF {
				// "4. Otherwise, if c is not the EOF code point: 1. Set state
				// to path state. 2. If c is not U+002F (/), then decrease
				// pointer by 1."
				state = pathState
				if c != '/' {
					pointer--
				}
			}
			// "5. Otherwise, if state override is given and url's host is
			// null, append the empty string to url's path." (no state override)

		case pathState:
			if c == wEOF || c == '/' || (url.special() && c == '\\') || c == '?' || c == '#' {
				// "1. If one of the following is true: c is the EOF code
				// point or U+002F (/); url is special and c is U+005C (\);
				// state override is not given and c is U+003F (?) or U+0023
				// (#), then:"
				slash := c == '/' || (url.special() && c == '\\')
				seg := string(buffer)
				if wIsDoubleDotSegment(seg) {
					// "2. If buffer is a double-dot URL path segment, then:
					// 1. Shorten url's path. 2. If neither c is U+002F (/),
					// nor url is special and c is U+005C (\), append the
					// empty string to url's path."
					url.shortenPath()
					if !slash {
						url.path = append(url.path, "")
					}
				} else if wIsSingleDotSegment(seg) && !slash {
					// "3. Otherwise, if buffer is a single-dot URL path
					// segment and if neither c is U+002F (/), nor url is
					// special and c is U+005C (\), append the empty string
					// to url's path."
					url.path = append(url.path, "")
				} else if !wIsSingleDotSegment(seg) {
					// "4. Otherwise, if buffer is not a single-dot URL path
					// segment, then: 1. If url's scheme is "file", url's
					// path is empty, and buffer is a Windows drive letter,
					// then replace the second code point in buffer with
					// U+003A (:). 2. Append buffer to url's path."
					if url.scheme == "file" && len(url.path) == 0 && wIsWindowsDriveLetter(buffer) {
						buffer[1] = ':'
						seg = string(buffer)
					}
					url.path = append(url.path, seg)
				}
				// "5. Set buffer to the empty string."
				buffer = nil
				// "6. If c is U+003F (?), then set url's query to the empty
				// string and state to query state. 7. If c is U+0023 (#),
				// then set url's fragment to the empty string and state to
				// fragment state."
				if c == '?' {
					url.query = wStrPtr("")
					state = queryState
				}
				if c == '#' {
					url.fragment = wStrPtr("")
					state = fragmentState
				}
			} else {
				// "2. Otherwise, run these steps: 1. If c is not a URL code
				// point and not U+0025 (%), invalid-URL-unit validation
				// error. 2. If c is U+0025 (%) and remaining does not start
				// with two ASCII hex digits, invalid-URL-unit validation
				// error. 3. UTF-8 percent-encode c using the path
				// percent-encode set and append the result to buffer."
				buffer = append(buffer, []rune(wUTF8PercentEncode(c, inPathPercentEncodeSet))...)
			}

		case opaquePathState:
			if c == '#' {
				// "1. If c is U+0023 (#), then set url's fragment to the
				// empty string and state to fragment state."
				url.fragment = wStrPtr("")
				state = fragmentState
			} else if c == '?' {
				// "2. Otherwise, if c is U+003F (?), then set url's query to
				// the empty string and state to query state."
				url.query = wStrPtr("")
				state = queryState
			} else if c == ' ' {
				// "3. Otherwise, if c is U+0020 SPACE: 1. If remaining starts
				// with U+003F (?) or U+0023 (#), then append "%20" to url's
				// path. 2. Otherwise, append U+0020 SPACE to url's path."
				// (So that a URL's path never ends in a space before its
				// query or fragment; urltestdata's "non-special:opaque  ?hi"
				// gives "non-special:opaque %20?hi".)
				if remainingStartsWith("?") || remainingStartsWith("#") {
					url.opaquePath += "%20"
				} else {
					url.opaquePath += " "
				}
			} else if c != wEOF {
				// "4. Otherwise, if c is not the EOF code point: ...
				// 3. UTF-8 percent-encode c using the C0 control
				// percent-encode set and append the result to url's path."
				url.opaquePath += wUTF8PercentEncode(c, inC0ControlPercentEncodeSet)
			}

		case queryState:
			// "1. If encoding is not UTF-8 and ..." (UTF-8 here)
			if c == '#' || c == wEOF {
				// "2. If one of the following is true: state override is not
				// given and c is U+0023 (#); c is the EOF code point, then:
				// 1. Let queryPercentEncodeSet be the special-query
				// percent-encode set if url is special; otherwise the query
				// percent-encode set. 2. Percent-encode after encoding, with
				// encoding, buffer, and queryPercentEncodeSet, and append the
				// result to url's query. 3. Set buffer to the empty string.
				// 4. If c is U+0023 (#), then set url's fragment to the
				// empty string and state to fragment state."
				set := inQueryPercentEncodeSet
				if url.special() {
					set = inSpecialQueryPercentEncodeSet
				}
				*url.query += wPercentEncodeAfterEncoding(string(buffer), set, false)
				buffer = nil
				if c == '#' {
					url.fragment = wStrPtr("")
					state = fragmentState
				}
			} else {
				// "3. Otherwise, if c is not the EOF code point: ...
				// 3. Append c to buffer."
				buffer = append(buffer, c)
			}

		case fragmentState:
			// "1. If c is not the EOF code point, then: ... 3. UTF-8
			// percent-encode c using the fragment percent-encode set and
			// append the result to url's fragment."
			if c != wEOF {
				*url.fragment += wUTF8PercentEncode(c, inFragmentPercentEncodeSet)
			}
		}

		if pointer >= len(in) { // "pointer points to the EOF code point"
			break
		}
		pointer++
	}
	// "10. Return url."
	return url, true
}

// ---------------------------------------------------------------------------
// §4.5 URL serializing.

// wSerialize is the URL serializer, with an optional boolean
// excludeFragment.
func (u *slowWHATWGURL) wSerialize(excludeFragment bool) string {
	// "1. Let output be url's scheme and U+003A (:) concatenated."
	output := u.scheme + ":"
	// "2. If url's host is non-null:"
	if u.host != nil {
		// "1. Append "//" to output."
		output += "//"
		// "2. If url includes credentials, then: 1. Append url's username to
		// output. 2. If url's password is not the empty string, then append
		// U+003A (:), followed by url's password, to output. 3. Append U+0040
		// (@) to output."
		if u.includesCredentials() {
			output += u.username
			if u.password != "" {
				output += ":" + u.password
			}
			output += "@"
		}
		// "3. Append url's host, serialized, to output. 4. If url's port is
		// non-null, append U+003A (:) followed by url's port, serialized, to
		// output."
		output += wHostSerialize(u.host)
		if u.port != -1 {
			output += ":" + fmt.Sprint(u.port)
		}
	}
	// "3. If url's host is null, url does not have an opaque path, url's
	// path's size is greater than 1, and url's path[0] is the empty string,
	// then append U+002F (/) followed by U+002E (.) to output."
	if u.host == nil && !u.opaque && len(u.path) > 1 && u.path[0] == "" {
		output += "/."
	}
	// "4. Append the result of URL path serializing url to output."
	output += u.wPathSerialize()
	// "5. If url's query is non-null, append U+003F (?), followed by url's
	// query, to output."
	if u.query != nil {
		output += "?" + *u.query
	}
	// "6. If exclude fragment is false and url's fragment is non-null, then
	// append U+0023 (#), followed by url's fragment, to output."
	if !excludeFragment && u.fragment != nil {
		output += "#" + *u.fragment
	}
	// "7. Return output."
	return output
}

// "The URL path serializer takes a URL url and then runs these steps: 1. If
// url has an opaque path, then return url's path. 2. Let output be the empty
// string. 3. For each segment of url's path: append U+002F (/) followed by
// segment to output. 4. Return output."
func (u *slowWHATWGURL) wPathSerialize() string {
	if u.opaque {
		return u.opaquePath
	}
	output := ""
	for _, segment := range u.path {
		output += "/" + segment
	}
	return output
}

// whatwgSlowHref is new URL(input, base).href: base "" means no base; a
// base that fails to parse (without a base) fails the whole call, as the URL
// constructor does.
func whatwgSlowHref(input, base string) (string, bool) {
	var b *slowWHATWGURL
	if base != "" {
		var ok bool
		b, ok = whatwgSlowParse(base, nil)
		if !ok {
			return "", false
		}
	}
	u, ok := whatwgSlowParse(input, b)
	if !ok {
		return "", false
	}
	return u.wSerialize(false), true
}

// whatwgSlowHost is the host parser (not opaque: as for a special URL)
// followed by the host serializer: what an http(s) URL's host would be.
func whatwgSlowHost(domain string) (string, bool) {
	if domain == "" {
		return "", false
	}
	h, ok := wHostParse([]rune(domain), false)
	if !ok {
		return "", false
	}
	return wHostSerialize(h), true
}
