// Package learn learns per-host URL rules from the captures a crawler or
// a web archive already keeps: each capture's URL and a digest of what it
// returned. Where URLs of a host that differ only in some query
// parameters keep giving the same content, those parameters do not name
// the page on that host ("?sid=…", "?from=home", "?_=1700000000"); where
// they give different content, they do. The rules come out as
// [canon.Rules] (a Hosts entry with TrackingParams per host), which
// [canon.Profile.WithRules] and the command's -rules read, learned
// against the keys of a profile (canon.Crawler by default), so that what
// the profile merges already is not learned again.
//
// Precision comes first: a wrong rule merges pages a crawler then never
// fetches. Only status-200 captures with a digest count, and not the
// empty payload's; a digest that several unrelated paths of a host share
// is an error page, not evidence. A set of parameters is learned when
// captures that differ only in them, next to each other in time, agree
// on the digest at least 98 % of the time over at least MinPairs pairs,
// with at least three values of each parameter among the agreeing
// captures (a parameter whose values 0 and 1 show one page but others do
// not is relevant). Pages change: disagreements that up to four points
// in time explain, each inside no agreeing pair's interval (the host's
// pages changed then), are the host's churn, not the parameter's; they
// are weighed only where the agreeing pairs would otherwise make a rule.
// A name learned on one host says nothing about another.
package learn

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/seed15588f71/canon"
)

// Capture is one capture of a URL in an archive's or a crawler's index.
type Capture struct {
	URL    string
	Time   time.Time // when it was captured; the zero Time: unknown
	Status int       // the HTTP status; 0: unknown, taken as 200
	Digest string    // the payload's digest as the index writes it ("sha1:…"); "" or "-": none
}

// Options are a Learner's settings.
type Options struct {
	// Profile makes the keys the rules are learned against and that they
	// will be applied to; the zero Profile is canon.Crawler.
	Profile canon.Profile

	// MinPairs is the number of agreeing pairs of captures a rule needs;
	// 0 is 5.
	MinPairs int

	// HostRuns says that the captures of a host come together, as in a
	// CDX or CDXJ index sorted by SURT: a host is learned when its run
	// ends, and its captures are let go, so that memory holds one host's
	// captures. A host that comes back in a later run is learned again
	// from that run, and its rules are the union of the runs'. Without
	// HostRuns, every capture is kept until Rules, and the rules do not
	// depend on the order of Add.
	HostRuns bool
}

// Thresholds of the rule (see the package documentation).
const (
	defaultMinPairs   = 5
	minAgreement      = 0.98
	minValues         = 3 // values of each parameter among the agreeing captures
	errorDigestPaths  = 3 // distinct paths that make a shared digest an error page's
	errorDigestGroups = 5 // distinct groups of a judgment (judge) that make a shared digest an error page's
	maxCandidates     = 12
	maxSetSize        = 3
	maxHostCaptures   = 100_000 // a host with more is sampled (host.shift)
	maxChangePairs    = 2000    // pairs of each kind changePoints weighs (a larger set is sampled)
	maxChangePoints   = 4       // changes of the host's content in time a set's disagreements may be explained by
	minChangeGroups   = 1       // groups whose disagreements a change point must explain
)

// Learner learns rules from captures (Add) and gives them (Rules) with
// their evidence (Report). Without Options.HostRuns, the same captures,
// in any order, give the same rules. A Learner is not safe for
// concurrent use.
type Learner struct {
	p        canon.Profile
	minPairs int
	hostRuns bool
	pending  map[string]*host           // hosts whose captures are not learned yet
	run      string                     // with HostRuns: the host of the last capture
	learned  map[string][]string        // the names learned per host, sorted
	names    map[string]map[string]bool // the names (lowercased) each host's captures have
	findings []Finding
	Skipped  Skipped // captures that could not count, by reason
}

// Skipped counts the captures Add left out: by their status, digest or
// URL, and those a host with more than 100,000 captures leaves out of its
// sample (Sampled).
type Skipped struct {
	Status, NoDigest, EmptyPayload, Invalid, Sampled int
}

type host struct {
	caps []capture
	// shift: the host has more captures than maxHostCaptures, and only
	// those whose path's hash has shift low bits of 0 are kept (a sample
	// by path keeps a path's captures together, and the same captures
	// give the same sample in any order).
	shift uint
}

// pathHash is the hash a large host's captures are sampled by (FNV-1a:
// the same in every process).
func pathHash(path string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(path); i++ {
		h ^= uint64(path[i])
		h *= 1099511628211
	}
	return h
}

// capture is a Capture as the learner reads it: its key's path (up to the
// query) and query parameters, digest and time.
type capture struct {
	path   string
	params []param
	digest string
	t      int64 // Unix nanoseconds; 0 unknown
	url    string
}

type param struct{ name, value string }

// New returns a Learner with the options o.
func New(o Options) *Learner {
	if o.Profile == (canon.Profile{}) {
		o.Profile = canon.Crawler
	}
	if o.MinPairs <= 0 {
		o.MinPairs = defaultMinPairs
	}
	return &Learner{p: o.Profile, minPairs: o.MinPairs, hostRuns: o.HostRuns,
		pending: map[string]*host{}, learned: map[string][]string{}, names: map[string]map[string]bool{}}
}

// emptyPayload holds the digests of an empty payload as indexes write
// them (SHA-1 in base32, as CDX files do, and in hex): a redirect or an
// error without a body, which says nothing of a page.
var emptyPayload = map[string]bool{
	"3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ":         true,
	"DA39A3EE5E6B4B0D3255BFEF95601890AFD80709": true,
}

// Add adds a capture. A capture that cannot be evidence (a status other
// than 200, no digest, the empty payload's, a URL the profile refuses)
// is counted in Skipped.
func (l *Learner) Add(c Capture) {
	switch {
	case c.Status != 0 && c.Status != 200:
		l.Skipped.Status++
		return
	case c.Digest == "" || c.Digest == "-":
		l.Skipped.NoDigest++
		return
	}
	d := strings.ToUpper(c.Digest)
	if i := strings.IndexByte(d, ':'); i >= 0 {
		d = d[i+1:]
	}
	if emptyPayload[d] {
		l.Skipped.EmptyPayload++
		return
	}
	key, err := canon.Normalize(c.URL, l.p)
	h, ok := keyHost(key)
	if err != nil || !ok {
		l.Skipped.Invalid++
		return
	}
	var cp capture
	cp.path, cp.params = splitKey(key)
	cp.digest = d
	cp.url = c.URL
	if !c.Time.IsZero() {
		cp.t = c.Time.UnixNano()
	}
	if l.hostRuns && h != l.run {
		if l.run != "" {
			l.learnHost(l.run)
		}
		l.run = h
	}
	st := l.pending[h]
	if st == nil {
		st = &host{}
		l.pending[h] = st
	}
	if st.shift > 0 && pathHash(cp.path)&(1<<st.shift-1) != 0 {
		l.sampledOut(h, cp)
		return
	}
	st.caps = append(st.caps, cp)
	for len(st.caps) > maxHostCaptures {
		st.shift++
		st.caps = slices.DeleteFunc(st.caps, func(c capture) bool {
			if pathHash(c.path)&(1<<st.shift-1) != 0 {
				l.sampledOut(h, c)
				return true
			}
			return false
		})
	}
}

// sampledOut counts a capture of host h that its sample leaves out, and
// keeps its names for the subdomain rule of Rules.
func (l *Learner) sampledOut(h string, c capture) {
	l.Skipped.Sampled++
	l.noteNames(h, []capture{c})
}

// noteNames records the parameter names of captures of host h.
func (l *Learner) noteNames(h string, caps []capture) {
	seen := l.names[h]
	if seen == nil {
		seen = map[string]bool{}
		l.names[h] = seen
	}
	for _, c := range caps {
		for _, p := range c.params {
			seen[strings.ToLower(p.name)] = true
		}
	}
}

// Host returns the host whose rules a capture of rawURL is evidence for:
// the host of its key under p (the zero Profile: canon.Crawler), as
// canon.Rules name hosts. A pipeline that learns host by host (a Beam
// transform) groups captures by it; ok is false for a URL p refuses.
func Host(rawURL string, p canon.Profile) (host string, ok bool) {
	if p == (canon.Profile{}) {
		p = canon.Crawler
	}
	key, err := canon.Normalize(rawURL, p)
	if err != nil {
		return "", false
	}
	return keyHost(key)
}

// keyHost returns the host of a key as canon.Rules name hosts: without
// userinfo and port, an IPv6 address in brackets. A key is canonical, so
// its authority is what follows "//" up to the path, query or fragment
// (no reading of the URL again).
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

// splitKey splits a key into what precedes its query and its query's
// parameters (name up to the first "=").
func splitKey(key string) (string, []param) {
	if i := strings.IndexByte(key, '#'); i >= 0 {
		key = key[:i]
	}
	q := strings.IndexByte(key, '?')
	if q < 0 {
		return key, nil
	}
	var ps []param
	for _, pair := range strings.Split(key[q+1:], "&") {
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		ps = append(ps, param{name, value})
	}
	return key[:q], ps
}

// Rules returns the rules learned from the captures added so far: for
// each host with a rule, a Hosts entry that lists the parameter names
// that do not name its pages, in the field the profile reads:
// TrackingParams under RemoveTrackingParams (Crawler), SessionParams
// under RemoveSessionIDs alone (Aggressive, Archive; it also drops a
// path parameter of that name, ";name=…"). Under a profile with
// neither, no list would be read: canon.Profile.WithRules refuses the
// rules.
func (l *Learner) Rules() canon.Rules {
	return Merge(l.Hosts(), l.p)
}

// HostRules is what a Learner learned of one host: the names learned
// (Learned), and every parameter name its captures have, in lowercase
// (Names), which Merge needs for the rules of the host's parent domains.
type HostRules struct {
	Host    string
	Learned []string `json:",omitempty"`
	Names   []string `json:",omitempty"`
}

// Hosts returns what the Learner learned of each host it has captures
// of, by host. A pipeline that learns each host apart (a Beam transform:
// a Learner a host) gives Merge the Hosts of its Learners, which makes
// the Rules one Learner of all the captures makes.
func (l *Learner) Hosts() []HostRules {
	l.learnPending()
	out := make([]HostRules, 0, len(l.names))
	for h, seen := range l.names {
		names := make([]string, 0, len(seen))
		for n := range seen {
			names = append(names, n)
		}
		slices.Sort(names)
		out = append(out, HostRules{Host: h, Learned: slices.Clone(l.learned[h]), Names: names})
	}
	slices.SortFunc(out, func(a, b HostRules) int { return strings.Compare(a.Host, b.Host) })
	return out
}

// Merge makes the canon.Rules of the hosts' results under the profile p
// (the zero Profile: canon.Crawler), as Learner.Rules does: the union of
// the results of a host, in the list p reads (see Learner.Rules); a name
// learned for a host that a subdomain's captures use, where it is not
// learned, is left out (a host's rules apply to its subdomains without
// rules of their own: a name learned for example.com that
// news.example.com's captures use there is no rule of example.com's).
func Merge(hosts []HostRules, p canon.Profile) canon.Rules {
	if p == (canon.Profile{}) {
		p = canon.Crawler
	}
	learned := map[string][]string{}
	names := map[string]map[string]bool{}
	for _, h := range hosts {
		learned[h.Host] = append(learned[h.Host], h.Learned...)
		if names[h.Host] == nil {
			names[h.Host] = map[string]bool{}
		}
		for _, n := range h.Names {
			names[h.Host][strings.ToLower(n)] = true
		}
	}
	drop := map[string]map[string]bool{}
	for sub, seen := range names {
		for d := sub; ; {
			i := strings.IndexByte(d, '.')
			if i < 0 {
				break
			}
			d = d[i+1:]
			for _, n := range learned[d] {
				if seen[strings.ToLower(n)] && !slices.ContainsFunc(learned[sub], func(m string) bool { return strings.EqualFold(m, n) }) {
					if drop[d] == nil {
						drop[d] = map[string]bool{}
					}
					drop[d][n] = true
				}
			}
		}
	}
	var r canon.Rules
	for h, all := range learned {
		list := slices.Clone(all)
		slices.Sort(list)
		list = slices.DeleteFunc(slices.Compact(list), func(n string) bool { return drop[h][n] })
		if len(list) == 0 {
			continue
		}
		if r.Hosts == nil {
			r.Hosts = map[string]canon.Rules{}
		}
		if p.Has(canon.RemoveTrackingParams) {
			r.Hosts[h] = canon.Rules{TrackingParams: list}
		} else {
			r.Hosts[h] = canon.Rules{SessionParams: list}
		}
	}
	return r
}

// Finding is the evidence for one set of parameters of a host: the
// learned rules' and, for each parameter on its own, the evidence that
// kept it (Learned false) when there was any.
type Finding struct {
	Host     string
	Params   []string
	Learned  bool
	Pairs    int // pairs of captures that differ only in Params, next to each other in time
	Agree    int // of them, with one digest
	Churn    int // disagreements explained by the host's change points in time
	Disagree int // the other disagreements
	// Counterexamples are up to three pairs of URLs that differ only in
	// Params and whose digests differ (and no change point explains).
	Counterexamples [][2]string
}

// Report returns the findings, by host (then learned sets first, in
// the order they were learned, and the parameters kept).
func (l *Learner) Report() []Finding {
	l.learnPending()
	return slices.Clone(l.findings)
}

// learnPending learns the hosts whose captures are pending, in the
// order of their names.
func (l *Learner) learnPending() {
	names := make([]string, 0, len(l.pending))
	for h := range l.pending {
		names = append(names, h)
	}
	sort.Strings(names)
	for _, h := range names {
		l.learnHost(h)
	}
	l.run = ""
	slices.SortStableFunc(l.findings, func(a, b Finding) int { return strings.Compare(a.Host, b.Host) })
}

// learnHost learns the pending captures of host h and lets them go.
func (l *Learner) learnHost(h string) {
	st := l.pending[h]
	if st == nil {
		return
	}
	delete(l.pending, h)
	l.noteNames(h, st.caps)
	names, fs := learnCaptures(h, st.caps, l.minPairs)
	l.findings = append(l.findings, fs...)
	if len(names) > 0 {
		u := append(l.learned[h], names...)
		slices.Sort(u)
		l.learned[h] = slices.Compact(u)
	}
}

// learnCaptures learns the parameters of host h that do not name its
// pages: sets of up to maxSetSize of its most frequent names, smallest
// first, each judged with the sets learned before it left out.
func learnCaptures(h string, all []capture, minPairs int) ([]string, []Finding) {
	caps := evidence(all)
	count := map[string]int{}
	for _, c := range caps {
		seen := map[string]bool{}
		for _, p := range c.params {
			if !seen[p.name] {
				seen[p.name] = true
				count[p.name]++
			}
		}
	}
	var cands []string
	for n, k := range count {
		if k >= 2 && ruleName(n) {
			cands = append(cands, n)
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if count[cands[i]] != count[cands[j]] {
			return count[cands[i]] > count[cands[j]]
		}
		return cands[i] < cands[j]
	})
	if len(cands) > maxCandidates {
		cands = cands[:maxCandidates]
	}
	ignored := map[string]bool{}
	var findings []Finding
	kept := map[string]Finding{}
	for again := true; again; {
		again = false
		for size := 1; size <= maxSetSize && !again; size++ {
			for _, set := range subsets(cands, ignored, size) {
				f := judge(h, caps, set, ignored, minPairs)
				if f.Learned {
					findings = append(findings, f)
					for _, n := range set {
						ignored[n] = true
						delete(kept, n)
					}
					again = true
					break
				}
				if size == 1 && f.Pairs > 0 {
					kept[set[0]] = f
				}
			}
		}
	}
	// canon.Rules match names in any letter case: a learned name that
	// another name of the host spells in another case would drop that one
	// too, which nothing showed irrelevant.
	folded := map[string]int{}
	for n := range count {
		folded[strings.ToLower(n)]++
	}
	var learned []string
	for n := range ignored {
		if folded[strings.ToLower(n)] == 1 {
			learned = append(learned, n)
		}
	}
	sort.Strings(learned)
	var keptNames []string
	for n := range kept {
		keptNames = append(keptNames, n)
	}
	sort.Strings(keptNames)
	for _, n := range keptNames {
		findings = append(findings, kept[n])
	}
	return learned, findings
}

// ruleName reports whether canon.Rules can hold the parameter name n
// (see canon.Rules: printable ASCII, none of "&=;#?/,").
func ruleName(n string) bool {
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		if c := n[i]; c <= ' ' || c >= 0x7f || strings.IndexByte("&=;#?/,", c) >= 0 {
			return false
		}
	}
	return true
}

// evidence returns the captures that can be evidence, in time order
// (then by URL and digest: the order of Add does not matter): those
// whose digest is not an error page's, one that captures of at least
// errorDigestPaths distinct paths share.
func evidence(all []capture) []capture {
	paths := map[string]map[string]bool{}
	for _, c := range all {
		if paths[c.digest] == nil {
			paths[c.digest] = map[string]bool{}
		}
		if len(paths[c.digest]) < errorDigestPaths {
			paths[c.digest][c.path] = true
		}
	}
	var caps []capture
	for _, c := range all {
		if len(paths[c.digest]) < errorDigestPaths {
			caps = append(caps, c)
		}
	}
	slices.SortStableFunc(caps, func(a, b capture) int {
		switch {
		case a.t != b.t:
			if a.t < b.t {
				return -1
			}
			return 1
		case a.url != b.url:
			return strings.Compare(a.url, b.url)
		}
		return strings.Compare(a.digest, b.digest)
	})
	return caps
}

// subsets returns the sets of size names of cands, none in ignored, in
// the order of cands.
func subsets(cands []string, ignored map[string]bool, size int) [][]string {
	var free []string
	for _, n := range cands {
		if !ignored[n] {
			free = append(free, n)
		}
	}
	var out [][]string
	var rec func(start int, cur []string)
	rec = func(start int, cur []string) {
		if len(cur) == size {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := start; i < len(free); i++ {
			rec(i+1, append(cur, free[i]))
		}
	}
	rec(0, nil)
	return out
}

// pair is two captures next to each other in time that differ only in
// the judged set's parameters.
type pair struct {
	t1, t2 int64
	group  int
	agree  bool
	a, b   *capture
}

// judge decides whether the parameters set, with those in ignored left
// out, do not name the pages of host h: the captures are grouped by what
// is left of their keys; in each group, captures next to each other in
// time whose values of set differ make a pair, which agrees when their
// digests are equal.
func judge(h string, caps []capture, set []string, ignored map[string]bool, minPairs int) Finding {
	pairs, values := setPairs(caps, set, ignored)
	f := Finding{Host: h, Params: slices.Clone(set), Pairs: len(pairs)}
	for _, p := range pairs {
		if p.agree {
			f.Agree++
		}
	}
	diverse := true
	for _, v := range values {
		diverse = diverse && len(v) >= minValues
	}
	agreeing := func() bool { return float64(f.Agree) >= minAgreement*float64(f.Agree+f.Disagree) }
	f.Disagree = f.Pairs - f.Agree
	churn := func(pair) bool { return false }
	if f.Agree >= minPairs && diverse && !agreeing() {
		// Only where the evidence would do otherwise: the host's
		// changes in time (changePoints) may explain disagreements.
		churn = changePoints(pairs)
		f.Disagree = 0
		for _, p := range pairs {
			if !p.agree {
				if churn(p) {
					f.Churn++
				} else {
					f.Disagree++
				}
			}
		}
	}
	for _, p := range pairs {
		if !p.agree && !churn(p) && len(f.Counterexamples) < 3 {
			f.Counterexamples = append(f.Counterexamples, [2]string{p.a.url, p.b.url})
		}
	}
	f.Learned = f.Agree >= minPairs && diverse && agreeing()
	return f
}

// setPairs returns the pairs judge weighs for set, and the values of
// each of set's parameters among the agreeing captures.
func setPairs(caps []capture, set []string, ignored map[string]bool) ([]pair, []map[string]bool) {
	in := map[string]bool{}
	for _, n := range set {
		in[n] = true
	}
	type last struct {
		c     *capture
		tuple string
	}
	groups := map[string]int{}
	prev := map[int]last{}
	var pairs []pair
	values := make([]map[string]bool, len(set))
	for i := range values {
		values[i] = map[string]bool{}
	}
	// The group of each capture: what is left of its key. A digest that
	// the captures of several groups share is an error page's (a
	// soft-404 of ids that do not exist), which says nothing of set.
	gs := make([]int, len(caps))
	tuples := make([]string, len(caps))
	digestGroups := map[string]map[int]bool{}
	var rest []string
	for i := range caps {
		c := &caps[i]
		rest = rest[:0]
		tuple := make([]string, len(set))
		for _, p := range c.params {
			switch {
			case in[p.name]:
				k := slices.Index(set, p.name)
				tuple[k] += p.value + "\x00"
			case !ignored[p.name]:
				rest = append(rest, p.name+"="+p.value)
			}
		}
		sort.Strings(rest)
		gk := c.path + "\x00" + strings.Join(rest, "&")
		g, ok := groups[gk]
		if !ok {
			g = len(groups)
			groups[gk] = g
		}
		gs[i], tuples[i] = g, strings.Join(tuple, "\x01")
		dg := digestGroups[c.digest]
		if dg == nil {
			dg = map[int]bool{}
			digestGroups[c.digest] = dg
		}
		if len(dg) < errorDigestGroups {
			dg[g] = true
		}
	}
	for i := range caps {
		c := &caps[i]
		if len(digestGroups[c.digest]) >= errorDigestGroups {
			continue
		}
		g, tk := gs[i], tuples[i]
		if pv, ok := prev[g]; ok && pv.tuple != tk {
			p := pair{t1: pv.c.t, t2: c.t, group: g, agree: pv.c.digest == c.digest, a: pv.c, b: c}
			pairs = append(pairs, p)
			if p.agree {
				for k, n := range set {
					values[k][valueOf(pv.c, n)] = true
					values[k][valueOf(c, n)] = true
				}
			}
		}
		prev[g] = last{c, tk}
	}
	return pairs, values
}

// valueOf returns the values of the parameter name in c, or "\x01" when
// c has none.
func valueOf(c *capture, name string) string {
	v, found := "", false
	for _, p := range c.params {
		if p.name == name {
			v += p.value + "\x00"
			found = true
		}
	}
	if !found {
		return "\x01"
	}
	return v
}

// changePoints finds up to maxChangePoints times at which the host's
// content changed: each lies inside the intervals of disagreeing pairs
// of at least minChangeGroups groups and inside no agreeing pair's
// interval, the one that explains most of those left first. It
// returns whether a pair's disagreement is explained by one of them
// (its interval holds one). Pairs without times are never explained.
func changePoints(pairs []pair) func(pair) bool {
	var dis, agr []pair
	for _, p := range pairs {
		if p.t1 == 0 || p.t2 == 0 || p.t1 >= p.t2 {
			continue
		}
		if p.agree {
			agr = append(agr, p)
		} else {
			dis = append(dis, p)
		}
	}
	// (Quadratic in the pairs: a sample of evenly spaced ones beyond
	// maxChangePairs.)
	dis, agr = spaced(dis, maxChangePairs), spaced(agr, maxChangePairs)
	inside := func(t int64, p pair) bool { return p.t1 < t && t <= p.t2 }
	// A change point lies where no agreeing pair spans, inside the
	// disagreeing pairs it explains: the ends of the intervals are the
	// places to try.
	var cands []int64
	for _, d := range dis {
		cands = append(cands, d.t1+1, d.t2)
	}
	for _, a := range agr {
		cands = append(cands, a.t1, a.t2+1)
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	var points []int64
	explained := make([]bool, len(dis))
	for len(points) < maxChangePoints {
		best, bestN := int64(0), 0
		for _, t := range cands {
			ok := true
			for _, a := range agr {
				if inside(t, a) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			n, gs := 0, map[int]bool{}
			for i, d := range dis {
				if !explained[i] && inside(t, d) {
					n++
					gs[d.group] = true
				}
			}
			if len(gs) >= minChangeGroups && (n > bestN || n == bestN && t < best) {
				best, bestN = t, n
			}
		}
		if bestN == 0 {
			break
		}
		points = append(points, best)
		for i, d := range dis {
			if inside(best, d) {
				explained[i] = true
			}
		}
	}
	return func(p pair) bool {
		for _, t := range points {
			if p.t1 != 0 && inside(t, p) {
				return true
			}
		}
		return false
	}
}

// spaced returns at most n of ps, evenly spaced.
func spaced(ps []pair, n int) []pair {
	if len(ps) <= n {
		return ps
	}
	out := make([]pair, n)
	for i := range out {
		out[i] = ps[i*len(ps)/n]
	}
	return out
}
