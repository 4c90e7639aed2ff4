package canon

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// host writes the host of e.pr as the profile's host steps say and
// returns its length in the output. The host was checked by parse unless
// the profile decodes everything (POWDER), in which case it is checked here.
// It and the writers below it run for plans without ParseWHATWG only
// (whatwgHost writes the others), where the plan's lowerHost is
// LowercaseHost.
func (e *engine) host() (int, *failure) {
	pr, w, s, pl := &e.pr, &e.u.w, e.s, e.pl
	i, j, m := pr.hostStart, pr.hostEnd, pr.mHost
	at := w.length()
	if pl.trimDots {
		// Trailing full stops go before anything is written, the
		// ideographic, fullwidth and halfwidth ones too: UTS #46 maps
		// them to "." (a decoded one, "%2E", goes after the host steps).
		k := trimFullStops(s, i, j)
		if k == i && j > i {
			return 0, fail(ComponentHost, i, ErrInvalidHost, "host is only dots")
		}
		j = k
	}
	switch {
	case i == j:
		// An empty host (file:///x); whether one is allowed is checked by run.
	case s[i] == '[':
		if e.pl.esc == escapePOWDER {
			if k := strings.IndexByte(s[i:j], '%'); k >= 0 {
				// A "%" left once DecodeAll decoded the input ("%%325"
				// is "%25") would be decoded again when the key is
				// read: no zone survives DecodeAll (checkRawHost).
				return 0, fail(ComponentHost, i+k, ErrInvalidHost, "invalid zone identifier: DecodeAll decodes its %25")
			}
			if f := checkIPLiteral(s, i, j); f != nil {
				return 0, f
			}
		}
		e.ipLiteral(i, j)
	case e.pl.esc == escapePOWDER:
		if k := firstOf(s, i, j, clsCtl|clsOutside|clsPct); k < j {
			return 0, fail(ComponentHost, k, ErrInvalidHost, "invalid character")
		}
		e.hostBytes(i, j, e.pl.lowerHost, true, false, false) // (a decoded host holds no "%")
	default:
		if f := e.regName(i, j, m); f != nil {
			return 0, f
		}
	}
	if pl.trimDots {
		// The host as written may end in full stops again: a decoded
		// "%2E", and a full stop the input held before it ("a。%2E"),
		// which the trim above could not reach.
		str, b := w.tail(at)
		if b != nil {
			str = string(b)
		}
		n := trimFullStops(str, 0, len(str))
		if n == 0 && str != "" {
			return 0, fail(ComponentHost, i, ErrInvalidHost, "host is only dots")
		}
		w.truncate(at + n)
	}
	if e.kind == schemeFile && pr.hasPort && pr.hostEnd+1 == pr.authEnd && isDriveLetterHost(w, at) {
		// "file://C:/x" (or "file://C.:/x", POWDER's dots trimmed, or
		// "file://%43:/x", decoded): a Windows drive letter that RFC
		// 3986 reads as host "c" with an empty port. Keyed as a host it
		// would merge a local drive with a remote host named "c"
		// (WHATWG URL reads it as the path "/C:/x"). The host is judged
		// as written, as the key is read again.
		return 0, fail(ComponentHost, i, ErrInvalidHost, "Windows drive letter where a host should be")
	}
	if e.kind.special() && !(i < j && s[i] == '[') {
		if f := checkHostNumber(w, at, i); f != nil {
			return 0, f
		}
	}
	if pl.fileLocalhost && e.kind == schemeFile {
		str, b := w.tail(at)
		if str == "localhost" || string(b) == "localhost" {
			w.truncate(at)
		}
	}
	return w.length() - at, nil
}

// isDriveLetterHost reports whether the host written at offset at is
// one ASCII letter, which followed by an empty port is a Windows drive
// letter.
func isDriveLetterHost(w *writer, at int) bool {
	if w.length()-at != 1 {
		return false
	}
	str, b := w.tail(at)
	c := byte(0)
	if b != nil {
		c = b[0]
	} else {
		c = str[0]
	}
	return isAlnum(c) && c > '9'
}

// trimFullStops returns the end of s[i:j] without its trailing full stops:
// "." and the three that UTS #46 maps to it, U+3002 IDEOGRAPHIC FULL STOP,
// U+FF0E FULLWIDTH FULL STOP and U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP.
func trimFullStops(s string, i, j int) int {
	for j > i {
		switch {
		case s[j-1] == '.':
			j--
		case j-i >= 3 && (s[j-3:j] == "\u3002" || s[j-3:j] == "\uff0e" || s[j-3:j] == "\uff61"):
			j -= 3
		default:
			return j
		}
	}
	return j
}

// checkHostNumber applies the numeric-host rule (checkNumericHost) to the
// host written at offset at, as a browser reads it (hostView): a key must
// not keep, as a name, a host that a browser contacts as an IPv4 address.
func checkHostNumber(w *writer, at, off int) *failure {
	str, b := w.tail(at)
	if b != nil {
		if !endsInNumber(b) && !needsView(b) {
			return nil
		}
		str = string(b) // rare: a numeric last label, an escape or non-ASCII
	}
	if needsView(str) {
		str = hostView(str)
	}
	if endsInNumber(str) {
		return checkNumericHost(str, off)
	}
	return nil
}

// needsView reports whether h holds an escape or non-ASCII, which
// hostView must undo before h reads as a browser reads it.
func needsView[T string | []byte](h T) bool {
	for k := 0; k < len(h); k++ {
		if h[k] == '%' || h[k] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// hostView returns h as a browser reads it before deciding whether it is
// an IPv4 address: every triplet decoded (RFC 3986 §2.1: "%31" is "1")
// and, when that gives non-ASCII, mapped by UTS #46 (fullwidth "１２７"
// is "127", U+3002 is "."). It serves only that decision: profiles that
// keep a host as written (WebCapture) or encoded (POWDER) still write it
// so, but "http://0x7f.%31/" and "http://１２７.１/" are rejected in
// every profile, as "http://0x7f.1/" is.
func hostView(h string) string {
	if strings.IndexByte(h, '%') >= 0 {
		h = string(percentDecode(h))
	}
	if !needsView(h) {
		return h
	}
	// The mapped form is what matters, valid or not: a browser that
	// rejects the name contacts nothing, and one that maps it contacts
	// the address.
	if len(h) <= MaxHostLength*4 {
		if mapped, _ := idnaMapping.ToUnicode(h); mapped != "" {
			return mapped
		}
	}
	return h
}

// ipLiteral writes an IP literal, lowercased up to any zone identifier
// (RFC 6874 zone identifiers are case-sensitive).
// The zone's own triplets (after its "%25") are written as in any other
// component: decoded if unreserved and the profile has DecodeUnreserved,
// in uppercase hex if it has UppercaseEscapes (RFC 3986 §6.2.2.1,
// §6.2.2.2; ZoneID = 1*( unreserved / pct-encoded ), RFC 6874 §2).
func (e *engine) ipLiteral(i, j int) {
	s, w := e.s, &e.u.w
	end := j
	if z := strings.IndexByte(s[i:j], '%'); z >= 0 {
		end = i + z
	}
	if e.pl.lowerHost {
		e.lowerRun(i, end)
	} else {
		w.run(i, end)
	}
	if end == j || e.pl.esc == escapeKeep || e.pl.esc == escapePOWDER {
		w.run(end, j)
		return
	}
	// s[end:end+3] is "%25", checked by checkIPLiteral.
	start := end
	for k := end + 3; k < j; k++ {
		if s[k] != '%' || !validEscape(s, k) {
			continue
		}
		if e.escapeTriplet(start, k, e.pl.decodeUnres, false) {
			start = k + 3
		}
		k += 2
	}
	w.run(start, j)
}

// regName writes a registered name (RFC 3986 §3.2.2): letters lowercased,
// percent-encoded unreserved octets decoded and other escapes uppercased
// as the profile says, and non-ASCII labels through IDNA.
func (e *engine) regName(i, j int, m uint16) *failure {
	s, w, pl := e.s, &e.u.w, e.pl
	idnaOn := pl.toASCII || pl.toUnicode
	lowerCase := pl.lowerHost
	if m&(clsPct|clsNonASCII) == 0 && !(pl.toUnicode && hasACEPrefix(s[i:j])) {
		// The common case: an ASCII name.
		if lowerCase && m&clsUpper != 0 {
			e.lowerRun(i, j)
		} else {
			w.run(i, j)
		}
		return nil
	}
	if idnaOn && (m&clsNonASCII != 0 || pl.toUnicode || decodesToNonASCII(s, i, j)) {
		return e.idnaHost(i, j)
	}
	e.hostBytes(i, j, lowerCase, e.pl.esc == escapeURI, e.pl.esc != escapeKeep, pl.decodeUnres || pl.decodeIUnres)
	return nil
}

// hostBytes writes the host s[i:j] byte by byte: ASCII letters
// lowercased if lowerCase, non-ASCII octets percent-encoded if encode,
// and triplets (valid: parse checked them) by the plan's triplet rule if
// escapes, unreserved octets decoded (and lowercased with the letters)
// if decode. POWDER writes a decoded host with it, and every other
// profile a registered name that needs more than lowercasing.
func (e *engine) hostBytes(i, j int, lowerCase, encode, escapes, decode bool) {
	s, w := e.s, &e.u.w
	start := i
	for k := i; k < j; {
		c := s[k]
		switch {
		case c == '%' && escapes:
			if e.escapeTriplet(start, k, decode, lowerCase) {
				start = k + 3
			}
			k += 3
			continue
		case c == '%':
			k += 3
			continue
		case c >= utf8.RuneSelf && encode:
			w.run(start, k)
			w.escaped(c)
			start = k + 1
		case lowerCase && byteClass[c]&clsUpper != 0:
			w.run(start, k)
			w.byte(c + ('a' - 'A'))
			start = k + 1
		}
		k++
	}
	w.run(start, j)
}

// hasACEPrefix reports whether a label of h starts with "xn--" (in any
// case). Most hosts have no "-" at all, which one vectorized search tells.
func hasACEPrefix(h string) bool {
	if strings.IndexByte(h, '-') < 0 {
		return false
	}
	for len(h) >= 4 {
		if (h[0]|0x20) == 'x' && (h[1]|0x20) == 'n' && h[2] == '-' && h[3] == '-' {
			return true
		}
		k := strings.IndexByte(h, '.')
		if k < 0 {
			return false
		}
		h = h[k+1:]
	}
	return false
}

// decodesToNonASCII reports whether s[i:j] has an escape of a non-ASCII octet.
func decodesToNonASCII(s string, i, j int) bool {
	for k := i; k+2 < j; k++ {
		if s[k] == '%' && s[k+1] >= '8' {
			return true
		}
	}
	return false
}

// idnaHost writes a host that holds non-ASCII or, for HostToUnicode,
// "xn--" labels. Percent-encoded octets are decoded first (they must be
// UTF-8: RFC 3987 §3.1, RFC 3986 §3.2.2), then each label is converted on
// its own: ASCII labels are kept (lowercased), so that "xn--" labels are
// never replaced by a decoded form in HostToASCII, and only labels that
// need it reach golang.org/x/net/idna.
func (e *engine) idnaHost(i, j int) *failure {
	s, w := e.s, &e.u.w
	host := s[i:j]
	if strings.IndexByte(host, '%') >= 0 {
		// Decode unreserved and non-ASCII octets; escapes of sub-delims
		// stay encoded (uppercased), never decoded.
		b := make([]byte, 0, len(host))
		for k := 0; k < len(host); k++ {
			if host[k] != '%' {
				b = append(b, host[k])
				continue
			}
			v := tripletValue(host, k)
			if v >= utf8.RuneSelf || byteClass[v]&clsUnreserved != 0 {
				b = append(b, v)
			} else {
				b = append(b, '%', upper(host[k+1]), upper(host[k+2]))
			}
			k += 2
		}
		host = string(b)
	}
	if !utf8.ValidString(host) {
		return fail(ComponentHost, i, ErrInvalidHost, "invalid UTF-8 in host")
	}
	// The label separators UTS #46 maps to "." separate labels here too,
	// so that each label is converted on its own and a final one ends the
	// host as a final "." does ("example.com。" is "example.com.").
	host = fullStops.Replace(host)
	toUnicode := e.pl.toUnicode
	var out []byte
	for len(host) > 0 || out == nil {
		label := host
		rest := ""
		if k := strings.IndexByte(host, '.'); k >= 0 {
			label, rest = host[:k], host[k:]
		}
		conv, f := convertLabel(label, toUnicode)
		if f != nil {
			f.off = i
			return f
		}
		out = append(out, conv...)
		if rest == "" {
			break
		}
		out = append(out, '.')
		host = rest[1:]
		if host == "" {
			break
		}
	}
	w.replaceTail(w.length(), out)
	return nil
}

// convertLabel converts one host label for idnaHost.
func convertLabel(label string, toUnicode bool) (string, *failure) {
	ascii := true
	for k := 0; k < len(label); k++ {
		if label[k] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii && !(toUnicode && hasACEPrefix(label)) {
		return lowerKeepEscapes(label), nil
	}
	if len(label) > maxIDNALabel {
		return "", fail(ComponentHost, 0, ErrInvalidHost, "label too long for IDNA")
	}
	if !ascii && invalidACELabel(label) {
		return "", fail(ComponentHost, 0, ErrInvalidHost, "invalid label with the ACE prefix xn--")
	}
	if !ascii && strings.Contains(label, "\u1e9e") {
		// UTS #46 from Unicode 15.1 on maps U+1E9E (capital sharp s) to
		// U+00DF, as browsers do ("faẞ.de" is "xn--fa-hia.de");
		// golang.org/x/net/idna's Unicode 15.0 tables map it to "ss",
		// which would merge it with "fass.de".
		label = strings.ReplaceAll(label, "\u1e9e", "\u00df")
	}
	a, err := idnaProfile.ToASCII(label)
	if err != nil || a == "" || !labelsFit(a) {
		return "", fail(ComponentHost, 0, ErrInvalidHost, "invalid international domain name")
	}
	if !toUnicode {
		return a, nil
	}
	u, err := idnaProfile.ToUnicode(a)
	if err != nil || u == "" {
		return "", fail(ComponentHost, 0, ErrInvalidHost, "invalid international domain name")
	}
	// An "xn--" label must be the A-label of what it decodes to; golang.org/x/net/idna
	// returns colliding strings for some bogus ones with a nil error
	// (for example "xn--example-", whose decoding is "example").
	if back, err := idnaProfile.ToASCII(u); err != nil || back != a || (ascii && a != strings.ToLower(label)) {
		return "", fail(ComponentHost, 0, ErrInvalidHost, "invalid international domain name")
	}
	return u, nil
}

// fullStops maps the full stops UTS #46 maps to "." (U+3002 IDEOGRAPHIC,
// U+FF0E FULLWIDTH, U+FF61 HALFWIDTH IDEOGRAPHIC) to ".".
var fullStops = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".")

// invalidACELabel reports whether label, once mapped by UTS #46, is an
// "xn--" label that UTS #46 §4 (Processing, step 4.1) rejects: one that
// is not ASCII ("xn--é-", "ｘｎ--é-"; RFC 3492 §6.2 too), or one whose
// Punycode part is empty or decodes to ASCII alone ("xn--", "ｘｎ--",
// "xn--ab-"; step 4.1.3, added in Unicode 15.1). golang.org/x/net/idna
// returns the A-label of the non-ASCII part of the first kind, a
// different and real name (golang/go#81116), and an empty label for
// "xn--", which would merge "a.xn--" with "a.". A label that maps to a
// valid A-label ("ｘｎ--9ca", "x\u00adn--9ca") is an A-label like any
// other. Each code point is mapped on its own; the mapping of a non-ASCII
// code point that is not ignored is not ASCII.
func invalidACELabel(label string) bool {
	var buf [64]byte
	out := buf[:0]
	for _, r := range label {
		if r < utf8.RuneSelf {
			out = append(out, byte(lower(byte(r))))
			continue
		}
		m, _ := idnaMapping.ToUnicode(string(r))
		out = append(out, m...)
	}
	if len(out) < 4 || out[0] != 'x' || out[1] != 'n' || out[2] != '-' || out[3] != '-' {
		return false
	}
	if !isASCII(string(out)) || len(out) == 4 {
		return true
	}
	u, err := idna.Punycode.ToUnicode(string(out))
	return err == nil && isASCII(u)
}

// lowerKeepEscapes lowercases the ASCII letters of label except the hex
// digits of its percent-encoded triplets.
func lowerKeepEscapes(label string) string {
	b := []byte(label)
	for k := 0; k < len(b); k++ {
		if b[k] == '%' {
			k += 2
			continue
		}
		b[k] = lower(b[k])
	}
	return string(b)
}

// labelsFit reports whether every label of the A-label form h is 1 to 63
// octets long (RFC 1034 §3.1, RFC 5890 §2.3.2.1).
func labelsFit(h string) bool {
	for _, l := range strings.Split(h, ".") {
		if len(l) == 0 || len(l) > 63 {
			return false
		}
	}
	return true
}

// checkNumericHost rejects a host whose last label is a number but which
// is not an IPv4 address in canonical dotted-decimal form. Browsers read
// "0x7f.1", "2130706433" and "127.1" as 127.0.0.1, while RFC 3986 reads
// them as registered names: rather than keep a key that names another
// host than the one a browser would contact, the input is rejected
// (the WHATWG URL Standard's "ends in a number checker").
func checkNumericHost(h string, off int) *failure {
	if numericHostValid(h) {
		return nil
	}
	return fail(ComponentHost, off, ErrInvalidHost, "numeric host that is not a canonical IPv4 address")
}

// numericHostValid is checkNumericHost's test, without the error.
func numericHostValid(h string) bool {
	t := strings.TrimSuffix(h, ".")
	last := t
	if k := strings.LastIndexByte(t, '.'); k >= 0 {
		last = t[k+1:]
	}
	if last == "" || !isNumericLabel(last) {
		return true
	}
	return t == h && isCanonicalIPv4(h)
}

// endsInNumber is the quick test before checkNumericHost: whether the
// last label (before an optional final dot) could be a number. It scans
// back only while the bytes could belong to one (hex digits and "x"), so
// "example.com" is decided at its last byte.
func endsInNumber[T string | []byte](h T) bool {
	k := len(h) - 1
	if k >= 0 && h[k] == '.' {
		k--
	}
	for k >= 0 && (isHex(h[k]) || h[k] == 'x' || h[k] == 'X') {
		k--
	}
	return k+1 < len(h) && h[k+1] >= '0' && h[k+1] <= '9'
}

func isNumericLabel(l string) bool {
	if len(l) >= 2 && l[0] == '0' && (l[1]|0x20) == 'x' {
		for k := 2; k < len(l); k++ {
			if !isHex(l[k]) {
				return false
			}
		}
		return true
	}
	for k := 0; k < len(l); k++ {
		if l[k] < '0' || l[k] > '9' {
			return false
		}
	}
	return true
}

// isCanonicalIPv4 reports whether h is four decimal octets, each 0-255
// without leading zeros.
func isCanonicalIPv4(h string) bool {
	for part := 0; part < 4; part++ {
		n := 0
		for n < len(h) && h[n] >= '0' && h[n] <= '9' {
			n++
		}
		if n == 0 || n > 3 || (n > 1 && h[0] == '0') {
			return false
		}
		v := 0
		for k := 0; k < n; k++ {
			v = v*10 + int(h[k]-'0')
		}
		if v > 255 {
			return false
		}
		h = h[n:]
		if part < 3 {
			if h == "" || h[0] != '.' {
				return false
			}
			h = h[1:]
		}
	}
	return h == ""
}

// hasExtraDots reports whether the domain d starts or ends with "." or
// holds "..": what TrimHostDots removes after ParseWHATWG.
func hasExtraDots[T string | []byte](d T) bool {
	n := len(d)
	if n == 0 {
		return false
	}
	if d[0] == '.' || d[n-1] == '.' {
		return true
	}
	// A ".." has one of its dots at an odd offset: look at every second
	// byte and, at a dot, at its neighbours (this runs on every host of
	// a profile with TrimHostDots).
	for k := 1; k < n; k += 2 {
		if d[k] == '.' && (d[k-1] == '.' || k+1 < n && d[k+1] == '.') {
			return true
		}
	}
	return false
}

// trimsDots reports whether TrimHostDots after ParseWHATWG changes the
// domain d: it has extra dots (hasExtraDots) and is not one of the two
// forms trimDomainDots writes with dots kept ("." and "a.1.."), so that
// a key holding them is its own key without a copy. surt is the plan's
// surtKeys (see trimDomainDots).
func trimsDots[T string | []byte](d T, surt bool) bool {
	if !hasExtraDots(d) {
		return false
	}
	n := len(d)
	if n == 1 {
		return false // "."
	}
	if n > 2 && d[n-1] == '.' && d[n-2] == '.' && !hasExtraDots(d[:n-2]) && keepsDotsAfter(d[:n-2], surt) {
		return false // "a.1.."
	}
	return true
}

// trimDomainDots is TrimHostDots after ParseWHATWG on the domain d (the
// output of domain to ASCII, lowercased; never an IP address), in place:
// the empty labels go, leading, repeated and trailing (".a..b." ->
// "a.b"). Two cases keep dots, so that the key reads back as the same
// host: a domain of dots only is written "." (an empty host is no host),
// and one whose last label would then be a number ("a.1.." -> "a.1") is
// written with ".." after it, as the standard reads "a.1" and "a.1." as
// IPv4 addresses (its "ends in a number"), and so rejects them, while
// "a.1.." is a domain. Under ReadAsSURT (surt: the plan's surtKeys),
// only where the standard would reject the host without its dots
// (keepsDotsAfter): "0x7f.." is "0x7f", a name to the surt library.
func trimDomainDots(d []byte, surt bool) []byte {
	w := 0
	for k := 0; k < len(d); k++ {
		if d[k] == '.' && (w == 0 || d[w-1] == '.') {
			continue
		}
		d[w] = d[k]
		w++
	}
	if w > 0 && d[w-1] == '.' {
		w--
	}
	d = d[:w]
	switch {
	case w == 0:
		return append(d, '.')
	case keepsDotsAfter(d, surt):
		return append(d, '.', '.')
	}
	return d
}
