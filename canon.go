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
// A [Profile] is a set of [Step]s run in a fixed order. Five are
// predefined, each following one document to the letter:
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
// URL.
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
// Leading and trailing spaces and C0 controls are trimmed. A control
// character inside the input, a backslash in the authority or path, a
// "%" not followed by two hex digits (in profiles that read escapes),
// a port above 65535, a host that is not a registered name, IP literal or
// valid IDN, a numeric host of an http-like scheme that is not a canonical
// IPv4 address (read as a browser reads it: decoded and UTS #46 mapped),
// a Windows drive letter in a file URL's host, and a missing host for
// http, https, ws, wss and ftp are errors. Every error is an [*Error] wrapping one of the Err* sentinels;
// on error the string result is "". Inputs longer than [MaxLength] are
// rejected before any other work, and all work is linear in the input.
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

import "unsafe"

// Normalize returns the canonical form of rawURL under profile p.
//
// rawURL must be absolute (have a scheme) in every profile that lacks
// [DefaultScheme]: a relative reference is an error wrapping
// [ErrRelative]; use [NormalizeRef] to resolve it against a base first.
// When rawURL is already canonical, Normalize returns it unchanged
// without allocating.
func Normalize(rawURL string, p Profile) (string, error) {
	if p.plan().keys != 0 {
		return normalizeKey(rawURL, p)
	}
	if len(rawURL) < scratchSize {
		// The key is built in a buffer on the stack and copied out once
		// at its exact length, which costs less than building it in a
		// heap buffer as long as the input and zeroed by the runtime.
		// (Two calls of fast, not one with a chosen dst: escape analysis
		// would then move scratch to the heap, as the key that
		// ownedString makes below may share dst's memory.)
		var scratch [scratchSize]byte
		if b, end, ok := fast(scratch[:0], rawURL, p); ok {
			if end >= 0 {
				return rawURL[:end], nil
			}
			return string(b), nil
		}
	} else if b, end, ok := fast(nil, rawURL, p); ok {
		if end >= 0 {
			return rawURL[:end], nil
		}
		return ownedString(b), nil // fast allocated b for the key
	}
	return normalize(rawURL, p)
}

// scratchSize is the size of Normalize's stack buffer: longer than 99 %
// of real URLs (bench/testdata/real.txt: p99 129 bytes), as a key may be
// one byte longer than its input (an added "/").
const scratchSize = 160

// normalize is Normalize without the fast path: the engine alone.
func normalize(rawURL string, p Profile) (string, error) {
	in, shift, f := trim(rawURL)
	if f != nil {
		return "", toError("Normalize", rawURL, 0, f)
	}
	var e engine
	if f := e.normalize(in, p); f != nil {
		return "", toError("Normalize", rawURL, shift, f)
	}
	if w := &e.w; !w.dirty {
		return w.src[:w.n], nil
	}
	return ownedString(e.w.buf), nil
}

// AppendNormalized appends the canonical form of rawURL under p (see
// [Normalize]) to dst and returns the extended buffer. For a URL of the
// common shape (see Performance in the package documentation) it
// allocates nothing when dst has spare capacity for len(rawURL)+1 bytes;
// it may write in that capacity past the key. On error it returns dst
// with its length and contents as they were.
func AppendNormalized(dst []byte, rawURL string, p Profile) ([]byte, error) {
	if p.plan().keys != 0 {
		b, err := appendNormalized("AppendNormalized", dst, rawURL, p.base())
		if err != nil || len(b) == len(dst) {
			return b, err
		}
		// The key steps edit the key in place; the parser reads it
		// before they do.
		key := unsafe.String(&b[len(dst)], len(b)-len(dst))
		return applyKeySteps(b, len(dst), key, p), nil
	}
	return appendNormalized("AppendNormalized", dst, rawURL, p)
}

// normalizeKey is Normalize for a profile with key steps: the base
// profile's key, made as Normalize makes it, then the key steps run on
// it. A URL with nothing to drop or sort allocates as under the base
// profile, and one the base and the key steps both change allocates
// twice.
func normalizeKey(rawURL string, p Profile) (string, error) {
	key, err := Normalize(rawURL, p.base())
	if err != nil {
		return "", err
	}
	return rekeyString(key, p), nil
}

// appendNormalized is AppendNormalized for a profile without key steps,
// with op naming the function for errors.
func appendNormalized(op string, dst []byte, rawURL string, p Profile) ([]byte, error) {
	if b, end, ok := fast(dst, rawURL, p); ok {
		if end >= 0 {
			return append(dst, rawURL[:end]...), nil
		}
		return b, nil
	}
	in, shift, f := trim(rawURL)
	if f != nil {
		return dst, toError(op, rawURL, 0, f)
	}
	var e engine
	w := &e.w
	w.buf, w.base = dst, len(dst)
	if f := e.normalize(in, p); f != nil {
		return dst, toError(op, rawURL, shift, f)
	}
	if !w.dirty {
		return append(dst, w.src[:w.n]...), nil
	}
	return w.buf, nil
}

// NormalizeRef makes ref absolute against base by the profile's rule, RFC
// 1808 §4 for profiles with [ResolveRFC1808] (WebCapture) and RFC 3986
// §5.2 otherwise, then normalizes the result as [Normalize] does. base
// must have a scheme; it is not normalized first, so its fragment and
// dot segments take part in resolution as the RFCs say.
func NormalizeRef(base, ref string, p Profile) (string, error) {
	if p.plan().keys != 0 {
		key, err := NormalizeRef(base, ref, p.base())
		if err != nil {
			return "", err
		}
		return rekeyString(key, p), nil
	}
	// An absolute reference is its own target: as written under RFC 1808
	// (§4 step 2b), with its dot segments removed under RFC 3986
	// (§5.2.2). When fast takes that target - with RFC 3986, with the
	// §5.2.4 dot removal added - only the base remains to be checked.
	check := p
	if !p.Has(ResolveRFC1808) {
		check = Profile{pl: p.plan().absRef}
	}
	// The same holds when fast changes the target: its key is the result.
	// (Under ParseWHATWG too: a reference that fast takes starts with a
	// scheme and "//", so no base makes it relative.)
	if len(ref) < scratchSize {
		var scratch [scratchSize]byte // as in Normalize
		if b, n, ok := fast(scratch[:0], ref, check); ok && baseIsValid(base, p) {
			if n >= 0 {
				return ref[:n], nil
			}
			return string(b), nil
		}
	} else if b, n, ok := fast(nil, ref, check); ok && baseIsValid(base, p) {
		if n >= 0 {
			return ref[:n], nil
		}
		return ownedString(b), nil
	}
	return normalizeRef(base, ref, p)
}

// baseIsValid reports whether fast takes base: then it is valid, which
// is all an absolute reference needs of it; false sends NormalizeRef to
// the general path, which checks it fully. Under ParseWHATWG fast takes
// only the bases the standard's parser accepts (the zero Profile would
// take "a://:1" and "file://h:80/", which it rejects).
func baseIsValid(base string, p Profile) bool {
	check := Profile{}
	if p.Has(ParseWHATWG) {
		check = WHATWG
	}
	if len(base) < scratchSize {
		var scratch [scratchSize]byte // a base fast changes is valid too
		_, _, ok := fast(scratch[:0], base, check)
		return ok
	}
	_, end, ok := fast(nil, base, check)
	return ok && end >= 0
}

// normalizeRef is NormalizeRef without the fast path.
func normalizeRef(base, ref string, p Profile) (string, error) {
	const op = "NormalizeRef"
	if p.Has(ParseWHATWG) {
		return normalizeRefWHATWG(base, ref, p)
	}
	b, bshift, f := parseInput(base)
	if f != nil {
		return "", withArg(toError(op, base, bshift, f), "base")
	}
	if b.schemeEnd < 0 {
		return "", withArg(toError(op, base, bshift, fail(ComponentScheme, 0, ErrRelative, "base has no scheme")), "base")
	}
	r, rshift, f := parseInput(ref)
	if f != nil {
		return "", withArg(toError(op, ref, rshift, f), "ref")
	}
	var abs string
	if p.Has(ResolveRFC1808) {
		if abs, f = resolve1808(&b, &r); f != nil {
			return "", withArg(toError(op, ref, rshift, f), "ref")
		}
	} else {
		abs = resolve3986(&b, &r)
	}
	if p.Has(DecodeAll) || p.Has(DefaultScheme) {
		if f := checkResolvedPOWDER(abs, p); f != nil {
			return "", withArg(toError(op, abs, 0, f), "resolved")
		}
	}
	var e engine
	if f := e.normalize(abs, p); f != nil {
		// The failure is in the resolved URI, which mixes both inputs.
		return "", withArg(toError(op, abs, 0, f), "resolved")
	}
	if w := &e.w; !w.dirty {
		return w.src[:w.n], nil
	}
	return ownedString(e.w.buf), nil
}

// Equal reports whether a and b have the same canonical form under p.
// An error from either input is returned, with a false result.
func Equal(a, b string, p Profile) (bool, error) {
	ka, err := Normalize(a, p)
	if err != nil {
		return false, withArg(relabel(err, "Equal"), "a")
	}
	kb, err := Normalize(b, p)
	if err != nil {
		return false, withArg(relabel(err, "Equal"), "b")
	}
	return ka == kb, nil
}

// withArg records in an *Error which argument of a function of two its
// Input is (see Error.Arg).
func withArg(err error, arg string) error {
	if e, ok := err.(*Error); ok {
		e.Arg = arg
	}
	return err
}

func relabel(err error, op string) error {
	if e, ok := err.(*Error); ok {
		e.Op = op
	}
	return err
}
