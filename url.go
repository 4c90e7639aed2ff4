package canon

import "strings"

// url is the value every stage passes down: the key being made, as the
// writer's output, with the offsets of its components in it, set by the
// stage that writes each component and kept current by every edit after
// (the key passes). No stage parses a string another stage made: the
// offsets travel with the bytes. (ada's url_aggregator keeps one buffer
// and its components' offsets the same way.)
//
// The offsets are of the output (0 is its first byte), as parts.parse
// would find them in it:
//
//	 https :// user : pass @ host : 8080 /a/b ? q=1 # frag
//	       |    |           |    |      |    |   |   |
//	schemeEnd authStart userEnd  hostEnd pathStart  queryStart
//	                        hostStart   authEnd  pathEnd   fragStart
//
// schemeEnd is the ":" after the scheme; authStart follows "//" and
// authEnd is where the path starts (pathStart == authEnd when there is an
// authority); userEnd is the "@" that ends a userinfo; the port runs from
// hostEnd+1 to authEnd; the query from queryStart (after "?") to queryEnd,
// the fragment from fragStart (after "#") to the end. Offsets of a
// component that is absent are where it would be (queryStart and
// queryEnd are pathEnd without a query).
type url struct {
	w writer

	schemeEnd          int
	authStart, userEnd int
	hostStart, hostEnd int
	authEnd            int
	pathStart, pathEnd int
	queryStart         int
	queryEnd           int
	fragStart          int

	hasAuth, hasUser, hasPort, hasQuery, hasFrag bool

	// opaque: no authority and a path that does not start with "/"
	// ("mailto:a@b", "data:text/plain,x"): no key pass edits it.
	opaque bool
	kind   schemeKind

	// enc is the encoding of the page the input was read from (nil:
	// UTF-8), which the WHATWG URL Standard's parser writes a special
	// URL's query in (encoding.go).
	enc *pageEncoding

	// edits counts the edits of several primitives that are under way
	// (begin, end): the states between their primitives need not be
	// whole, and check waits for the last end.
	edits int8
}

// checkValue, when set, is called with every value an edit primitive
// (cut, splice, insert, encodeFinalSpaces) or a stage (keyInto,
// resolveWHATWGInto, normalizeRef) has just finished, and checkParts
// with every URI the RFC 3986 and RFC 1808 resolvers compose and the
// parts they record for it: the tests set them (value_check_test.go) to
// hold the offsets to a reading of the bytes, as ada's url_aggregator
// asserts validate() after every setter. Both are nil otherwise, which
// costs an edit one load and one branch.
var (
	checkValue func(s string, o offsets)
	checkParts func(s string, p *parts)
)

// offsets are a value's offsets and flags without its bytes: what
// checkValue compares with a reading of the bytes.
type offsets struct {
	schemeEnd, authStart, userEnd, hostStart, hostEnd, authEnd int
	pathStart, pathEnd, queryStart, queryEnd, fragStart        int
	hasAuth, hasUser, hasPort, hasQuery, hasFrag, opaque       bool
	kind                                                       schemeKind
}

// check calls checkValue with a copy of u's bytes and its offsets when
// the hook is set. Copies: passed to a func value, u itself would escape
// to the heap in every call of Normalize, hook or not.
func (u *url) check() {
	if checkValue != nil && u.edits == 0 {
		checkValue(strings.Clone(u.str()), u.offsets())
	}
}

// offsets returns u's offsets and flags.
func (u *url) offsets() offsets {
	return offsets{u.schemeEnd, u.authStart, u.userEnd, u.hostStart, u.hostEnd, u.authEnd,
		u.pathStart, u.pathEnd, u.queryStart, u.queryEnd, u.fragStart,
		u.hasAuth, u.hasUser, u.hasPort, u.hasQuery, u.hasFrag, u.opaque, u.kind}
}

// begin starts an edit made of several primitives whose states in
// between need not be whole (a path cut short, then its dot segments
// removed, then its guard inserted); end finishes it and checks the
// value, which must be whole again.
func (u *url) begin() { u.edits++ }

// end finishes the edit begin started (see begin).
func (u *url) end() {
	u.edits--
	u.check()
}

// str returns the output as a string, without copying (valid until the
// next write).
func (u *url) str() string { return u.w.view() }

// own makes the output writable in place: buf[base:] holds it.
func (u *url) own() []byte {
	u.w.spill()
	return u.w.buf[u.w.base:]
}

// cut removes output[i:j]; the offsets after it move with the rest, and
// those inside it go to i.
func (u *url) cut(i, j int) {
	if i == j {
		return
	}
	if j == u.w.length() && !u.w.dirty {
		u.w.truncate(i) // the end of the input's own bytes: no copy
	} else {
		b := u.own()
		n := copy(b[i:], b[j:])
		u.w.buf = u.w.buf[:u.w.base+i+n]
	}
	u.shift(i, j, i-j)
	u.check()
}

// splice replaces output[i:j] with the bytes written past the output's
// end from offset from on (from is the old length), and drops those.
func (u *url) splice(i, j, from int) {
	u.own()
	o := u.w.base
	end := len(u.w.buf) - o
	u.w.buf = append(u.w.buf, u.w.buf[o+j:o+from]...) // the rest of the old output, after the new bytes
	n := copy(u.w.buf[o+i:], u.w.buf[o+from:])
	u.w.buf = u.w.buf[:o+i+n]
	u.shift(i, j, (end-from)-(j-i))
	u.check()
}

// insert inserts t at output[i]: the offsets after i move; a component
// that starts at i keeps its start.
func (u *url) insert(i int, t string) {
	u.own()
	o := u.w.base
	n := len(u.w.buf)
	u.w.buf = append(u.w.buf, t...)
	copy(u.w.buf[o+i+len(t):], u.w.buf[o+i:n])
	copy(u.w.buf[o+i:], t)
	u.shift(i+1, i+1, len(t))
	u.check()
}

// shift moves by d the offsets at or after j, and to i those in (i, j).
func (u *url) shift(i, j, d int) {
	for _, o := range [...]*int{&u.schemeEnd, &u.authStart, &u.userEnd, &u.hostStart, &u.hostEnd,
		&u.authEnd, &u.pathStart, &u.pathEnd, &u.queryStart, &u.queryEnd, &u.fragStart} {
		switch {
		case *o >= j:
			*o += d
		case *o > i:
			*o = i
		}
	}
}

// encodeFinalSpaces writes spaces that end the key as "%20", and reports
// whether there were any. Only profiles that keep characters outside the
// grammar (WebCapture) write raw spaces: the engine, when RemoveFragment
// cuts "http://h/a #f" to "http://h/a ", and a key pass that cuts the
// end of a key ("http://h/a /" -> "http://h/a " by RemoveTrailingSlash,
// "?a= &utm_x=1" -> "?a= " by RemoveTrackingParams). Read again, such a
// key would lose the space to trimming; "%20" keeps it apart from
// "http://h/a", as a browser does (it sends /a%20), and keeps the profile
// idempotent.
func (u *url) encodeFinalSpaces() bool {
	w := &u.w
	n := w.length()
	k := n
	for k > 0 && w.byteAt(k-1) == ' ' {
		k--
	}
	if k == n {
		return false
	}
	w.truncate(k)
	for ; k < n; k++ {
		w.str("%20")
	}
	// The last component grew.
	switch n := w.length(); {
	case u.hasFrag:
	case u.hasQuery:
		u.queryEnd, u.fragStart = n, n
	default:
		u.pathEnd, u.queryStart, u.queryEnd, u.fragStart = n, n, n, n
	}
	u.check()
	return true
}

// result returns the key u holds as a string: the input's own bytes
// while clean (no copy), and otherwise the writer's buffer, which the
// writer allocated with room for the key at its first change and which
// the key takes over. (A buffer on the stack cannot be the writer's:
// appending to a buffer held through a pointer moves it to the heap.)
func (u *url) result() string {
	s, b, clean := u.w.output()
	if clean {
		return s
	}
	return ownedString(b)
}

// appendResult returns dst with the key in u after it, u's writer having
// appended to dst (keyValue): the output is in dst's array already, or
// is the input itself, which is copied.
func (u *url) appendResult(dst []byte) []byte {
	s, b, clean := u.w.output()
	if clean {
		return append(dst, s...)
	}
	return u.w.buf[:u.w.base+len(b)]
}

// special reports whether u's scheme is special (the WHATWG URL
// Standard's: http, https, ws, wss, ftp, file).
func (u *url) special() bool { return u.kind.special() }

// hostlessPath reports whether u has no host and a path of segments
// (not an opaque one, "mailto:x"): the URLs ReadAsSURT reads otherwise
// than the URL Standard does (see plan.surtRef).
func (u *url) hostlessPath() bool { return u.hostEnd == u.hostStart && !u.opaque }

// isBlob reports whether the value is a blob: URL, as a WHATWG plan
// writes the scheme (in lowercase).
func (u *url) isBlob() bool { return u.schemeEnd == 4 && u.str()[:4] == "blob" }

// driveLetter reports whether u's path starts with a normalized Windows
// drive letter segment ("/C:" then the end or "/").
func (u *url) driveLetter() bool {
	path := u.str()[u.pathStart:u.pathEnd]
	return len(path) >= 3 && path[0] == '/' && isWindowsDriveLetter(path[1:3]) && path[2] == ':' && (len(path) == 3 || path[3] == '/')
}
