// Package canon turns URLs into canonical keys: two URLs get the same key
// when a profile's rules say they name the same resource, and a profile
// that promises it never gives two different resources the same key.
//
// Crawlers that must not fetch a page twice, caches keyed by URL, link
// graphs and web archives call [Normalize] and key on the result:
//
//	key, err := canon.Normalize("HTTP://Example.COM:80/a/./b/../c", canon.RFC3986)
//	// key == "http://example.com/a/c"
//
// # Profiles
//
// A [Profile] is a set of [Step]s run in a fixed order. Nine are
// predefined. Five follow one document each to the letter:
//
//   - [WebCapture]: the canonical form of URLs in PDF Web Capture (PDF
//     Reference, "URL Strings"), with RFC 1808 resolution and dot rules.
//   - [RFC3986]: syntax- and scheme-based normalization (RFC 3986 §6.2.2,
//     §6.2.3) of the URI an input maps to (RFC 3987 §3.1). ASCII output.
//   - [IRI]: the RFC 3987 §5.3 comparison ladder. Unicode output.
//   - [POWDER]: the W3C POWDER canonicalization, for matching only.
//   - [WHATWG]: the WHATWG URL Standard's parser and serializer: the
//     href a browser makes of a link.
//
// Three more make the keys crawlers and web archives use, with the key
// steps, which merge what their documentation says: [Crawler] (tracking
// parameters and session ids dropped, the query sorted), [Archive] (the
// Internet Archive's canonicalization, for [SURT] keys) and [Aggressive]
// (urlcanon's most merging one). [Explain] lists which steps changed a
// URL. [SafeBrowsing] is Google Safe Browsing's canonicalization, whose
// keys give the strings its lists hash ([LookupExpressions],
// [LookupHashes]); it reads the input as its document says, not as the
// policy below.
//
// [NewProfile] builds others from the same steps, for example RFC3986 plus
// [RemoveFragment]; [Profile.WithRules] adds parameter names to drop.
//
// # Guarantees
//
// In WebCapture, RFC3986 and IRI, no step gives two URIs that RFC 3986 §6
// (or RFC 3987 §5) lets name different resources one key: a
// percent-encoded reserved character ("%2F", "%3F", "%23", "%26", "%3D",
// "%25", ...) is never decoded, and no step creates, removes or moves an
// ASCII delimiter. An input that is not a URI (a raw space, non-ASCII)
// is first mapped to the URI RFC 3987 §3.1 makes of it, and gets that
// URI's key. WHATWG never gives one key to two URLs that a browser sends
// as different requests. POWDER and the key steps merge what their
// documentation says, and no more. Every profile is idempotent:
// Normalize(Normalize(x, p), p) == Normalize(x, p). Error text never
// carries a password.
//
// # Input handling
//
// Where parsers disagree on what an input means, canon rejects it rather
// than pick one reading. Leading and trailing spaces and C0 controls are
// trimmed. A control character inside the input, a backslash in the
// authority or path, a "%" not followed by two hex digits (in profiles that
// read escapes), a port above 65535, a host that is not a registered name,
// IP literal or valid IDN, a host that percent-decodes to a delimiter, a
// numeric host of an http-like scheme that is not a canonical IPv4 address
// (read as a browser reads it: decoded and UTS #46 mapped), a Windows drive
// letter in a file URL's host, and a missing host for http, https, ws, wss
// and ftp are errors. The userinfo ends at the last "@", and POWDER's
// decoding never moves the host. Every error is an [*Error] wrapping one of
// the Err* sentinels; on error the string result is "". Inputs longer than
// [MaxLength] and hosts longer than [MaxHostLength] are rejected before any
// other work (a host also when its key writes it longer), and all work is
// linear in the input. The policy, rule by
// rule with examples, is docs/hostile-inputs.md in the module's
// repository; every step, with an example and the profiles that run it,
// docs/steps.md.
//
// # Links of a page
//
// NormalizeRef resolves a link against the page it is on. For the many
// links of one page, [NewBase] reads the page's URL once and gives the
// same keys. A page that is not UTF-8 (Shift_JIS, GBK, windows-1251, ...)
// makes a browser write the query of its links in its encoding: the
// [Encoding] that [LookupEncoding] returns for the page's label does the
// same under the profiles with [ParseWHATWG] (Encoding.NormalizeRef,
// Encoding.NewBase), whose keys are then the URLs the browser requests.
//
// # Performance
//
// Normalize parses in one pass into offsets, with a byte-class table. For
// a URL of the common shape (ASCII; scheme "://" host, with no userinfo
// and a registered name or IPv4 address for host; no invalid or
// ambiguous escape) it returns its input itself, without allocating, when
// the input is already canonical, and otherwise allocates once, for the
// key; [AppendNormalized] then allocates nothing when dst has spare
// capacity for len(rawURL)+1 bytes. Other URLs take a general path that
// may allocate more: golang.org/x/net/idna allocates to convert an
// internationalized host, and an error allocates the [*Error].
package canon

// Normalize returns the canonical form of rawURL under profile p.
//
// rawURL must be absolute (have a scheme) in every profile that lacks
// [DefaultScheme]: a relative reference is an error wrapping
// [ErrRelative]; use [NormalizeRef] to resolve it against a base first.
// When rawURL is already canonical, Normalize returns it unchanged
// without allocating.
func Normalize(rawURL string, p Profile) (string, error) {
	u := keyValue(rawURL, nil)
	if shift, f := keyInto(&u, p.plan()); f != nil {
		return "", toError("Normalize", rawURL, shift, f)
	}
	return u.result(), nil
}

// AppendNormalized appends the canonical form of rawURL under p (see
// [Normalize]) to dst and returns the extended buffer. For a URL of the
// common shape (see Performance in the package documentation) it
// allocates nothing when dst has spare capacity for len(rawURL)+1 bytes;
// it may write in that capacity past the key. On error it returns dst
// with its length and contents as they were.
func AppendNormalized(dst []byte, rawURL string, p Profile) ([]byte, error) {
	u := keyValue(rawURL, dst)
	if shift, f := keyInto(&u, p.plan()); f != nil {
		return dst, toError("AppendNormalized", rawURL, shift, f)
	}
	return u.appendResult(dst), nil
}

// NormalizeRef resolves ref against base and returns the key of the
// target, as [Normalize] makes it under p. How ref is resolved depends on
// how p reads URLs:
//
//   - A profile with [ParseWHATWG] (WHATWG, Crawler, Archive, Aggressive)
//     resolves as the WHATWG URL Standard's basic URL parser does with base
//     as the base URL: the target is the href of new URL(ref, base),
//     before the profile's other steps. base is read first, alone, as the
//     standard reads a URL (its dot segments removed); "\" is "/" in
//     special URLs; a reference that starts with the base's special
//     scheme is relative unless "//" follows it ("http:g" against
//     "http://a/b/c/d" is "http://a/b/c/g", "http:/g" is "http://a/g"),
//     one with another scheme is read alone ("https:g" is "https://g/");
//     and against a base with an opaque path ("mailto:x@y") only a
//     fragment resolves: any other reference, the empty one too, is an
//     error.
//   - [SafeBrowsing] resolves as WHATWG does, then canonicalizes the target
//     as Google Safe Browsing's "URLs and Hashing" does any URL (every
//     escape decoded, so "x%252Fy" against "http://a/b" is "http://a/x/y").
//   - A profile with [ResolveRFC1808] (WebCapture) resolves by RFC 1808 §4:
//     a reference with a scheme is absolute ("http:g" is "http:g", which
//     has no host: an error), a reference of ";params" alone keeps the
//     base's last segment (";x" against "http://a/b/c/d;p?q" is
//     "http://a/b/c/d;x"), "." and ".." are removed by RFC 1808's rules
//     ("../../../g" is "http://a/../g"), and the empty reference is the
//     base with its fragment (which WebCapture then removes).
//   - Every other profile (RFC3986, IRI, POWDER) resolves by RFC 3986 §5.2,
//     strict, as [Resolve] does: a reference with a scheme is absolute even
//     when the scheme is the base's ("http:g" is "http:g": an error), ";x"
//     is a segment like any other ("http://a/b/c/;x"), and ".." never
//     climbs above the root ("../../../g" is "http://a/g").
//
// base must have a scheme in every profile ([DefaultScheme] adds none to
// it). Under the RFC rules base is not normalized before resolution, so
// its dot segments take part in it as the RFCs say: "g" against
// "http://a/b/.." is "http://a/b/g" under RFC3986 and "http://a/g" under
// WHATWG. Its fragment is never the target's (but for RFC 1808's empty
// reference).
//
// NormalizeRef reads base on every call; for the links of one page,
// [NewBase] reads it once and gives the same keys.
func NormalizeRef(base, ref string, p Profile) (string, error) {
	pl := p.plan()
	if pl.whatwg {
		// (The links of pages: no call more than the resolution's.)
		return normalizeRefWHATWG(base, ref, pl, nil)
	}
	return normalizeRef(base, ref, pl)
}

// check refuses an encoding other than UTF-8 under a plan that does not
// read URLs as the WHATWG URL Standard does.
func (enc Encoding) check(pl *plan) *failure {
	if enc.pe != nil && !pl.whatwg {
		return fail(ComponentURL, -1, ErrEncoding, "an encoding other than UTF-8 needs a profile with ParseWHATWG")
	}
	return nil
}

// Normalize is [Normalize] of rawURL read from a page in enc: under a
// profile with [ParseWHATWG], the query of a special URL other than ws:
// and wss: is written in enc, as a browser writes it (see [Encoding]);
// the zero Encoding (UTF-8) gives Normalize's key. A profile without
// ParseWHATWG and an encoding other than UTF-8 are an error wrapping
// [ErrEncoding].
func (enc Encoding) Normalize(rawURL string, p Profile) (string, error) {
	pl := p.plan()
	if f := enc.check(pl); f != nil {
		return "", toError("Normalize", rawURL, 0, f)
	}
	u := keyValue(rawURL, nil)
	u.enc = enc.pe
	if shift, f := keyInto(&u, pl); f != nil {
		return "", toError("Normalize", rawURL, shift, f)
	}
	return u.result(), nil
}

// AppendNormalized is [AppendNormalized] of rawURL read from a page in
// enc (see [Encoding.Normalize]).
func (enc Encoding) AppendNormalized(dst []byte, rawURL string, p Profile) ([]byte, error) {
	pl := p.plan()
	if f := enc.check(pl); f != nil {
		return dst, toError("AppendNormalized", rawURL, 0, f)
	}
	u := keyValue(rawURL, dst)
	u.enc = enc.pe
	if shift, f := keyInto(&u, pl); f != nil {
		return dst, toError("AppendNormalized", rawURL, shift, f)
	}
	return u.appendResult(dst), nil
}

// NormalizeRef is [NormalizeRef] of a link of a page in enc: base (the
// page's URL, or its <base href>) and ref are both read as text of the
// page, and the target's query, when it is the reference's or the
// base's, is written in enc (see [Encoding.Normalize]). The zero
// Encoding gives NormalizeRef's key.
func (enc Encoding) NormalizeRef(base, ref string, p Profile) (string, error) {
	pl := p.plan()
	if f := enc.check(pl); f != nil {
		return "", toArgError("NormalizeRef", "ref", ref, 0, f)
	}
	if pl.whatwg {
		return normalizeRefWHATWG(base, ref, pl, enc.pe)
	}
	return normalizeRef(base, ref, pl)
}

// Equal reports whether a and b have the same canonical form under p.
// An error from either input is returned, with a false result.
func Equal(a, b string, p Profile) (bool, error) {
	ka, err := keyString("Equal", "a", a, p.plan(), nil)
	if err != nil {
		return false, err
	}
	kb, err := keyString("Equal", "b", b, p.plan(), nil)
	if err != nil {
		return false, err
	}
	return ka == kb, nil
}
