package learn

// Hosts as canon.Rules read them. A Rules.Hosts entry applies to the
// keys whose host is its domain or a subdomain of it (the longest such
// entry wins), compared in lowercase, without one final ".", an
// internationalized host read as its A-labels; an IP address matches
// only itself, and a name never matches through a suffix that is an
// IPv4 address. The learner judges each host as Rules will match it
// (example.com and example.com. are one host), gives no rule to a host
// Rules cannot name, and leaves out of a domain's rule a name that a
// subdomain it applies to uses without that name being learned there.

import (
	"bytes"
	"slices"
	"strings"

	"github.com/seed15588f71/canon"
	"golang.org/x/net/idna"
)

// Host returns the host whose rules a capture of rawURL is evidence
// for, under p (the zero Profile: canon.Crawler): the host of its key as
// canon.Rules match it (lowercase, without a final ".", an
// internationalized host as its A-labels), which a pipeline that learns
// host by host (a Beam transform) groups captures by. ok is false for a
// URL p refuses, and for a key no host rule can apply to (no host, or
// one that Rules cannot read).
func Host(rawURL string, p canon.Profile) (host string, ok bool) {
	if p == (canon.Profile{}) {
		p = canon.Crawler
	}
	key, err := canon.Normalize(rawURL, p)
	if err != nil {
		return "", false
	}
	h, ok := keyHost(key)
	if !ok {
		return "", false
	}
	return ruleHost(h)
}

// keyHost returns the host of a key as written: without userinfo and
// port, an IPv6 address in brackets. A key is canonical, so its
// authority is what follows "//" up to the path, query or fragment (no
// reading of the URL again).
func keyHost(key string) (string, bool) {
	i := strings.Index(key, "//")
	if i < 0 || strings.ContainsAny(key[:i], "/?#") {
		return "", false // no authority
	}
	auth := key[i+2:]
	if j := strings.IndexAny(auth, "/?#"); j >= 0 {
		auth = auth[:j]
	}
	if j := strings.LastIndexByte(auth, '@'); j >= 0 {
		auth = auth[j+1:]
	}
	if strings.HasPrefix(auth, "[") {
		if j := strings.IndexByte(auth, ']'); j >= 0 {
			return auth[:j+1], true
		}
		return "", false
	}
	if j := strings.LastIndexByte(auth, ':'); j >= 0 {
		auth = auth[:j]
	}
	return auth, auth != ""
}

// ruleIDNA is the UTS #46 processing canon.Rules reads a host in
// Unicode with (canon's idnaProfile: nontransitional, STD3 rules,
// BidiRule, CheckJoiners, CheckHyphens off). TestRuleHostMatchesRules
// holds ruleHost to the library's own matching.
var ruleIDNA = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.CheckJoiners(true),
	idna.Transitional(false),
	idna.CheckHyphens(false),
)

// ruleHost returns the host a key's host h is matched as by canon.Rules:
// without one final ".", lowercase, in A-labels; ok is false when no
// host rule can apply to it (nothing left, or a Unicode host that does
// not convert).
func ruleHost(h string) (string, bool) {
	h = strings.TrimSuffix(h, ".")
	if h == "" {
		return "", false
	}
	ascii := true
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if !ascii {
		a, err := ruleIDNA.ToASCII(h)
		if err != nil || a == "" {
			return "", false
		}
		return a, true
	}
	return strings.ToLower(h), true
}

// hostKey returns the sort key of a rule host: its labels in reverse
// order, each after 0x01 but the first ("news.example.com" is
// "com\x01example\x01news"), so that a domain sorts right before its
// subdomains, which sort together (a record ends its hostKey with 0x00,
// below every label byte). An IPv6 address is one label. ok is false
// for a host with a byte below 0x02 (no key has one).
func hostKey(dst []byte, h string) ([]byte, bool) {
	if strings.ContainsAny(h, "\x00\x01") {
		return dst, false
	}
	if strings.HasPrefix(h, "[") {
		return append(dst, h...), true
	}
	end := len(h)
	for i := len(h) - 1; i >= -1; i-- {
		if i == -1 || h[i] == '.' {
			if end != len(h) {
				dst = append(dst, 1)
			}
			dst = append(dst, h[i+1:end]...)
			end = i
		}
	}
	return dst, true
}

// hostOfKey is the rule host a hostKey was made of.
func hostOfKey(k []byte) string {
	if bytes.HasPrefix(k, []byte("[")) {
		return string(k)
	}
	labels := bytes.Split(k, []byte{1})
	slices.Reverse(labels)
	return string(bytes.Join(labels, []byte(".")))
}

// isIPv4Literal reports whether h is four dotted decimal numbers, as
// canon.Rules tell an IPv4 address (which matches only itself).
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

// governs reports whether a Hosts entry for the rule host p (whose
// hostKey is pk) applies to the keys whose rule host is c (hostKey ck),
// when no longer entry does, as canon.Rules match hosts: c is p or a
// subdomain of it (a suffix at a label boundary), but an address
// matches only itself, and no name matches through a suffix that is an
// IPv4 address.
func governs(p string, pk []byte, c string, ck []byte) bool {
	switch {
	case p == c:
		return true
	case strings.HasPrefix(c, "[") || isIPv4Literal(c) || isIPv4Literal(p):
		return false
	}
	return len(ck) > len(pk) && bytes.HasPrefix(ck, pk) && ck[len(pk)] == 1
}

// nameable reports whether canon.Rules can hold a Hosts entry that
// names the rule host h exactly (Rules read "Example.COM." as
// example.com, which is another host's entry when h is "example.com."):
// a domain of letters, digits, "-" and "_" between single dots, or an
// IPv6 address in brackets.
func nameable(h string) bool {
	if h == "" {
		return false
	}
	if h[0] == '[' {
		return len(h) > 2 && h[len(h)-1] == ']' && strings.Trim(h[1:len(h)-1], "0123456789abcdef:.") == ""
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// hostRule returns the learned names of host h that make a rule the
// profile p takes (canon.Profile.WithRules) and that applies to its
// captures: sample, a capture's URL with some of the names, must get
// another key with the rule. Nil when Rules cannot name h, or the
// profile refuses or never applies the rule (a host no key has).
func hostRule(p canon.Profile, h string, names []string, sample string) []string {
	if len(names) == 0 || !nameable(h) {
		return nil
	}
	q, err := p.WithRules(rulesOf(p, map[string][]string{h: names}))
	if err != nil {
		return nil
	}
	a, err1 := canon.Normalize(sample, p)
	b, err2 := canon.Normalize(sample, q)
	if err1 != nil || err2 != nil || a == b {
		return nil
	}
	return names
}

// rulesOf writes names by host as the canon.Rules a profile reads:
// TrackingParams under RemoveTrackingParams, SessionParams under
// RemoveSessionIDs alone.
func rulesOf(p canon.Profile, byHost map[string][]string) canon.Rules {
	var r canon.Rules
	for h, names := range byHost {
		if len(names) == 0 {
			continue
		}
		if r.Hosts == nil {
			r.Hosts = map[string]canon.Rules{}
		}
		if p.Has(canon.RemoveTrackingParams) {
			r.Hosts[h] = canon.Rules{TrackingParams: slices.Clone(names)}
		} else {
			r.Hosts[h] = canon.Rules{SessionParams: slices.Clone(names)}
		}
	}
	return r
}

// domainRules makes the rules of the hosts' results, given in the order
// of their hostKeys (a domain before its subdomains): each host's
// learned sets, less those with a name that a host the rule applies to
// (a subdomain with no rule of its own... or with one: a rule that could
// apply is enough) uses without having learned it. The finding of a
// set left out is given to leftOut, when not nil, refused, saying why.
type domainRules struct {
	stack   []*domainNode // the hosts with names learned whose subdomains may come next
	out     map[string][]string
	leftOut func(Finding)
}

type domainNode struct {
	key     []byte
	host    string
	learned []string
	sets    []Finding         // the learned sets (Params), with their evidence
	drop    map[string]string // lowercase name: the first subdomain that uses it
}

// add takes the result of one host, whose hostKey is key: the names it
// learned, in the sets it learned them (their findings; nil: each name a
// set of its own); names are the (lowercase) parameter names its
// captures use.
func (d *domainRules) add(key []byte, host string, learned []string, sets []Finding, names []string) {
	for len(d.stack) > 0 {
		top := d.stack[len(d.stack)-1]
		if len(key) > len(top.key) && bytes.HasPrefix(key, top.key) && key[len(top.key)] == 1 {
			break // an ancestor
		}
		d.pop()
	}
	// The domains whose rules could apply to this host: every domain on
	// the stack (its keys' prefixes), but as governs says.
	for _, anc := range d.stack {
		if governs(anc.host, anc.key, host, key) {
			for _, n := range anc.learned {
				ln := strings.ToLower(n)
				if _, used := slices.BinarySearch(names, ln); used && !slices.ContainsFunc(learned, func(m string) bool { return strings.EqualFold(m, n) }) {
					if anc.drop == nil {
						anc.drop = map[string]string{}
					}
					if _, ok := anc.drop[ln]; !ok {
						anc.drop[ln] = host
					}
				}
			}
		}
	}
	if len(learned) > 0 {
		if sets == nil {
			for _, n := range learned {
				sets = append(sets, Finding{Host: host, Params: []string{n}, Verdict: Learned})
			}
		}
		d.stack = append(d.stack, &domainNode{key: slices.Clone(key), host: host, learned: learned, sets: sets})
	}
}

// pop ends the domain on top of the stack: its rule is the names of
// its sets that no subdomain made it drop.
func (d *domainRules) pop() {
	n := d.stack[len(d.stack)-1]
	d.stack = d.stack[:len(d.stack)-1]
	var list []string
	for _, f := range n.sets {
		sub, name := "", ""
		for _, m := range f.Params {
			if h, ok := n.drop[strings.ToLower(m)]; ok {
				sub, name = h, m
				break
			}
		}
		if sub == "" {
			list = append(list, f.Params...)
		} else if d.leftOut != nil {
			f.Verdict = Refused
			f.Why = "left out of the rule: " + sub + ", which the rule would apply to, uses " + name + " without having learned it"
			d.leftOut(f)
		}
	}
	if len(list) > 0 {
		slices.Sort(list)
		list = slices.Compact(list)
		if d.out == nil {
			d.out = map[string][]string{}
		}
		d.out[n.host] = list
	}
}

// finish returns the names of each host with a rule.
func (d *domainRules) finish() map[string][]string {
	for len(d.stack) > 0 {
		d.pop()
	}
	return d.out
}

// addPathParamNames adds to names, in lowercase, the name of each path
// parameter ";name=value" of the key's path (a parameter runs to the
// next ";" or "/", its name to its first "="), which a SessionParams
// rule of that name drops as canon's RemoveSessionIDs does.
func addPathParamNames(names map[string]bool, key string) {
	path := key
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if i := strings.Index(path, "//"); i >= 0 && !strings.ContainsAny(path[:i], "/") {
		// (The authority, which may hold a ";" in its userinfo.)
		rest := path[i+2:]
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			return
		}
		path = rest[j:]
	}
	for {
		i := strings.IndexByte(path, ';')
		if i < 0 {
			return
		}
		path = path[i+1:]
		end := strings.IndexAny(path, ";/")
		if end < 0 {
			end = len(path)
		}
		if name, _, ok := strings.Cut(path[:end], "="); ok && name != "" {
			names[strings.ToLower(name)] = true
		}
		path = path[end:]
	}
}
