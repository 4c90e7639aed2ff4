package canon

import (
	"bytes"
	"slices"
)

// This file holds the predicates behind the crawler dedup steps
// RemoveTrackingParams and RemoveSessionIDs: which query parameter is a
// tracking parameter, which query or path parameter carries a session id,
// and the cutter that removes session ids from a path. They work on the
// bytes of a key as written (escapes are not decoded), compare names
// ASCII-case-insensitively, and allocate nothing.

// TrackingParam is one entry of the built-in list of tracking parameters.
type TrackingParam struct {
	Name   string // lowercase: "utm_", "gclid"
	Prefix bool   // Name is a prefix: every name that starts with it
	Source string // who sets it, e.g. "Google Ads click identifier"
}

// builtinTracking is the list RemoveTrackingParams drops, sorted by Name.
// Every name is in at least one public list of tracking parameters or the
// vendor's own documentation, cited in Source; the lists consulted are:
//
//   - Brave: kSimpleQueryStringTrackers and kScopedQueryStringTrackers in
//     brave/brave-core components/query_filter/utils.cc;
//   - Firefox: the initial query-stripping list in the Firefox source docs
//     (toolkit/components/antitracking/docs/query-stripping), and the
//     "global" list of StripOnShare.json (toolkit/components/antitracking/
//     StripOnShareLists/MPL2) in mozilla/gecko-dev;
//   - ClearURLs: the globalRules provider of ClearURLs/Rules data.min.json;
//   - AdGuard: TrackParamFilter/sections/general_url.txt in
//     AdguardTeam/AdguardFilters (its generic $removeparam rules);
//   - normalize-url: its removeQueryParameters default, [/^utm_\w+/i].
//
// (Read at brave-core 0c7f00e5, gecko-dev 025a28df, ClearURLs/Rules
// 9317c06b, AdguardFilters 002b0661.)
//
// The list is conservative: it holds names that only trackers set, whose
// values identify a click, a recipient, a message, a campaign or a cookie,
// never a page. Names that some sites use for content are not built in,
// even where a privacy list strips them, because a dedup step that drops
// them merges distinct pages; a crawl that knows them to be noise on its
// sites adds them with Rules.TrackingParams or Rules.TrackingPrefixes:
//
//   - "ref", "ref_src", "ref_url", "referrer": ?ref= selects a branch or
//     tag on code hosts (GitHub's ?ref=main) and a referral code in shops;
//     ClearURLs files ref under referralMarketing, not its global rules,
//     and Brave and Firefox strip ref_src/ref_url on twitter.com/x.com only.
//   - "source", "campaign", "cid", "cmp", "from", "share", "si", "s",
//     "spm", "var": generic words that name content (a data source, a
//     campaign page, a customer or category id, a search) on some sites;
//     Brave scopes "si" to youtube.com/youtu.be and Firefox to Spotify,
//     AdGuard strips "var" only beside its z= partner, and Firefox's
//     StripOnShare "var" is for sharing, not for keys.
//   - "__s" (Drip): AdGuard notes that some sites (UnivIS) use it for
//     content and strips it only when its value has 6+ letters or digits.
//   - "pk_*", "mtm_*" (Matomo) and "itm_*": campaign parameters like utm_*,
//     but left to the user (Rules.TrackingPrefixes: "pk_") since "pk" is
//     also a common "primary key" abbreviation.
//   - "hsa_*" as a prefix: only the twelve HubSpot ads names that Firefox
//     and AdGuard list are built in, not every name that starts with hsa_.
var builtinTracking = []TrackingParam{
	{Name: "__hsfp", Source: "HubSpot browser fingerprint (Brave, ClearURLs, AdGuard)"},
	{Name: "__hssc", Source: "HubSpot session cookie (Brave, ClearURLs, AdGuard)"},
	{Name: "__hstc", Source: "HubSpot visitor cookie (Brave, ClearURLs, AdGuard)"},
	{Name: "_ga", Source: "Google Analytics cross-domain linker (ClearURLs, AdGuard citing support.google.com/analytics/answer/10071811)"},
	{Name: "_gl", Source: "Google tag cross-domain linker (Brave, ClearURLs, AdGuard)"},
	{Name: "_hsenc", Source: "HubSpot email recipient token (Firefox query stripping, Brave, ClearURLs, AdGuard)"},
	{Name: "_hsmi", Source: "HubSpot marketing email message id, set with _hsenc on every tracked link (LinkClean's tracker catalog, linkclean.app/trackers/hsmi)"},
	{Name: "_openstat", Source: "Openstat analytics ad tag (Brave, ClearURLs, AdGuard)"},
	{Name: "dclid", Source: "Google (DoubleClick) display ads click identifier (Brave, ClearURLs)"},
	{Name: "fbclid", Source: "Facebook/Meta click identifier (Firefox query stripping, Brave, ClearURLs, AdGuard)"},
	{Name: "gbraid", Source: "Google Ads iOS click identifier (AdGuard \"Google ads/analytics\")"},
	{Name: "gclid", Source: "Google Ads click identifier (Brave, ClearURLs, AdGuard)"},
	{Name: "gclsrc", Source: "Google Ads click source (AdGuard \"Google ads/analytics\")"},
	{Name: "hsa_acc", Source: "HubSpot ads: account id (Brave, Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_ad", Source: "HubSpot ads: ad id (Brave, Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_cam", Source: "HubSpot ads: campaign id (Brave, Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_grp", Source: "HubSpot ads: ad set id (Brave, Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_kw", Source: "HubSpot ads tracking (Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_la", Source: "HubSpot ads tracking (Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_mt", Source: "HubSpot ads tracking (Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_net", Source: "HubSpot ads tracking (Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_ol", Source: "HubSpot ads tracking (Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_src", Source: "HubSpot ads tracking (Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_tgt", Source: "HubSpot ads tracking (Firefox StripOnShare, AdGuard)"},
	{Name: "hsa_ver", Source: "HubSpot ads tracking (Firefox StripOnShare, AdGuard)"},
	{Name: "hsctatracking", Source: "HubSpot call-to-action click tracking (Brave, ClearURLs, AdGuard)"},
	{Name: "igshid", Source: "Instagram share identifier (Brave and Firefox StripOnShare, both on instagram.com only; ClearURLs instagram provider)"},
	{Name: "li_fat_id", Source: "LinkedIn first-party ad tracking click id (Firefox StripOnShare)"},
	{Name: "mc_cid", Source: "Mailchimp campaign id (ClearURLs mc_(eid|cid|tc))"},
	{Name: "mc_eid", Source: "Mailchimp recipient id (Firefox query stripping, Brave, ClearURLs, AdGuard)"},
	{Name: "mkt_tok", Source: "Marketo email recipient token (Firefox query stripping, ClearURLs, AdGuard; Brave keeps it on unsubscribe links)"},
	{Name: "msclkid", Source: "Microsoft Advertising click identifier (Brave, ClearURLs, AdGuard citing help.ads.microsoft.com)"},
	{Name: "oly_anon_id", Source: "Olytics anonymous visitor id (Firefox query stripping, Brave, ClearURLs, AdGuard)"},
	{Name: "oly_enc_id", Source: "Olytics encrypted customer id (Firefox query stripping, Brave, ClearURLs, AdGuard)"},
	{Name: "rb_clickid", Source: "Olytics click id (Brave, ClearURLs, AdGuard \"Olytics\")"},
	{Name: "s_cid", Source: "Adobe Analytics (SiteCatalyst) campaign tracking code (Brave, Firefox StripOnShare, ClearURLs, AdGuard)"},
	{Name: "srsltid", Source: "Google Merchant Center auto-tagging result id (Brave, ClearURLs)"},
	{Name: "ttclid", Source: "TikTok Ads click identifier (ads.tiktok.com/help/article/tiktok-click-id)"},
	{Name: "twclid", Source: "Twitter/X Ads click identifier (Brave, ClearURLs, AdGuard)"},
	{Name: "utm_", Prefix: true, Source: "Google Analytics (Urchin) campaign parameters utm_source, utm_medium, ... (normalize-url default /^utm_\\w+/i, ClearURLs, Firefox StripOnShare, AdGuard)"},
	{Name: "vero_conv", Source: "Vero email conversion tracking (Brave, Firefox StripOnShare, ClearURLs, AdGuard)"},
	{Name: "vero_id", Source: "Vero email recipient id (Firefox query stripping, Brave, ClearURLs, AdGuard)"},
	{Name: "wbraid", Source: "Google Ads iOS click identifier (Brave, AdGuard \"Google ads/analytics\")"},
	{Name: "wickedid", Source: "Wicked Reports click id (Brave, ClearURLs, AdGuard)"},
	{Name: "yclid", Source: "Yandex Direct click identifier (Brave, ClearURLs, AdGuard \"Yandex Metrika\")"},
	{Name: "ysclid", Source: "Yandex search click identifier (Brave, AdGuard \"Yandex Metrika\")"},
}

// trackingNames and trackingPrefixes split builtinTracking for lookup:
// the exact names, sorted (binary search), and the prefixes.
var trackingNames, trackingPrefixes = splitTracking(builtinTracking)

// trackingFirst marks the first bytes, in either case, of the built-in
// names and prefixes: most parameter names start with none of them, and
// isTracking then answers without a search.
var trackingFirst = func() (t [256]bool) {
	for _, tp := range builtinTracking {
		c := tp.Name[0]
		t[c] = true
		if c >= 'a' && c <= 'z' {
			t[c-'a'+'A'] = true
		}
	}
	return t
}()

func splitTracking(list []TrackingParam) (names, prefixes []string) {
	for _, p := range list {
		if p.Prefix {
			prefixes = append(prefixes, p.Name)
		} else {
			names = append(names, p.Name)
		}
	}
	return names, prefixes
}

// DefaultTrackingParams returns a copy of the built-in list
// RemoveTrackingParams drops, sorted by name.
func DefaultTrackingParams() []TrackingParam {
	return slices.Clone(builtinTracking)
}

// isTracking reports whether a query parameter named name (as written,
// escapes not decoded) is a tracking parameter: the built-in list or r's
// TrackingParams / TrackingPrefixes, or, when r has a keep-only list
// (KeepParams), any name not in it. ASCII case-insensitive. r may be nil.
func (r *ruleSet) isTracking(name []byte) bool {
	if r != nil && r.keep != nil {
		// A keep-only list (Rules.KeepParams): every other name goes.
		return !r.keeps(name)
	}
	if len(name) == 0 {
		return false
	}
	if trackingFirst[name[0]] {
		if paramSortedHasFold(trackingNames, name) {
			return true
		}
		for _, p := range trackingPrefixes {
			if paramHasPrefixFold(name, p) {
				return true
			}
		}
	}
	if r == nil {
		return false
	}
	if paramSortedHasFold(r.tracking, name) {
		return true
	}
	for _, p := range r.prefixes {
		if paramHasPrefixFold(name, p) {
			return true
		}
	}
	return false
}

// keeps reports whether a keep-only list (Rules.KeepParams) keeps the
// query parameter named name (as written). A server reads a name decoded
// (a form field "ids[]" is sent as "ids%5B%5D"), and a name the list
// drops merges URLs, so the list keeps a name when any of its readings is
// a reading of a listed name (keepReadings): as written, percent-decoded
// once, or decoded as a form field is ("+" a space).
func (r *ruleSet) keeps(name []byte) bool {
	if paramSortedHasFold(r.keepRead, name) {
		return true
	}
	var buf [64]byte // (a longer name allocates: rare, and only with a keep-only list)
	for _, plus := range [...]bool{false, true} {
		if d := appendNameReading(buf[:0], name, plus); !bytes.Equal(d, name) && paramSortedHasFold(r.keepRead, d) {
			return true
		}
	}
	return false
}

// isSessionID reports whether the query parameter name=value (or the path
// parameter ;name=value) carries a session id: a name of r's
// SessionParams whatever the value, or a built-in name when value has the
// shape of that name's ids, as Heritrix's rules do, so that ?sid=3 on a
// forum survives. Names are exact (ASCII case-insensitive): "side",
// "sidebar", "pagesid" are not "sid". r may be nil.
//
// The built-in names are those of Heritrix's StripSessionIDs and
// StripSessionCFIDs, of the Internet Archive's URL canonicalizer
// (URLRegexTransformer in iipc/webarchive-commons, ported to Python by
// internetarchive/surt) and of iipc/urlcanon's aggressive canonicalizer
// (strip_session_ids_from_query in canon.py; read at heritrix3 5ada2a78,
// webarchive-commons 39212592, surt 6934c321, urlcanon 842afd4d). Those
// match regular expressions on the whole query; the shapes here, per
// name, are:
//
//   - jsessionid (Java servlet containers): at least 10 letters or digits
//     (urlcanon's minimum), and otherwise only "$" (urlcanon's set, for
//     ids such as a63098d96360$B0$D9$A), "." (Tomcat appends ".jvmRoute"),
//     "!" and "-" (WebLogic's id!jvmhash!time), ":" (a Heritrix extractor
//     test has deadbeef:deadbeed). Heritrix and surt want exactly 32
//     letters or digits.
//   - phpsessid (PHP): at least 16 of PHP's session id characters
//     [0-9A-Za-z,-] (php.net session_id; urlcanon wants 16+ [0-9a-z],
//     Heritrix 32 letters or digits).
//   - sid, sessionid: generic names, so at least 16 letters or digits
//     (urlcanon; Heritrix: 32) with at least one letter and one digit (my
//     addition, so that neither a 16-digit number such as a status id nor
//     a 16-letter word is taken for a session id; a hex id of 16 or more
//     digits without both is improbable).
//   - aspsessionid + 8 letters (classic ASP), e.g. ASPSESSIONIDAQBSDSRT:
//     at least 16 letters or digits (urlcanon; Heritrix and surt want
//     exactly 24 letters, the shape of their example).
//   - cfid (ColdFusion client id): 4 or more digits. urlcanon wants
//     [0-9]+, surt and Heritrix anything, but all three only when cftoken
//     follows, which a per-parameter test cannot see; the minimum of 4 is
//     mine, so that a short number survives as sid=3 does.
//   - cftoken (ColdFusion): 6 or more of [0-9A-Za-z-] with a digit, which
//     covers ColdFusion's 8-digit random number and its UUID forms
//     (8-4-4-16 hex, or 16 hex digits, "-", and a UUID). urlcanon wants
//     [0-9a-z-]+, surt and Heritrix anything.
func (r *ruleSet) isSessionID(name, value []byte) bool {
	if r != nil && paramSortedHasFold(r.session, name) {
		return true
	}
	switch len(name) {
	case 3:
		return paramEqualFold(name, "sid") && sessGenericShape(value)
	case 4:
		return paramEqualFold(name, "cfid") && sessCFIDShape(value)
	case 7:
		return paramEqualFold(name, "cftoken") && sessCFTokenShape(value)
	case 9:
		if paramEqualFold(name, "phpsessid") {
			return sessPHPShape(value)
		}
		return paramEqualFold(name, "sessionid") && sessGenericShape(value)
	case 10:
		return paramEqualFold(name, "jsessionid") && sessJavaShape(value)
	case 20:
		// "ASPSESSIONID" and 8 letters, as in ASPSESSIONIDAQBSDSRT.
		if !paramHasPrefixFold(name, "aspsessionid") {
			return false
		}
		for _, c := range name[12:] {
			if !sessIsLetter(c) {
				return false
			}
		}
		return sessAlnumShape(value, 16)
	}
	return false
}

// isNamedSessionID reports whether name is one of r's SessionParams
// (ASCII case-insensitive). r may be nil.
func (r *ruleSet) isNamedSessionID(name []byte) bool {
	return r != nil && paramSortedHasFold(r.session, name)
}

// cutPathSessionIDs removes session ids from a URL path (the bytes between
// the authority and "?" or "#"), in place, and returns the new length.
// It removes
//
//   - path parameters ";name=value" for which isSessionID holds: the
//     servlet containers' ";jsessionid=<id>", and the other session names
//     with the same shape rules (a parameter runs to the next ";" or "/");
//     "/something/;jsessionid=E85F...A4FA" becomes "/something/";
//   - ASP.NET cookieless ticket segments, with the "/" after them:
//     "/(S(id))/mileg.aspx" and "/(A(id)S(id)F(id))/mileg.aspx" become
//     "/mileg.aspx" (see aspnetTicketSegment), as does the older
//     "/(id)/mileg.aspx" when id has the exact shape of an ASP.NET session
//     id (24 of a-z and 0-5).
//
// r may be nil.
//
// With surt (the plan's surtSessions: ReadAsSURT) the built-in rules are
// the surt library's instead: no path parameter but those r names, and
// its ticket segments before a page ".aspx" (surtCutPathSessionIDs).
func (r *ruleSet) cutPathSessionIDs(path []byte, surt bool) int {
	// Path parameters first, then ticket segments, so that a segment
	// which is a ticket once its parameters are gone ("(S(id));jsessionid=
	// <id>") goes in the same call and a second call changes nothing.
	n := r.cutPathParams(path, true, !surt)
	if surt {
		return surtCutPathSessionIDs(path[:n])
	}
	return cutTicketSegments(path[:n], true)
}

// hasPathSessionIDs reports whether cutPathSessionIDs would cut any of
// path, reading it only: a key whose path holds a ";" or a "(" and no
// session id (a Wikipedia article with a parenthesis) is not copied. When
// no parameter goes, the ticket segments are those of path as it is.
func (r *ruleSet) hasPathSessionIDs(path []byte, surt bool) bool {
	if r.cutPathParams(path, false, !surt) < len(path) {
		return true
	}
	if surt {
		return surtPathMatches(path, 1<<1|1<<2, false, func(int, int) {}) > 0
	}
	return cutTicketSegments(path, false) < len(path)
}

// cutPathParams removes the path parameters ";name=value" for which
// isSessionID holds (without builtin: whose name r's SessionParams
// holds), in place (with write; without, path is only read), and returns
// the new length.
func (r *ruleSet) cutPathParams(path []byte, write, builtin bool) int {
	w := 0
	for i := 0; i < len(path); {
		if path[i] != ';' {
			if write {
				path[w] = path[i]
			}
			w++
			i++
			continue
		}
		end, eq := i+1, -1
		for end < len(path) && path[end] != ';' && path[end] != '/' {
			if path[end] == '=' && eq < 0 {
				eq = end
			}
			end++
		}
		if eq < 0 || !(builtin && r.isSessionID(path[i+1:eq], path[eq+1:end]) || !builtin && r.isNamedSessionID(path[i+1:eq])) {
			if write {
				copy(path[w:], path[i:end])
			}
			w += end - i
		}
		i = end
	}
	return w
}

// cutTicketSegments removes the segments for which aspnetTicketSegment
// holds, with the "/" after them, in place (with write; without, path is
// only read), and returns the new length.
func cutTicketSegments(path []byte, write bool) int {
	w := 0
	for i := 0; i < len(path); {
		// path[i-1] is still the input byte: w < i, or w == i and
		// everything before i was copied to itself.
		if path[i] == '(' && i > 0 && path[i-1] == '/' {
			end := i + 1
			for end < len(path) && path[end] != '/' {
				end++
			}
			if end < len(path) && aspnetTicketSegment(path[i:end]) {
				i = end + 1 // the segment and the "/" after it
				continue
			}
		}
		if write {
			path[w] = path[i]
		}
		w++
		i++
	}
	return w
}

// aspnetTicketSegment reports whether a path segment is one that ASP.NET
// inserts after the application root for cookieless sessions. ASP.NET
// 2.0+ writes all its cookieless tickets in one segment: an outer pair of
// parentheses around tickets that are each one letter (S session state, A
// anonymous identification, F forms authentication) and the ticket in
// parentheses, e.g. "(S(tuucni55xfzj2xqx1mnqdg55))" (Wrox, Professional
// ASP.NET 3.5 Security, "Using Cookieless Forms Authentication"). The
// older form, in the surt and urlcanon vectors, is the session id alone:
// "(4hqa0555fwsecu455xqckv45)".
//
// The shapes, chosen to keep "(c)", "(2024)" and "(a(1))":
//
//   - one or more tickets letter(value), value of [0-9A-Za-z_-], at least
//     one of them 24 bytes or longer: a session id is 24 characters (the
//     SessionIDManager docs: "a 24-character string consisting of
//     lowercase characters from a to z and numbers from 0 to 5"), and the
//     A and F tickets may be longer. surt and urlcanon want every ticket to be
//     exactly 24 of [0-9a-z] (case-insensitive in surt);
//   - a bare id: exactly 24 of a-z (either case) and 0-5, the session id
//     alphabet. surt and urlcanon accept 24 of [0-9a-z] here but only
//     when the path goes on to ".aspx"; the narrower alphabet instead of
//     the ".aspx" condition also strips the id from the images and
//     scripts a cookieless page links relative to it, and keeps a
//     24-character hex id (such as a MongoDB ObjectId) with any of 6-9.
func aspnetTicketSegment(seg []byte) bool {
	if len(seg) < 3 || seg[0] != '(' || seg[len(seg)-1] != ')' {
		return false
	}
	in := seg[1 : len(seg)-1]
	if len(in) == 24 {
		bare := true
		for _, c := range in {
			if !sessIsLetter(c) && (c < '0' || c > '5') {
				bare = false
				break
			}
		}
		if bare {
			return true
		}
	}
	long := false
	for i := 0; i < len(in); {
		// letter "(" value ")"
		if i+3 >= len(in) || !sessIsLetter(in[i]) || in[i+1] != '(' {
			return false
		}
		j := i + 2
		for j < len(in) && (isAlnum(in[j]) || in[j] == '_' || in[j] == '-') {
			j++
		}
		if j == i+2 || j == len(in) || in[j] != ')' {
			return false
		}
		if j-(i+2) >= 24 {
			long = true
		}
		i = j + 1
	}
	return long
}

// sessJavaShape: a jsessionid value (see isSessionID).
func sessJavaShape(v []byte) bool {
	n := 0
	for _, c := range v {
		switch {
		case isAlnum(c):
			n++
		case c == '$' || c == '.' || c == '!' || c == '-' || c == ':':
		default:
			return false
		}
	}
	return n >= 10
}

// sessPHPShape: a PHPSESSID value, 16 or more of [0-9A-Za-z,-].
func sessPHPShape(v []byte) bool {
	if len(v) < 16 {
		return false
	}
	for _, c := range v {
		if !isAlnum(c) && c != ',' && c != '-' {
			return false
		}
	}
	return true
}

// sessGenericShape: a sid or sessionid value, 16 or more letters or digits
// with at least one of each.
func sessGenericShape(v []byte) bool {
	if !sessAlnumShape(v, 16) {
		return false
	}
	letter, digit := false, false
	for _, c := range v {
		if c <= '9' {
			digit = true
		} else {
			letter = true
		}
	}
	return letter && digit
}

// sessCFIDShape: a ColdFusion CFID, 4 or more digits.
func sessCFIDShape(v []byte) bool {
	if len(v) < 4 {
		return false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// sessCFTokenShape: a ColdFusion CFTOKEN, 6 or more of [0-9A-Za-z-] with a
// digit.
func sessCFTokenShape(v []byte) bool {
	if len(v) < 6 {
		return false
	}
	digit := false
	for _, c := range v {
		switch {
		case '0' <= c && c <= '9':
			digit = true
		case isAlnum(c) || c == '-':
		default:
			return false
		}
	}
	return digit
}

// sessAlnumShape reports whether v is n or more ASCII letters or digits.
func sessAlnumShape(v []byte, n int) bool {
	if len(v) < n {
		return false
	}
	for _, c := range v {
		if !isAlnum(c) {
			return false
		}
	}
	return true
}

func sessIsLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// paramEqualFold reports whether name, ASCII-lowercased, is s (lowercase).
func paramEqualFold(name []byte, s string) bool {
	return len(name) == len(s) && paramHasPrefixFold(name, s)
}

// paramHasPrefixFold reports whether name, ASCII-lowercased, starts with
// prefix (lowercase).
func paramHasPrefixFold(name []byte, prefix string) bool {
	if len(name) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lower(name[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// paramSortedHasFold reports whether name, ASCII-lowercased, is in list,
// which is lowercase and sorted (as ruleNames leaves it).
func paramSortedHasFold(list []string, name []byte) bool {
	lo, hi := 0, len(list)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := paramCompareFold(name, list[m]); {
		case c == 0:
			return true
		case c > 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return false
}

// paramCompareFold compares name, ASCII-lowercased, with s bytewise.
func paramCompareFold(name []byte, s string) int {
	for i := 0; i < len(name) && i < len(s); i++ {
		if c := lower(name[i]); c != s[i] {
			if c < s[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(name) < len(s):
		return -1
	case len(name) > len(s):
		return 1
	}
	return 0
}

// The session ids of the Internet Archive's surt library, which
// RemoveSessionIDs removes under ReadAsSURT in place of the shapes above,
// so that the SURT of an Archive key is the library's CDX key. The
// library (its URLRegexTransformer, a port of webarchive-commons')
// matches five regular expressions, case-insensitively, one after the
// other, each once, on the whole query:
//
//	^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$
//	^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$
//	^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$
//	^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$
//	^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$
//
// and keeps the two groups: the last match of the id goes with the "&"
// after it, and the rest is joined, so that "x=1&jsessionid=<id>" keeps
// "x=1&" and "mysid=<id>&b=2" becomes "myb=2"; an id of 31 or 33
// characters, or one in a path parameter (";jsessionid=<id>"), stays. In
// the path, two expressions remove an ASP.NET cookieless segment before
// a page ".aspx":
//
//	^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^\?]+\.aspx.*)$
//	^(.*/)(\([0-9a-z]{24}\)/)([^\?]+\.aspx.*)$
//
// (read at surt 6934c321). The functions below find the last match of
// each as the greedy "(.*)" does, without regular expressions, in time
// linear in the component.

// surtSessionPatterns are the names of the four query expressions whose
// id is a run of letters and digits of a fixed length: the name (with
// its "="), the length of the id, and whether the id is letters alone.
// "aspsessionid" is followed by 8 letters before its "=".
var surtSessionPatterns = [...]struct {
	name    string
	n       int
	letters bool
}{{"jsessionid=", 32, false}, {"phpsessid=", 32, false}, {"sid=", 32, false}, {"aspsessionid", 24, true}}

// surtSessionAt reports whether the query expression p (an index of
// surtSessionPatterns) matches q ending at e, a parameter's end (an "&"
// or the end of q), and returns where the match starts.
func surtSessionAt(q []byte, e, p int) (int, bool) {
	pat := &surtSessionPatterns[p]
	i := e - pat.n
	if i < 1 || q[i-1] != '=' {
		return 0, false // (most parameters: no "=" right before an id's length)
	}
	for _, c := range q[i:e] {
		if !isAlnum(c) || pat.letters && !sessIsLetter(c) {
			return 0, false
		}
	}
	if pat.letters { // "aspsessionid" 8 letters "="
		i -= 1 + 8
		if i < len(pat.name) {
			return 0, false
		}
		for _, c := range q[i : i+8] {
			if !sessIsLetter(c) {
				return 0, false
			}
		}
	}
	i -= len(pat.name)
	if i < 0 || !paramHasPrefixFold(q[i:], pat.name) {
		return 0, false
	}
	return i, true
}

// surtSessionMatch returns the last match [i, e) of the query expression
// p in q (p 4 is the cfid-cftoken one), as the library's "^(.*)"
// finds it: the match goes from i to e, which is an "&" or the end of q.
func surtSessionMatch(q []byte, p int) (i, e int, ok bool) {
	if p < len(surtSessionPatterns) {
		// The id ends a parameter: try the parameters' ends from the
		// last on.
		for e = len(q); e >= 0; e-- {
			if e < len(q) && q[e] != '&' {
				continue
			}
			if i, ok = surtSessionAt(q, e, p); ok {
				return i, e, true
			}
		}
		return 0, 0, false
	}
	// "cfid=" then a value, "&cftoken=" and a value: the cfid= must be
	// in the parameter before one that starts "cftoken=" and has a
	// value, with a value after it in its own parameter; the last such
	// pair, and in it the last such "cfid=".
	found := false
	prev := -1 // the start of the parameter before the one at r
	for r := 0; r <= len(q); {
		j := r
		for j < len(q) && q[j] != '&' {
			j++
		}
		if prev >= 0 && j-r > len("cftoken=") && paramHasPrefixFold(q[r:j], "cftoken=") {
			for x := r - 1 - len("cfid=") - 1; x >= prev; x-- { // a value of one byte at least
				if paramHasPrefixFold(q[x:], "cfid=") {
					i, e, found = x, j, true
					break
				}
			}
		}
		prev, r = r, j+1
	}
	return i, e, found
}

// surtStripQuerySessionIDs removes from the query q, in place, what the
// surt library's stripQuerySessionID removes: each expression's last
// match and the "&" after it, the five one after the other. It returns
// the new length.
func surtStripQuerySessionIDs(q []byte) int {
	n := len(q)
	for p := 0; p <= len(surtSessionPatterns); p++ {
		i, e, ok := surtSessionMatch(q[:n], p)
		if !ok {
			continue
		}
		if e < n {
			e++ // the "&" after it
		}
		n = i + copy(q[i:n], q[e:n])
	}
	return n
}

// surtQueryHasSessionID reports whether any of the library's query
// expressions matches q: one pass over the parameters' ends for the four
// whose id ends one, then the cfid expression's where q holds "cfid=".
func surtQueryHasSessionID(q []byte) bool {
	for e := len(q); e >= 0; e-- {
		if e < len(q) && q[e] != '&' {
			continue
		}
		for p := range surtSessionPatterns {
			if _, ok := surtSessionAt(q, e, p); ok {
				return true
			}
		}
	}
	if !surtHasCFID(q) {
		return false
	}
	_, _, ok := surtSessionMatch(q, len(surtSessionPatterns))
	return ok
}

// surtHasCFID reports whether q holds "cfid=" (any case), without which
// the library's fifth expression cannot match.
func surtHasCFID(q []byte) bool {
	for i := 0; i+len("cfid=") <= len(q); i++ {
		if q[i]|0x20 == 'c' && paramHasPrefixFold(q[i:], "cfid=") {
			return true
		}
	}
	return false
}

// surtParamHoldsSessionID reports whether the parameter pair (no "&")
// ends in an id one of the library's four fixed expressions matches
// ("mysid=<32>"), or holds a "cfid=" with a value after it: a query none
// of whose parameters does is one the library's expressions leave as it
// is, in any order of its parameters.
func surtParamHoldsSessionID(pair []byte) bool {
	for p := range surtSessionPatterns {
		if _, ok := surtSessionAt(pair, len(pair), p); ok {
			return true
		}
	}
	for x := len(pair) - len("cfid=") - 1; x >= 0; x-- {
		if paramHasPrefixFold(pair[x:], "cfid=") {
			return true
		}
	}
	return false
}

// surtTicketShape returns which of the library's two path expressions
// the segment seg has the shape of: 1 for its tickets, "(" then one or
// more of a letter and "(" 24 letters or digits ")", then ")"; 2 for the
// bare id, "(" 24 letters or digits ")"; 0 for neither.
func surtTicketShape(seg []byte) int {
	n := len(seg)
	if n < 26 || seg[0] != '(' || seg[n-1] != ')' {
		return 0
	}
	in := seg[1 : n-1]
	if len(in) == 24 && sessAlnumShape(in, 24) {
		return 2
	}
	if len(in)%27 != 0 {
		return 0
	}
	for k := 0; k < len(in); k += 27 {
		t := in[k : k+27]
		if !sessIsLetter(t[0]) || t[1] != '(' || t[26] != ')' || !sessAlnumShape(t[2:26], 24) {
			return 0
		}
	}
	return 1
}

// surtPagePrefix reports, for a piece x of a path (ending in "/" or
// being the path's end), whether a page ".aspx" (any case) starts in x
// at an offset of min or more before any "?" (written "%3F" in a key:
// the library reads the path decoded): the library's "[^\?]+\.aspx".
// It also reports whether x holds no "?" at all.
func surtPagePrefix(x []byte, min int) (page, noQuery bool) {
	for j := 0; j < len(x); j++ {
		switch {
		case x[j] == '?' || x[j] == '%' && j+2 < len(x) && x[j+1] == '3' && x[j+2]|0x20 == 'f':
			return page, false
		case x[j] == '.' && j >= min && !page && j+5 <= len(x) && paramHasPrefixFold(x[j+1:], "aspx"):
			page = true
		}
	}
	return page, true
}

// surtPathMatches calls cut, from the last segment of path to the
// first, on each segment [i, x) (path[x] is a "/") that one of the
// library's path expressions of shapes (a bit mask: 1<<1, 1<<2) matches
// there: a ticket segment after a "/", then a "/", then a page
// (surtPagePrefix). With all it goes on after a match, which is then out
// of the path the segments before it see (cut must leave path[:i] as it
// is); without, it stops at the first (the library's last). It returns the number of matches. The segments
// are read from the end, and what follows each is summed up in two
// booleans: whether a page starts in it at offset 0, or at 1 or more.
func surtPathMatches(path []byte, shapes int, all bool, cut func(i, x int)) int {
	tailPage0, tailPage1 := false, false // of the path after the current segment's "/"
	matches := 0
	for end := len(path); end > 0; {
		start := bytes.LastIndexByte(path[:end], '/') + 1
		if start == 0 {
			break // a first segment without a "/" before it
		}
		seg := path[start:end]
		if end < len(path) && tailPage1 && shapes&(1<<surtTicketShape(seg)) != 0 {
			matches++
			cut(start, end)
			if !all {
				return matches
			}
		} else {
			x := path[start:min(end+1, len(path))] // the segment and its "/"
			p0, noQuery := surtPagePrefix(x, 0)
			p1, _ := surtPagePrefix(x, 1)
			tailPage0, tailPage1 = p0 || noQuery && tailPage0, p1 || noQuery && tailPage0
		}
		end = start - 1
	}
	return matches
}

// surtCutPathSessionIDs removes from path, in place, the segments the
// library's stripPathSessionID removes, each with its "/": the last
// ticket segment its first expression matches, then the last its second
// does in what is left. Where its result would still hold a match (a
// second ticket segment: not a fixed point), every one goes, from the
// last. It returns the new length.
func surtCutPathSessionIDs(path []byte) int {
	n := len(path)
	cutOne := func(i, x int) { n = i + copy(path[i:n], path[x+1:n]) }
	for _, shape := range [...]int{1, 2} {
		surtPathMatches(path[:n], 1<<shape, false, cutOne)
	}
	if surtPathMatches(path[:n], 1<<1|1<<2, false, func(int, int) {}) == 0 {
		return n
	}
	// Every one: the segments are found from the last to the first, and
	// cut in one pass from the first, so that a path of many costs one
	// move of its bytes (a cut each would move the rest each time).
	var stack [8][2]int
	cuts := stack[:0]
	surtPathMatches(path[:n], 1<<1|1<<2, true, func(i, x int) { cuts = append(cuts, [2]int{i, x + 1}) })
	w := cuts[len(cuts)-1][0]
	for c := len(cuts) - 1; c >= 0; c-- {
		end := n
		if c > 0 {
			end = cuts[c-1][0]
		}
		w += copy(path[w:], path[cuts[c][1]:end])
	}
	return w
}
