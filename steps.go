package canon

import (
	"errors"
	"strconv"
	"strings"
)

// Step is one transformation of a canonicalization profile. A step's
// value is its place in the order a profile runs its steps: a profile is
// a set of steps, and the order is this one, whatever order they were
// given in. The values are fixed (a KeyVersion digests them): a new step
// takes a new value.
//
// Each step's comment gives an example and the specification it comes
// from ("go doc canon.RemoveFragment"; "go doc -all canon.Step" prints
// them all, by name). Steps that look at the scheme compare it
// case-insensitively.
type Step uint8

// ParseWHATWG reads the input as the WHATWG URL Standard's basic URL
// parser does, with no base (NormalizeRef: against the base, parsed
// the same way), and writes it with the standard's URL serializer:
// tabs and newlines dropped, "\" as "/" in special URLs, hosts
// through the host parser (IDNA, IPv4 numbers such as "0x7f.1",
// compressed IPv6), default ports dropped, "." and ".." segments
// (also as "%2e") removed, and each component in its
// percent-encode set; nothing is decoded. It does the work of the
// case, host, port, encoding, dot and root-path steps, and NewProfile
// refuses it with those; it combines with DefaultScheme ("http://"
// for an input without one), RemoveFragment (the href without its
// fragment), UppercaseEscapes and DecodeUnreserved (the escapes it
// keeps, spelled one way), TrimHostDots and the key steps.
//
//	HTTP://EXAMPLE.com:80/a/%2e/b\c -> http://example.com/a/b/c
const ParseWHATWG Step = 0

// DefaultScheme reads an input without a scheme as "http://" + input,
// or "http:" + input when it starts with "//" (W3C POWDER).
// An input has a scheme when it starts with scheme ":" and what
// follows the ":" is not a port: "localhost:8080/x" has none.
//
//	www.example.com -> http://www.example.com/
const DefaultScheme Step = 1

// DecodeAll converts every percent-encoded triplet of the input to
// its octet, once, before parsing (W3C POWDER). "%" not followed
// by two hex digits stays a literal "%". The result is written with
// "%", space, "\", control characters and non-ASCII octets encoded,
// which is what keeps it idempotent. This step merges resources that
// RFC 3986 keeps apart ("%2F" and "/"): it makes keys for matching,
// not for fetching.
//
//	http%3A%2F%2Fwww.example.com%2Ffoo -> http://www.example.com/foo
const DecodeAll Step = 2

// PlusToSpace replaces every "+" after the scheme with a space,
// after DecodeAll if both are on (W3C POWDER).
//
//	http://h/?q=a+b -> http://h/?q=a%20b
const PlusToSpace Step = 3

// ResolveRFC1808 makes NormalizeRef resolve with RFC 1808 §4 instead
// of RFC 3986 §5.2 (PDF Reference, "URL Strings", step 1).
//
//	base http://a/b/c/d;p?q, ref ../../../g -> http://a/../g
const ResolveRFC1808 Step = 4

// RemoveFragment strips the leftmost "#" and everything after it
// (PDF Web Capture step 2; RFC 3986 §6.1 for network actions).
//
//	http://h/p#sec -> http://h/p
const RemoveFragment Step = 5

// LowercaseScheme lowercases the scheme (RFC 3986 §6.2.2.1; PDF step 3).
//
//	HTTP://h/ -> http://h/
const LowercaseScheme Step = 6

// LowercaseHost lowercases the ASCII letters of the host, IP literals
// included, but not the hex digits of percent-encodings nor an
// RFC 6874 zone identifier (RFC 3986 §6.2.2.1; PDF step 4).
//
//	http://Example.COM/ -> http://example.com/
const LowercaseHost Step = 7

// HostToASCII converts each non-ASCII label of the host to an A-label
// with UTS #46 nontransitional processing and the STD3 rules
// (golang.org/x/net/idna); ASCII labels, "xn--" ones included, are
// kept as written (RFC 3987 §3.1 step 2). A non-ASCII label whose
// mapping starts with "xn--" is an error (RFC 3492 §6.2, UTS #46 §4),
// and U+1E9E maps to U+00DF as in UTS #46 15.1.
//
//	http://Résumé.example/ -> http://xn--rsum-bpad.example/
const HostToASCII Step = 8

// HostToUnicode converts each label of the host to its Unicode form:
// "xn--" labels are decoded and must round-trip, non-ASCII labels are
// mapped and validated by UTS #46 (RFC 3987 §5.3.3).
//
//	http://xn--rsum-bpad.example/ -> http://résumé.example/
const HostToUnicode Step = 9

// TrimHostDots removes trailing "." characters from the host, and the
// full stops UTS #46 maps to "." (U+3002, U+FF0E, U+FF61) (POWDER).
// After ParseWHATWG it removes every empty label of a domain, leading,
// repeated and trailing (".a..b." -> "a.b"), and never touches an IP
// address; a domain of dots only is written ".", and one whose last
// label would then be a number keeps ".." after it ("a.1.."), which
// the standard would otherwise read as an IPv4 address.
//
//	http://www.example.com./ -> http://www.example.com/
const TrimHostDots Step = 10

// StripFileLocalhost removes the host "localhost" from file URLs
// (PDF Web Capture step 5).
//
//	file://localhost/etc/hosts -> file:///etc/hosts
const StripFileLocalhost Step = 11

// RemoveHTTPFTPPort removes port 80 from http and port 21 from ftp
// URLs, the only defaults the PDF names (PDF Web Capture step 6).
//
//	http://h:80/ -> http://h/
const RemoveHTTPFTPPort Step = 12

// RemoveDefaultPort removes an empty port and the default port of
// http (80), https (443), ws (80), wss (443) and ftp (21), and the
// leading zeros of any other port (RFC 3986 §6.2.3, §3.2.3).
//
//	https://h:443/ -> https://h/,  http://h:/ -> http://h/
const RemoveDefaultPort Step = 13

// EncodeToURI percent-encodes, as UTF-8 with uppercase hex, every
// character outside the URI grammar of its component: non-ASCII,
// space, " < > \ ^ ` { | } and DEL, "[" and "]" outside an IP
// literal, and a "#" inside the fragment (RFC 3987 §3.1). A "%" that
// is not followed by two hex digits is an error (ErrInvalidEscape).
//
//	http://h/a b/é -> http://h/a%20b/%C3%A9
const EncodeToURI Step = 14

// EncodeToIRI is EncodeToURI for IRIs: ucschar stays unencoded (and
// iprivate in the query), but invalid UTF-8, other non-ASCII, the bidi
// formatting characters (RFC 3987 §4.1's seven, and U+061C and
// U+2066-U+2069, added to Unicode since) and the two code points whose
// NFC is ASCII punctuation (U+037E ";", U+1FEF "`") are encoded
// (RFC 3987 §2.2). DecodeIUnreserved leaves the same ones encoded.
//
//	http://h/é\u200e -> http://h/é%E2%80%8E
const EncodeToIRI Step = 15

// UppercaseEscapes writes the hex digits of percent-encodings in
// uppercase (RFC 3986 §6.2.2.1). After ParseWHATWG it rewrites the
// escapes the standard keeps as written; a "%" that starts no escape
// stays as it is.
//
//	http://h/a%2fb -> http://h/a%2Fb
const UppercaseEscapes Step = 16

// DecodeUnreserved decodes percent-encoded unreserved characters
// (ALPHA DIGIT - . _ ~) and nothing else (RFC 3986 §6.2.2.2). After
// ParseWHATWG, a hex digit is not decoded where it would make a
// triplet with a "%" that starts none before it ("%%34" + "1"), and
// in a file URL "%43:" stays (decoded, it would be a drive letter).
//
//	http://h/%7Euser -> http://h/~user
const DecodeUnreserved Step = 17

// DecodeIUnreserved decodes percent-encoded UTF-8 sequences of
// ucschar (and of iprivate in the query) that EncodeToIRI would leave
// unencoded (RFC 3987 §5.3.2.3).
//
//	http://h/r%C3%A9sum%C3%A9 -> http://h/résumé
const DecodeIUnreserved Step = 18

// NFC normalizes the text of userinfo, path, query and fragment to
// Unicode Normalization Form C (RFC 3987 §5.3.2.2), run by run: every
// ASCII byte that is not a letter or digit, and every percent-encoded
// triplet, is a barrier no character composes across, so that NFC
// never creates, removes or moves a delimiter ("=" + U+0338 stays two
// characters; it is not "≠"); for the same reason U+037E and U+1FEF,
// whose NFC is ";" and "`", stay as written (EncodeToIRI encodes
// them). A run of more than 30 combining marks is an error: the
// normalizer would insert U+034F into it (UAX #15's Stream-Safe Text
// Format) and give it the key of the text that holds one.
//
//	http://h/e\u0301 -> http://h/é
const NFC Step = 19

// RemoveDots removes dot segments from the path (RFC 3986 §5.2.4,
// §6.2.2.3). A path that would then start with "//" without an
// authority is written "/.//", as the WHATWG URL Standard does: read
// again, "//" would start an authority.
//
//	http://h/a/./b/../c -> http://h/a/c
const RemoveDots Step = 20

// RemoveDots1808 removes dot segments with the rules of RFC 1808 §4
// step 6; a ".." with no segment to cancel stays (PDF step 7).
//
//	http://a/b/../../g -> http://a/../g
const RemoveDots1808 Step = 21

// AddRootPath writes an empty path as "/" when there is an authority,
// whatever the scheme (POWDER).
//
//	foo://h -> foo://h/
const AddRootPath Step = 22

// AddHTTPRootPath writes an empty path as "/" when there is an
// authority and the scheme is http, https, ws, wss or ftp
// (RFC 3986 §6.2.3).
//
//	http://h?q -> http://h/?q
const AddHTTPRootPath Step = 23

// The key steps. They run after the steps above, on the key those
// made, and they merge URLs that the standards keep apart, each
// merging what its comment says and no more: they make keys for
// crawl frontiers, deduplication and archive lookups, not URLs to
// fetch. Parameters are the "&"-separated pairs of the query, each
// read as name "=" value; nothing is decoded unless a step says so.
// No key step but LowercasePath edits a URL with an opaque path (no
// authority, and a path that does not start with "/":
// "mailto:a@b?subject=x", "data:text/plain,x?b=1"): its path is no
// hierarchy, and what follows its "?" is no list of parameters (a
// data: URL's document runs on past it). LowercasePath lowercases
// any path, an opaque one too (see its comment). A key that a step cuts down to a final space has
// it written "%20", as the profile writes one.

// RemoveUserinfo removes the userinfo and its "@" (the WHATWG URL
// Standard's "url-with-credentials" is an ordinary URL otherwise;
// urlcanon's semantic profile, the Internet Archive's canonicalizer).
// Merges URLs that differ only in credentials.
//
//	http://user:pw@h/ -> http://h/
const RemoveUserinfo Step = 24

// HTTPSAsHTTP writes the scheme https as http, and then drops a port
// whose value is 80 ("0080" too), which has become the default
// (urlcanon's aggressive profile).
// Merges a page served over TLS with the same path over plain HTTP.
//
//	https://h/a -> http://h/a
const HTTPSAsHTTP Step = 25

// StripWWW removes a first host label "www" (again, while there is
// one: www.www.example.com) when what remains is still more than a
// public suffix by the Public Suffix List
// (golang.org/x/net/publicsuffix), looked up in any letter case,
// without a final dot and by its A-labels: www.example.co.uk,
// WWW.Example.COM, www.example.com. and www.résumé.example lose it,
// www.co.uk and www.github.io keep it. Merges www.example.com with
// example.com, which nearly every site serves alike.
//
//	http://www.example.com/ -> http://example.com/
const StripWWW Step = 26

// StripWWWN removes a first host label "www" or "www" followed by
// digits ("www2", "www34"; again, while there is one), whatever
// remains, as the Internet Archive's canonicalizer (the surt library's
// massageHost) does: unlike StripWWW it does not ask the Public
// Suffix List, so www.googleapis.com and www.gov.uk lose it too, as
// in the CDX keys of the Wayback Machine. It keeps a host that is
// "www." alone. Merges wwwN.example.com with example.com.
//
//	http://www12.example.com/ -> http://example.com/
const StripWWWN Step = 27

// DecodePathRepeatedly decodes the escapes of a path that starts
// with "/" until none is left ("%2541" -> "%41" -> "A"; an opaque
// path such as mailto:'s is left alone), as the Internet Archive's
// canonicalizer and Google Safe Browsing do, then removes the dot
// segments this may have made and encodes again what the WHATWG path
// percent-encode set holds, and "%" and "\". Merges "%2F" with "/"
// and every escape with its character. Needs ParseWHATWG.
//
//	http://h/a%2541%2Fb -> http://h/aA/b
const DecodePathRepeatedly Step = 28

// DecodeQueryRepeatedly is DecodePathRepeatedly for the query, which
// is encoded again with the special-query percent-encode set and "%".
// Merges "%26" with "&", and so changes which pairs the query has.
// Needs ParseWHATWG.
//
//	http://h/?r=http%3A%2F%2Fx -> http://h/?r=http://x
const DecodeQueryRepeatedly Step = 29

// CollapseSlashes writes each run of "/" in the path of a URL with an
// authority as one "/" (Google Safe Browsing; crawler-commons). A
// file URL's first segment "C|" that comes first so is written "C:",
// as the WHATWG URL Standard writes a Windows drive letter.
// Merges paths that differ in empty segments.
//
//	http://h//a///b -> http://h/a/b
const CollapseSlashes Step = 30

// LowercasePath lowercases the ASCII letters of the path, the hex of
// escapes included (urlcanon's aggressive profile, the Internet
// Archive's canonicalizer); with NFC in the profile, the path is then
// NFC again ("J" + U+030C lowercased composes to U+01F0). Merges paths that differ in case, which
// most servers keep apart; an opaque path is lowercased too, so that
// "mailto:Joe@Example.COM" and "mailto:joe@example.com" are merged,
// and data: and javascript: URLs that differ in case.
//
//	http://h/A/B.html -> http://h/a/b.html
const LowercasePath Step = 31

// RemoveSessionIDs removes session ids: query parameters and ";"
// path parameters named jsessionid, phpsessid, sid, aspsessionidXXXXXXXX,
// cfid and cftoken when their value has the shape of an id, and the
// ASP.NET cookieless "/(S(id))/" segment (Heritrix's and the Internet
// Archive's rules, with the shapes params.go gives), and any parameter
// named in the profile's Rules SessionParams. "?sid=3" stays. With
// ReadAsSURT the built-in rules are the surt library's patterns
// instead (see ReadAsSURT). As a servlet container does, it strips a
// path parameter before the path's dot segments are resolved, by the
// profile's rule ("/a/..;jsessionid=<id>/b" is "/b"); with
// CollapseSlashes in the profile, the "//" a cut leaves is collapsed; a
// path without an authority that a cut makes start with "//" is written
// "/.//". Merges URLs that differ in a session id.
//
//	http://h/a;jsessionid=E85FAC04E331FFCA55549B10B7C7A4FA -> http://h/a
const RemoveSessionIDs Step = 32

// RemoveDirectoryIndex removes a last path segment index.html,
// index.htm, index.php, default.asp or default.aspx (as written, in
// lowercase), keeping the "/" before it. Merges a directory with its
// index page, which most servers serve alike.
//
//	http://h/a/index.html -> http://h/a/
const RemoveDirectoryIndex Step = 33

// RemoveTrailingSlash removes the "/" (or "/"s) that end a path
// longer than "/" (urlcanon's aggressive profile, the Internet
// Archive's canonicalizer). With RemoveDirectoryIndex, the two run
// again while they change the path: "/index.php/" is "/". Merges a
// directory with a file of the same name.
//
//	http://h/a/ -> http://h/a
const RemoveTrailingSlash Step = 34

// LowercaseQuery lowercases the ASCII letters of the query
// (urlcanon's aggressive profile, the Internet Archive's
// canonicalizer). Merges queries that differ in case.
//
//	http://h/?Q=A -> http://h/?q=a
const LowercaseQuery Step = 35

// RemoveTrackingParams removes the query parameters of
// DefaultTrackingParams (utm_*, gclid, fbclid, ...) and of the
// profile's Rules; a query left empty goes with its "?". Merges URLs
// that differ only in how a visitor was counted.
//
//	http://h/?a=1&utm_source=x -> http://h/?a=1
const RemoveTrackingParams Step = 36

// RemoveEmptyParams removes empty parameters ("a=1&&b=2" has one),
// and a query left empty goes with its "?" (urlcanon's aggressive
// profile). Merges "?a=1&" with "?a=1".
//
//	http://h/?&a=1&&b=2& -> http://h/?a=1&b=2
const RemoveEmptyParams Step = 37

// RemoveEmptyQuery removes a "?" with nothing after it (the Internet
// Archive's canonicalizer, normalize-url). Merges "/p?" with "/p".
//
//	http://h/p? -> http://h/p
const RemoveEmptyQuery Step = 38

// SortQuery sorts the parameters by their names' bytes, as written
// (nothing decoded or encoded); parameters with equal names keep
// their order, since "a=1&a=2" may be a list (crawler-commons,
// normalize-url). Merges queries that differ in the order of their
// names.
//
//	http://h/?b=2&a=1&b=1 -> http://h/?a=1&b=2&b=1
const SortQuery Step = 39

// SortQueryPairs sorts the parameters by name, then those with one
// name by value (one without "=" first), as the Internet Archive's
// surt library sorts (name, value) pairs. Merges also "a=2&a=1" with
// "a=1&a=2".
//
//	http://h/?b&a=2&a=1 -> http://h/?a=1&a=2&b
const SortQueryPairs Step = 40

// ParseSafeBrowsing reads and writes the URL as Google Safe Browsing's
// "URLs and Hashing" canonicalization says (the SafeBrowsing profile,
// which is this step alone; NewProfile refuses it with any other). It
// reads the input, so it runs first, in place of the other parsing
// steps, though it is declared last (so that no other Step changes
// value): spaces and C0 controls trimmed, tab, CR and LF removed, the
// fragment removed, every escape decoded until none is left, then the
// host (dots trimmed and collapsed, IPv4 in any spelling as dotted
// decimal, IPv6 compressed or, mapped or NAT64, as IPv4, lowercase,
// IDN as A-labels) and the path (dot segments resolved, runs of "/"
// collapsed) canonicalized, the port and userinfo dropped, the query
// kept, "http://" added when there is no scheme, and every byte up to
// 0x20, from 0x7F, "#" and "%" escaped in uppercase hex.
//
//	HTTP://www.Example.com:80/a//b/%2E%2E/%7Ec?q#f -> http://www.example.com/a/~c?q
const ParseSafeBrowsing Step = 41

// ReadAsSURT makes ParseWHATWG (which it needs) read a URL as the
// Internet Archive's surt library reads it where the two differ, so
// that the SURT of a key (SURT) is the library's CDX key:
//   - only http's 80 and https's 443 are default ports, as in the
//     library's getDefaultPort (ftp's ":21" stays, and ws's ":80");
//   - a file URL keeps its host "localhost", which the standard drops,
//     and "file://" and "file:" have no path (the library writes
//     "file:");
//   - the path of a URL without a host keeps its "." and ".."
//     segments and its empty segments ("file:///a/./b//c" stays as it
//     is), as the library's normalizePath runs only with a host ("else
//     path is free-form"): the key steps that would remove them
//     (CollapseSlashes, and DecodePathRepeatedly's removal of the dot
//     segments it decodes) leave such a path alone; in a path with a
//     host, a ".." above the root is a segment, as normalizePath keeps
//     it ("/../x" stays; "/../../x" is "/x"), and with
//     DecodePathRepeatedly the dot segments of a path with a host and
//     an escape go once that step has decoded it, as the library
//     decodes a path until no escape is left before normalizePath
//     ("/a%2Fb/../c" is "/a/c", "/%252e/.." is "/..");
//   - a "\" in the path of a special URL after its first byte is a
//     byte of its segment, written "%5C", not a separator, as the
//     library reads "/" alone (the path "/a\b" is "/a%5Cb"); one
//     where the authority ends (after the host "h" of "//h\a") reads
//     as the standard reads it;
//   - a host is an IPv4 address where the library reads one and a
//     name where it reads a name: digits alone are a decimal number
//     masked to 32 bits ("0123" is 0.0.0.123), one to four parts of
//     decimal digits, or of octal ones after a "0", are read as the C
//     library's inet_aton reads them, a host with a hex part is a name
//     ("0x7f.1"), and the dots at a host's ends go first ("1.2.3.4.."
//     is 1.2.3.4; TrimHostDots keeps ".." only after a host the
//     standard would reject without them, "a.1.."); an opaque host of
//     digits too ("foo://1113982867" is 66.102.7.147). A host the
//     standard rejects ("1.2.3.256") is still an error;
//   - with RemoveSessionIDs, the session ids are those of the
//     library's patterns: in the query, "jsessionid=", "phpsessid=" or
//     "sid=" and exactly 32 letters or digits, "aspsessionid", 8
//     letters, "=" and 24 letters, "cfid=" and a value then
//     "&cftoken=" and a value, wherever they start and with the "&"
//     after them ("?x=1&jsessionid=<32>" is "?&x=1"); in the path, an
//     ASP.NET ticket segment before a page ".aspx", and no path
//     parameter. Where the library's result would still hold one (two
//     of one name), every parameter or segment that holds one goes, so
//     that the key is a fixed point.
//
// It changes how the input is read, so it acts with the parser,
// though it is declared last (so that no other Step changes value).
// NormalizeRef and Base resolve a reference as a browser does (the
// URL Standard's resolution, which removes dot segments, reads "\"
// as "/" and drops ":21" and "localhost"), then key the URL it makes
// by the profile: the library reads the URLs a crawler wrote, never a
// reference.
//
//	FTP://h:21/a/./b -> ftp://h:21/a/b
const ReadAsSURT Step = 42

// numSteps is the number of steps: a Step is one of 0 to numSteps-1.
const numSteps = ReadAsSURT + 1

// firstKeyStep is the first of the key steps, which keys.go runs on the
// key the other steps made; keyStepsEnd follows the last of them.
const (
	firstKeyStep = RemoveUserinfo
	keyStepsEnd  = SortQueryPairs + 1
)

// keyStepBits are the bits of the key steps in Profile.steps.
const keyStepBits uint64 = (1<<keyStepsEnd - 1) &^ (1<<firstKeyStep - 1)

var stepNames = [numSteps]string{
	"ParseWHATWG", "DefaultScheme", "DecodeAll", "PlusToSpace", "ResolveRFC1808", "RemoveFragment",
	"LowercaseScheme", "LowercaseHost", "HostToASCII", "HostToUnicode", "TrimHostDots",
	"StripFileLocalhost", "RemoveHTTPFTPPort", "RemoveDefaultPort", "EncodeToURI", "EncodeToIRI",
	"UppercaseEscapes", "DecodeUnreserved", "DecodeIUnreserved", "NFC", "RemoveDots",
	"RemoveDots1808", "AddRootPath", "AddHTTPRootPath",
	"RemoveUserinfo", "HTTPSAsHTTP", "StripWWW", "StripWWWN", "DecodePathRepeatedly",
	"DecodeQueryRepeatedly", "CollapseSlashes", "LowercasePath", "RemoveSessionIDs",
	"RemoveDirectoryIndex", "RemoveTrailingSlash", "LowercaseQuery", "RemoveTrackingParams",
	"RemoveEmptyParams", "RemoveEmptyQuery", "SortQuery", "SortQueryPairs",
	"ParseSafeBrowsing", "ReadAsSURT",
}

// String returns the step's name, as in the source: "RemoveFragment".
func (s Step) String() string {
	if s < numSteps {
		return stepNames[s]
	}
	return "Step(" + strconv.Itoa(int(s)) + ")"
}

// ParseStep returns the step whose name is name, ignoring case.
func ParseStep(name string) (Step, error) {
	for i, n := range stepNames {
		if strings.EqualFold(n, name) {
			return Step(i), nil
		}
	}
	return 0, errors.New("canon: unknown step " + strconv.Quote(name))
}
