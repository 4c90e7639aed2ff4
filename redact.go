package canon

import "strings"

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
// disjoint, that hold a password under any reading of s a profile or a
// browser makes. A reader first rewrites the input, then parses it:
//
//   - the views: s as written; without its tabs and newlines (the WHATWG
//     URL Standard removes them before anything else, so that
//     "http:/\t/user:pw@h/" has a userinfo); and each of those with every
//     triplet decoded once (POWDER's DecodeAll: "http%3A%2F%2Fuser:pw@h/")
//     and decoded until none is left (as Google Safe Browsing and the
//     Internet Archive decode);
//   - the parses of each view, by the package's one parser (parts.split,
//     which checks nothing): outside-in as the RFC 2396 drafts split, with
//     any scheme, valid or not; as the WHATWG URL Standard reads an
//     absolute URL (any run of "/" and "\\" after a special scheme starts
//     the authority) or a reference against a special base ("\\\\user:pw@h");
//     and, for a view without a scheme in DefaultScheme's sense, as
//     "http://" + view ("user:pw@h/x");
//   - Google Safe Browsing's reading (sbPasswordSpans): the fragment cut
//     first, then the tabs and newlines dropped and every triplet decoded
//     until none is left, and the authority read from the text that
//     leaves.
//
// In each, the password is what follows the first ":" of the userinfo;
// its bytes in the view are mapped back to the bytes of s they came from,
// the removed tabs and the triplets included. The cost is on the error
// path only, linear in s.
func passwordSpans(s string) [][2]int {
	if strings.IndexByte(s, '@') < 0 && !hasValidEscape(s) {
		// A userinfo ends at "@", written or decoded from escapes by the
		// readers that decode: without either there is none.
		return nil
	}
	in, shift, _ := trim(s)
	var spans [][2]int
	add := func(v string, from []int32, prefix int) {
		for _, syn := range [...]syntax{syntaxRFC3986, syntaxWHATWG} {
			var pr parts
			pr.split(v, syn)
			if !pr.hasUser {
				continue
			}
			colon := strings.IndexByte(v[pr.authStart:pr.userEnd], ':')
			if colon < 0 {
				continue
			}
			a, b := pr.authStart+colon+1-prefix, pr.userEnd-prefix
			if a < 0 {
				continue // in the prefix DefaultScheme added
			}
			if from != nil {
				a, b = int(from[a]), int(from[b])
			}
			spans = append(spans, [2]int{a + shift, b + shift})
		}
	}
	read := func(v string, from []int32) {
		add(v, from, 0)
		if schemeLength(v) < 0 {
			prefix := "http://"
			if strings.HasPrefix(v, "//") {
				prefix = "http:"
			}
			add(prefix+v, from, len(prefix))
		}
	}
	for _, dropTabs := range [...]bool{false, true} {
		if dropTabs && !strings.ContainsAny(in, "\t\n\r") {
			continue
		}
		for decode := 0; decode <= 2; decode++ {
			if decode > 0 && strings.IndexByte(in, '%') < 0 {
				break
			}
			v, from := readerView(in, dropTabs, decode)
			read(v, from)
		}
	}
	spans = sbPasswordSpans(spans, in, shift)
	return mergeSpans(spans)
}

// hasValidEscape reports whether s holds a valid percent-encoded triplet.
func hasValidEscape(s string) bool {
	for i := 0; ; i++ {
		j := strings.IndexByte(s[i:], '%')
		if j < 0 {
			return false
		}
		if i += j; validEscape(s, i) {
			return true
		}
	}
}

// readerView returns s as a reader rewrites it before parsing (see
// passwordSpans): without tabs and newlines if dropTabs; with every valid
// triplet decoded once (decode 1) or until none is left (decode 2); and,
// when it differs from s, for each of its bytes and its end the offset
// in s the byte came from (nil when it is s).
func readerView(s string, dropTabs bool, decode int) (string, []int32) {
	if !dropTabs && decode == 0 {
		return s, nil
	}
	b := make([]byte, 0, len(s))
	from := make([]int32, 0, len(s)+1)
	for k := 0; k < len(s); k++ {
		c := s[k]
		if dropTabs && (c == '\t' || c == '\n' || c == '\r') {
			continue
		}
		if decode == 1 && c == '%' && validEscape(s, k) {
			// Decoded once, the triplet is one byte that is not read
			// again; from[...] records where the triplet started.
			b = append(b, tripletValue(s, k))
			from = append(from, int32(k))
			k += 2
			continue
		}
		b = append(b, c)
		from = append(from, int32(k))
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

// sbPasswordSpans appends to spans the password of the userinfo that
// SafeBrowsing's reading of in (the trimmed input, at shift in the input
// as given) finds, as a range of the input: in its decoded text (steps 1
// to 4) the userinfo runs to the last "@" of the authority, which only
// "/" and "?" end, and its password from its first ":". (The other
// readers' views of the input do not cut the fragment before decoding,
// nor read a decoded "#" or "\\" as part of the authority.)
func sbPasswordSpans(spans [][2]int, in string, shift int) [][2]int {
	v, from := sbView(in)
	if _, a, e, ok := sbAuthority(v); ok {
		spans = sbAppendSpan(spans, v, from, a, e, shift)
	}
	return spans
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
