package learn

import "strings"

// Redaction: the text of every error of the package, and every URL a
// Finding quotes, has what could be the password of a userinfo masked
// with "xxxxx", as canon's errors have (canon.Error's Input). The
// package cannot call canon's own redaction (it uses the exported API
// only), so it masks more: the whole userinfo, user name included.

// passwordMask replaces a userinfo in text the package writes.
const passwordMask = "xxxxx"

// redact returns s with every stretch that a reader could take for a
// userinfo replaced by passwordMask. As canon's redaction does, it
// reads s in the views a reader may parse: with tabs and newlines
// removed or not, and with percent-encoded triplets decoded any number
// of times ("%2540" is "@" to a reader that decodes twice); an
// authority may start at the start of s, after the first ":" (a scheme,
// valid or not), and after the run of "/" and "\" that follows either,
// and it runs to the first "/", "?" or "#" written as such. In such a
// run, everything before its last "@" (or a triplet that decodes to
// one) is masked: the user name, the password, whatever a reader takes
// for them. Text without "@", or a triplet that could decode to it, is
// returned as it is.
func redact(s string) string {
	if !strings.ContainsAny(s, "@%") && !strings.Contains(s, "\uff20") && !strings.Contains(s, "\ufe6b") {
		return s
	}
	// The view without tabs and newlines, and where each of its bytes
	// came from.
	view := make([]byte, 0, len(s))
	from := make([]int, 0, len(s)+1)
	for k := 0; k < len(s); k++ {
		if c := s[k]; c != '\t' && c != '\n' && c != '\r' {
			view = append(view, c)
			from = append(from, k)
		}
	}
	from = append(from, len(s))
	v := string(view)

	slashes := func(k int) int {
		for k < len(v) && (v[k] == '/' || v[k] == '\\') {
			k++
		}
		return k
	}
	ends := func(k int) bool { c := v[k]; return c == '/' || c == '?' || c == '#' }
	starts := []int{0, slashes(0)}
	for k := 0; k < len(v) && !ends(k); k++ {
		if v[k] == ':' {
			starts = append(starts, k+1, slashes(k+1))
			break
		}
	}
	var spans [][2]int // in s
	for _, a := range starts {
		e := a
		for e < len(v) && !ends(e) {
			e++
		}
		if last := lastAt(v[a:e]); last >= 0 {
			spans = append(spans, [2]int{from[a], from[a+last]})
		}
	}
	if len(spans) == 0 {
		return s
	}
	// Merge the spans (they all start at one of four places) and mask.
	lo, hi := spans[0][0], spans[0][1]
	for _, sp := range spans[1:] {
		lo, hi = min(lo, sp[0]), max(hi, sp[1])
	}
	if lo >= hi {
		return s
	}
	return s[:lo] + passwordMask + s[hi:]
}

// lastAt returns the offset in s of the start of the last "@" in s, or
// of the last triplet sequence that some number of decodings turns into
// one ("%40", "%2540", any case), or of a full-width or small commercial
// at (U+FF20, U+FE6B, which some mappings read as "@"); -1 when there is
// none.
func lastAt(s string) int {
	last := -1
	for k := 0; k < len(s); k++ {
		switch {
		case s[k] == '@':
			last = k
		case s[k] == '%':
			j := k + 1
			for j+1 < len(s) && s[j] == '2' && s[j+1] == '5' {
				j += 2
			}
			if j+1 < len(s) && s[j] == '4' && s[j+1] == '0' {
				last = k
			}
		case strings.HasPrefix(s[k:], "\uff20") || strings.HasPrefix(s[k:], "\ufe6b"):
			last = k
		}
	}
	return last
}

// redactField returns a field of an index line that is no URL (a
// timestamp, a status, a CDX header's field code, a format's name) with
// everything before its last "@" masked (or before the last sequence
// lastAt finds, or a JSON escape "\u0040"): a field that holds one is a
// piece of a URL that the line's layout cut out of place (a URL with a
// space in it shifts the fields that follow), whose userinfo may start
// anywhere before it, after a "?", a "#" or a "/" that redact takes for
// the end of an authority, or after a quote.
func redactField(s string) string {
	last := max(lastAt(s), strings.LastIndex(s, `\u0040`))
	if last < 0 {
		return s
	}
	return passwordMask + s[last:]
}
