package canon

import (
	"crypto/sha256"
	"errors"
	"strconv"
	"strings"
	"unsafe"
)

// The Google Safe Browsing lookups: the host-suffix and path-prefix
// expressions of a SafeBrowsing key, and their SHA-256 hash prefixes, as
// "URLs and Hashing" (Safe Browsing API v4) describes them. The key
// itself is the SafeBrowsing profile's (safebrowsing.go).

// LookupExpressions returns the host-suffix and path-prefix expressions
// of rawURL that Google Safe Browsing (and Web Risk) looks up, in the
// order of its "URLs and Hashing" document: for each host, the exact
// host first and then up to four made of its last five, four, three and
// two labels (none for an IP address), at most five; with each, the
// exact path with the query, the exact path, and up to four directories
// from the root ("/", "/a/", "/a/b/", "/a/b/c/"), at most six; each
// once. They are made from the SafeBrowsing key of rawURL, without its
// scheme; an empty query ("/p?") adds none. Its errors are Normalize's
// under SafeBrowsing.
//
//	http://a.b.c/1/2.html?param=1 -> a.b.c/1/2.html?param=1, a.b.c/1/2.html,
//	a.b.c/, a.b.c/1/, b.c/1/2.html?param=1, b.c/1/2.html, b.c/, b.c/1/
func LookupExpressions(rawURL string) ([]string, error) {
	u := keyValue(rawURL, nil)
	if shift, f := keyInto(&u, safeBrowsingPlan); f != nil {
		return nil, toError("LookupExpressions", rawURL, shift, f)
	}
	return lookupExpressions(&u), nil
}

// lookupExpressions returns the expressions of the SafeBrowsing key in u,
// in one string's bytes.
func lookupExpressions(u *url) []string {
	key := u.str()
	var hosts [5]string
	nh := lookupHosts(key[u.hostStart:u.hostEnd], &hosts)
	var paths [6]string
	np := lookupPaths(key, u, &paths)
	size := 0
	for _, h := range hosts[:nh] {
		for _, p := range paths[:np] {
			size += len(h) + len(p)
		}
	}
	buf := make([]byte, 0, size)
	for _, h := range hosts[:nh] {
		for _, p := range paths[:np] {
			buf = append(append(buf, h...), p...)
		}
	}
	all := unsafe.String(unsafe.SliceData(buf), len(buf)) // buf is not written again
	out := make([]string, 0, nh*np)
	at := 0
	for _, h := range hosts[:nh] {
		for _, p := range paths[:np] {
			out = append(out, all[at:at+len(h)+len(p)])
			at += len(h) + len(p)
		}
	}
	return out
}

// lookupHosts sets out to the hosts to look up for the key's host and
// returns how many there are: the host, then, unless it is an IP
// address, the suffixes of its last five labels down to two, without
// the host itself.
func lookupHosts(host string, out *[5]string) int {
	out[0] = host
	if isIPHost(host) {
		return 1
	}
	labels := strings.Count(host, ".") + 1
	n := 1
	for k := min(5, labels); k >= 2; k-- {
		if k == labels {
			continue
		}
		at := len(host)
		for d := 0; d < k; d++ {
			at = strings.LastIndexByte(host[:at], '.')
		}
		out[n] = host[at+1:]
		n++
	}
	return n
}

// isIPHost reports whether the host of a SafeBrowsing key is an IP
// address: an IPv6 address in brackets, or IPv4 (a name that reads as
// IPv4 was written as the address).
func isIPHost(host string) bool {
	if len(host) > 2 && host[0] == '[' && host[len(host)-1] == ']' {
		_, ok := parseIPv6([]byte(host[1 : len(host)-1]))
		return ok
	}
	var ip [48]byte
	_, ok := appendIPv4(ip[:0], []byte(host))
	return ok
}

// lookupPaths sets out to the paths to look up for the key in u and
// returns how many there are: the path with the query (when it is not
// empty), the path, and "/" with up to three more directories, each once.
func lookupPaths(key string, u *url, out *[6]string) int {
	n := 0
	add := func(p string) {
		for _, q := range out[:n] {
			if q == p {
				return
			}
		}
		out[n] = p
		n++
	}
	path := key[u.pathStart:u.pathEnd]
	if u.hasQuery && u.queryEnd > u.queryStart {
		add(key[u.pathStart:u.queryEnd])
	}
	add(path)
	for i, dirs := 0, 0; i < len(path) && dirs < 4; i++ {
		if path[i] == '/' {
			add(path[:i+1])
			dirs++
		}
	}
	return n
}

// LookupHashes returns the hash prefixes of the lookup expressions of
// rawURL (see [LookupExpressions]), in their order: the first prefixLen
// bytes of the SHA-256 of each, as Safe Browsing's lists hold them
// ("URLs and Hashing": 4 to 32 bytes; 32 is the full hash). A prefixLen
// outside 4..32 is an error; the other errors are those of
// LookupExpressions.
func LookupHashes(rawURL string, prefixLen int) ([][]byte, error) {
	if prefixLen < 4 || prefixLen > sha256.Size {
		return nil, errors.New("canon: LookupHashes: hash prefix length " + strconv.Itoa(prefixLen) + " is not between 4 and 32 bytes")
	}
	u := keyValue(rawURL, nil)
	if shift, f := keyInto(&u, safeBrowsingPlan); f != nil {
		return nil, toError("LookupHashes", rawURL, shift, f)
	}
	exprs := lookupExpressions(&u)
	buf := make([]byte, len(exprs)*prefixLen)
	out := make([][]byte, len(exprs))
	for i, x := range exprs {
		sum := sha256.Sum256([]byte(x))
		out[i] = buf[i*prefixLen : (i+1)*prefixLen : (i+1)*prefixLen]
		copy(out[i], sum[:prefixLen])
	}
	return out, nil
}
