package canon

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The SafeBrowsing profile's tests: the vectors of testdata/safebrowsing
// (the document's, and Google's Go client's, with the listed departures),
// a slow transcription of the document as an oracle, every IPv4 spelling,
// the lookup expressions' bounds, and the entry points.

const sbDir = "safebrowsing"

// sbVector is a row of the vector files: output is a string, a list or
// absent (failure).
type sbVector struct {
	Input   string          `json:"input"`
	Output  json.RawMessage `json:"output"`
	Failure bool            `json:"failure"`
	Latin1  bool            `json:"input_is_latin1_bytes"`
}

// sbDeparture is a row of departures.json: a vector on which a client
// departs from the document, and so canon from the vector.
type sbDeparture struct {
	File     string `json:"file"`
	Function string `json:"function"`
	Input    string `json:"input"`
	Kind     string `json:"kind"`
	Reason   string `json:"reason"`
}

// sbResult is what canon gives for a URL: its key, the key's host and
// path, and the lookup expressions.
type sbResult struct {
	key, host, path string
	exprs           []string
	err             error
}

func sbRead(in string) sbResult {
	u := keyValue(in, nil)
	if shift, f := keyInto(&u, safeBrowsingPlan); f != nil {
		return sbResult{err: toError("Normalize", in, shift, f)}
	}
	key := u.result()
	return sbResult{key: key, host: key[u.hostStart:u.hostEnd], path: key[u.pathStart:u.pathEnd], exprs: lookupExpressions(&u)}
}

// exprHosts returns the hosts of expressions, in order, each once; and
// exprPaths the paths that go with the first.
func exprHosts(exprs []string) []string {
	var hosts []string
	for _, x := range exprs {
		h, _, _ := strings.Cut(x, "/")
		if !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

func exprPaths(exprs []string) []string {
	var paths []string
	for _, x := range exprs {
		h, p, _ := strings.Cut(x, "/")
		if h == exprHosts(exprs)[0] {
			paths = append(paths, "/"+p)
		}
	}
	return paths
}

// sbAnswer computes what function of a vector file answers for in,
// with canon: a string, a list of strings, or failure (ok false).
func sbAnswer(function, in string) (any, bool) {
	switch function {
	case "parseIPAddress":
		// An address as a host: its key's host when that is one, "" when
		// the host is a name.
		r := sbRead("http://" + in + "/")
		if r.err != nil || !isIPHost(r.host) {
			return "", true
		}
		return r.host, true
	case "host":
		r := sbRead("http://" + in + "/")
		return r.host, r.err == nil
	}
	r := sbRead(in)
	if r.err != nil {
		return nil, false
	}
	switch function {
	case "canonicalize", "canonicalURL":
		return r.key, true
	case "canonicalHost":
		return r.host, true
	case "canonicalPath":
		return r.path, true
	case "generatePatterns":
		return r.exprs, true
	case "generateLookupHosts":
		return exprHosts(r.exprs), true
	case "generateLookupPaths":
		return exprPaths(r.exprs), true
	}
	panic("unknown function " + function)
}

// sbSame compares an answer with a vector's output; generatePatterns'
// lists are sets (testdata/safebrowsing/README.md).
func sbSame(function string, got any, want json.RawMessage) bool {
	switch g := got.(type) {
	case string:
		var w string
		return json.Unmarshal(want, &w) == nil && g == w
	case []string:
		var w []string
		if json.Unmarshal(want, &w) != nil {
			return false
		}
		if function == "generatePatterns" {
			g, w = slices.Sorted(slices.Values(g)), slices.Sorted(slices.Values(w))
		}
		return slices.Equal(g, w)
	}
	return false
}

// sbVectorFiles returns the vectors of the three copied files, by file
// and function: the document's (function "canonicalize", and "host" for
// the v5 host rules) and the Go client's.
func sbVectorFiles(t *testing.T) map[[2]string][]sbVector {
	out := map[[2]string][]sbVector{}
	var doc []sbVector
	loadJSON(t, filepath.Join(sbDir, "safebrowsing_v4_doc_canonicalize.json"), &doc)
	out[[2]string{"safebrowsing_v4_doc_canonicalize.json", "canonicalize"}] = doc
	var v5 []sbVector
	loadJSON(t, filepath.Join(sbDir, "safebrowsing_v5_doc_ipv6_host_rules.json"), &v5)
	out[[2]string{"safebrowsing_v5_doc_ipv6_host_rules.json", "host"}] = v5
	var gocl map[string]json.RawMessage
	loadJSON(t, filepath.Join(sbDir, "google_safebrowsing_go_urls_test.json"), &gocl)
	for fn, raw := range gocl {
		if strings.HasPrefix(fn, "_") {
			continue
		}
		var vs []sbVector
		if err := json.Unmarshal(raw, &vs); err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		out[[2]string{"google_safebrowsing_go_urls_test.json", fn}] = vs
	}
	return out
}

// TestSafeBrowsingVectors runs every vector of testdata/safebrowsing:
// each must give its output (or fail where it says failure), except those
// departures.json lists, each of which must still give another answer
// (the same paths in another order, for kind "order"); no listed row may
// name a vector that does not exist.
func TestSafeBrowsingVectors(t *testing.T) {
	var deps []sbDeparture
	loadJSON(t, filepath.Join(sbDir, "departures.json"), &deps)
	listed := map[[3]string]sbDeparture{}
	for _, d := range deps {
		if d.Reason == "" || d.Kind == "" {
			t.Errorf("departures.json: %s %s %q has no kind or reason", d.File, d.Function, d.Input)
		}
		listed[[3]string{d.File, d.Function, d.Input}] = d
	}
	used := map[[3]string]bool{}
	counts := map[string][2]int{} // file: passed, departures
	for fk, vs := range sbVectorFiles(t) {
		file, fn := fk[0], fk[1]
		for _, v := range vs {
			in := v.Input
			if v.Latin1 {
				in = latin1Bytes(in) // each code point up to U+00FF is a byte
			}
			got, ok := sbAnswer(fn, in)
			pass := ok != v.Failure && (v.Failure || sbSame(fn, got, v.Output))
			k := [3]string{file, fn, v.Input}
			c := counts[file]
			if d, isListed := listed[k]; isListed {
				used[k] = true
				c[1]++
				switch {
				case pass:
					t.Errorf("%s %s(%q) = %v: listed as a departure (%s), but it passes now: remove it from departures.json", file, fn, in, got, d.Kind)
				case d.Kind == "order":
					var w []string
					g, _ := got.([]string)
					if json.Unmarshal(v.Output, &w) != nil || !slices.Equal(slices.Sorted(slices.Values(g)), slices.Sorted(slices.Values(w))) {
						t.Errorf("%s %s(%q) = %q, want %s in another order (departures.json): more than the order differs", file, fn, in, g, v.Output)
					}
				}
			} else {
				if pass {
					c[0]++
				} else {
					t.Errorf("%s %s(%q) = %v (ok %v), want %s (failure %v)", file, fn, in, got, ok, v.Output, v.Failure)
				}
			}
			counts[file] = c
		}
	}
	for k := range listed {
		if !used[k] {
			t.Errorf("departures.json lists %s %s(%q), which no vector file has", k[0], k[1], k[2])
		}
	}
	files := slices.Sorted(func(yield func(string) bool) {
		for f := range counts {
			if !yield(f) {
				return
			}
		}
	})
	for _, f := range files {
		t.Logf("%s: %d pass, %d listed departures", f, counts[f][0], counts[f][1])
	}
	want := map[string][2]int{
		"safebrowsing_v4_doc_canonicalize.json":    {33, 0},
		"safebrowsing_v5_doc_ipv6_host_rules.json": {3, 0},
		"google_safebrowsing_go_urls_test.json":    {90, 16},
	}
	for f, w := range want {
		if counts[f] != w {
			t.Errorf("%s: %d passed and %d departures, want %d and %d (testdata/safebrowsing/README.md)", f, counts[f][0], counts[f][1], w[0], w[1])
		}
	}
}

// TestSafeBrowsingDocExpressions runs lookup_expressions_doc.json: the
// document's three examples of lookup expressions, in its order, and
// hash prefixes that a third party published for one URL.
func TestSafeBrowsingDocExpressions(t *testing.T) {
	var rows []struct {
		Input       string    `json:"input"`
		Expressions []string  `json:"expressions"`
		Prefixes    [][]uint8 `json:"hash_prefixes"`
		Unordered   bool      `json:"unordered"`
	}
	loadJSON(t, filepath.Join(sbDir, "lookup_expressions_doc.json"), &rows)
	for _, r := range rows {
		if r.Expressions != nil {
			got, err := LookupExpressions(r.Input)
			if err != nil || !slices.Equal(got, r.Expressions) {
				t.Errorf("LookupExpressions(%q) = %q, %v, want %q", r.Input, got, err, r.Expressions)
			}
		}
		if r.Prefixes != nil {
			got, err := LookupHashes(r.Input, 4)
			var g, w []string
			for _, h := range got {
				g = append(g, fmt.Sprint(h))
			}
			for _, h := range r.Prefixes {
				w = append(w, fmt.Sprint(h))
			}
			if r.Unordered {
				slices.Sort(g)
				slices.Sort(w)
			}
			if err != nil || !slices.Equal(g, w) {
				t.Errorf("LookupHashes(%q, 4) = %v, %v, want %v", r.Input, g, err, w)
			}
		}
	}
}

// TestSafeBrowsingREADMECounts holds testdata/safebrowsing/README.md and
// testdata/README.md to the files: the number of rows of each file and of
// departures.json.
func TestSafeBrowsingREADMECounts(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", sbDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	var deps []sbDeparture
	loadJSON(t, filepath.Join(sbDir, "departures.json"), &deps)
	var docExpr []any
	loadJSON(t, filepath.Join(sbDir, "lookup_expressions_doc.json"), &docExpr)
	n := map[string]int{"departures.json": len(deps), "lookup_expressions_doc.json": len(docExpr)}
	for fk, vs := range sbVectorFiles(t) {
		n[fk[0]] += len(vs)
	}
	for file, count := range n {
		if got := readmeTableCount(t, readme, file); got != strconv.Itoa(count) {
			t.Errorf("testdata/safebrowsing/README.md gives %s %q rows; the file has %d", file, got, count)
		}
	}
	top, err := os.ReadFile(filepath.Join("testdata", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := readmeTableCount(t, string(top), "safebrowsing/departures.json"); got != strconv.Itoa(len(deps)) {
		t.Errorf("testdata/README.md gives safebrowsing/departures.json %q rows; the file has %d", got, len(deps))
	}
}

// safeBrowsingSlow is the document's canonicalization transcribed step
// by step, with none of the SafeBrowsing reader's code: escapes decoded
// pass after pass, strings split and replaced, the IPv4 and IPv6
// addresses read by slowIPv4 and net/netip. Where the document is silent
// it follows what the profile documents (the scheme as DefaultScheme
// reads one, "//" after it, userinfo to the last "@", the port after the
// first ":" or the "]"). The IDNA conversion is the one thing it takes
// from the package: the WHATWG profile's domain to ASCII, which the
// web-platform-tests hold to the standard. ok is false where the
// profile fails.
func safeBrowsingSlow(raw string) (key string, ok bool) {
	s := oracleTrim(raw)
	if len(s) > MaxLength {
		return "", false
	}
	s = strings.NewReplacer("\t", "", "\r", "", "\n", "").Replace(s)
	if k := strings.IndexByte(s, '#'); k >= 0 {
		s = s[:k]
	}
	for {
		t := decodeTriplets(s)
		if t == s {
			break
		}
		s = t
	}
	scheme, rest := "http", s
	if m := slowSchemeRE.FindStringSubmatch(s); m != nil && !slowPortRE.MatchString(m[2]) {
		if !strings.HasPrefix(m[2], "//") {
			return "", false
		}
		scheme, rest = strings.ToLower(m[1]), m[2][2:]
	} else if strings.HasPrefix(s, "//") {
		rest = s[2:]
	}
	auth, after := rest, ""
	if k := strings.IndexAny(rest, "/?"); k >= 0 {
		auth, after = rest[:k], rest[k:]
	}
	if k := strings.LastIndex(auth, "@"); k >= 0 {
		auth = auth[k+1:]
	}
	host, port, hasPort := auth, "", false
	k := strings.Index(auth, "]")
	if strings.HasPrefix(auth, "[") && k >= 0 && (k+1 == len(auth) || auth[k+1] == ':') {
		host = auth[:k+1]
		if tail := auth[k+1:]; tail != "" {
			port, hasPort = tail[1:], true
		}
	} else if k := strings.Index(auth, ":"); k >= 0 {
		host, port, hasPort = auth[:k], auth[k+1:], true
	}
	if hasPort && port != "" {
		v := strings.TrimLeft(port, "0")
		if strings.Trim(port, "0123456789") != "" || len(v) > 5 {
			return "", false
		}
		if n, _ := strconv.Atoi(v); n > 65535 {
			return "", false
		}
	}
	if host == "" || len(host) > MaxHostLength {
		return "", false
	}
	if !isASCII(host) && utf8.ValidString(host) {
		if a, f := whatwgDomainToASCII(host, 0); f == nil {
			host = string(a)
		}
	}
	host = strings.Trim(host, ".")
	for strings.Contains(host, "..") {
		host = strings.ReplaceAll(host, "..", ".")
	}
	if host == "" || len(host) > MaxHostLength { // also as A-labels, which the key is read back by
		return "", false
	}
	host = asciiLower(host)
	if a, ok := slowIPv4(host); ok {
		host = a
	} else if len(host) > 2 && host[0] == '[' && host[len(host)-1] == ']' {
		if a, err := netip.ParseAddr(host[1 : len(host)-1]); err == nil && a.Is6() && a.Zone() == "" {
			b := a.As16()
			nat64 := [12]byte{0, 0x64, 0xff, 0x9b}
			switch {
			case a.Is4In6():
				host = a.Unmap().String()
			case [12]byte(b[:12]) == nat64:
				host = netip.AddrFrom4([4]byte(b[12:])).String()
			default:
				host = "[" + a.String() + "]"
			}
		}
	}
	path, query, hasQuery := after, "", false
	if k := strings.IndexByte(after, '?'); k >= 0 {
		path, query, hasQuery = after[:k], after[k+1:], true
	}
	if path == "" {
		path = "/"
	}
	path = removeDotSegmentsSlow(path)
	for strings.Contains(path, "//") {
		path = strings.ReplaceAll(path, "//", "/")
	}
	key = scheme + "://" + slowEscape(host) + slowEscape(path)
	if hasQuery {
		key += "?" + slowEscape(query)
	}
	return key, true
}

var (
	slowSchemeRE = regexp.MustCompile(`(?s)^([A-Za-z][A-Za-z0-9+.\-]*):(.*)$`)
	slowPortRE   = regexp.MustCompile(`(?s)^[0-9]+(?:[/?#].*)?$`)
)

// slowEscape escapes what step 7 escapes, byte by byte.
func slowEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= 0x20 || c >= 0x7f || c == '#' || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// slowIPv4 reads h as inet_aton and the WHATWG URL Standard read an IPv4
// address: one to four parts, each decimal, octal after "0", or hex after
// "0x" (nothing after it is 0), every part but the last below 256 and the
// last filling the bytes left. It returns the dotted-decimal address.
func slowIPv4(h string) (string, bool) {
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return "", false
	}
	var vals []uint64
	for _, p := range parts {
		base, digits := 10, p
		switch {
		case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
			base, digits = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, digits = 8, p[1:]
		}
		if p == "" {
			return "", false
		}
		v := uint64(0)
		if digits != "" {
			if strings.ContainsAny(digits, "+-_") {
				return "", false
			}
			var err error
			if v, err = strconv.ParseUint(digits, base, 64); err != nil {
				return "", false
			}
		}
		vals = append(vals, v)
	}
	n := len(vals)
	var addr uint64
	for i, v := range vals[:n-1] {
		if v > 255 {
			return "", false
		}
		addr |= v << (8 * (3 - i))
	}
	if vals[n-1] >= 1<<(8*(5-n)) {
		return "", false
	}
	addr |= vals[n-1]
	return fmt.Sprintf("%d.%d.%d.%d", addr>>24, addr>>16&255, addr>>8&255, addr&255), true
}

// sbSamples are the inputs the class tests run: the seed corpus (vectors,
// hostile table, corpus sample), every input of the Safe Browsing files,
// and inputs written for this profile.
func sbSamples(t testing.TB) []string {
	in := seedInputs(t)
	for _, f := range []string{"safebrowsing_v4_doc_canonicalize.json", "safebrowsing_v5_doc_ipv6_host_rules.json"} {
		var vs []sbVector
		loadJSON(t, filepath.Join(sbDir, f), &vs)
		for _, v := range vs {
			in = append(in, v.Input, latin1Bytes(v.Input), "http://"+v.Input+"/")
		}
	}
	var gocl map[string]json.RawMessage
	loadJSON(t, filepath.Join(sbDir, "google_safebrowsing_go_urls_test.json"), &gocl)
	for fn, raw := range gocl {
		var vs []sbVector
		if json.Unmarshal(raw, &vs) == nil {
			for _, v := range vs {
				in = append(in, v.Input, latin1Bytes(v.Input))
				if fn == "parseIPAddress" {
					in = append(in, "http://"+v.Input+"/")
				}
			}
		}
	}
	return append(in, sbExtraInputs...)
}

// sbExtraInputs are inputs for the corners of the reader: decoded
// delimiters, brackets, ports, dots, IDNs that fail, escapes of escapes.
var sbExtraInputs = []string{
	"http%3A%2F%2Fh%2Fa", "http://good.com%2F@evil.com/", "http://a%40b%3A1@c:2/", "http://h:%3880/",
	"http://[::1]:80/", "http://[::1]x/", "http://[zz]:1/", "http://.[x]:80/", "http://[::ffff:10.0.0.1]/",
	"http://.[]0/", "http://..[a]b:1/", "http://[a]b/", "http://[x].:1/", "http://[::1]x:80/",
	"http://[64:ff9b::a00:1]/", "http://[fe80::1%25eth0]/", "http://[::1", "http://a:b:c/", "http://h:99999/",
	"http://h:/", "http://..../", "http://.a..b./c", "http://0x7f.1/", "http://0/", "http://0x/", "http://08/",
	"http://1.2.3.4.5/", "http://256.1/", "http://１２７.０.０.１/", "http://ü..com/", "http://ａ／ｂ.com/",
	"http://ａ：ｂ.com/x", "http://xn--/", "http://é.xn--/", "http://h/%2e%2e/%2E/a", "http://h/a/..%2F..%2Fb",
	"http://h/%252e%252e/x", "http://h/a%3Fb?c%23d", "http://h/%25%", "http://h/%%%", "http://h/%2", "mailto:a@b",
	"file:///etc/passwd", "//h/p", "///h/p", "h:8080/p", "HTTP://H/", "http:\\\\h\\p", "http://h/a\\b",
	"http://u:p@h/", "\thttp://h/\n", "http://h/\x00\x7f\xff", "http://\xff\xfe/", "http://h?q#f", "http://h/p?",
	"http://h/p?#", "http://%2e%2e/", "http://h/" + strings.Repeat("%25", 40) + "41",
}

// TestSafeBrowsingOracle holds the profile to safeBrowsingSlow on the
// samples and the keys they give, and checks the class of every key:
// a fixed point, AppendNormalized and Equal agreeing, one Change.
func TestSafeBrowsingOracle(t *testing.T) {
	n, failed := 0, 0
	for _, in := range sbSamples(t) {
		checkSafeBrowsing(t, in)
		if key, err := Normalize(in, SafeBrowsing); err == nil {
			checkSafeBrowsing(t, key)
		} else {
			failed++
		}
		n++
	}
	t.Logf("%d inputs (%d fail) and their keys", n, failed)
}

// checkSafeBrowsing asserts what every SafeBrowsing key is: the
// oracle's, a fixed point, no longer than the bound, the same through
// AppendNormalized, Equal and Explain; and its lookup expressions those
// checkLookupExpressions checks.
func checkSafeBrowsing(t *testing.T, in string) {
	t.Helper()
	key, err := Normalize(in, SafeBrowsing)
	want, ok := safeBrowsingSlow(in)
	if (err == nil) != ok || key != want {
		t.Fatalf("Normalize(%q, SafeBrowsing) = %q, %v; the document's algorithm (slow) gives %q, ok %v", in, key, err, want, ok)
	}
	exprs, xerr := LookupExpressions(in)
	if err != nil {
		checkError(t, "Normalize", in, key, err)
		var e *Error
		if !errors.As(xerr, &e) || e.Op != "LookupExpressions" || !errors.Is(xerr, errors.Unwrap(err)) || exprs != nil {
			t.Fatalf("LookupExpressions(%q) = %q, %v; Normalize's error is %v", in, exprs, xerr, err)
		}
		return
	}
	if len(key) > maxOutput(len(in)) {
		t.Fatalf("Normalize(%q, SafeBrowsing) = %q: longer than %d", in, key, maxOutput(len(in)))
	}
	if again, err := Normalize(key, SafeBrowsing); again != key || err != nil {
		t.Fatalf("Normalize(%q, SafeBrowsing) = %q; Normalize of that = %q, %v: not idempotent", in, key, again, err)
	}
	if b, err := AppendNormalized([]byte("x"), in, SafeBrowsing); string(b) != "x"+key || err != nil {
		t.Fatalf("AppendNormalized(%q, SafeBrowsing) = %q, %v, want %q", in, b, err, "x"+key)
	}
	if same, err := Equal(in, key, SafeBrowsing); !same || err != nil {
		t.Fatalf("Equal(%q, %q, SafeBrowsing) = %v, %v", in, key, same, err)
	}
	ch, err := Explain(in, SafeBrowsing)
	trimmed := oracleTrim(in)
	switch {
	case err != nil:
		t.Fatalf("Explain(%q, SafeBrowsing): %v", in, err)
	case key == trimmed && len(ch) != 0,
		key != trimmed && (len(ch) != 1 || ch[0] != Change{Step: ParseSafeBrowsing, Before: trimmed, After: key}):
		t.Fatalf("Explain(%q, SafeBrowsing) = %q, want one Change of ParseSafeBrowsing to %q (none if it is the key)", in, ch, key)
	}
	if xerr != nil {
		t.Fatalf("LookupExpressions(%q): %v, but Normalize gives %q", in, xerr, key)
	}
	checkLookupExpressions(t, key, exprs)
	if again, _ := LookupExpressions(key); !slices.Equal(again, exprs) {
		t.Fatalf("LookupExpressions(%q) = %q, LookupExpressions of its key %q = %q", in, exprs, key, again)
	}
}

// checkLookupExpressions checks the expressions of a key against the
// document's bounds and shapes: at most 5 hosts and 6 paths, each
// expression a host and a path; the first host the key's, the others
// suffixes of it at a label, of 2 to 5 labels, none for an IP address;
// the paths the key's path with its query, the path, and directories of
// the path from the root, at most four; each once, in that order.
func checkLookupExpressions(t *testing.T, key string, exprs []string) {
	t.Helper()
	fail := func(why string) {
		t.Helper()
		t.Fatalf("LookupExpressions(%q) = %q: %s", key, exprs, why)
	}
	_, rest, _ := strings.Cut(key, "://")
	k := strings.IndexAny(rest, "/")
	host, pq := rest[:k], rest[k:]
	path, query, hasQuery := strings.Cut(pq, "?")
	hosts, paths := exprHosts(exprs), exprPaths(exprs)
	if len(exprs) > 30 || len(hosts) > 5 || len(paths) > 6 || len(exprs) != len(hosts)*len(paths) {
		fail(fmt.Sprintf("%d expressions, %d hosts, %d paths", len(exprs), len(hosts), len(paths)))
	}
	if len(slices.Compact(slices.Sorted(slices.Values(exprs)))) != len(exprs) {
		fail("an expression twice")
	}
	for i, x := range exprs {
		if x != hosts[i/len(paths)]+paths[i%len(paths)] {
			fail(fmt.Sprintf("expression %d is not host %d with path %d", i, i/len(paths), i%len(paths)))
		}
	}
	if hosts[0] != host {
		fail("the first host is not the key's")
	}
	_, v4 := slowIPv4(host)
	a, err := netip.ParseAddr(strings.Trim(host, "[]"))
	v6 := strings.HasPrefix(host, "[") && err == nil && a.Is6() && a.Zone() == ""
	if (v4 || v6) && len(hosts) != 1 {
		fail("an IP address with suffixes")
	}
	labels := strings.Count(host, ".") + 1
	for i, h := range hosts[1:] {
		n := strings.Count(h, ".") + 1
		if !strings.HasSuffix(host, "."+h) || n < 2 || n > 5 || n != min(5, labels-1)-i {
			fail("host " + h + " is not the next suffix of the last five labels")
		}
	}
	var want []string
	if hasQuery && query != "" {
		want = append(want, pq)
	}
	want = append(want, path)
	for i, dirs := 0, 0; i < len(path) && dirs < 4; i++ {
		if path[i] == '/' {
			if d := path[:i+1]; !slices.Contains(want, d) {
				want = append(want, d)
			}
			dirs++
		}
	}
	if !slices.Equal(paths, want) {
		fail(fmt.Sprintf("paths %q, want %q", paths, want))
	}
}

// TestSafeBrowsingIPv4Spellings writes addresses in every spelling the
// document allows (one to four parts; each part decimal, octal with one
// or more leading zeros, hex with "0x" or "0X" in either case and with
// leading zeros) and holds the profile and slowIPv4 to the address they
// were made from; and spellings that are not addresses to being names.
func TestSafeBrowsingIPv4Spellings(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	addrs := []uint32{0, 1, 0x7f000001, 0xC37F000B, 0xFFFFFFFF, 0x01020304, 0x00FF00FF, 0x80000000, 0x0000FFFF, 0xFF000000}
	for range 30 {
		addrs = append(addrs, r.Uint32())
	}
	spell := func(v uint64) []string {
		return []string{
			strconv.FormatUint(v, 10), "0" + strconv.FormatUint(v, 8), "00" + strconv.FormatUint(v, 8),
			"0x" + strconv.FormatUint(v, 16), "0X" + strings.ToUpper(strconv.FormatUint(v, 16)), "0x00" + strconv.FormatUint(v, 16),
		}
	}
	n := 0
	for _, a := range addrs {
		dotted := fmt.Sprintf("%d.%d.%d.%d", a>>24, a>>16&255, a>>8&255, a&255)
		for parts := 1; parts <= 4; parts++ {
			// The first parts-1 bytes, then the rest as one number.
			var vals []uint64
			for i := 0; i < parts-1; i++ {
				vals = append(vals, uint64(a>>(8*(3-i))&255))
			}
			vals = append(vals, uint64(a)&(1<<(8*(5-parts))-1))
			var gen func(prefix string, i int)
			gen = func(prefix string, i int) {
				if i == len(vals) {
					host := prefix[1:]
					if got, ok := slowIPv4(host); !ok || got != dotted {
						t.Fatalf("slowIPv4(%q) = %q, %v, want %s", host, got, ok, dotted)
					}
					in := "http://" + host + "/x"
					if got, err := Normalize(in, SafeBrowsing); got != "http://"+dotted+"/x" || err != nil {
						t.Fatalf("Normalize(%q, SafeBrowsing) = %q, %v, want http://%s/x", in, got, err, dotted)
					}
					n++
					return
				}
				for _, s := range spell(vals[i]) {
					gen(prefix+"."+s, i+1)
				}
			}
			gen("", 0)
		}
	}
	// Not addresses: five parts, a part too large, a digit outside its
	// base, an empty part's neighbours, a sign.
	for _, h := range []string{"1.2.3.4.5", "256.1.1.1", "1.256.1.1", "1.2.65536", "1.16777216", "4294967296",
		"08", "0x1g", "1.2.3.09", "0xx1", "+1", "1.-2", "1.2.3.0x100", "1e3", "0.0.0.256"} {
		if _, ok := slowIPv4(h); ok {
			t.Errorf("slowIPv4(%q) reads an address", h)
		}
		if got, err := Normalize("http://"+h+"/", SafeBrowsing); got != "http://"+h+"/" || err != nil {
			t.Errorf("Normalize(%q, SafeBrowsing) = %q, %v: want the host kept as a name", "http://"+h+"/", got, err)
		}
	}
	t.Logf("%d spellings of %d addresses", n, len(addrs))
}

// TestParseSafeBrowsingDocExample checks the example in the step's doc
// comment, read from steps.go (stepDocs).
func TestParseSafeBrowsingDocExample(t *testing.T) {
	docs, _, _, _, err := stepDocs()
	if err != nil {
		t.Fatal(err)
	}
	ex := docs[ParseSafeBrowsing].example
	before, after, ok := strings.Cut(ex, " -> ")
	if !ok {
		t.Fatalf("ParseSafeBrowsing has no before -> after example (%q)", ex)
	}
	if got, err := Normalize(before, SafeBrowsing); got != after || err != nil {
		t.Errorf("Normalize(%q, SafeBrowsing) = %q, %v, want %q", before, got, err, after)
	}
}

// TestSafeBrowsingProfile checks the profile as a Profile: its name, its
// one step, the step refused with any other, its KeyVersion.
func TestSafeBrowsingProfile(t *testing.T) {
	if p, ok := LookupProfile("safebrowsing"); !ok || p != SafeBrowsing {
		t.Errorf("LookupProfile(\"safebrowsing\") = %v, %v", p, ok)
	}
	if s := SafeBrowsing.String(); s != "SafeBrowsing(ParseSafeBrowsing)" {
		t.Errorf("SafeBrowsing.String() = %q", s)
	}
	if s, err := ParseStep("parsesafebrowsing"); s != ParseSafeBrowsing || err != nil {
		t.Errorf("ParseStep = %v, %v", s, err)
	}
	if kv := SafeBrowsing.KeyVersion(); kv != "safebrowsing/"+strconv.Itoa(profileRuleVersions["SafeBrowsing"])+" unicode-"+UnicodeVersion {
		t.Errorf("SafeBrowsing.KeyVersion() = %q", kv)
	}
	for s := Step(0); s < numSteps; s++ {
		if s == ParseSafeBrowsing {
			continue
		}
		_, err := NewProfile(ParseSafeBrowsing, s)
		if err == nil || !strings.Contains(err.Error(), "ParseSafeBrowsing cannot be combined") {
			t.Errorf("NewProfile(ParseSafeBrowsing, %v) = %v, want a refusal", s, err)
		}
	}
	if p, err := NewProfile(ParseSafeBrowsing, ParseSafeBrowsing); err != nil || p != SafeBrowsing {
		t.Errorf("NewProfile(ParseSafeBrowsing twice) = %v, %v", p, err)
	}
}

// TestSafeBrowsingErrors checks the errors: the sentinel, the component,
// the offset into the input as given (-1 once the input was rewritten),
// the text, and Arg for NormalizeRef.
func TestSafeBrowsingErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		err  error
		want string
	}{
		{"mailto:a@b", ErrInvalidHost, `canon.Normalize("mailto:xxxxx@b"): host: no "//" and host after the scheme (at "xxxxx@b")`},
		{"http:///x", ErrInvalidHost, `canon.Normalize("http:///x"): host: missing host (at "/x")`},
		{"  http://h:8x/", ErrInvalidPort, `canon.Normalize("  http://h:8x/"): port: invalid character (at "x/")`},
		{"http://h:65536/", ErrInvalidPort, `canon.Normalize("http://h:65536/"): port: port out of range (at "65536/")`},
		{"http://[::1]x/", ErrInvalidPort, `canon.Normalize("http://[::1]x/"): port: invalid character (at ":1]x/")`},
		{"http://.../", ErrInvalidHost, `canon.Normalize("http://.../"): host: host of dots only (at ".../")`},
		{"http://u:secret@h%3A8x/", ErrInvalidPort, `canon.Normalize("http://u:xxxxx@h%3A8x/"): port: invalid character`},
		{"http://h:8\tx/", ErrInvalidPort, `canon.Normalize("http://h:8\tx/"): port: invalid character`},
		{"http://" + strings.Repeat("a", MaxHostLength+1) + "/", ErrTooLong, ""},
		{"http://éé" + strings.Repeat("z", MaxHostLength-5) + "/", ErrTooLong, ""}, // 254 bytes, 261 as A-labels
		{"", ErrInvalidHost, `canon.Normalize(""): host: missing host`},
	} {
		key, err := Normalize(tc.in, SafeBrowsing)
		if !errors.Is(err, tc.err) {
			t.Errorf("Normalize(%q, SafeBrowsing) = %q, %v, want %v", tc.in, key, err, tc.err)
			continue
		}
		checkErrorT(t, tc.in, key, err)
		if tc.want != "" && err.Error() != tc.want {
			t.Errorf("Normalize(%q, SafeBrowsing) error:\n got  %s\n want %s", tc.in, err, tc.want)
		}
	}
	for _, tc := range []struct{ base, ref, arg string }{
		{"/x", "y", "base"},
		{"http://h/", "https://a b/", "ref"},
		{"http://h/", "//.../", "resolved"},
	} {
		_, err := NormalizeRef(tc.base, tc.ref, SafeBrowsing)
		var e *Error
		if !errors.As(err, &e) || e.Arg != tc.arg || e.Op != "NormalizeRef" {
			t.Errorf("NormalizeRef(%q, %q, SafeBrowsing) = %v, want an error about %s", tc.base, tc.ref, err, tc.arg)
		}
	}
}

// TestSafeBrowsingNormalizeRef: a reference is resolved as a browser
// resolves a link, then canonicalized.
func TestSafeBrowsingNormalizeRef(t *testing.T) {
	for _, tc := range []struct{ base, ref, want string }{
		{"http://h/a/b", "../c%2Fd#f", "http://h/c/d"},
		{"http://h/a/b", "//EXAMPLE.com:80/%7Ex", "http://example.com/~x"},
		{"http://h/a/b", "https://a.b.c/%25%32%35", "https://a.b.c/%25"},
		{"http://h/a/b", "?q=%23", "http://h/a/b?q=%23"},
		{"https://h/a/", "c\\d/../e", "https://h/a/c/e"},
		{"http://user:pw@h:81/a", "x", "http://h/x"},
		{"http://h/", "http://3279880203/", "http://195.127.0.11/"},
	} {
		got, err := NormalizeRef(tc.base, tc.ref, SafeBrowsing)
		if got != tc.want || err != nil {
			t.Errorf("NormalizeRef(%q, %q, SafeBrowsing) = %q, %v, want %q", tc.base, tc.ref, got, err, tc.want)
		}
		if again, _ := Normalize(got, SafeBrowsing); again != got {
			t.Errorf("NormalizeRef(%q, %q, SafeBrowsing) = %q: not a key (%q)", tc.base, tc.ref, got, again)
		}
	}
}

// TestLookupHashes checks LookupHashes against SHA-256 of the
// expressions, each prefix length, and the bound on it.
func TestLookupHashes(t *testing.T) {
	const in = "http://a.b.c/1/2.html?param=1"
	exprs, _ := LookupExpressions(in)
	for _, n := range []int{4, 5, 16, 31, 32} {
		hs, err := LookupHashes(in, n)
		if err != nil || len(hs) != len(exprs) {
			t.Fatalf("LookupHashes(%q, %d) = %d hashes, %v, want %d", in, n, len(hs), err, len(exprs))
		}
		for i, h := range hs {
			sum := sha256.Sum256([]byte(exprs[i]))
			if !bytes.Equal(h, sum[:n]) || cap(h) != n {
				t.Errorf("LookupHashes(%q, %d)[%d] = %x (cap %d), want %x", in, n, i, h, cap(h), sum[:n])
			}
		}
	}
	for _, n := range []int{-1, 0, 3, 33, 64} {
		if hs, err := LookupHashes(in, n); hs != nil || err == nil {
			t.Errorf("LookupHashes(%q, %d) = %v, %v, want an error", in, n, hs, err)
		}
	}
	_, err := LookupHashes("http://h:x/", 4)
	var e *Error
	if !errors.As(err, &e) || e.Op != "LookupHashes" || !errors.Is(err, ErrInvalidPort) {
		t.Errorf("LookupHashes of a bad port: %v", err)
	}
}

// TestSafeBrowsingAllocs holds the profile to its allocations: none when
// the input is its key, one when it is not (the key: the decoded text
// and a path with dot segments are on the stack), none for
// AppendNormalized into a buffer with room.
func TestSafeBrowsingAllocs(t *testing.T) {
	buf := make([]byte, 0, 1024)
	for _, tc := range []struct {
		in     string
		allocs float64
	}{
		{"http://www.example.com/a/b?q=1", 0},
		{"http://www.example.com/a/b?q=1#frag", 0},
		{"  http://h/a?c  ", 0},
		{"HTTP://www.Example.com:80/a//b/%2E%2E/%7Ec?q#f", 1},
		{"www.google.com", 1},
		{"http://3279880203/blah", 1},
		{"http://[::ffff:1.2.3.4]/", 1},
		{"http://u:p@h/a/./b", 1},
		{"http://h/" + strings.Repeat("%41", 150), 1},
	} {
		if got := allocsPerRun(100, func() { Normalize(tc.in, SafeBrowsing) }); got != tc.allocs {
			t.Errorf("Normalize(%.40q, SafeBrowsing): %v allocs, want %v", tc.in, got, tc.allocs)
		}
		if got := allocsPerRun(100, func() { AppendNormalized(buf[:0], tc.in, SafeBrowsing) }); got != 0 {
			t.Errorf("AppendNormalized(buf, %.40q, SafeBrowsing): %v allocs, want 0", tc.in, got)
		}
	}
}

// FuzzLookupExpressions holds SafeBrowsing to the document's algorithm
// (safeBrowsingSlow) and its keys and expressions to their class
// (checkSafeBrowsing), on the input and on its key.
func FuzzLookupExpressions(f *testing.F) {
	for _, s := range sbSamples(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 4096 {
			return // the slow oracle decodes pass by pass
		}
		checkSafeBrowsing(t, in)
		if key, err := Normalize(in, SafeBrowsing); err == nil {
			checkSafeBrowsing(t, key)
		}
	})
}

// TestSafeBrowsingCorpus holds the profile to the document's algorithm
// and its class (checkSafeBrowsing) over the project's corpus, the bench
// module's real.txt and messy.txt: every 10th line, every line with
// -long (76,868).
func TestSafeBrowsingCorpus(t *testing.T) {
	stride := 10
	if *longTests {
		stride = 1
	}
	n := 0
	for _, name := range []string{"real.txt", "messy.txt"} {
		b, err := os.ReadFile(filepath.Join("bench", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if i%stride == 0 {
				checkSafeBrowsing(t, l)
				n++
			}
		}
	}
	t.Logf("%d corpus lines", n)
}

// FuzzSafeBrowsingRef holds NormalizeRef under SafeBrowsing to what its
// documentation says it is: the reference resolved as the WHATWG profile
// resolves it, then canonicalized; its keys are fixed points and its
// errors follow the contract, their Arg saying which input failed.
func FuzzSafeBrowsingRef(f *testing.F) {
	var ex []resolutionExample
	loadJSON(f, "rfc-resolution.json", &ex)
	for _, c := range ex {
		f.Add(c.Base, c.Ref)
	}
	for i, s := range sbSamples(f) {
		if i%5 == 0 {
			f.Add("http://a/b/c/d;p?q", s)
		}
	}
	f.Add("foo:/a", "%2F%2Fevil.com")
	f.Add("http://user:pw@h:81/a", "x")
	f.Fuzz(func(t *testing.T, base, ref string) {
		got, err := NormalizeRef(base, ref, SafeBrowsing)
		abs, werr := NormalizeRef(base, ref, WHATWG)
		if werr != nil {
			var e *Error
			if !errors.As(err, &e) || err.Error() != werr.Error() {
				t.Fatalf("NormalizeRef(%q, %q, SafeBrowsing) = %q, %v; WHATWG fails with %v", base, ref, got, err, werr)
			}
			return
		}
		want, kerr := Normalize(abs, SafeBrowsing)
		if got != want || (err == nil) != (kerr == nil) {
			t.Fatalf("NormalizeRef(%q, %q, SafeBrowsing) = %q, %v; WHATWG resolves %q, whose key is %q, %v", base, ref, got, err, abs, want, kerr)
		}
		if err != nil {
			checkError(t, "NormalizeRef", base+" "+ref, got, err)
			var e *Error
			if errors.As(err, &e) && e.Arg != "resolved" {
				t.Fatalf("NormalizeRef(%q, %q, SafeBrowsing): %v has Arg %q, want resolved", base, ref, err, e.Arg)
			}
			return
		}
		if again, err := Normalize(got, SafeBrowsing); again != got || err != nil {
			t.Fatalf("NormalizeRef(%q, %q, SafeBrowsing) = %q; Normalize of that = %q, %v: not idempotent", base, ref, got, again, err)
		}
	})
}

// TestSBHasEscaped holds the eight-bytes-at-a-time test to a byte loop:
// every byte value at every place of strings of 1 to 17 bytes, around
// bytes next to each class's bounds, and random strings.
func TestSBHasEscaped(t *testing.T) {
	ref := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c <= 0x20 || c >= 0x7f || c == '#' || c == '%' {
				return true
			}
		}
		return false
	}
	for n := 1; n <= 17; n++ {
		for _, fill := range []byte{'a', '!', '"', '$', '&', '~', 'Z'} {
			for at := 0; at < n; at++ {
				for c := 0; c < 256; c++ {
					b := bytes.Repeat([]byte{fill}, n)
					b[at] = byte(c)
					if got, want := sbHasEscaped(string(b)), ref(string(b)); got != want {
						t.Fatalf("sbHasEscaped(%q) = %v, want %v", b, got, want)
					}
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(0x20 + r.IntN(0x61))
		}
		if got, want := sbHasEscaped(string(b)), ref(string(b)); got != want {
			t.Fatalf("sbHasEscaped(%q) = %v, want %v", b, got, want)
		}
	}
}

// TestSBPathPlain holds the eight-bytes-at-a-time test to a byte loop:
// "/" then every byte value, and every byte value then "/" or ".", at
// every place of strings of 2 to 18 bytes, and random strings of "/",
// ".", "a" and bytes whose low 7 bits are those.
func TestSBPathPlain(t *testing.T) {
	ref := func(p string) bool { return !strings.Contains(p, "//") && !strings.Contains(p, "/.") }
	check := func(b []byte) {
		if got, want := sbPathPlain(string(b)), ref(string(b)); got != want {
			t.Fatalf("sbPathPlain(%q) = %v, want %v", b, got, want)
		}
	}
	for n := 2; n <= 18; n++ {
		for at := 0; at+1 < n; at++ {
			for c := 0; c < 256; c++ {
				for _, pair := range [][2]byte{{'/', byte(c)}, {byte(c), '/'}, {byte(c), '.'}} {
					b := bytes.Repeat([]byte{'a'}, n)
					b[at], b[at+1] = pair[0], pair[1]
					check(b)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte{'/', '.', 'a', 0xAF, 0xAE, 0x2D}
	for range 200000 {
		b := make([]byte, r.IntN(30))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		check(b)
	}
}
