package canon

import (
	"strings"
	"testing"
)

// The steps that combine with ParseWHATWG to spell a URL one way
// (UppercaseEscapes, DecodeUnreserved, TrimHostDots), held to their
// promises over generated classes of inputs, not only vectors.

// whatwgEscapeProfile is ParseWHATWG with both escape steps.
var whatwgEscapeProfile = MustProfile(ParseWHATWG, UppercaseEscapes, DecodeUnreserved)

// whatwgPercentDecode is the WHATWG URL Standard's percent-decode, written
// from its text: a "%" followed by two ASCII hex digits is the byte they
// spell, every other byte is itself. What a server reads of a path or a
// query is this decoding, so two spellings with one decoding are one.
func whatwgPercentDecode(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isASCIIHex(s[i+1]) && isASCIIHex(s[i+2]) {
			b = append(b, unhexTest(s[i+1])<<4|unhexTest(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// TestWHATWGEscapeStepsEveryOctet writes every octet as an escape, in
// each hex case, in each component, and requires what RFC 3986 §6.2.2.1-2
// say: an unreserved octet decoded, any other in uppercase hex.
func TestWHATWGEscapeStepsEveryOctet(t *testing.T) {
	const hex = "0123456789abcdef"
	for v := 0; v < 256; v++ {
		for _, lower := range []bool{false, true} {
			e := "%" + strings.ToUpper(hex[v>>4:v>>4+1]+hex[v&15:v&15+1])
			if lower {
				e = strings.ToLower(e)
			}
			want := strings.ToUpper(e)
			if isUnreservedTest(byte(v)) {
				want = string(rune(v))
			}
			for _, c := range []struct{ in, want string }{
				{"http://u" + e + ":p" + e + "@h/x" + e + "y?q" + e + "#f" + e,
					"http://u" + want + ":p" + want + "@h/x" + want + "y?q" + want + "#f" + want},
				{"foo://o" + e + "/x" + e, "foo://o" + want + "/x" + want},
				{"mailto:a" + e + "b", "mailto:a" + want + "b"},
			} {
				got, err := Normalize(c.in, whatwgEscapeProfile)
				if err != nil || got != c.want {
					t.Errorf("Normalize(%q, %v) = %q, %v, want %q", c.in, whatwgEscapeProfile, got, err, c.want)
				}
			}
		}
	}
}

// TestWHATWGEscapeStepsNeighbours builds every path of up to five pieces
// from escapes, lone "%" and hex digits, in a special URL, a
// non-special one and a file URL, and holds each key to three oracles:
// it is a fixed point; its path percent-decodes, as the standard reads
// it, to what the WHATWG profile's path decodes to (nothing merged that
// a server reads apart, nothing split); and no valid escape in it is in
// lowercase hex or spells an unreserved octet unless a "%" before it
// would otherwise make it another escape.
func TestWHATWGEscapeStepsNeighbours(t *testing.T) {
	pieces := []string{"%", "4", "1", "a", "%41", "%4a", "%34", "%31", "%2f", "%2e", "%7e", "%25", ":", "/"}
	var paths []string
	var build func(prefix string, n int)
	build = func(prefix string, n int) {
		paths = append(paths, prefix)
		if n == 0 {
			return
		}
		for _, p := range pieces {
			build(prefix+p, n-1)
		}
	}
	build("", 4)
	n := 0
	for _, pre := range []string{"http://h/", "foo://h/", "file:///", "foo:"} {
		for _, path := range paths {
			in := pre + path
			key, err := Normalize(in, whatwgEscapeProfile)
			ref, rerr := Normalize(in, WHATWG)
			if (err == nil) != (rerr == nil) {
				t.Fatalf("Normalize(%q): %v with the escape steps, %v without", in, err, rerr)
			}
			if err != nil {
				continue
			}
			n++
			if again, err := Normalize(key, whatwgEscapeProfile); again != key || err != nil {
				t.Fatalf("Normalize(%q) = %q, then %q, %v: not idempotent", in, key, again, err)
			}
			kp, rp := pathOf(key), pathOf(ref)
			if whatwgPercentDecode(kp) != whatwgPercentDecode(rp) {
				t.Fatalf("Normalize(%q) = %q, whose path decodes to %q; WHATWG's %q decodes to %q",
					in, key, whatwgPercentDecode(kp), ref, whatwgPercentDecode(rp))
			}
			for k := 0; k+2 < len(kp); k++ {
				if kp[k] != '%' || !isASCIIHex(kp[k+1]) || !isASCIIHex(kp[k+2]) {
					continue
				}
				if strings.ToUpper(kp[k:k+3]) != kp[k:k+3] {
					t.Fatalf("Normalize(%q) = %q: escape %q in lowercase", in, key, kp[k:k+3])
				}
				v := unhexTest(kp[k+1])<<4 | unhexTest(kp[k+2])
				guarded := k >= 1 && kp[k-1] == '%' || k >= 2 && kp[k-2] == '%' && isASCIIHex(kp[k-1]) ||
					strings.HasPrefix(key, "file:") && k == 1 && len(kp) >= 5 && (kp[4] == ':' || kp[4] == '|') && (len(kp) == 5 || kp[5] == '/')
				if isUnreservedTest(v) && !guarded {
					t.Fatalf("Normalize(%q) = %q: escape %q of an unreserved octet kept", in, key, kp[k:k+3])
				}
				k += 2
			}
		}
	}
	if n < 10000 {
		t.Fatalf("only %d inputs checked", n)
	}
}

// pathOf returns what follows the scheme and authority of a key without
// a query or fragment: its path.
func pathOf(key string) string {
	i := strings.IndexByte(key, ':') + 1
	if strings.HasPrefix(key[i:], "//") {
		j := strings.IndexByte(key[i+2:], '/')
		if j < 0 {
			return ""
		}
		i += 2 + j
	}
	return key[i:]
}

// TestWHATWGTrimHostDots builds hosts of up to four labels, empty ones
// among them, and holds TrimHostDots after ParseWHATWG to its promise:
// the host is the WHATWG host without its empty labels, or, where that
// would be no host or an IPv4 address, "." or the labels and ".."; an IP
// address is as WHATWG writes it; the key is a fixed point and reads back
// under WHATWG as itself.
func TestWHATWGTrimHostDots(t *testing.T) {
	p := MustProfile(ParseWHATWG, TrimHostDots)
	labels := []string{"", "a", "B", "1", "0x1", "é", "xn--9ca", "www"}
	var hosts []string
	var build func(prefix string, n int)
	build = func(prefix string, n int) {
		if n < 4 {
			hosts = append(hosts, prefix)
		}
		if n == 0 {
			return
		}
		for _, l := range labels {
			if n == 4 {
				build(l, n-1)
			} else {
				build(prefix+"."+l, n-1)
			}
		}
	}
	build("", 4)
	n := 0
	for _, scheme := range []string{"http", "file"} {
		for _, h := range hosts {
			in := scheme + "://" + h + "/x"
			key, err := Normalize(in, p)
			ref, rerr := Normalize(in, WHATWG)
			if (err == nil) != (rerr == nil) {
				t.Fatalf("Normalize(%q): %q, %v with TrimHostDots, %q, %v without", in, key, err, ref, rerr)
			}
			if err != nil {
				continue
			}
			n++
			if again, err := Normalize(key, p); again != key || err != nil {
				t.Fatalf("Normalize(%q) = %q, then %q, %v: not idempotent", in, key, again, err)
			}
			if w, err := Normalize(key, WHATWG); w != key || err != nil {
				t.Fatalf("Normalize(%q) = %q, which WHATWG reads as %q, %v", in, key, w, err)
			}
			kh, rh := hostOf(key), hostOf(ref)
			want := rh
			if !strings.HasPrefix(rh, "[") && !isDottedDecimalTest(rh) {
				var keep []string
				for _, l := range strings.Split(rh, ".") {
					if l != "" {
						keep = append(keep, l)
					}
				}
				want = strings.Join(keep, ".")
				switch {
				case want == "" && rh != "":
					want = "." // dots only: no empty host, even in a file URL
				case want == "localhost" && scheme == "file":
					want = ""
				case want != "" && oracleEndsInNumber(want):
					want += ".."
				}
			}
			if kh != want {
				t.Fatalf("Normalize(%q) = %q: host %q, want %q (WHATWG's: %q)", in, key, kh, want, rh)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d hosts checked", n)
	}
}

// hostOf returns the host of a key with an authority.
func hostOf(key string) string {
	rest := key[strings.Index(key, "://")+3:]
	return rest[:strings.IndexByte(rest, '/')]
}

func isDottedDecimalTest(h string) bool {
	parts := strings.Split(h, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// oracleEndsInNumber is the WHATWG URL Standard's "ends in a number
// checker", from its text.
func oracleEndsInNumber(h string) bool {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	l := strings.ToLower(last)
	if strings.HasPrefix(l, "0x") && strings.Trim(l[2:], "0123456789abcdef") == "" {
		return true
	}
	return false
}
