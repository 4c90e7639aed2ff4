package canon

import (
	"slices"
	"strings"
)

// Redaction: every *Error is built by toError, which masks whatever some
// reading of the input takes for a password, so that no error text or
// log carries one (see passwordSpans for the readings).

// toError builds the exported *Error for a failure found while working on
// in, which is the caller's input (after any trimming, shift bytes in).
// The input is cloned only here, on the error path (as strconv does), and
// its passwords are redacted. A failure whose offset is unknown (-1: it
// was found in a rewritten input) keeps -1.
func toError(op, input string, shift int, err error) error {
	f, ok := err.(*failure)
	if !ok {
		return err
	}
	off := f.off
	if off >= 0 {
		off += shift
	}
	red, off := redactPasswords(input, off, f.segments)
	return &Error{Op: op, Input: strings.Clone(red), Component: f.comp, Offset: off, Err: f.err, reason: f.reason}
}

// passwordMask replaces a password in error text.
const passwordMask = "xxxxx"

// redactPasswords replaces every stretch of s that some reading of s
// takes for the password of a userinfo with "xxxxx" (with segments, also
// every stretch sbSegmentSpans finds), and maps off (an offset in s, or
// -1) to the same place in the result. An error must never
// carry a password, whichever way the input would be read, so every
// reading the package makes counts (see passwordSpans); the cost is on the
// error path only.
func redactPasswords(s string, off int, segments bool) (string, int) {
	spans := passwordSpans(s)
	if segments {
		in, shift, _ := trim(s)
		spans = mergeSpans(sbSegmentSpans(spans, in, shift))
	}
	if len(spans) == 0 {
		return s, off
	}
	var b strings.Builder
	b.Grow(len(s))
	newOff, last := off, 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		at := b.Len()
		b.WriteString(passwordMask)
		switch {
		case off < 0:
		case off >= sp[1]:
			newOff += len(passwordMask) - (sp[1] - sp[0])
		case off > sp[0]:
			newOff = at // inside the password: point at its mask
		}
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String(), newOff
}

// passwordSpans returns the [start, end) byte ranges of s, sorted and
// disjoint, that could hold a password under any reading of s, by a
// profile of this package, a browser or a server. It lists no readings:
// a new reader cannot leak. In every view of s a reader may parse:
//
//   - s as written, and without its tabs and newlines (the WHATWG URL
//     Standard removes them before anything else: "http:/\t/user:pw@h/");
//   - each of those with every triplet decoded once (POWDER's DecodeAll:
//     "http%3A%2F%2Fuser:pw@h/") and decoded until none is left (Google
//     Safe Browsing and the Internet Archive decode repeatedly),
//
// an authority could start at the start of the view (a reference, or an
// input DefaultScheme reads as "http://" + input), after its first ":"
// (a scheme, valid or not: browsers read "http:user:pw@h" as an
// authority), and after the run of "/" and "\" that follows either,
// however it is spelled (backslashes, both kinds mixed, three or more),
// or that follows a later ":" and holds the first "/" (the URL a blob:
// URL holds: "blob:https://user:pw@h/");
// it runs to the first "/", "?" or "#" written as such (a decoded one
// ends nothing for a reader that splits before decoding, as Safe
// Browsing cuts the fragment first). In each such run, whatever lies between its first ":" and its
// last "@" is masked: every reader's password is there, whichever "@"
// it ends the userinfo at and wherever it ends the authority ("\" or
// not). Its bytes in the view are mapped back to the bytes of s they
// came from, the removed tabs and the triplets included. The cost is on
// the error path only, linear in s.
//
// A URL with no authority can lose more than a password to this: an
// error on "mailto:joe:x@example.com" shows "mailto:xxxxx@example.com",
// as "joe:x@example.com" would read as a userinfo after "http://".
func passwordSpans(s string) [][2]int {
	in, shift, _ := trim(s)
	if strings.IndexByte(in, '@') < 0 {
		// A userinfo ends at "@", written or decoded from escapes by the
		// readers that decode (a triplet may be split by tabs a reader
		// removes first, "%4\t0", or come of decoding, "%2540"). Without
		// one written, the view that decodes most holds every "@" any
		// other view holds; it takes a "%", a "4" and a "0" to make one.
		if strings.IndexByte(in, '%') < 0 || strings.IndexByte(in, '4') < 0 || strings.IndexByte(in, '0') < 0 {
			return nil
		}
		if v, _ := readerView(in, true, 2); strings.IndexByte(v, '@') < 0 {
			return nil
		}
	}
	var spans [][2]int
	for _, dropTabs := range [...]bool{false, true} {
		if dropTabs && !strings.ContainsAny(in, "\t\n\r") {
			continue
		}
		for decode := 0; decode <= 2; decode++ {
			if decode > 0 && strings.IndexByte(in, '%') < 0 {
				break
			}
			v, from := readerView(in, dropTabs, decode)
			spans = userinfoSpans(spans, in, v, from, shift)
		}
	}
	return mergeSpans(spans)
}

// userinfoSpans appends to spans the ranges of in (shift bytes into the
// caller's input) that the view v of in (see readerView; from maps its
// bytes back) could hold a password in: for each place an authority
// could start (see passwordSpans), from the first ":" to the last "@"
// before the first "/", "?" or "#" that v holds as written.
func userinfoSpans(spans [][2]int, in, v string, from []int32, shift int) [][2]int {
	at := func(k int) int { // the offset in in of v[k]
		if from == nil {
			return k
		}
		return int(from[k])
	}
	ends := func(k int) bool { // v[k] ends an authority for every reader
		c := v[k]
		return (c == '/' || c == '?' || c == '#') && in[at(k)] == c
	}
	// The run of "/" and "\\" an authority starts after, with the spaces
	// and controls a reader trims from a URL it finds there (the URL of
	// "blob:\x00//user:pw@h/" is "//user:pw@h/" to a reader that trims it).
	sep := func(c byte) bool { return c == '/' || c == '\\' || c <= ' ' }
	slashes := func(k int) int {
		for k < len(v) && sep(v[k]) {
			k++
		}
		return k
	}
	starts := [5]int{0, slashes(0), -1, -1, -1}
	first := len(v) // the first byte that ends an authority
	for k := 0; k < len(v); k++ {
		if ends(k) {
			first = k
			break
		}
		if v[k] == ':' && starts[2] < 0 {
			starts[2], starts[3] = k+1, slashes(k+1)
		}
	}
	// A URL inside another's path starts after a later ":" than the
	// first (the URL of blob:https://u:pw@h/, or of blob:blob:http:/\u:pw@h/):
	// its authority starts after the run of "/" and "\" that follows
	// that ":" and holds the first "/". A start before that "/" adds
	// nothing to the first ":"'s span, which runs to the same end.
	if first < len(v) {
		r := first
		for r > 0 && sep(v[r-1]) {
			r--
		}
		if r > 0 && v[r-1] == ':' {
			starts[4] = slashes(r)
		}
	}
	for i, a := range starts {
		if a < 0 || slices.Contains(starts[:i], a) {
			continue
		}
		e := a
		for e < len(v) && !ends(e) {
			e++
		}
		last := strings.LastIndexByte(v[a:e], '@')
		if last < 0 {
			continue
		}
		colon := strings.IndexByte(v[a:a+last], ':')
		if colon < 0 {
			continue
		}
		spans = append(spans, [2]int{at(a+colon+1) + shift, at(a+last) + shift})
	}
	return spans
}

// readerView returns s as a reader rewrites it before parsing (see
// passwordSpans): without tabs and newlines if dropTabs; then with every
// valid triplet decoded once (decode 1) or until none is left (decode 2);
// and,
// when it differs from s, for each of its bytes and its end the offset
// in s the byte came from (nil when it is s).
func readerView(s string, dropTabs bool, decode int) (string, []int32) {
	if !dropTabs && decode == 0 {
		return s, nil
	}
	// The tabs and newlines go first: a reader that removes them does so
	// before anything else, so that "%4\t0" is the triplet "%40" to it.
	t, tfrom := s, []int32(nil)
	if dropTabs {
		b := make([]byte, 0, len(s))
		tfrom = make([]int32, 0, len(s)+1)
		for k := 0; k < len(s); k++ {
			if c := s[k]; c != '\t' && c != '\n' && c != '\r' {
				b = append(b, c)
				tfrom = append(tfrom, int32(k))
			}
		}
		tfrom = append(tfrom, int32(len(s)))
		t = string(b)
		if decode == 0 {
			return t, tfrom
		}
	}
	orig := func(k int) int32 { // the offset in s of t[k]
		if tfrom == nil {
			return int32(k)
		}
		return tfrom[k]
	}
	b := make([]byte, 0, len(t))
	from := make([]int32, 0, len(t)+1)
	for k := 0; k < len(t); k++ {
		c := t[k]
		if decode == 1 && c == '%' && validEscape(t, k) {
			// Decoded once, the triplet is one byte that is not read
			// again; from[...] records where the triplet started.
			b = append(b, tripletValue(t, k))
			from = append(from, orig(k))
			k += 2
			continue
		}
		b = append(b, c)
		from = append(from, orig(k))
		if decode == 2 {
			// A triplet can only end at the byte just written: decode
			// it, and look back again (see decodeRepeatedlyInPlace).
			for w := len(b); w >= 3 && b[w-3] == '%' && isHex(b[w-2]) && isHex(b[w-1]); w = len(b) {
				b[w-3] = tripletValue(b, w-3)
				b, from = b[:w-2], from[:w-2]
			}
		}
	}
	from = append(from, int32(len(s)))
	return string(b), from
}

// mergeSpans sorts spans by start and merges those that overlap.
func mergeSpans(spans [][2]int) [][2]int {
	for i := 1; i < len(spans); i++ {
		for k := i; k > 0 && spans[k][0] < spans[k-1][0]; k-- {
			spans[k], spans[k-1] = spans[k-1], spans[k]
		}
	}
	out := spans[:0]
	for _, sp := range spans {
		if sp[0] >= sp[1] {
			continue
		}
		if n := len(out); n > 0 && sp[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}

// sbSegmentSpans appends to spans what the text of a SafeBrowsing failure
// must not show: a URL it cannot read (a scheme without "//", or a
// reference resolved into another URL's path) can still hold a userinfo
// wherever an authority could start, so in its decoded text every run
// between "/", "?" and "\\" that has an "@" is read as one.
func sbSegmentSpans(spans [][2]int, in string, shift int) [][2]int {
	v, from := sbView(in)
	for a := 0; a <= len(v); {
		e := a
		for e < len(v) && v[e] != '/' && v[e] != '?' && v[e] != '\\' {
			e++
		}
		spans = sbAppendSpan(spans, v, from, a, e, shift)
		a = e + 1
	}
	return spans
}

// sbView returns the text SafeBrowsing reads in in (steps 1 to 3), with
// the offset in in of each of its bytes (see readerView).
func sbView(in string) (string, []int32) {
	raw := in
	if k := strings.IndexByte(in, '#'); k >= 0 {
		raw = in[:k]
	}
	return readerView(raw, true, 2)
}

// sbAppendSpan appends the password of the authority v[a:e], if it has
// one: from the first ":" to the last "@", as a range of the input.
func sbAppendSpan(spans [][2]int, v string, from []int32, a, e, shift int) [][2]int {
	at := strings.LastIndexByte(v[a:e], '@')
	if at < 0 {
		return spans
	}
	colon := strings.IndexByte(v[a:a+at], ':')
	if colon < 0 {
		return spans
	}
	return append(spans, [2]int{int(from[a+colon+1]) + shift, int(from[a+at]) + shift})
}

// toArgError is toError for an input of a function of two, named by arg
// (see Error.Arg). A failure in the URL that NormalizeRef made of the
// base and the reference ("resolved") is redacted segment by segment
// too, as Safe Browsing's are (sbSegmentSpans): the reference sits in the
// base's path there, where the readings of the reference alone no longer
// start ("http%3A//u:pw@h/x" against "http://h/a" is
// "http://h/http%3A//u:pw@h/x").
func toArgError(op, arg, input string, shift int, f *failure) error {
	if arg == "resolved" {
		f.segments = true
	}
	return withArg(toError(op, input, shift, f), arg)
}
