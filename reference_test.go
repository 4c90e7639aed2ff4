package canon

// Slow reference implementations: literal transcriptions of the RFC
// pseudo-code, written for clarity and not speed, against which the fast
// code is checked on every vector and in the fuzz targets (as net/netip
// checks ParseAddr against parseIPSlow).

import (
	"regexp"
	"strings"
	"testing"
)

// removeDotSegmentsSlow is RFC 3986 §5.2.4, step by step, with the input
// and output buffers as strings.
func removeDotSegmentsSlow(path string) string {
	in, out := path, ""
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = "/" + in[3:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = "/" + in[4:]
			out = removeLastSegment(out)
		case in == "/..":
			in = "/"
			out = removeLastSegment(out)
		case in == "." || in == "..":
			in = ""
		default:
			i := strings.IndexByte(in[1:], '/') + 1
			if i == 0 {
				i = len(in)
			}
			out += in[:i]
			in = in[i:]
		}
	}
	return out
}

func removeLastSegment(out string) string {
	if i := strings.LastIndexByte(out, '/'); i >= 0 {
		return out[:i]
	}
	return ""
}

// uriRegexp is the regular expression of RFC 3986 Appendix B.
var uriRegexp = regexp.MustCompile(`^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`)

type slowRef struct {
	scheme, authority, path, query, fragment  string
	hasScheme, hasAuth, hasQuery, hasFragment bool
}

func parseSlow(s string) slowRef {
	m := uriRegexp.FindStringSubmatch(s)
	return slowRef{
		scheme: m[2], authority: m[4], path: m[5], query: m[7], fragment: m[9],
		hasScheme: m[1] != "", hasAuth: m[3] != "", hasQuery: m[6] != "", hasFragment: m[8] != "",
	}
}

// resolveSlow is RFC 3986 §5.2.2 (strict), §5.2.3 and §5.3, literally.
// The one addition is canon's documented "/." prefix for a path that
// starts with "//" when there is no authority.
func resolveSlow(base, ref string) string {
	B, R := parseSlow(base), parseSlow(ref)
	var T slowRef
	if R.hasScheme {
		T.scheme, T.hasScheme = R.scheme, true
		T.authority, T.hasAuth = R.authority, R.hasAuth
		T.path = removeDotSegmentsSlow(R.path)
		T.query, T.hasQuery = R.query, R.hasQuery
	} else {
		if R.hasAuth {
			T.authority, T.hasAuth = R.authority, true
			T.path = removeDotSegmentsSlow(R.path)
			T.query, T.hasQuery = R.query, R.hasQuery
		} else {
			if R.path == "" {
				T.path = B.path
				if R.hasQuery {
					T.query, T.hasQuery = R.query, true
				} else {
					T.query, T.hasQuery = B.query, B.hasQuery
				}
			} else {
				if strings.HasPrefix(R.path, "/") {
					T.path = removeDotSegmentsSlow(R.path)
				} else {
					T.path = removeDotSegmentsSlow(mergeSlow(B, R.path))
				}
				T.query, T.hasQuery = R.query, R.hasQuery
			}
			T.authority, T.hasAuth = B.authority, B.hasAuth
		}
		T.scheme, T.hasScheme = B.scheme, true
	}
	T.fragment, T.hasFragment = R.fragment, R.hasFragment
	return recomposeSlow(T)
}

func mergeSlow(B slowRef, rpath string) string {
	if B.hasAuth && B.path == "" {
		return "/" + rpath
	}
	if i := strings.LastIndexByte(B.path, '/'); i >= 0 {
		return B.path[:i+1] + rpath
	}
	return rpath
}

func recomposeSlow(T slowRef) string {
	result := ""
	if T.hasScheme {
		result += T.scheme + ":"
	}
	if T.hasAuth {
		result += "//" + T.authority
	} else if strings.HasPrefix(T.path, "//") {
		result += "/." // canon's addition, see Resolve
	}
	result += T.path
	if T.hasQuery {
		result += "?" + T.query
	}
	if T.hasFragment {
		result += "#" + T.fragment
	}
	return result
}

// removeDots1808Slow applies RFC 1808 §4 step 6 a-d literally, by repeated
// search and removal on the path without its leading "/".
func removeDots1808Slow(path string) string {
	lead := ""
	if strings.HasPrefix(path, "/") {
		lead, path = "/", path[1:]
	}
	complete := func(p string, i int) bool { return i == 0 || p[i-1] == '/' }
	// a) All occurrences of "./", where "." is a complete path segment, are removed.
	for changed := true; changed; {
		changed = false
		for i := strings.Index(path, "./"); i >= 0; {
			if complete(path, i) {
				path = path[:i] + path[i+2:]
				changed = true
				break
			}
			j := strings.Index(path[i+1:], "./")
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	// b) If the path ends with "." as a complete path segment, that "." is removed.
	if path == "." || strings.HasSuffix(path, "/.") {
		path = path[:len(path)-1]
	}
	// c) All occurrences of "<segment>/../", where <segment> is a complete
	// path segment not equal to "..", are removed, leftmost first.
	for changed := true; changed; {
		changed = false
		segs := strings.Split(path, "/")
		for k := 0; k+2 < len(segs); k++ {
			if segs[k] != ".." && segs[k+1] == ".." {
				segs = append(segs[:k], segs[k+2:]...)
				path = strings.Join(segs, "/")
				changed = true
				break
			}
		}
	}
	// d) If the path ends with "<segment>/..", where <segment> is a
	// complete path segment not equal to "..", that "<segment>/.." is removed.
	segs := strings.Split(path, "/")
	if n := len(segs); n >= 2 && segs[n-1] == ".." && segs[n-2] != ".." {
		path = strings.Join(segs[:n-2], "/")
		if n > 2 {
			path += "/"
		}
	}
	return lead + path
}

// url1808 holds the parts of RFC 1808 §2.4.
type url1808 struct {
	scheme, netloc, path, params, query, fragment        string
	hasNetloc, absPath, hasParams, hasQuery, hasFragment bool
}

func parse1808Slow(s string) url1808 {
	var u url1808
	if i := strings.IndexByte(s, '#'); i >= 0 { // §2.4.1
		u.fragment, u.hasFragment, s = s[i+1:], true, s[:i]
	}
	if m := regexp.MustCompile(`^([A-Za-z0-9+.-]+):`).FindStringSubmatch(s); m != nil { // §2.4.2
		u.scheme, s = m[1], s[len(m[0]):]
	}
	if strings.HasPrefix(s, "//") { // §2.4.3
		// RFC 1808 ends the net_loc at the next "/" only; canon splits
		// every input as the RFC 2396 drafts do (a "?" ends it too), and
		// so does this reference, so that both resolve the same parts.
		s = s[2:]
		i := strings.IndexAny(s, "/?")
		if i < 0 {
			i = len(s)
		}
		u.netloc, u.hasNetloc, s = s[:i], true, s[i:]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 { // §2.4.4
		u.query, u.hasQuery, s = s[i+1:], true, s[:i]
	}
	if i := strings.IndexByte(s, ';'); i >= 0 { // §2.4.5
		u.params, u.hasParams, s = s[i+1:], true, s[:i]
	}
	if strings.HasPrefix(s, "/") { // §2.4.6
		u.absPath, s = true, s[1:]
	}
	u.path = s
	return u
}

// resolve1808Slow is RFC 1808 §4, steps 1-7, literally, with canon's two
// added rules marked (see resolve1808). ok is false for the reference
// that the second rule rejects.
func resolve1808Slow(base, ref string) (target string, ok bool) {
	if ref == "" { // step 2a
		return base, true
	}
	B, E := parse1808Slow(base), parse1808Slow(ref)
	if E.scheme != "" { // step 2b
		return ref, true
	}
	E.scheme = B.scheme // step 2c
	if E.hasNetloc && E.netloc == "" && oracleNeedsHost(B.scheme) {
		return "", false // added: an empty net_loc against a base that needs a host
	}
	if E.netloc == "" { // step 3
		E.netloc, E.hasNetloc = B.netloc, B.hasNetloc
		if !E.absPath { // step 4
			if E.path == "" { // step 5
				E.path, E.absPath = B.path, B.absPath
				if E.params == "" {
					E.params, E.hasParams = B.params, B.hasParams
					if E.query == "" {
						E.query, E.hasQuery = B.query, B.hasQuery
					}
				}
			} else { // step 6
				p := B.path
				if i := strings.LastIndexByte(p, '/'); i >= 0 {
					p = p[:i+1]
				} else {
					p = ""
				}
				E.path = strings.TrimPrefix(removeDots1808Slow("/"+p+E.path), "/")
				E.absPath = B.absPath || B.hasNetloc
			}
		}
	}
	s := E.scheme + ":" // step 7
	if E.hasNetloc {
		s += "//" + E.netloc
	}
	path := E.path
	if E.absPath || E.hasNetloc && (path != "" || E.hasParams) {
		// (added: after a net_loc a path is an abs_path, RFC 1808
		// §2.2: net_path = "//" net_loc [ abs_path ]; the base's empty
		// path with the reference's params is "/;x")
		path = "/" + path
	}
	if !E.hasNetloc && strings.HasPrefix(path, "//") {
		path = "/." + path // added: a path must not read back as an authority
	}
	s += path
	if E.hasParams {
		s += ";" + E.params
	}
	if E.hasQuery {
		s += "?" + E.query
	}
	if E.hasFragment {
		s += "#" + E.fragment
	}
	return s, true
}

// dotPaths are paths that exercise every rule of both algorithms.
var dotPaths = []string{
	"", "/", ".", "..", "./", "../", "/.", "/..", "/./", "/../", "a", "a/", "/a", "/a/",
	"a/.", "a/..", "a/./", "a/../", "/a/b/c/./../../g", "mid/content=5/../6", "../../g",
	"/../../g", "a/b/../../../c", "//a//../b", "a//../../b", "/./../.", "..a/..", "a../..",
	"/a/.../b", "./../x", "/a/b/..", "/a/./b/./c/.", "/%2e/x", "a/b/c/../../../../d/",
	"/x/../../y/./z/..", "..//..", "/..//../x/", ".//a",
}

func TestRemoveDotSegmentsSlow(t *testing.T) {
	for _, p := range dotPaths {
		if got, want := RemoveDotSegments(p), removeDotSegmentsSlow(p); got != want {
			t.Errorf("RemoveDotSegments(%q) = %q, want %q (slow)", p, got, want)
		}
		got := string(removeDotSegments1808([]byte(p)))
		if want := removeDots1808Slow(p); got != want {
			t.Errorf("removeDotSegments1808(%q) = %q, want %q (slow)", p, got, want)
		}
	}
}
