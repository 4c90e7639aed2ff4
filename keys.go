package canon

import (
	"bytes"
	stdbits "math/bits"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/net/publicsuffix"
)

// The key steps (RemoveUserinfo to SortQueryPairs) run after the other
// steps, on the key those made, read by the package's one parser into
// component offsets (or, when only the query is edited, by loadQuery).
// They read the key where it is and copy it at their first change, into
// a pooled buffer they then edit in place: a key that nothing changes is
// returned as it came, so a URL with nothing to drop or sort costs a few
// scans and no allocation.

// keyBuf is a key being edited: b[start:] holds it, and the offsets,
// absolute in b, are those parts.parse gives, kept up to date by splice.
type keyBuf struct {
	b     []byte
	start int
	rules *ruleSet

	// While clean, b is the key string's own memory, read but never
	// written: most keys come out of the key steps unchanged, and they
	// then cost no copy. own makes b a writable copy before any write.
	clean bool
	pool  *[]byte // the keyBuffers buffer own took, if any

	// filterQuery, which reads every pair, also finds whether the pairs
	// it keeps are in order, by name and whole, for sortQuery.
	sortKnown, sortedByName, sortedWhole bool

	// steps are the profile's steps: the key steps read the base
	// profile's rules (its dot removal, whether it collapses slashes or
	// normalizes to NFC) to keep the key a fixed point of the profile.
	steps uint64

	// opaque: the URL has no authority and its path does not start with
	// "/" ("mailto:a@b", "data:text/plain,x?b=1"): the path is not a
	// hierarchy of segments, and what follows a "?" is not a list of
	// parameters (a data: URL's document runs on past it), so no key
	// step edits either.
	opaque bool

	schemeEnd                               int
	hasAuth, hasUser, hasPort               bool
	authStart, userEnd, hostStart, hostEnd  int
	authEnd, pathStart, pathEnd, queryStart int
	queryEnd, fragStart                     int
	hasQuery, hasFrag                       bool
}

// applyKeySteps runs p's key steps on the key b[start:], made by
// p.base(), editing it in place (AppendNormalized: b is the caller's), and
// returns the buffer with the edited key. key is a string with the bytes
// of b[start:], which the parser reads before any edit. A key that does
// not parse is returned unchanged (it cannot happen: a base profile's key
// is a fixed point of it, so its syntax reads it).
func applyKeySteps(b []byte, start int, key string, p Profile) []byte {
	parse, query := needsParse(key, p)
	if !parse && !query {
		return b
	}
	k := keyBuf{b: b, start: start, rules: p.plan().rules, steps: p.plan().steps}
	k.runSteps(key, p, parse)
	return k.b
}

// rekeyString returns key with p's key steps run on it: key itself when
// they change nothing, which costs no copy.
func rekeyString(key string, p Profile) string {
	parse, query := needsParse(key, p)
	if !parse && !query {
		return key // no step has anything to read: most keys of most profiles
	}
	k := keyBuf{b: unsafe.Slice(unsafe.StringData(key), len(key)), clean: true, rules: p.plan().rules, steps: p.plan().steps}
	k.runSteps(key, p, parse)
	if k.clean {
		return key
	}
	out := string(k.b)
	if cap(k.b) <= 64<<10 { // a buffer grown by a huge URL is left to the collector
		*k.pool = k.b[:0]
		keyBuffers.Put(k.pool)
	}
	return out
}

// keyBuffers hold the copies the key steps edit: a buffer on the stack
// would escape (the edits store through pointers), and one per call would
// be an allocation per URL.
var keyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// own makes k.b writable: while clean, it is the key string's memory.
func (k *keyBuf) own() {
	if !k.clean {
		return
	}
	k.pool = keyBuffers.Get().(*[]byte)
	k.b = append((*k.pool)[:0], k.b...)
	k.clean = false
}

// runSteps runs the key steps of p on key, which the parser reads when
// parse is set (see needsParse).
func (k *keyBuf) runSteps(key string, p Profile, parse bool) {
	if parse {
		var pr parts
		e := engine{p: p.base(), mode: p.base().escapeMode()}
		if pr.parse(key, e.syntax()) != nil || pr.schemeEnd < 0 {
			return
		}
		k.load(&pr)
	} else {
		k.loadQuery(key)
	}
	// The parameters that RemoveSessionIDs, RemoveTrackingParams and
	// RemoveEmptyParams drop go in one pass, in RemoveTrackingParams's
	// place: whether a parameter goes depends on it alone, and on no
	// letter case.
	filtered := k.opaque // no query step runs on an opaque path
	for bits := p.plan().keys; bits != 0; bits &= bits - 1 {
		st := Step(stdbits.TrailingZeros64(bits))
		if k.opaque && queryKeySteps&(1<<st) != 0 {
			continue
		}
		if st >= RemoveTrackingParams && !filtered {
			k.filterQuery(p.Has(RemoveSessionIDs), p.Has(RemoveTrackingParams), p.Has(RemoveEmptyParams))
			filtered = true
		}
		k.run(st)
	}
	if !filtered {
		k.filterQuery(p.Has(RemoveSessionIDs), p.Has(RemoveTrackingParams), p.Has(RemoveEmptyParams))
	}
	if parse && p.plan().steps&(1<<CollapseSlashes|1<<DecodePathRepeatedly) != 0 {
		k.fileDriveLetter()
	}
	k.encodeTrailingSpaces()
}

// queryKeySteps are the key steps that read only the query.
const queryKeySteps = 1<<DecodeQueryRepeatedly | 1<<LowercaseQuery | 1<<RemoveTrackingParams |
	1<<RemoveEmptyParams | 1<<RemoveEmptyQuery | 1<<SortQuery | 1<<SortQueryPairs

// needsParse reports whether the steps of p need the parser's offsets on
// key (parse), or only those of the query, which loadQuery finds (query;
// false when key has no query): the parser costs as much as the rest of
// a crawler's key. It does when p has a step that reads another
// component, or RemoveSessionIDs and a ";" or "(" (a path parameter or an
// ASP.NET session segment) before the query.
func needsParse(key string, p Profile) (parse, query bool) {
	if key == "" {
		return false, false
	}
	steps := p.plan().keys
	if steps&^(queryKeySteps|1<<RemoveSessionIDs) != 0 {
		return true, true
	}
	end := strings.IndexByte(key, '?')
	if end < 0 {
		end = len(key)
	}
	if steps&(1<<RemoveSessionIDs) != 0 &&
		(strings.IndexByte(key[:end], ';') >= 0 || strings.IndexByte(key[:end], '(') >= 0) {
		return true, true
	}
	return false, end < len(key)
}

// loadQuery sets the query's offsets (and the fragment's) alone, as the
// parser would: in a key, as in any input the parser reads, the scheme,
// authority and path hold no "?" or "#", so the query is what follows
// the first "?" up to the first "#", unless a "#" comes first (RFC 3986
// Appendix B). The other offsets are not set; no step that reads them
// runs (see needsParse).
func (k *keyBuf) loadQuery(key string) {
	o := k.start
	end := len(key)
	if h := strings.IndexByte(key, '#'); h >= 0 {
		k.hasFrag, k.fragStart = true, o+h+1
		end = h
	}
	k.queryStart, k.queryEnd = o+end, o+end
	if q := strings.IndexByte(key[:end], '?'); q >= 0 {
		k.hasQuery, k.queryStart = true, o+q+1
	}
	k.pathEnd = k.queryStart
	if k.hasQuery {
		k.pathEnd--
	}
	k.pathStart = k.pathEnd // not read: see needsParse
	// A key has a scheme, which ends at its first ":".
	c := strings.IndexByte(key, ':')
	k.opaque = c+1 >= len(key) || key[c+1] != '/'
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
	if !pr.hasQuery {
		k.queryStart, k.queryEnd = k.pathEnd, k.pathEnd
	}
	k.opaque = !k.hasAuth && !k.hierarchical()
}

// splice replaces b[i:j] with b[from:], bytes built past the key's end
// (from >= the key's end), and drops those: the component's new bytes
// and the rest of the key are copied back over b[i:]. Offsets at or after
// j move with the rest of the key.
func (k *keyBuf) splice(i, j, from int) {
	k.own()
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
	k.own()
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
		if k.hierarchical() {
			k.decodeRepeatedly(k.pathStart, k.pathEnd, setPath)
		}
	case DecodeQueryRepeatedly:
		if k.hasQuery {
			k.decodeRepeatedly(k.queryStart, k.queryEnd, setSpecialQuery)
		}
	case CollapseSlashes:
		k.collapseSlashes()
	case LowercasePath:
		k.lower(k.pathStart, k.pathEnd)
	case RemoveSessionIDs:
		if k.hierarchical() && (bytes.IndexByte(k.b[k.pathStart:k.pathEnd], ';') >= 0 ||
			bytes.IndexByte(k.b[k.pathStart:k.pathEnd], '(') >= 0) {
			k.own() // the cutter compacts the path in place
			n := k.rules.cutPathSessionIDs(k.b[k.pathStart:k.pathEnd])
			if k.pathStart+n < k.pathEnd {
				k.cut(k.pathStart+n, k.pathEnd)
				k.pathCut()
			}
		} // the query's: see applyKeySteps
	case RemoveDirectoryIndex:
		k.removeDirectoryIndex()
	case RemoveTrailingSlash:
		// Removing a trailing "/" can make an index page the last
		// segment ("/index.php/" -> "/index.php"), which
		// RemoveDirectoryIndex, run before, would remove when the key
		// is read again: the two run again until neither changes the
		// path (each round shortens it, so this ends, and it reads only
		// the end of the path each time).
		for k.removeTrailingSlash() && k.steps&(1<<RemoveDirectoryIndex) != 0 && k.removeDirectoryIndex() {
		}
	case LowercaseQuery:
		k.lower(k.queryStart, k.queryEnd)
	case RemoveTrackingParams, RemoveEmptyParams:
		// See applyKeySteps.
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

// fileDriveLetter writes a first path segment "C|" of a file URL as
// "C:", as the WHATWG URL Standard's path state does: CollapseSlashes
// ("file:////C|") and DecodePathRepeatedly ("file:///C%7C") can make one,
// which the standard would rewrite when the key is read again.
func (k *keyBuf) fileDriveLetter() {
	if !k.hasAuth || !k.hierarchical() ||
		kindOf(unsafe.String(unsafe.SliceData(k.b[k.start:]), k.schemeEnd-k.start)) != schemeFile {
		return
	}
	seg := k.b[k.pathStart+1 : k.pathEnd]
	if len(seg) > 2 && seg[2] == '/' {
		seg = seg[:2]
	}
	if len(seg) == 2 && seg[1] == '|' && isWindowsDriveLetter(unsafe.String(unsafe.SliceData(seg), 2)) {
		k.own()
		k.b[k.pathStart+2] = ':'
	}
}

// hierarchical reports whether the path is a hierarchy of "/"-separated
// segments: it starts with "/" (an opaque path such as "mailto:a@b" has
// none to edit).
func (k *keyBuf) hierarchical() bool {
	return k.pathEnd > k.pathStart && k.b[k.pathStart] == '/'
}

// endsInDotSegment reports whether the last segment of path is "." or
// "..", written with dots or as "%2e", which the WHATWG URL Standard
// reads as a dot too.
func endsInDotSegment(path []byte) bool {
	seg := path[lastSlash(path)+1:]
	dots := 0
	for i := 0; i < len(seg); {
		switch {
		case seg[i] == '.':
			i++
		case i+2 < len(seg) && seg[i] == '%' && seg[i+1] == '2' && seg[i+2]|0x20 == 'e':
			i += 3
		default:
			return false
		}
		dots++
	}
	return dots == 1 || dots == 2
}

// lower lowercases the ASCII letters of b[i:j]. In a profile with NFC,
// the component is then normalized again: a lowercase letter composes
// with a combining mark its capital does not compose with ("J\u030C" is
// NFC, "j\u030C" is not: U+01F0), which NFC would do when the key is
// read again.
func (k *keyBuf) lower(i, j int) {
	lowered, nonASCII := false, false
	for x := i; x < j; x++ {
		switch c := k.b[x]; {
		case c >= 'A' && c <= 'Z':
			k.own()
			k.b[x] = c + 'a' - 'A'
			lowered = true
		case c >= utf8.RuneSelf:
			nonASCII = true
		}
	}
	if !lowered || !nonASCII || k.steps&(1<<NFC) == 0 {
		return
	}
	str := string(k.b[i:j])
	if isNFCRuns(str) {
		return
	}
	end := len(k.b)
	k.b = appendNFCRuns(k.b, str)
	k.splice(i, j, end)
}

// httpsAsHTTP: see HTTPSAsHTTP.
func (k *keyBuf) httpsAsHTTP() {
	if k.schemeEnd-k.start != 5 || kindOf(string(k.b[k.start:k.schemeEnd])) != schemeHTTPS {
		return
	}
	k.lower(k.start, k.schemeEnd-1)
	k.cut(k.schemeEnd-1, k.schemeEnd) // "https" -> "http"
	// A port whose value is 80, as written ("0080" in profiles that keep
	// leading zeros): every profile's port rule reads the value.
	if k.hasPort {
		if v, f := portValue(unsafe.String(unsafe.SliceData(k.b), len(k.b)), k.hostEnd+1, k.authEnd); f == nil && v == 80 {
			k.cut(k.hostEnd, k.authEnd)
			k.hasPort = false
		}
	}
}

// stripWWW: see StripWWW and StripWWWN.
func (k *keyBuf) stripWWW(digits bool) {
	if !k.hasAuth {
		return
	}
	// Again while the host starts with "www.": "www.www.example.com"
	// must come to the key it gives when read again. The labels are
	// counted first and cut once.
	host := unsafe.String(unsafe.SliceData(k.b[k.hostStart:]), k.hostEnd-k.hostStart)
	n := 0
	for {
		m := wwwLabel(host[n:], digits)
		if m == 0 {
			break
		}
		n += m
	}
	k.cut(k.hostStart, k.hostStart+n)
}

// wwwLabel returns the length of the "www." (with digits: "wwwN.") that
// StripWWW (StripWWWN) removes from host, or 0 when it removes none.
func wwwLabel(host string, digits bool) int {
	if len(host) < 4 || lower(host[0]) != 'w' || lower(host[1]) != 'w' || lower(host[2]) != 'w' {
		return 0
	}
	i := 3
	for digits && i < len(host) && host[i] >= '0' && host[i] <= '9' {
		i++
	}
	if i == len(host) || host[i] != '.' {
		return 0
	}
	if !strippable(host[i+1:]) {
		return 0
	}
	return i + 1
}

// strippable reports whether rest, a host after its "www." label, holds a
// label before its public suffix: "example.co.uk" does, "co.uk" and
// "github.io" are suffixes (golang.org/x/net/publicsuffix). The list is
// read as it is written: in lowercase, without a final dot, in A-labels;
// so a host is looked up case-insensitively ("Example.COM", in profiles
// without LowercaseHost), without its final dot ("example.com.", which
// names the same host), and by its A-labels ("résumé.example" in IRI keys,
// "xn--rsum-bpad.example" in RFC3986 keys). A host with an empty label
// is not stripped. An IPv4 address cannot follow "www." here: a host
// ending in a number is read as one, and rejected.
func strippable(rest string) bool {
	rest = strings.TrimSuffix(rest, ".")
	if rest == "" || rest[0] == '.' || rest[len(rest)-1] == '.' || strings.Contains(rest, "..") {
		return false
	}
	if !isASCII(rest) {
		if len(rest) > MaxHostLength {
			return false
		}
		a, err := idnaProfile.ToASCII(rest)
		if err != nil {
			return false
		}
		rest = a
	}
	rest = strings.ToLower(rest) // no copy when there is no capital
	suffix, _ := publicsuffix.PublicSuffix(rest)
	return len(suffix) < len(rest)
}

// collapseSlashes: see CollapseSlashes. The path is compacted in one
// pass and cut once: a cut per run of slashes would move the rest of the
// key once per run.
func (k *keyBuf) collapseSlashes() {
	if !k.hasAuth || !bytes.Contains(k.b[k.pathStart:k.pathEnd], []byte("//")) {
		return
	}
	k.own()
	path := k.b[k.pathStart:k.pathEnd]
	w := 1
	for r := 1; r < len(path); r++ {
		if path[r] == '/' && path[w-1] == '/' {
			continue
		}
		path[w] = path[r]
		w++
	}
	k.cut(k.pathStart+w, k.pathEnd)
}

// directoryIndexes are the index pages RemoveDirectoryIndex removes: the
// defaults of Apache httpd (index.html), of PHP setups (index.php), and
// of Microsoft IIS (default.asp, default.aspx, index.htm).
var directoryIndexes = [...]string{"index.html", "index.htm", "index.php", "default.asp", "default.aspx"}

// removeDirectoryIndex: see RemoveDirectoryIndex. It reports whether
// it removed one.
func (k *keyBuf) removeDirectoryIndex() bool {
	if !k.hierarchical() {
		return false
	}
	path := k.b[k.pathStart:k.pathEnd]
	last := lastSlash(path) + 1
	if slices.Contains(directoryIndexes[:], string(path[last:])) {
		k.cut(k.pathStart+last, k.pathEnd)
		return true
	}
	return false
}

// removeTrailingSlash: see RemoveTrailingSlash. It reports whether it
// removed any "/".
func (k *keyBuf) removeTrailingSlash() bool {
	if !k.hierarchical() {
		return false
	}
	j := k.pathEnd
	for j-k.pathStart > 1 && k.b[j-1] == '/' {
		j--
	}
	if j == k.pathEnd || endsInDotSegment(k.b[k.pathStart:j]) {
		// "/a/./" cannot be a key, but "/.//" (a path that starts with
		// "//" and has no authority) can: "/." would be removed when the
		// key is read again.
		return false
	}
	k.cut(j, k.pathEnd)
	return true
}

// pathCut restores, after a key step cut bytes out of the middle of the
// path (RemoveSessionIDs), what the profile's other steps made true of
// the path and the cut may have undone: a cut can expose a dot segment
// ("/a/..;jsessionid=<id>/b" -> "/a/../b"), make two slashes meet
// ("/shop/;jsessionid=<id>/item" -> "/shop//item", which CollapseSlashes,
// run before, would collapse when the key is read again), make a path
// without an authority start with "//" ("foo:/(S(<id>))//evil.com/x"
// would read back with the host evil.com), or make a Windows drive letter
// the first segment of a file URL. A servlet container strips the path
// parameter before it resolves the dot segments, so the key after the
// cut names the resource served.
func (k *keyBuf) pathCut() {
	k.own()
	path := k.b[k.pathStart:k.pathEnd]
	var out []byte
	switch {
	case k.steps&(1<<ParseWHATWG) != 0:
		file := kindOf(unsafe.String(unsafe.SliceData(k.b[k.start:]), k.schemeEnd-k.start)) == schemeFile
		out = removeDotSegmentsWHATWG(path, file)
	case k.steps&(1<<RemoveDots) != 0:
		out = removeDotSegmentsInPlace(path)
	case k.steps&(1<<RemoveDots1808) != 0:
		out = removeDotSegments1808(path)
	default:
		out = path
	}
	k.cut(k.pathStart+len(out), k.pathEnd)
	if k.steps&(1<<CollapseSlashes) != 0 {
		k.collapseSlashes()
	}
	if !k.hasAuth && k.pathEnd-k.pathStart >= 2 && k.b[k.pathStart] == '/' && k.b[k.pathStart+1] == '/' {
		k.insert(k.pathStart, "/.")
	}
	k.fileDriveLetter()
}

// insert inserts t at b[i]; offsets after i move with the rest of the
// key (the component that starts at i keeps its start).
func (k *keyBuf) insert(i int, t string) {
	k.own()
	n := len(k.b)
	k.b = append(k.b, t...)
	copy(k.b[i+len(t):], k.b[i:n])
	copy(k.b[i:], t)
	k.shift(i+1, len(t))
}

// encodeTrailingSpaces writes spaces that end the key as "%20", as the
// engine does for the profiles that keep raw spaces (see
// engine.encodeTrailingSpaces): a key step that cuts the end of the key
// ("http://h/a /" -> "http://h/a " by RemoveTrailingSlash, "?a= &utm_x=1"
// -> "?a= " by RemoveTrackingParams) would otherwise leave a key whose
// last space is trimmed when it is read again.
func (k *keyBuf) encodeTrailingSpaces() {
	n := len(k.b)
	j := n
	for j > k.start && k.b[j-1] == ' ' {
		j--
	}
	if j == n {
		return
	}
	k.own()
	k.b = k.b[:j]
	for ; j < n; j++ {
		k.b = append(k.b, "%20"...)
	}
}

// filterQuery removes the parameters that are session ids (session),
// tracking parameters (tracking) or empty (empty), in one pass: the kept
// ones are moved down over the dropped ones. When it removes the last,
// the "?" goes too.
func (k *keyBuf) filterQuery(session, tracking, empty bool) {
	if !k.hasQuery || k.queryStart == k.queryEnd || !(session || tracking || empty) {
		return
	}
	q := k.b[k.queryStart:k.queryEnd]
	// q[:w] is the query kept so far; until a pair is dropped, the pairs
	// kept are where they were, and nothing is written.
	w, kept, dropped := 0, false, false
	byName, whole := true, true
	var prev []byte // the last pair kept, where it is now
	prevName := 0   // the length of its name
	havePrev := false
	for r := 0; r <= len(q); r++ {
		j := pairEnd(q, r)
		pair := q[r:j]
		e := nameEnd(pair)
		name, value := pair, []byte(nil)
		if e < len(pair) {
			name, value = pair[:e], pair[e+1:]
		}
		drop := empty && len(pair) == 0 ||
			session && k.rules.isSessionID(name, value) ||
			tracking && k.rules.isTracking(name)
		switch {
		case drop:
			if k.clean {
				k.own()
				q = k.b[k.queryStart:k.queryEnd]
			}
			dropped = true
		case !dropped:
			w, kept = j, true
		default:
			if kept {
				q[w] = '&'
				w++
			}
			w += copy(q[w:], q[r:j])
			kept = true
		}
		if !drop {
			cur := q[w-len(pair) : w]
			if havePrev && (byName || whole) {
				c := bytes.Compare(prev[:prevName], cur[:e])
				byName = byName && c <= 0
				whole = whole && (c < 0 || c == 0 && compareValues(prev, prevName, cur, e) <= 0)
			}
			prev, prevName, havePrev = cur, e, true
		}
		r = j
	}
	k.sortKnown, k.sortedByName, k.sortedWhole = true, byName, whole
	if !dropped {
		return
	}
	k.cut(k.queryStart+w, k.queryEnd)
	if k.queryStart == k.queryEnd {
		k.cut(k.queryStart-1, k.queryEnd)
		k.hasQuery = false
	}
}

// maxStackPairs is how many parameters sortQuery sorts with offsets on
// the stack; a longer query allocates a slice of them.
const maxStackPairs = 32

// sortQuery sorts the parameters stably, by name or by whole pair
// (whole), comparing bytes, decoding nothing. Most queries are in order
// already, which one pass finds; the others have their pairs' offsets
// sorted, written in that order past the key and copied back.
func (k *keyBuf) sortQuery(whole bool) {
	if !k.hasQuery {
		return
	}
	if k.sortKnown && (whole && k.sortedWhole || !whole && k.sortedByName) {
		return
	}
	q := k.b[k.queryStart:k.queryEnd]
	var prev []byte
	n, sorted := 0, true
	for r := 0; r <= len(q); n++ {
		j := pairEnd(q, r)
		if n > 0 && comparePairs(prev, q[r:j], whole) > 0 {
			sorted = false
		}
		prev, r = q[r:j], j+1
	}
	if sorted {
		return
	}
	k.sortKnown = false // the order changes
	k.own()
	q = k.b[k.queryStart:k.queryEnd]
	var stack [maxStackPairs][2]int32
	pairs := stack[:0]
	if n > maxStackPairs {
		pairs = make([][2]int32, 0, n)
	}
	for r := 0; r <= len(q); {
		j := pairEnd(q, r)
		pairs = append(pairs, [2]int32{int32(r), int32(j)})
		r = j + 1
	}
	cmp := func(a, b [2]int32) int { return comparePairs(q[a[0]:a[1]], q[b[0]:b[1]], whole) }
	if len(pairs) <= maxStackPairs {
		// Insertion sort: stable, and quadratic only in 32.
		for i := 1; i < len(pairs); i++ {
			for j := i; j > 0 && cmp(pairs[j-1], pairs[j]) > 0; j-- {
				pairs[j-1], pairs[j] = pairs[j], pairs[j-1]
			}
		}
	} else {
		slices.SortStableFunc(pairs, cmp)
	}
	end := len(k.b)
	for i, pr := range pairs {
		if i > 0 {
			k.b = append(k.b, '&')
		}
		k.b = append(k.b, q[pr[0]:pr[1]]...)
	}
	copy(k.b[k.queryStart:], k.b[end:])
	k.b = k.b[:end]
}

// decodeRepeatedlyInPlace decodes the escapes of c until none is left
// ("%252541" -> "%2541" -> "%41" -> "A") and returns the shortened c.
// Decoding again, pass after pass, would take one pass for each "25" of
// "%252525…", quadratic in the input; a new escape can only end at the
// byte just written, so this looks back there after each byte it writes,
// once over c.
func decodeRepeatedlyInPlace(c []byte) []byte {
	w := 0
	for r := 0; r < len(c); r++ {
		c[w] = c[r]
		w++
		for w >= 3 && c[w-3] == '%' && isHex(c[w-2]) && isHex(c[w-1]) {
			c[w-3] = unhex(c[w-2])<<4 | unhex(c[w-1])
			w -= 2
		}
	}
	return c[:w]
}

// pairEnd returns the end of the parameter of q that starts at r: the
// next "&", or the end of q.
func pairEnd(q []byte, r int) int {
	// A loop, not bytes.IndexByte: pairs are short, and its vector
	// setup costs more than it saves on them.
	for ; r < len(q); r++ {
		if q[r] == '&' {
			break
		}
	}
	return r
}

// nameEnd returns the length of the name of pair: up to the first "=".
func nameEnd(pair []byte) int {
	e := 0
	for e < len(pair) && pair[e] != '=' {
		e++
	}
	return e
}

// comparePairs orders two parameters for sortQuery: by name, the bytes
// up to the first "="; with byValue, parameters with equal names then by
// value, one without "=" first (as the Internet Archive's surt library
// sorts (name, value) tuples).
func comparePairs(a, b []byte, byValue bool) int {
	ea, eb := nameEnd(a), nameEnd(b)
	if c := bytes.Compare(a[:ea], b[:eb]); c != 0 || !byValue {
		return c
	}
	return compareValues(a, ea, b, eb)
}

// compareValues orders the values of two parameters whose names, a[:ea]
// and b[:eb], are equal: one without "=" first.
func compareValues(a []byte, ea int, b []byte, eb int) int {
	if ea == len(a) || eb == len(b) { // one has no "=" (or neither)
		return (len(a) - ea) - (len(b) - eb)
	}
	return bytes.Compare(a[ea+1:], b[eb+1:])
}

// decodeRepeatedly: see DecodePathRepeatedly. The component b[i:j] is
// decoded in place until no escape is left, the path's dot segments are
// removed, and the result is written past the key with the bytes of set,
// "%" and "\\" encoded, then spliced in.
func (k *keyBuf) decodeRepeatedly(i, j int, set uint8) {
	if bytes.IndexByte(k.b[i:j], '%') < 0 {
		return
	}
	k.own()
	c := decodeRepeatedlyInPlace(k.b[i:j])
	isPath := i == k.pathStart && j == k.pathEnd
	if isPath && len(c) > 0 && c[0] == '/' {
		// By the rule of the profile's parser, which needs ParseWHATWG:
		// the key is read again so ("file:///C:/.." keeps its drive).
		c = removeDotSegmentsWHATWG(c, kindOf(unsafe.String(unsafe.SliceData(k.b[k.start:]), k.schemeEnd-k.start)) == schemeFile)
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
