package canon

import (
	"bytes"
	"hash/maphash"
	"slices"
	"strings"
	"sync/atomic"
	"unsafe"

	"golang.org/x/net/publicsuffix"
)

// The key passes (RemoveUserinfo to SortQueryPairs) run after the engine,
// on the key it wrote: they edit the value in place (url.go), reading
// the components where the engine's offsets put them, and keep the
// offsets current; nothing is parsed again. A key no pass changes is not
// copied: the passes read it where it is (the input itself, while it is
// canonical) and copy it into the writer's buffer at their first change.
// The value's own invariants are the passes' too: a path cut keeps the key
// a fixed point of its profile (pathCut), no pass but LowercasePath
// edits a URL with an opaque path, and a key cut down to a final space
// writes it "%20".

// keyPass is one run of a plan's key passes over a value.
type keyPass struct {
	u  *url
	pl *plan

	// filterQuery, which reads every pair, also finds whether the pairs
	// it keeps are in order, by name and whole, for sortQuery.
	sortKnown, sortedByName, sortedWhole bool

	// rs are the Rules that apply to this key (hostRules), set before
	// the first pass that reads them.
	rs *ruleSet

	// surtStripped: surtStripQuery removed a session id (see
	// surtQueryFixedPoint).
	surtStripped bool

	// What the path and the query hold, read once (componentFacts) for
	// the passes that have something to do only when a component holds
	// a capital, an escape, a "//" or a ";" or "(": most keys hold none,
	// and a pass then costs a test. A pass that rewrites the path reads
	// it again (path.valid = false).
	path, query facts
}

// facts are what componentFacts found in a component.
type facts struct {
	valid                                bool
	upper, pct, slashes, param, nonASCII bool
}

// componentFacts reads output[i:j] once, byte by byte through a table:
// its capitals, escapes, non-ASCII, ";" and "(", and whether two "/"
// meet (or, when the plan asks only for ";" and "(", those).
func (k *keyPass) componentFacts(b []byte) facts {
	if k.pl.keys&(1<<LowercasePath|1<<LowercaseQuery|1<<DecodePathRepeatedly|1<<DecodeQueryRepeatedly|1<<CollapseSlashes) == 0 {
		// Only RemoveSessionIDs asks (Crawler's keys): two vector
		// searches are quicker than the table.
		return facts{valid: true, param: bytes.IndexByte(b, ';') >= 0 || bytes.IndexByte(b, '(') >= 0}
	}
	var m, slashes, prev uint8
	for _, c := range b {
		f := factClass[c]
		m |= f
		slashes |= prev & f // "/" after "/": the factSlash bit of both
		prev = f
	}
	return facts{valid: true, upper: m&factUpper != 0, pct: m&factPct != 0, param: m&factParam != 0,
		nonASCII: m&factHigh != 0, slashes: slashes&factSlash != 0}
}

// The bits of factClass.
const (
	factUpper uint8 = 1 << iota
	factPct
	factParam
	factHigh
	factSlash
)

var factClass = func() (t [256]uint8) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = factUpper
	}
	t['%'], t[';'], t['('], t['/'] = factPct, factParam, factParam, factSlash
	for c := 0x80; c < 0x100; c++ {
		t[c] = factHigh
	}
	return t
}()

// pathFacts returns the facts of the path, read if need be.
func (k *keyPass) pathFacts() facts {
	if !k.path.valid {
		k.path = k.componentFacts(k.view()[k.u.pathStart:k.u.pathEnd])
	}
	return k.path
}

// queryFacts returns the facts of the query, read if need be.
func (k *keyPass) queryFacts() facts {
	if !k.query.valid {
		k.query = k.componentFacts(k.view()[k.u.queryStart:k.u.queryEnd])
	}
	return k.query
}

// queryKeySteps are the key steps that read only the query.
const queryKeySteps = 1<<DecodeQueryRepeatedly | 1<<LowercaseQuery | 1<<RemoveTrackingParams |
	1<<RemoveEmptyParams | 1<<RemoveEmptyQuery | 1<<SortQuery | 1<<SortQueryPairs

// runKeyPasses runs pl's key passes on u, the key pl.base wrote.
func runKeyPasses(u *url, pl *plan) {
	if !u.hasQuery && pl.keys&^queryKeySteps&^(1<<RemoveSessionIDs) == 0 {
		// Only query passes, and RemoveSessionIDs, whose path part needs
		// a ";" or a "(" (Crawler's keys): a key without a query and
		// without those has nothing for them.
		path := u.str()[u.pathStart:u.pathEnd]
		if pl.keys&(1<<RemoveSessionIDs) == 0 || strings.IndexByte(path, ';') < 0 && strings.IndexByte(path, '(') < 0 {
			return
		}
	}
	k := keyPass{u: u, pl: pl}
	// A pass that copies the key (own) gives it room for what the passes
	// add: a "/." guard, an escape, "%20" for a final space.
	u.w.slack = 32
	keys := pl.keys
	if u.opaque {
		keys &^= queryKeySteps // no query step runs on an opaque path
	}
	k.passes(keys)
	if keys&(1<<CollapseSlashes|1<<DecodePathRepeatedly) != 0 {
		k.fileDriveLetter()
	}
	if pl.esc <= escapeNorm {
		u.encodeFinalSpaces() // a pass that cuts the end can leave one
	}
}

// hostRules returns the Rules that apply to the key u: the plan's, or,
// where they have Hosts, those of the domain its host matches
// (ruleSet.forHost). runKeyPasses reads them after the passes that change
// the host (StripWWW), so that the key read again matches the same domain.
func hostRules(u *url, pl *plan) *ruleSet {
	if pl.rules == nil || pl.rules.hosts == nil || !u.hasAuth {
		return pl.rules
	}
	return pl.rules.forHost(u.str()[u.hostStart:u.hostEnd])
}

// view returns the output's bytes: u's buffer once owned, and until then
// the input's own bytes, which must not be written (own first).
func (k *keyPass) view() []byte {
	s := k.u.str()
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// own returns the output's bytes, writable.
func (k *keyPass) own() []byte { return k.u.own() }

// passes runs the passes of the steps in keys, in the order of the
// steps, each where its bit is set: one test a step, and the work of the
// steps a key has.
func (k *keyPass) passes(keys uint64) {
	u := k.u
	if keys&(1<<RemoveUserinfo) != 0 {
		u.removeUserinfo()
	}
	if keys&(1<<HTTPSAsHTTP) != 0 {
		k.httpsAsHTTP()
	}
	if keys&(1<<StripWWW) != 0 {
		k.stripWWW(false)
	}
	if keys&(1<<StripWWWN) != 0 {
		k.stripWWW(true)
	}
	// The Rules for the key's host, now that no pass changes the host.
	k.rs = hostRules(u, k.pl)
	if keys&(1<<DecodePathRepeatedly) != 0 && k.hierarchical() && (k.pathFacts().pct || k.surtDotsLeft()) {
		k.decodeRepeatedly(u.pathStart, u.pathEnd, setPath)
		k.path.valid = false
	}
	if keys&(1<<DecodeQueryRepeatedly) != 0 && u.hasQuery && k.queryFacts().pct {
		k.decodeRepeatedly(u.queryStart, u.queryEnd, setSpecialQuery)
		k.query.valid = false
	}
	if keys&(1<<CollapseSlashes) != 0 && k.pathFacts().slashes {
		k.collapseSlashes()
		k.path.valid = false
	}
	if keys&(1<<LowercasePath) != 0 {
		if f := k.pathFacts(); f.upper {
			k.lower(u.pathStart, u.pathEnd, f.nonASCII)
			k.path.upper = false
		}
	}
	if keys&(1<<RemoveSessionIDs) != 0 && k.hierarchical() && k.pathFacts().param {
		if k.removePathSessionIDs() { // (the query's: see filterQuery)
			k.path.valid = false
		}
	}
	if keys&(1<<RemoveDirectoryIndex|1<<RemoveTrailingSlash) != 0 && k.hierarchical() {
		k.trimPathEnd(keys&(1<<RemoveDirectoryIndex) != 0, keys&(1<<RemoveTrailingSlash) != 0)
	}
	if keys&(1<<LowercaseQuery) != 0 && u.hasQuery {
		if f := k.queryFacts(); f.upper {
			k.lower(u.queryStart, u.queryEnd, f.nonASCII)
			k.query.upper = false
		}
	}
	// The parameters that RemoveSessionIDs, RemoveTrackingParams and
	// RemoveEmptyParams drop go in one pass, in RemoveTrackingParams's
	// place: whether a parameter goes depends on it alone, and on no
	// letter case.
	session := keys&(1<<RemoveSessionIDs) != 0 && !u.opaque
	if session && k.pl.surtSessions {
		k.surtStripQuery() // (the surt library's expressions: see filterQuery)
	}
	if tracking, empty := keys&(1<<RemoveTrackingParams) != 0, keys&(1<<RemoveEmptyParams) != 0; session || tracking || empty {
		k.filterQuery(session, tracking, empty)
	}
	if keys&(1<<RemoveEmptyQuery) != 0 {
		u.removeEmptyQuery()
	}
	if keys&(1<<SortQuery) != 0 {
		k.sortQuery(false)
	}
	if keys&(1<<SortQueryPairs) != 0 {
		k.sortQuery(true)
	}
	if session && k.pl.surtSessions {
		k.surtQueryFixedPoint()
	}
}

// surtStripQuery: RemoveSessionIDs under ReadAsSURT, the query's part
// that is not filterQuery's: the surt library's stripQuerySessionID
// (surtStripQuerySessionIDs), which runs on the query whole, before its
// parameters are read one by one. A query it empties goes with its "?",
// as one filterQuery empties.
func (k *keyPass) surtStripQuery() {
	u := k.u
	if !u.hasQuery || !surtQueryHasSessionID(k.view()[u.queryStart:u.queryEnd]) {
		return // (read only: the key is not copied)
	}
	n := surtStripQuerySessionIDs(k.own()[u.queryStart:u.queryEnd])
	u.cut(u.queryStart+n, u.queryEnd)
	k.query.valid = false
	k.surtStripped = true
	if u.queryStart == u.queryEnd {
		u.hasQuery = false
		u.cut(u.queryStart-1, u.queryEnd)
	}
}

// surtQueryFixedPoint makes the key's query, under ReadAsSURT, one that
// surtStripQuery leaves as it is, so that the key is a fixed point: where
// the library's expressions, each run once, leave a session id they
// match (a second one, or one a join or the sort brought in reach:
// "mysid=<id>&b=<…>", "cfid=…&cftoken=…" after sorting), every parameter
// that holds one goes (surtParamHoldsSessionID), and the order, which
// the passes before made, stays.
func (k *keyPass) surtQueryFixedPoint() {
	u := k.u
	if !u.hasQuery {
		return
	}
	// Where surtStripQuery found nothing, only the cfid expression can
	// match now: the others match within one parameter, which no pass
	// after it edits (filterQuery drops parameters whole), while a drop or
	// the sort can bring "cfid=…" before "cftoken=…".
	q := k.view()[u.queryStart:u.queryEnd]
	if !k.surtStripped && !surtHasCFID(q) {
		return
	}
	if !surtQueryHasSessionID(q) {
		return
	}
	q = k.own()[u.queryStart:u.queryEnd]
	w, kept := 0, false
	for r := 0; r <= len(q); r++ {
		j := pairEnd(q, r)
		if !surtParamHoldsSessionID(q[r:j]) {
			if kept {
				q[w] = '&'
				w++
			}
			w += copy(q[w:], q[r:j])
			kept = true
		}
		r = j
	}
	u.cut(u.queryStart+w, u.queryEnd)
	k.query.valid = false
	if u.queryStart == u.queryEnd {
		u.hasQuery = false
		u.cut(u.queryStart-1, u.queryEnd)
	}
}

// fileDriveLetter writes a first path segment "C|" of a file URL as
// "C:", as the WHATWG URL Standard's path state does: CollapseSlashes
// ("file:////C|"), DecodePathRepeatedly ("file:///C%7C") and a path cut
// can make one, which the standard would rewrite when the key is read
// again.
func (k *keyPass) fileDriveLetter() {
	u := k.u
	if !u.hasAuth || !k.hierarchical() || u.kind != schemeFile {
		return
	}
	seg := k.view()[u.pathStart+1 : u.pathEnd]
	if len(seg) > 2 && seg[2] == '/' {
		seg = seg[:2]
	}
	if len(seg) == 2 && seg[1] == '|' && isWindowsDriveLetter(unsafe.String(unsafe.SliceData(seg), 2)) {
		k.own()[u.pathStart+2] = ':'
	}
}

// freeForm reports whether the key's path is one the profile keeps its
// dot segments and empty segments in: a path without a host, under
// ReadAsSURT (the surt library normalizes a path only with a host).
func (k *keyPass) freeForm() bool { return k.pl.surtRead && k.u.hostlessPath() }

// hierarchical reports whether the path is a hierarchy of "/"-separated
// segments: it starts with "/" (an opaque path such as "mailto:a@b" has
// none to edit).
func (k *keyPass) hierarchical() bool {
	u := k.u
	return u.pathEnd > u.pathStart && u.w.byteAt(u.pathStart) == '/'
}

// lower lowercases the ASCII letters of output[i:j], which holds one
// (and non-ASCII if nonASCII). In a profile with NFC, the component is
// then normalized again: a lowercase letter composes with a combining
// mark its capital does not compose with ("J\u030C" is NFC, "j\u030C" is
// not: U+01F0), which NFC would do when the key is read again. NFC can
// write an ASCII capital in turn (U+212A KELVIN SIGN is "K"), which is
// lowered, and the result normalized again, until neither changes it.
func (k *keyPass) lower(i, j int, nonASCII bool) {
	b := k.own()
	lowerASCII(b[i:j])
	if !nonASCII || !k.pl.nfc {
		return
	}
	str := string(b[i:j])
	if isNFCRuns(str) {
		return
	}
	from := len(b)
	// (No run of more than 30 combining marks reaches here: the engine
	// refused it when it wrote the component, and lowering makes none.)
	nfc, _ := appendNFCRuns(nil, str) // (allocates: the path of few keys)
	for hasUpperASCII(nfc) {
		lowerASCII(nfc)
		if isNFCRuns(string(nfc)) {
			break
		}
		nfc, _ = appendNFCRuns(nil, string(nfc))
	}
	k.u.w.buf = append(k.u.w.buf, nfc...)
	k.u.splice(i, j, from)
}

// removeUserinfo: see RemoveUserinfo. It cuts the userinfo and its "@"
// (RFC 3986 §3.2.1). A method of the value, not of the pass, so that it
// is small enough to inline into passes, where its test was.
func (u *url) removeUserinfo() {
	if u.hasUser {
		u.hasUser = false // (before the edit it describes: see url.check)
		u.cut(u.authStart, u.userEnd+1)
	}
}

// removePathSessionIDs: see RemoveSessionIDs, its path part (";" or
// "(" parameters, for a path that holds one); the query's is
// filterQuery's. The path is compacted in place and cut once, and what
// the cut may undo is restored (pathCut). It reports whether it cut
// any. A path with such a parameter is rare: passes tests for one and
// leaves the work to this function.
func (k *keyPass) removePathSessionIDs() bool {
	u := k.u
	surt := k.pl.surtSessions
	if !k.rs.hasPathSessionIDs(k.view()[u.pathStart:u.pathEnd], surt) {
		return false // (read only: the key is not copied)
	}
	b := k.own() // the cutter compacts the path in place
	n := k.rs.cutPathSessionIDs(b[u.pathStart:u.pathEnd], surt)
	if u.pathStart+n < u.pathEnd {
		u.begin() // the cut path is whole again after pathCut
		u.cut(u.pathStart+n, u.pathEnd)
		k.pathCut()
		u.end()
		return true
	}
	return false
}

// removeEmptyQuery: see RemoveEmptyQuery. It cuts an empty query and
// its "?". A method of the value, not of the pass, so that it is small
// enough to inline into passes, where its test was.
func (u *url) removeEmptyQuery() {
	if u.hasQuery && u.queryStart == u.queryEnd {
		u.hasQuery = false
		u.cut(u.queryStart-1, u.queryEnd)
	}
}

// httpsAsHTTP: see HTTPSAsHTTP.
func (k *keyPass) httpsAsHTTP() {
	u := k.u
	if u.kind != schemeHTTPS {
		return
	}
	lowerASCII(k.own()[:u.schemeEnd-1])
	// (Each flag is set before the edit it describes: the value is
	// whole after every edit, see url.check.)
	u.kind = schemeHTTP
	u.cut(u.schemeEnd-1, u.schemeEnd) // "https" -> "http"
	// A port whose value is 80, as written ("0080" in profiles that keep
	// leading zeros): every profile's port rule reads the value.
	if u.hasPort {
		if v, f := portValue(u.str(), u.hostEnd+1, u.authEnd); f == nil && v == 80 {
			u.hasPort = false
			u.cut(u.hostEnd, u.authEnd)
		}
	}
}

// stripWWW: see StripWWW and StripWWWN.
func (k *keyPass) stripWWW(digits bool) {
	u := k.u
	if !u.hasAuth {
		return
	}
	// Again while the host starts with "www.": "www.www.example.com"
	// must come to the key it gives when read again. The labels are
	// counted first and cut once.
	host := u.str()[u.hostStart:u.hostEnd]
	n := 0
	for {
		m := wwwLabel(host[n:], digits)
		if m == 0 {
			break
		}
		n += m
	}
	// (host is a view of the key: read before the cut)
	again := n > 0 && k.pl.surtKeys && n < len(host) && (strings.HasSuffix(host, "..") || host[n] >= '0' && host[n] <= '9')
	u.cut(u.hostStart, u.hostStart+n)
	if again {
		k.surtHostAgain()
	}
}

// surtHostAgain writes the host of the key, which StripWWW or StripWWWN
// cut, as ReadAsSURT's host rules write it when the key is read again
// (whatwgHost): the ".." that kept "www.1.2.3.4.." a domain no longer
// needs to be there once "www." goes, and "1.2.3.4.." is the address
// 1.2.3.4, "0x7f.." the name "0x7f" (keepsDotsAfter); an opaque host
// "www.2" is the address 0.0.0.2 once "www." goes. A special URL's host
// that does not end in ".." is read as the cut left it: the standard
// rejects "www.2", and "www.1.2.3.4" too.
func (k *keyPass) surtHostAgain() {
	u := k.u
	host := u.str()[u.hostStart:u.hostEnd]
	var buf [16]byte
	out, ok := appendSURTIPv4(buf[:0], host)
	switch {
	case ok:
	case k.pl.trimDots && u.kind.special() && strings.HasSuffix(host, "..") && !keepsDotsAfter(host[:len(host)-2], true):
		// "x.1.." kept its dots for "www.x.1" (trimDomainDots): "x.1"
		// has no other empty label.
		out = []byte(host[:len(host)-2])
	default:
		return
	}
	k.own() // (the output in the buffer, where the new host goes after it)
	w := &u.w
	from := w.length()
	w.buf = append(w.buf, out...)
	u.splice(u.hostStart, u.hostEnd, from)
}

// collapseSlashes: see CollapseSlashes. The path is compacted in one
// pass and cut once: a cut per run of slashes would move the rest of the
// key once per run.
func (k *keyPass) collapseSlashes() {
	u := k.u
	if !u.hasAuth || k.freeForm() {
		return
	}
	path := k.own()[u.pathStart:u.pathEnd]
	w := 1
	for r := 1; r < len(path); r++ {
		if path[r] == '/' && path[w-1] == '/' {
			continue
		}
		path[w] = path[r]
		w++
	}
	u.cut(u.pathStart+w, u.pathEnd)
}

// trimPathEnd: see RemoveDirectoryIndex (index) and RemoveTrailingSlash
// (slash). Removing a trailing "/" can make an index page the last
// segment ("/index.php/" -> "/index.php"), which RemoveDirectoryIndex,
// run before, would remove when the key is read again: the two run again
// until neither changes the path. The rounds only move the path's end
// (each reads the end of the path, and shortens it), and the path is cut
// once at the last: a cut per round would move the query and fragment
// each time, quadratic in "/index.php/index.php/…?q#f".
func (k *keyPass) trimPathEnd(index, slash bool) {
	u := k.u
	path := u.str()[u.pathStart:u.pathEnd]
	n := len(path)
	if index {
		n = withoutDirectoryIndex(path, n)
	}
	for slash {
		m := withoutTrailingSlash(path, n)
		if m == n {
			break
		}
		n = m
		if !index {
			break
		}
		if m = withoutDirectoryIndex(path, n); m == n {
			break
		}
		n = m
	}
	u.cut(u.pathStart+n, u.pathEnd)
}

// withoutDirectoryIndex returns the length of path[:n] without its last
// segment when that is an index page (RemoveDirectoryIndex), else n.
// path starts with "/", and the "/" before the index page stays.
func withoutDirectoryIndex(path string, n int) int {
	last := strings.LastIndexByte(path[:n], '/') + 1
	if slices.Contains(directoryIndexes[:], path[last:n]) {
		return last
	}
	return n
}

// withoutTrailingSlash returns the length of path[:n] without the "/"s
// that end it (RemoveTrailingSlash), keeping a path "/", else n. path
// starts with "/".
func withoutTrailingSlash(path string, n int) int {
	j := n
	for j > 1 && path[j-1] == '/' {
		j--
	}
	if j == n || endsInDotSegment(unsafe.Slice(unsafe.StringData(path), j)) {
		// "/a/./" cannot be a key, but "/.//" (a path that starts with
		// "//" and has no authority) can: "/." would be removed when the
		// key is read again.
		return n
	}
	return j
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
func (k *keyPass) pathCut() {
	u := k.u
	u.begin()
	defer u.end()
	if !k.freeForm() {
		path := k.own()[u.pathStart:u.pathEnd]
		if k.pl.surtKeys { // (a ".." above the root stays: see decodeRepeatedly)
			path = removeDotSegmentsWHATWG(path, u.kind == schemeFile, true)
		} else {
			path = removeDots(path, k.pl.dots, u.kind == schemeFile)
		}
		u.cut(u.pathStart+len(path), u.pathEnd)
	}
	if k.pl.keys&(1<<CollapseSlashes) != 0 {
		k.collapseSlashes()
	}
	if !u.hasAuth && u.pathEnd-u.pathStart >= 2 && strings.HasPrefix(u.str()[u.pathStart:], "//") {
		u.insert(u.pathStart, "/.")
	}
	k.fileDriveLetter()
}

// filterQuery removes the parameters that are session ids (session),
// tracking parameters (tracking) or empty (empty), in one pass: the kept
// ones are moved down over the dropped ones. When it removes the last,
// the "?" goes too.
func (k *keyPass) filterQuery(session, tracking, empty bool) {
	u := k.u
	if !u.hasQuery || u.queryStart == u.queryEnd || !(session || tracking || empty) {
		return
	}
	rules := k.rs
	owned := false
	q := k.view()[u.queryStart:u.queryEnd]
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
			session && !k.pl.surtSessions && rules.isSessionID(name, value) ||
			session && k.pl.surtSessions && rules.isNamedSessionID(name) ||
			tracking && rules.isTracking(name)
		switch {
		case drop:
			if !owned {
				q = k.own()[u.queryStart:u.queryEnd]
				owned = true
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
	u.cut(u.queryStart+w, u.queryEnd)
	if u.queryStart == u.queryEnd {
		u.hasQuery = false
		u.cut(u.queryStart-1, u.queryEnd)
	}
}

// sortQuery sorts the parameters stably, by name or by whole pair
// (whole), comparing bytes, decoding nothing. Most queries are in order
// already, which one pass finds; the others have their pairs' offsets
// sorted, written in that order past the key and spliced in.
func (k *keyPass) sortQuery(whole bool) {
	u := k.u
	if !u.hasQuery {
		return
	}
	if k.sortKnown && (whole && k.sortedWhole || !whole && k.sortedByName) {
		return
	}
	q := k.view()[u.queryStart:u.queryEnd]
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
	q = k.own()[u.queryStart:u.queryEnd]
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
	// The pairs in their new order, of the query's own length, are
	// written on the stack (or, for a long query, in a buffer of their
	// own) and copied back over it.
	var tmp [512]byte
	out := tmp[:0]
	if len(q) > len(tmp) {
		out = make([]byte, 0, len(q))
	}
	for i, pr := range pairs {
		if i > 0 {
			out = append(out, '&')
		}
		out = append(out, q[pr[0]:pr[1]]...)
	}
	copy(q, out)
}

// decodeRepeatedly: see DecodePathRepeatedly. The component output[i:j]
// is decoded in place until no escape is left, the path's dot segments
// are removed, and the result is written past the key with the bytes of
// set, "%" and "\\" encoded, then spliced in.
func (k *keyPass) decodeRepeatedly(i, j int, set uint16) {
	u := k.u
	isPath := i == u.pathStart && j == u.pathEnd
	lowered := k.pl.has(LowercasePath) // (LowercaseQuery for the query)
	if !isPath {
		lowered = k.pl.has(LowercaseQuery)
	}
	if !decodingChanges(u.str()[i:j], set, isPath && !k.freeForm(), lowered) && !(isPath && k.surtDotsLeft()) {
		return // (read only: the key is not copied)
	}
	b := k.own()
	c := decodeRepeatedlyInPlace(b[i:j])
	if isPath && len(c) > 0 && c[0] == '/' && !k.freeForm() {
		// By the rule of the profile's parser, which needs ParseWHATWG:
		// the key is read again so ("file:///C:/.." keeps its drive).
		c = removeDotSegmentsWHATWG(c, u.kind == schemeFile, k.pl.surtKeys)
	}
	w := &u.w
	from := w.length()
	cStart := w.base + i
	for x := range c {
		if v := w.buf[cStart+x]; encodeSet[v]&set != 0 || v == '%' || v == '\\' {
			w.buf = append(w.buf, '%', upperHex[v>>4], upperHex[v&15])
		} else {
			w.buf = append(w.buf, v)
		}
	}
	if isPath && !u.hasAuth {
		w.guard(from)
	}
	u.splice(i, j, from)
}

// surtDotsLeft reports whether the key's path, one with a host under
// ReadAsSURT, holds a dot segment: whatwgPath leaves those of a path with
// an escape to DecodePathRepeatedly, and a step before it may have
// decoded every escape already (DecodeUnreserved: "/%2e" is "/.").
// A ".." first, above the root, is one the parser kept, which stays.
func (k *keyPass) surtDotsLeft() bool {
	if !k.pl.surtRead || k.freeForm() {
		return false
	}
	path := k.u.str()[k.u.pathStart:k.u.pathEnd]
	if strings.HasPrefix(path, "/..") && (len(path) == 3 || path[3] == '/') {
		path = path[3:]
	}
	return hasDotSegment(path)
}

// decodingChanges reports whether decodeRepeatedly changes the component
// c (a path whose dot segments it removes when isPath), reading it only:
// whether it holds a byte the encoding writes as a triplet (set, "%",
// "\\"), a triplet of a byte it writes as itself, or in lowercase hex
// (unless lowered: a step after it lowercases the component,
// LowercasePath or LowercaseQuery, and writes the hex back in
// lowercase), a "%" that starts no triplet, a "%25" that decoding makes
// the start of another ("%2541"), or, in a path, a dot segment. A key
// that is canonical already is not copied: most escapes in a key are of
// bytes the key must escape ("%20").
func decodingChanges(c string, set uint16, isPath, lowered bool) bool {
	if strings.IndexByte(c, '%') < 0 {
		return false // nothing to decode: the pass does nothing
	}
	for x := 0; x < len(c); x++ {
		v := c[x]
		if v != '%' {
			if encodeSet[v]&set != 0 || v == '\\' {
				return true
			}
			continue
		}
		if !validEscape(c, x) || !lowered && (!isUpperHex(c[x+1]) || !isUpperHex(c[x+2])) {
			return true
		}
		v = tripletValue(c, x)
		if encodeSet[v]&set == 0 && v != '%' && v != '\\' || v == '%' && validEscape(c, x+2) {
			return true
		}
		x += 2
	}
	return isPath && len(c) > 0 && c[0] == '/' && hasDotSegment(c)
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

// wwwLabel returns the length of the "www." (with digits: "wwwN.") that
// StripWWW (StripWWWN) removes from host, or 0 when it removes none.
// StripWWW asks the Public Suffix List whether the rest is more than a
// public suffix; StripWWWN, as the Internet Archive's canonicalizer,
// does not, and only keeps a host label behind it.
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
	rest := host[i+1:]
	if digits {
		if rest == "" || rest[0] == '.' {
			return 0 // "www." is the whole host: no label would be left
		}
		return i + 1
	}
	if !strippableMemo(rest) {
		return 0
	}
	return i + 1
}

// strippableMemo is strippable, remembered for the last hosts seen: the
// Public Suffix List lookup (golang.org/x/net/publicsuffix, which also
// tries the host as an IP address first and allocates that error) costs
// more than the rest of StripWWW, and the hosts of a crawl repeat. The
// memo is a fixed table of strippableSlots entries, indexed by a hash of
// the host and replaced on a collision; an entry is published whole
// through an atomic pointer, so concurrent calls need no lock. As
// strippable is a function of its argument alone, the memo changes no
// key. Hosts longer than an entry holds go to strippable directly.
func strippableMemo(rest string) bool {
	if len(rest) > len(strippableEntry{}.host) {
		return strippable(rest)
	}
	slot := &strippableSlots[maphash.String(strippableSeed, rest)%uint64(len(strippableSlots))]
	if e := slot.Load(); e != nil && string(e.host[:e.n]) == rest {
		return e.ok
	}
	e := &strippableEntry{n: uint8(len(rest)), ok: strippable(rest)}
	copy(e.host[:], rest)
	slot.Store(e)
	return e.ok
}

// strippableEntry is one remembered answer of strippable.
type strippableEntry struct {
	n    uint8
	ok   bool
	host [62]byte
}

var (
	strippableSeed  = maphash.MakeSeed()
	strippableSlots [1024]atomic.Pointer[strippableEntry]
)

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

// directoryIndexes are the index pages RemoveDirectoryIndex removes: the
// defaults of Apache httpd (index.html), of PHP setups (index.php), and
// of Microsoft IIS (default.asp, default.aspx, index.htm).
var directoryIndexes = [...]string{"index.html", "index.htm", "index.php", "default.asp", "default.aspx"}

// maxStackPairs is how many parameters sortQuery sorts with offsets on
// the stack; a longer query allocates a slice of them.
const maxStackPairs = 32

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
