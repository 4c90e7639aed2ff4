package canon

import (
	"math/big"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Slow literal transcriptions of the surt library's rules that ReadAsSURT
// follows (surt 0.3.1: URLRegexTransformer's session ids,
// GoogleURLCanonicalizer's attemptIPFormats), with Go's regexp, whose
// leftmost-first submatches are Python re's for these expressions, as
// references for the linear code of params.go and ip.go.

// surtQuerySessionSlow are URLRegexTransformer's _RES_QUERY_SESSIONID.
var surtQuerySessionSlow = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
	regexp.MustCompile(`(?i)^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
	regexp.MustCompile(`(?i)^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$`),
	regexp.MustCompile(`(?i)^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$`),
	regexp.MustCompile(`(?i)^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$`),
}

// surtStripQuerySlow is stripQuerySessionID: each expression once, in
// order, the query becoming group 1 and, if not empty, group 2.
func surtStripQuerySlow(q string) string {
	for _, re := range surtQuerySessionSlow {
		m := re.FindStringSubmatchIndex(q)
		if m == nil {
			continue
		}
		g1 := q[m[2]:m[3]]
		if m[4] >= 0 && m[5] > m[4] {
			q = g1 + q[m[4]:m[5]]
		} else {
			q = g1
		}
	}
	return q
}

// surtPathSessionSlow are _RES_PATH_SESSIONID.
var surtPathSessionSlow = []*regexp.Regexp{
	regexp.MustCompile(`(?i)^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^\?]+\.aspx.*)$`),
	regexp.MustCompile(`(?i)^(.*/)(\([0-9a-z]{24}\)/)([^\?]+\.aspx.*)$`),
}

// surtStripPathSlow is stripPathSessionID: each expression once, the path
// becoming groups 1 and 3.
func surtStripPathSlow(path string) string {
	for _, re := range surtPathSessionSlow {
		if m := re.FindStringSubmatchIndex(path); m != nil {
			path = path[m[2]:m[3]] + path[m[6]:m[7]]
		}
	}
	return path
}

// surtPathHasSessionSlow reports whether either path expression matches.
func surtPathHasSessionSlow(path string) bool {
	return surtPathSessionSlow[0].MatchString(path) || surtPathSessionSlow[1].MatchString(path)
}

// TestSURTQuerySessionIDs holds the surt library's query session ids as
// params.go finds them (surtStripQuerySessionIDs, surtQueryHasSessionID)
// to the library's expressions (surtStripQuerySlow) on 30,000 queries of
// one to five parameters, each a session id's name (after another name's
// letters, "mysid=", or not) and an id of the lengths around the
// expressions' (31, 32, 33), or another parameter, with an "&" between
// them or not; and surtParamHoldsSessionID to what it promises: a query
// none of whose parameters holds one is one no expression matches, in
// any order of its parameters.
func TestSURTQuerySessionIDs(t *testing.T) {
	id32 := "0123456789abcdefABCDEF0123456789"
	names := []string{"jsessionid", "phpsessid", "sid", "SID", "aspsessionidABCDEFGH", "ASPSESSIONIDabcdefg", "cfid", "CFID", "cftoken", "a", ""}
	prefixes := []string{"", "", "my", "x="}
	values := []string{id32, id32[:31], id32 + "x", "abcdefghijklmnopqrstuvwx", "ABCDEFGHIJKLMNOPQRSTUVWX", "1", "", "%20" + id32}
	seps := []string{"&", "&", "&", ""}
	r := rand.New(rand.NewPCG(44, 1))
	changed := 0
	const n = 30000
	for range n {
		var b strings.Builder
		for k := 1 + r.IntN(5); k > 0; k-- {
			b.WriteString(prefixes[r.IntN(len(prefixes))])
			b.WriteString(names[r.IntN(len(names))])
			if r.IntN(8) > 0 {
				b.WriteByte('=')
			}
			b.WriteString(values[r.IntN(len(values))])
			if k > 1 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
		}
		q := b.String()
		want := surtStripQuerySlow(q)
		buf := []byte(q)
		got := string(buf[:surtStripQuerySessionIDs(buf)])
		if got != want {
			t.Fatalf("surtStripQuerySessionIDs(%q) = %q; the surt library's expressions give %q", q, got, want)
		}
		if has := surtQueryHasSessionID([]byte(q)); has != (want != q) {
			t.Fatalf("surtQueryHasSessionID(%q) = %v; the expressions change it to %q", q, has, want)
		}
		if want != q {
			changed++
		}
		params := strings.Split(q, "&")
		if slices.ContainsFunc(params, func(p string) bool { return surtParamHoldsSessionID([]byte(p)) }) {
			continue
		}
		for _, order := range [][]string{params, slices.Sorted(slices.Values(params)), reversed(params)} {
			if o := strings.Join(order, "&"); surtStripQuerySlow(o) != o {
				t.Fatalf("no parameter of %q holds a session id (surtParamHoldsSessionID), but the expressions change %q to %q", q, o, surtStripQuerySlow(o))
			}
		}
	}
	if changed < n/10 || changed > n*9/10 {
		t.Errorf("%d of the %d queries hold a session id the expressions remove: the queries do not reach both sides of the rules", changed, n)
	}
	t.Logf("%d queries, %d changed", n, changed)
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

// TestSURTPathSessionIDs holds surtCutPathSessionIDs to the library's two
// path expressions (surtStripPathSlow) on 30,000 paths of one to six
// segments, ticket segments (of the right length or one short), pages
// (".aspx" in any case) and others, some with a "?" (a decoded "%3F"):
// where the library's result is a fixed point (no expression matches
// it), the cut is that result; where it is not (a second ticket
// segment), the cut is one, shorter than the library's.
func TestSURTPathSessionIDs(t *testing.T) {
	id := "0123456789abcdefghijklmn"
	segments := []string{"(S(" + id + "))", "(" + id + ")", "(A(" + id + ")F(" + id + "))", "(S(" + id[:23] + "))",
		"(" + strings.ToUpper(id) + ")", "x", "a.aspx", "A.ASPX", ".aspx", "x?y.aspx", "b", "(c)", ""}
	r := rand.New(rand.NewPCG(44, 2))
	fixed, cut := 0, 0
	const n = 30000
	for range n {
		var b strings.Builder
		for k := 1 + r.IntN(6); k > 0; k-- {
			b.WriteByte('/')
			b.WriteString(segments[r.IntN(len(segments))])
		}
		path := b.String()
		want := surtStripPathSlow(path)
		buf := []byte(path)
		got := string(buf[:surtCutPathSessionIDs(buf)])
		if !surtPathHasSessionSlow(want) {
			if got != want {
				t.Fatalf("surtCutPathSessionIDs(%q) = %q; the surt library's expressions give %q", path, got, want)
			}
			if want != path {
				cut++
			}
			continue
		}
		fixed++
		if surtPathHasSessionSlow(got) {
			t.Fatalf("surtCutPathSessionIDs(%q) = %q, which the library's expressions would cut again (the library gives %q)", path, got, want)
		}
		if len(got) >= len(want) {
			t.Fatalf("surtCutPathSessionIDs(%q) = %q: the library gives %q, which holds a session id still, and the cut is no shorter", path, got, want)
		}
	}
	if cut < n/10 || fixed < n/100 {
		t.Errorf("%d paths cut as the library cuts them, %d where its cut is no fixed point: the paths do not reach the rules", cut, fixed)
	}
	t.Logf("%d paths: %d cut as the library cuts them, %d where the library's cut is no fixed point", n, cut, fixed)
}

var (
	surtDecimalIPSlow = regexp.MustCompile(`^([1-9][0-9]*)(\.[0-9]+)?(\.[0-9]+)?(\.[0-9]+)?$`)
	surtOctalIPSlow   = regexp.MustCompile(`^(0[0-7]*)(\.[0-7]+)?(\.[0-7]+)?(\.[0-7]+)?$`)
)

// surtIPSlow is GoogleURLCanonicalizer's handling of a host's dots and
// attemptIPFormats, transcribed: the host with ".." replaced by "." and
// the dots at its ends stripped; digits alone are a decimal number masked
// to 32 bits; a match of DECIMAL_IP or OCTAL_IP is what inet_aton reads
// (inetAtonSlow), the name itself where it fails.
func surtIPSlow(host string) (string, bool) {
	h := strings.Trim(strings.ReplaceAll(host, "..", "."), ".")
	if h != "" && strings.Trim(h, "0123456789") == "" {
		v, _ := new(big.Int).SetString(h, 10)
		v.And(v, big.NewInt(0xffffffff))
		return dottedSlow(uint32(v.Uint64())), true
	}
	if surtDecimalIPSlow.MatchString(h) || surtOctalIPSlow.MatchString(h) {
		if v, ok := inetAtonSlow(h); ok {
			return dottedSlow(v), true
		}
	}
	return "", false
}

// inetAtonSlow is glibc's inet_aton: one to four parts, each as strtoul
// reads it with base 0 (a leading "0" octal), every part but the last
// below 256, the last filling the bytes left.
func inetAtonSlow(h string) (uint32, bool) {
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return 0, false
	}
	var v uint64
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 0, 64)
		if err != nil || n > 0xffffffff {
			return 0, false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return 0, false
			}
			v |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-len(parts))) {
			return 0, false
		}
		v |= n
	}
	return uint32(v), true
}

func dottedSlow(v uint32) string {
	return strconv.Itoa(int(v>>24)) + "." + strconv.Itoa(int(v>>16&255)) + "." + strconv.Itoa(int(v>>8&255)) + "." + strconv.Itoa(int(v&255))
}

// TestSURTIPv4 holds appendSURTIPv4 to the library's reading of a host as
// an IPv4 address (surtIPSlow) on every host of one to four labels from
// numbers in every spelling (octal, hex, too large, 8 and 9 after a
// "0"), with leading and trailing dots, but those where the library's
// single replacement of ".." leaves an empty label (ReadAsSURT removes
// every one: docs/deviations.md); and Archive's SURT of each such host
// that the URL Standard accepts to the library's: the address reversed,
// or the name's labels.
func TestSURTIPv4(t *testing.T) {
	labels := []string{"0", "1", "00", "07", "08", "010", "255", "256", "0x1", "0X1F", "4294967295", "4294967296",
		"99999999999999999999", "1113982867", "a", "9a", ""}
	var hosts []string
	var grow func(h string, n int)
	grow = func(h string, n int) {
		if n > 0 {
			hosts = append(hosts, h, h+".", h+"..", "."+h)
		}
		if n == 4 {
			return
		}
		for _, l := range labels {
			if n == 0 {
				grow(l, 1)
			} else {
				grow(h+"."+l, n+1)
			}
		}
	}
	grow("", 0)
	checked, keyed := 0, 0
	for _, h := range hosts {
		if strings.Contains(strings.Trim(strings.ReplaceAll(h, "..", "."), "."), "..") {
			continue // "1...2": an empty label the library keeps
		}
		checked++
		want, wantOK := surtIPSlow(h)
		got, ok := appendSURTIPv4(nil, h)
		if ok != wantOK || string(got) != want {
			t.Fatalf("appendSURTIPv4(%q) = %q, %v; the surt library reads %q, %v", h, got, ok, want, wantOK)
		}
		key, err := Normalize("http://"+h+"/", Archive)
		if err != nil {
			continue // the URL Standard rejects it ("1.2.3.256"), and so does Archive
		}
		keyed++
		surt, err := SURT(key)
		name := strings.Trim(strings.ReplaceAll(strings.ToLower(h), "..", "."), ".")
		if name == "" {
			continue // a host of dots alone: none, to both (TestSURTLibraryRules)
		}
		wantSURT := reverseLabels(name) + ")/"
		if wantOK {
			wantSURT = reverseLabels(want) + ")/"
		}
		if strings.HasSuffix(h, "..") && !wantOK && strings.HasSuffix(key, "../") {
			// "a.1..": a domain to the standard, which would reject "a.1"
			// (docs/deviations.md); the SURT has the empty labels.
			wantSURT = ",," + wantSURT
		}
		if surt != wantSURT || err != nil {
			t.Errorf("SURT(Normalize(%q, Archive)) = %q (key %q), %v; the surt library writes %q", "http://"+h+"/", surt, key, err, wantSURT)
		}
	}
	if keyed < 1000 {
		t.Errorf("only %d of the %d hosts keyed", keyed, checked)
	}
	t.Logf("%d hosts read, %d keyed by Archive", checked, keyed)
}

func reverseLabels(h string) string {
	l := strings.Split(h, ".")
	slices.Reverse(l)
	return strings.Join(l, ",")
}
