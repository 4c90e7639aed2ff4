package canon

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Rules are the parameter names a profile drops (or keeps) beyond the
// built-in ones, for all hosts and per host: what a crawl of one site, or
// a company's own links, needs without forking the package. They take
// effect through the profile's steps: RemoveTrackingParams drops
// TrackingParams and names that start with one of TrackingPrefixes (or,
// where KeepParams is set, every name not in it), RemoveSessionIDs drops
// SessionParams. Names are compared with the parameter name as written in
// the key (after the profile's own decoding: Crawler decodes "%75tm" to
// "utm"), ASCII letters case-insensitively. [Profile.WithRules] refuses
// rules the profile would never use (a list whose step it lacks, a host
// no key has), with an error wrapping [ErrUnusedRules].
//
// Rules marshal to and from JSON with encoding/json, as the command's
// -rules FILE reads them:
//
//	{"TrackingPrefixes": ["pk_"],
//	 "Hosts": {"example.com": {"KeepParams": ["id", "page"]}}}
type Rules struct {
	// TrackingParams are query parameter names dropped by
	// RemoveTrackingParams, whatever their value: "ref", "source".
	TrackingParams []string `json:",omitempty"`

	// TrackingPrefixes: a query parameter whose name starts with one of
	// them is dropped by RemoveTrackingParams: "pk_", "hsa_".
	TrackingPrefixes []string `json:",omitempty"`

	// SessionParams are query and path parameter names whose value is a
	// session id on this site, dropped by RemoveSessionIDs whatever the
	// value's shape (the built-in names are dropped only when their value
	// has the shape of an id).
	SessionParams []string `json:",omitempty"`

	// KeepParams, where not empty, makes RemoveTrackingParams a keep-only
	// list: it keeps the query parameters with these names and drops
	// every other, tracking or not ("?id=7&page=2&sort=asc" with
	// KeepParams id and page is "?id=7&page=2"). RemoveSessionIDs still
	// drops a session id among them. Because a name it drops merges URLs,
	// it compares names as a server reads them: a parameter is kept when
	// its name, as written, percent-decoded once or decoded as a form
	// field ("+" a space), reads as a listed name does in one of those
	// ways: KeepParams "ids[]" keeps "?ids%5B%5D=7", which a browser sends
	// for a form field named "ids[]", and "id" keeps "?%69d=7".
	KeepParams []string `json:",omitempty"`

	// Hosts are rules for one domain and its subdomains: the key of
	// "example.com" applies to the hosts "example.com" and
	// "www.example.com", never to "notexample.com" or
	// "example.com.evil.net" (labels match whole). Where several match,
	// the longest domain applies; its lists apply together with the
	// top-level ones (each list is the union of the two). A key is a
	// domain (an internationalized one is read as its A-labels), an IPv4
	// address or an IPv6 address in brackets, any letter case, a final
	// "." ignored; an IP address matches only itself. Keys that name one
	// domain ("Example.com", "example.com.") are one key, whose lists are
	// theirs joined (and checked joined, as WithRules checks any). A
	// host's Rules may
	// not have Hosts of their own. The host a rule is matched against is
	// the key's, after the profile's host steps, and a key must be a host
	// as the key writes it: under StripWWW, a rule for "www.example.com"
	// (whose key host is "example.com") is refused, as is "0x7f.1" under
	// ParseWHATWG (which writes it 127.0.0.1). A host's Rules must have a
	// list.
	Hosts map[string]Rules `json:",omitempty"`
}

// ruleSet is the interned form of Rules: one *ruleSet per distinct set of
// names, so that a Profile holding one stays comparable with ==, and two
// profiles made with the same rules (in any order, any letter case) are
// equal. The lists are lowercased, sorted and without repeats.
type ruleSet struct {
	tracking, prefixes, session, keep []string
	keepRead                          []string // keep's readings (keepReadings)
	text                              string   // the rules as String prints them

	// hosts are the rules of Rules.Hosts by domain, each merged with the
	// top-level lists and with its domain in host; maxLabels is the most
	// labels of one of them, so that matching a host looks up no suffix
	// longer. Both are zero for a set without Hosts, and for the merged
	// sets themselves.
	hosts     map[string]*ruleSet
	maxLabels int
	host      string
	hostLists *ruleSet // a merged set's: the host's own lists, for Rules()
}

var (
	rulesMu    sync.Mutex
	rulesByKey = map[string]*ruleSet{}
)

// internRules returns the *ruleSet for r, nil when r is empty.
func internRules(r Rules) (*ruleSet, error) {
	top, err := ruleLists("Rules.", r)
	if err != nil {
		return nil, err
	}
	hosts := map[string]*ruleSet{}
	// In the keys' order, so that of several bad keys the error names the
	// same one on every call.
	for _, h := range slices.Sorted(maps.Keys(r.Hosts)) {
		hr := r.Hosts[h]
		field := "Rules.Hosts[" + strconv.Quote(h) + "]"
		if hr.Hosts != nil {
			return nil, errors.New("canon: " + field + ": a host's rules cannot have Hosts of their own")
		}
		d, err := ruleDomain(field, h)
		if err != nil {
			return nil, err
		}
		lists, err := ruleLists(field+".", hr)
		if err != nil {
			return nil, err
		}
		if prev := hosts[d]; prev != nil { // "Example.com" and "example.com"
			lists = prev.union(lists)
		}
		lists.host = d
		hosts[d] = lists
	}
	if top.empty() && len(hosts) == 0 {
		return nil, nil
	}
	domains := make([]string, 0, len(hosts))
	for d := range hosts {
		domains = append(domains, d)
	}
	slices.Sort(domains)

	// The key that interns the set: every list and domain, separated by
	// bytes no name or domain can hold.
	var key strings.Builder
	top.writeKey(&key)
	for _, d := range domains {
		key.WriteString("\x02")
		key.WriteString(d)
		hosts[d].writeKey(&key)
	}

	rulesMu.Lock()
	defer rulesMu.Unlock()
	if p, ok := rulesByKey[key.String()]; ok {
		return p, nil
	}
	rs := top
	var text strings.Builder
	text.WriteString(top.listText())
	if len(domains) > 0 {
		rs.hosts = make(map[string]*ruleSet, len(domains))
		for _, d := range domains {
			h := hosts[d]
			if text.Len() > 0 {
				text.WriteByte(' ')
			}
			text.WriteString("host=" + d + "{" + h.listText() + "}")
			merged := top.union(h)
			merged.host, merged.hostLists = d, h
			rs.hosts[d] = merged
			rs.maxLabels = max(rs.maxLabels, strings.Count(d, ".")+1)
		}
	}
	rs.text = text.String()
	rulesByKey[key.String()] = rs
	return rs, nil
}

// ruleLists validates and normalizes the lists of r (not its Hosts).
func ruleLists(prefix string, r Rules) (*ruleSet, error) {
	var rs ruleSet
	var err error
	if rs.tracking, err = ruleNames(prefix+"TrackingParams", r.TrackingParams); err != nil {
		return nil, err
	}
	if rs.prefixes, err = ruleNames(prefix+"TrackingPrefixes", r.TrackingPrefixes); err != nil {
		return nil, err
	}
	if rs.session, err = ruleNames(prefix+"SessionParams", r.SessionParams); err != nil {
		return nil, err
	}
	if rs.keep, err = ruleNames(prefix+"KeepParams", r.KeepParams); err != nil {
		return nil, err
	}
	rs.keepRead = keepReadings(rs.keep)
	return &rs, nil
}

func (rs *ruleSet) empty() bool {
	return len(rs.tracking)+len(rs.prefixes)+len(rs.session)+len(rs.keep) == 0
}

// union returns the lists of rs and o together (not their hosts).
func (rs *ruleSet) union(o *ruleSet) *ruleSet {
	u := func(a, b []string) []string {
		if len(b) == 0 {
			return a
		}
		out := slices.Concat(a, b)
		slices.Sort(out)
		return slices.Compact(out)
	}
	keep := u(rs.keep, o.keep)
	return &ruleSet{tracking: u(rs.tracking, o.tracking), prefixes: u(rs.prefixes, o.prefixes),
		session: u(rs.session, o.session), keep: keep, keepRead: keepReadings(keep)}
}

// lists returns the set's lists with their labels, in the order String
// and the digest write them.
func (rs *ruleSet) lists() [4]struct {
	label string
	names []string
} {
	return [4]struct {
		label string
		names []string
	}{{"tracking", rs.tracking}, {"prefixes", rs.prefixes}, {"session", rs.session}, {"keep", rs.keep}}
}

// listText returns the lists as String prints them:
// "tracking=ref prefixes=pk_ session=sessid keep=id,page".
func (rs *ruleSet) listText() string {
	var b strings.Builder
	for _, l := range rs.lists() {
		if len(l.names) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(l.label)
		b.WriteByte('=')
		b.WriteString(strings.Join(l.names, ","))
	}
	return b.String()
}

// writeKey writes the lists for the interning key.
func (rs *ruleSet) writeKey(b *strings.Builder) {
	for _, l := range rs.lists() {
		b.WriteString("\x01")
		for _, n := range l.names {
			b.WriteString(n)
			b.WriteByte(0)
		}
	}
}

// keepReadings returns the readings of the names of a keep-only list, as
// keeps compares them: each name as written, percent-decoded once, and
// decoded as a form field, ASCII-lowercased, sorted, without repeats.
func keepReadings(keep []string) []string {
	if keep == nil {
		return nil
	}
	out := make([]string, 0, 3*len(keep))
	for _, n := range keep {
		out = append(out, n)
		for _, plus := range [...]bool{false, true} {
			d := appendNameReading(nil, []byte(n), plus)
			lowerASCII(d)
			out = append(out, string(d))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// appendNameReading appends name with its valid escapes decoded once
// (RFC 3986 §2.1) and, with plus, each "+" as a space, as
// application/x-www-form-urlencoded parsing reads a name (the WHATWG URL
// Standard, "application/x-www-form-urlencoded parsing").
func appendNameReading(dst, name []byte, plus bool) []byte {
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '%' && i+2 < len(name) && isHex(name[i+1]) && isHex(name[i+2]):
			dst = append(dst, tripletValue(name, i))
			i += 2
		case c == '+' && plus:
			dst = append(dst, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// ruleNames validates, lowercases, sorts and deduplicates names. A name
// must be non-empty printable ASCII without the delimiters that would end
// it in a query or path parameter ("&", "=", ";", "#", "?", "/") or a
// "," (which String uses to join them).
func ruleNames(field string, names []string) ([]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		if n == "" {
			return nil, errors.New("canon: " + field + ": empty name")
		}
		for i := 0; i < len(n); i++ {
			c := n[i]
			if c <= ' ' || c >= 0x7f || strings.IndexByte("&=;#?/,", c) >= 0 {
				return nil, errors.New("canon: " + field + ": name " + strconv.Quote(n) +
					" holds " + strconv.QuoteRune(rune(c)) + ", which cannot be in a parameter name")
			}
		}
		out = append(out, strings.ToLower(n))
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// ruleDomain validates and normalizes a key of Rules.Hosts: lowercased,
// without a final ".", an internationalized domain as its A-labels
// (UTS #46 ToASCII, as HostToASCII writes it); an IPv6 address in
// brackets is kept as written, lowercased.
func ruleDomain(field, h string) (string, error) {
	bad := func(why string) (string, error) {
		return "", errors.New("canon: " + field + ": " + why)
	}
	d := strings.ToLower(strings.TrimSuffix(h, "."))
	if d == "" {
		return bad("empty domain")
	}
	if d[0] == '[' {
		if len(d) < 3 || d[len(d)-1] != ']' || strings.Trim(d[1:len(d)-1], "0123456789abcdef:.") != "" {
			return bad("not an IPv6 address in brackets")
		}
		return d, nil
	}
	if !isASCII(d) {
		a, err := idnaProfile.ToASCII(d)
		if err != nil {
			return bad("not a domain: " + err.Error())
		}
		d = a
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" {
			return bad("empty label")
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isAlnum(c) && c != '-' && c != '_' {
				return bad("label " + strconv.Quote(label) + " holds " + strconv.QuoteRune(rune(c)))
			}
		}
	}
	return d, nil
}

// forHost returns the rules that apply to a key whose host is host (as
// the key writes it): those of the longest domain of Hosts that host is
// or is a subdomain of, merged with the top-level ones, or rs itself.
// With no Hosts it is a nil test; with them, at most maxLabels map
// lookups, of substrings of host (no allocation, but for a host in
// Unicode, an IRI's, which is read as its A-labels).
func (rs *ruleSet) forHost(host string) *ruleSet {
	if rs == nil || rs.hosts == nil || host == "" {
		return rs
	}
	if host = strings.TrimSuffix(host, "."); host == "" {
		return rs // "."
	}
	switch {
	case !isASCII(host):
		// A host in Unicode (an IRI's) is read as its A-labels (a copy:
		// host may lie in a buffer on the caller's stack).
		a, err := idnaProfile.ToASCII(strings.Clone(host))
		if err != nil || a == "" {
			return rs // no domain ("ｘｎ--" maps to nothing): no host's rules
		}
		host = a
	case hasUpperASCII(host):
		host = strings.ToLower(host) // a profile without LowercaseHost
	}
	if h := rs.hosts[host]; h != nil {
		return h
	}
	if host[0] == '[' || isIPv4Literal(host) {
		return rs // an address matches only itself
	}
	// The suffixes of host at label boundaries, longest first, from the
	// one of maxLabels labels (the whole host is looked up above).
	start, labels := 0, 0
	for k := len(host) - 1; k > 0; k-- {
		if host[k] == '.' {
			if labels++; labels == rs.maxLabels {
				start = k + 1
				break
			}
		}
	}
	for k := max(start, 1); k < len(host); k++ {
		if k != start && host[k-1] != '.' {
			continue
		}
		// An address's rule matches only that address, never a name
		// that ends in its labels ("evil.10.0.0.1", a non-special
		// scheme's opaque host).
		if h := rs.hosts[host[k:]]; h != nil && !isIPv4Literal(host[k:]) {
			return h
		}
	}
	return rs
}

// isIPv4Literal reports whether h is four dotted decimal numbers.
func isIPv4Literal(h string) bool {
	dots := 0
	for i := 0; i < len(h); i++ {
		switch c := h[i]; {
		case c == '.':
			dots++
		case c < '0' || c > '9':
			return false
		}
	}
	return dots == 3
}

// own returns the set's lists as Rules.
func (rs *ruleSet) own() Rules {
	return Rules{TrackingParams: slices.Clone(rs.tracking), TrackingPrefixes: slices.Clone(rs.prefixes),
		SessionParams: slices.Clone(rs.session), KeepParams: slices.Clone(rs.keep)}
}
