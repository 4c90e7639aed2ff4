package canon

import (
	"slices"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// The key steps (RemoveUserinfo to SortQueryPairs) run after the other
// steps, on the key those made, in a byte buffer: they edit it in place,
// read by the package's one parser into component offsets. A key that
// nothing changes is returned as it came, so a URL with nothing to drop
// or sort costs one more scan and no allocation.

// keyBuf is a key being edited: b[start:] holds it, and the offsets,
// absolute in b, are those parts.parse gives, kept up to date by splice.
type keyBuf struct {
	b     []byte
	start int
	rules *ruleSet

	schemeEnd                               int
	hasAuth, hasUser, hasPort               bool
	authStart, userEnd, hostStart, hostEnd  int
	authEnd, pathStart, pathEnd, queryStart int
	queryEnd, fragStart                     int
	hasQuery, hasFrag                       bool
	special                                 bool

	// host is the host as the parser read it, in the key string: no
	// step before StripWWW changes it, and the Public Suffix List is
	// looked up in it rather than in b, which must not escape. The first
	// hostCut bytes of it are gone from b.
	host    string
	hostCut int
}

// applyKeySteps runs p's key steps on the key b[start:], made by
// p.base(), and returns the buffer with the edited key. key is a string
// with the bytes of b[start:], which the parser reads: a caller whose b is
// on its stack passes a copy it has anyway, so that b does not escape (the
// parser's strings do). A key that does not parse is returned unchanged
// (it cannot happen: a base profile's key is a fixed point of it, so its
// syntax reads it).
func applyKeySteps(b []byte, start int, key string, p Profile) []byte {
	if len(key) == 0 || !mayChange(key, p) {
		return b
	}
	k := keyBuf{b: b, start: start, rules: p.rules}
	var pr parts
	e := engine{p: p.base(), mode: p.base().escapeMode()}
	if pr.parse(key, e.syntax()) != nil || pr.schemeEnd < 0 {
		return b
	}
	k.load(&pr)
	for st := firstKeyStep; st < numSteps; st++ {
		if p.Has(st) {
			k.run(st)
		}
	}
	return k.b
}

// mayChange reports whether a key step of p may change key, from bytes
// each step needs to find: false means none can, and the key is returned
// without being parsed. (A necessary condition only; the steps decide.)
func mayChange(key string, p Profile) bool {
	const queryOnly = 1<<DecodeQueryRepeatedly | 1<<LowercaseQuery | 1<<RemoveTrackingParams |
		1<<RemoveEmptyParams | 1<<RemoveEmptyQuery | 1<<SortQuery | 1<<SortQueryPairs
	steps := p.steps & keyStepBits
	if steps&queryOnly != 0 && strings.IndexByte(key, '?') >= 0 {
		return true
	}
	if steps&(1<<RemoveSessionIDs) != 0 && (strings.IndexByte(key, '?') >= 0 ||
		strings.IndexByte(key, ';') >= 0 || strings.IndexByte(key, '(') >= 0) {
		return true
	}
	return steps&^(queryOnly|1<<RemoveSessionIDs) != 0
}

func (k *keyBuf) load(pr *parts) {
	o := k.start
	k.schemeEnd = o + pr.schemeEnd
	k.hasAuth, k.hasUser, k.hasPort = pr.hasAuth, pr.hasUser, pr.hasPort
	k.authStart, k.userEnd = o+pr.authStart, o+pr.userEnd
	k.hostStart, k.hostEnd, k.authEnd = o+pr.hostStart, o+pr.hostEnd, o+pr.authEnd
	k.pathStart, k.pathEnd = o+pr.pathStart, o+pr.pathEnd
	k.hasQuery, k.queryStart, k.queryEnd = pr.hasQuery, o+pr.queryStart, o+pr.queryEnd
	k.hasFrag, k.fragStart = pr.hasFrag, o+pr.fragStart
	k.special = kindOf(pr.s[:pr.schemeEnd]).special()
	k.host = pr.s[pr.hostStart:pr.hostEnd]
	if !pr.hasQuery {
		k.queryStart, k.queryEnd = k.pathEnd, k.pathEnd
	}
}

// splice replaces b[i:j] with b[from:], bytes built past the key's end
// (from >= the key's end), and drops those: the component's new bytes
// and the rest of the key are copied back over b[i:]. Offsets at or after
// j move with the rest of the key.
func (k *keyBuf) splice(i, j, from int) {
	end := from
	k.b = append(k.b, k.b[j:end]...)
	n := copy(k.b[i:], k.b[end:])
	k.b = k.b[:i+n]
	k.shift(j, len(k.b)-end)
}

// cut removes b[i:j].
func (k *keyBuf) cut(i, j int) {
	if i == j {
		return
	}
	copy(k.b[i:], k.b[j:])
	k.b = k.b[:len(k.b)-(j-i)]
	k.shift(j, i-j)
}

// shift moves every offset at or after j by d.
func (k *keyBuf) shift(j, d int) {
	for _, o := range [...]*int{&k.schemeEnd, &k.authStart, &k.userEnd, &k.hostStart, &k.hostEnd,
		&k.authEnd, &k.pathStart, &k.pathEnd, &k.queryStart, &k.queryEnd, &k.fragStart} {
		if *o >= j {
			*o += d
		}
	}
}

func (k *keyBuf) run(st Step) {
	switch st {
	case RemoveUserinfo:
		if k.hasUser {
			k.cut(k.authStart, k.userEnd+1)
			k.hasUser = false
		}
	case HTTPSAsHTTP:
		k.httpsAsHTTP()
	case StripWWW:
		k.stripWWW(false)
	case StripWWWN:
		k.stripWWW(true)
	case DecodePathRepeatedly:
		k.decodeRepeatedly(k.pathStart, k.pathEnd, setPath)
	case DecodeQueryRepeatedly:
		if k.hasQuery {
			k.decodeRepeatedly(k.queryStart, k.queryEnd, setSpecialQuery)
		}
	case CollapseSlashes:
		k.collapseSlashes()
	case LowercasePath:
		lowerBytes(k.b[k.pathStart:k.pathEnd])
	case RemoveSessionIDs:
		if k.hierarchical() {
			n := k.rules.cutPathSessionIDs(k.b[k.pathStart:k.pathEnd])
			k.cut(k.pathStart+n, k.pathEnd)
		}
		k.filterQuery(func(name, value []byte) bool { return k.rules.isSessionID(name, value) })
	case RemoveDirectoryIndex:
		k.removeDirectoryIndex()
	case RemoveTrailingSlash:
		if k.hierarchical() {
			j := k.pathEnd
			for j-k.pathStart > 1 && k.b[j-1] == '/' {
				j--
			}
			k.cut(j, k.pathEnd)
		}
	case LowercaseQuery:
		lowerBytes(k.b[k.queryStart:k.queryEnd])
	case RemoveTrackingParams:
		k.filterQuery(func(name, _ []byte) bool { return k.rules.isTracking(name) })
	case RemoveEmptyParams:
		k.filterQuery(func(name, value []byte) bool { return len(name) == 0 && value == nil })
	case RemoveEmptyQuery:
		if k.hasQuery && k.queryStart == k.queryEnd {
			k.cut(k.queryStart-1, k.queryEnd)
			k.hasQuery = false
		}
	case SortQuery:
		k.sortQuery(false)
	case SortQueryPairs:
		k.sortQuery(true)
	}
}

// hierarchical reports whether the path is a hierarchy of "/"-separated
// segments: it starts with "/" (an opaque path such as "mailto:a@b" has
// none to edit).
func (k *keyBuf) hierarchical() bool {
	return k.pathEnd > k.pathStart && k.b[k.pathStart] == '/'
}

func lowerBytes(b []byte) {
	for i, c := range b {
		b[i] = lower(c)
	}
}

// httpsAsHTTP: see HTTPSAsHTTP.
func (k *keyBuf) httpsAsHTTP() {
	if k.schemeEnd-k.start != 5 || kindOf(string(k.b[k.start:k.schemeEnd])) != schemeHTTPS {
		return
	}
	lowerBytes(k.b[k.start : k.schemeEnd-1])
	k.cut(k.schemeEnd-1, k.schemeEnd) // "https" -> "http"
	if k.hasPort && string(k.b[k.hostEnd:k.authEnd]) == ":80" {
		k.cut(k.hostEnd, k.authEnd)
		k.hasPort = false
	}
}

// stripWWW: see StripWWW and StripWWWN.
func (k *keyBuf) stripWWW(digits bool) {
	if !k.hasAuth {
		return
	}
	host := k.host[k.hostCut:]
	if len(host) < 4 || lower(host[0]) != 'w' || lower(host[1]) != 'w' || lower(host[2]) != 'w' {
		return
	}
	i := 3
	for digits && i < len(host) && host[i] >= '0' && host[i] <= '9' {
		i++
	}
	if i == len(host) || host[i] != '.' {
		return
	}
	rest := host[i+1:]
	if rest == "" || rest[len(rest)-1] == '.' || !isASCII(rest) {
		return // a trailing dot, or a Unicode host (IRI): the list is read in ASCII
	}
	for j := 0; j < len(rest); j++ {
		if c := rest[j]; c >= 'A' && c <= 'Z' {
			return // the list is lowercase; keys of profiles without LowercaseHost stay
		}
	}
	// rest must hold a label before its public suffix: "co.uk" and
	// "github.io" are suffixes, "example.co.uk" is not. An IPv4 address
	// cannot follow "www." here: a host ending in a number is read as one.
	if suffix, _ := publicsuffix.PublicSuffix(rest); len(suffix) >= len(rest) {
		return
	}
	k.hostCut += i + 1
	k.cut(k.hostStart, k.hostStart+i+1)
}

// collapseSlashes: see CollapseSlashes.
func (k *keyBuf) collapseSlashes() {
	if !k.hasAuth {
		return
	}
	for i := k.pathStart + 1; i < k.pathEnd; i++ {
		if k.b[i] == '/' && k.b[i-1] == '/' {
			j := i + 1
			for j < k.pathEnd && k.b[j] == '/' {
				j++
			}
			k.cut(i, j)
		}
	}
}

// directoryIndexes are the index pages RemoveDirectoryIndex removes: the
// defaults of Apache httpd (index.html), of PHP setups (index.php), and
// of Microsoft IIS (default.asp, default.aspx, index.htm).
var directoryIndexes = [...]string{"index.html", "index.htm", "index.php", "default.asp", "default.aspx"}

// removeDirectoryIndex: see RemoveDirectoryIndex.
func (k *keyBuf) removeDirectoryIndex() {
	if !k.hierarchical() {
		return
	}
	path := k.b[k.pathStart:k.pathEnd]
	last := lastSlash(path) + 1
	if slices.Contains(directoryIndexes[:], string(path[last:])) {
		k.cut(k.pathStart+last, k.pathEnd)
	}
}

// filterQuery removes the parameters for which drop(name, value) is
// true; value is nil for a parameter without "=". When it removes the
// last, the "?" goes too.
func (k *keyBuf) filterQuery(drop func(name, value []byte) bool) {
	if !k.hasQuery || k.queryStart == k.queryEnd {
		return
	}
	removed := false
	for i := k.queryStart; i <= k.queryEnd; {
		j := i
		for j < k.queryEnd && k.b[j] != '&' {
			j++
		}
		name, value := k.b[i:j], []byte(nil)
		for e := i; e < j; e++ {
			if k.b[e] == '=' {
				name, value = k.b[i:e], k.b[e+1:j]
				break
			}
		}
		if !drop(name, value) {
			i = j + 1
			continue
		}
		removed = true
		switch {
		case j < k.queryEnd: // the pair and the "&" after it
			k.cut(i, j+1)
		case i > k.queryStart: // the last pair and the "&" before it
			k.cut(i-1, j)
			i = k.queryEnd + 1
		default: // the only pair
			k.cut(i, j)
			i = k.queryEnd + 1
		}
	}
	if removed && k.queryStart == k.queryEnd {
		k.cut(k.queryStart-1, k.queryEnd)
		k.hasQuery = false
	}
}

// maxStackPairs is how many parameters sortQuery sorts with offsets on
// the stack; a longer query allocates a slice of them.
const maxStackPairs = 32

// sortQuery sorts the parameters stably, by name or by whole pair,
// without decoding anything: their offsets are sorted, then the query is
// written in that order past the key and copied back.
func (k *keyBuf) sortQuery(whole bool) {
	if !k.hasQuery {
		return
	}
	q := k.b[k.queryStart:k.queryEnd]
	n := 1
	for _, c := range q {
		if c == '&' {
			n++
		}
	}
	if n < 2 {
		return
	}
	var stack [maxStackPairs][2]int32
	pairs := stack[:0]
	if n > maxStackPairs {
		pairs = make([][2]int32, 0, n)
	}
	for i := 0; i <= len(q); {
		j := i
		for j < len(q) && q[j] != '&' {
			j++
		}
		pairs = append(pairs, [2]int32{int32(i), int32(j)})
		i = j + 1
	}
	sortKey := func(p [2]int32) []byte {
		b := q[p[0]:p[1]]
		if !whole {
			for e, c := range b {
				if c == '=' {
					return b[:e]
				}
			}
		}
		return b
	}
	less := func(a, b [2]int32) int { return compareBytes(sortKey(a), sortKey(b)) }
	if slices.IsSortedFunc(pairs, less) {
		return
	}
	if len(pairs) <= maxStackPairs {
		// Insertion sort: stable, and no closure escapes to the heap.
		for i := 1; i < len(pairs); i++ {
			for j := i; j > 0 && less(pairs[j-1], pairs[j]) > 0; j-- {
				pairs[j-1], pairs[j] = pairs[j], pairs[j-1]
			}
		}
	} else {
		slices.SortStableFunc(pairs, less)
	}
	end := len(k.b)
	for i, p := range pairs {
		if i > 0 {
			k.b = append(k.b, '&')
		}
		k.b = append(k.b, k.b[k.queryStart+int(p[0]):k.queryStart+int(p[1])]...)
	}
	copy(k.b[k.queryStart:], k.b[end:])
	k.b = k.b[:end]
}

func compareBytes(a, b []byte) int {
	return slices.Compare(a, b)
}

// decodeRepeatedly: see DecodePathRepeatedly. The component b[i:j] is
// decoded in place until no escape is left (each pass shortens it), the
// path's dot segments are removed, and the result is written past the
// key with the bytes of set, "%" and "\\" encoded, then spliced in.
func (k *keyBuf) decodeRepeatedly(i, j int, set uint8) {
	hasPct := false
	for _, c := range k.b[i:j] {
		if c == '%' {
			hasPct = true
			break
		}
	}
	if !hasPct {
		return
	}
	c := k.b[i:j]
	for {
		w, any := 0, false
		for r := 0; r < len(c); r++ {
			if c[r] == '%' && r+2 < len(c) && isHex(c[r+1]) && isHex(c[r+2]) {
				c[w] = unhex(c[r+1])<<4 | unhex(c[r+2])
				r += 2
				any = true
			} else {
				c[w] = c[r]
			}
			w++
		}
		c = c[:w]
		if !any {
			break
		}
	}
	isPath := i == k.pathStart && j == k.pathEnd
	if isPath && len(c) > 0 && c[0] == '/' {
		c = removeDotSegmentsInPlace(c)
	}
	end := len(k.b)
	for _, x := range c {
		if whatwgSet[x]&set != 0 || x == '%' || x == '\\' {
			k.b = appendEscaped(k.b, x)
		} else {
			k.b = append(k.b, x)
		}
	}
	if isPath && !k.hasAuth {
		k.b = guardPath(k.b, end)
	}
	k.splice(i, j, end)
}
