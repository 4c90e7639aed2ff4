package learn

// Judging one host: which sets of its parameters do not name its pages
// (see the package documentation for the rule).

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Thresholds of the rule (see the package documentation).
const (
	defaultMinPairs  = 5
	minValues        = 3    // values of each parameter among the agreeing captures
	minAgreeGroups   = 3    // pages (groups) the agreeing pairs fall on
	errorDigestPaths = 3    // distinct paths that make a shared digest an error page's
	errorDigestGroup = 5    // distinct groups of a judgment that make a shared digest an error page's
	pairNoise        = 0.06 // the share of pairs digest noise may make disagree (1-3 % of captures with a random digest, each in up to two pairs)
	maxCandidates    = 12
	maxSetSize       = 3
	maxReruns        = 3        // rounds run again after a learned set fails when judged with the others left out
	maxHostCaptures  = 100_000  // a host with more evidence is sampled (hostBatch)
	maxHostBytes     = 64 << 20 // the same, in bytes of its captures' keys, URLs and digests
	// maxJudgeWork bounds the judgments of a host's rounds, each of
	// which reads all its captures: a host of 100,000 captures may make
	// 1,500 (five rounds of every set of 12 names), a smaller one more.
	maxJudgeWork = 150_000_000
)

// noiseAllowance is how many of n pairs may disagree without a veto:
// what digest noise makes (pairNoise), and three standard deviations
// more.
func noiseAllowance(n int) int {
	mean := pairNoise * float64(n)
	return int(mean + 3*math.Sqrt(mean*(1-pairNoise)))
}

// hcap is an evidence capture as a judgment reads it.
type hcap struct {
	path   int32    // interned: the key up to its query
	params []iparam // the key's query parameters, interned, sorted by name (a name's values in the key's order)
	digest int32    // interned
	key    int32    // interned key: captures of one URL
	t      int64    // Unix nanoseconds; 0: unknown
	url    string
}

// iparam is a query parameter, its name and value interned by the host.
type iparam struct{ name, value int32 }

type param struct{ name, value string }

// noValue is the value of a parameter written without "=" ("?a", which
// is another key than "?a="): no key holds a byte below 0x20 unescaped.
const noValue = "\x01"

// splitKey splits a key into what precedes its query and its query's
// parameters (name up to the first "=", a value noValue without one).
func splitKey(key string) (string, []param) {
	if i := strings.IndexByte(key, '#'); i >= 0 {
		key = key[:i]
	}
	q := strings.IndexByte(key, '?')
	if q < 0 {
		return key, nil
	}
	var ps []param
	for rest := key[q+1:]; rest != ""; {
		var pair string
		pair, rest, _ = strings.Cut(rest, "&")
		if pair == "" {
			continue
		}
		name, value, eq := strings.Cut(pair, "=")
		if !eq {
			value = noValue
		}
		ps = append(ps, param{name, value})
	}
	return key[:q], ps
}

// hostData is the evidence of one host, ready to judge.
type hostData struct {
	host        string
	caps        []hcap  // in time order (then URL and digest)
	digestCount []int32 // captures of each digest among caps
	keyDigests  [][]int32
	// spans holds, of each key and digest, the first and last known time
	// (not 0) at which the key's captures show it.
	spans     map[[2]int32][2]int64
	errDigest []bool // of each digest: an error page's (see newHostData)
	excluded  int    // captures the pages' own history leaves out (noise, pages that change on every capture)

	pathNames map[string]bool // lowercase names of path parameters a rule would drop too (SessionParams); nil under TrackingParams

	budget     int  // judgments the rounds may still make (maxJudgeWork)
	unfinished bool // the rounds ran out of it

	names   []string         // by ID
	nameID  map[string]int32 // (the names of the parameters)
	valueID map[string]int32 // (their values, and values joined: a name given more than once)
}

// intern returns the ID of s in ids.
func intern(ids map[string]int32, s string) int32 {
	id, ok := ids[s]
	if !ok {
		id = int32(len(ids))
		ids[s] = id
	}
	return id
}

// newHostData prepares the evidence captures of a host: it marks the
// digests of error pages (shared by several unrelated paths), which make
// no agreement, and leaves out the captures the page's own history
// explains (a digest that no other capture shows, on a URL whose other
// captures show another one twice: noise; and every capture of a URL
// captured three times or more that never showed one digest twice: a
// page that changes on every capture), in time order.
func newHostData(host string, recs []record) *hostData {
	hd := &hostData{host: host, nameID: map[string]int32{}, valueID: map[string]int32{}, budget: max(300, maxJudgeWork/max(1, len(recs)))}
	pathID := map[string]int32{}
	// Error pages: a digest several unrelated paths share.
	paths := map[string][]string{}
	for _, r := range recs {
		path, _, _ := strings.Cut(r.key, "?")
		if ps := paths[r.digest]; len(ps) < errorDigestPaths && !slices.Contains(ps, path) {
			paths[r.digest] = append(ps, path)
		}
	}
	digestID := map[string]int32{}
	keyID := map[string]int32{}
	var caps []hcap
	var errDigest []bool
	for _, r := range recs {
		d, ok := digestID[r.digest]
		if !ok {
			d = int32(len(digestID))
			digestID[r.digest] = d
			errDigest = append(errDigest, len(paths[r.digest]) >= errorDigestPaths)
		}
		k, ok := keyID[r.key]
		if !ok {
			k = int32(len(keyID))
			keyID[r.key] = k
		}
		path, params := splitKey(r.key)
		ips := make([]iparam, len(params))
		for i, p := range params {
			n, ok := hd.nameID[p.name]
			if !ok {
				n = int32(len(hd.names))
				hd.nameID[p.name] = n
				hd.names = append(hd.names, p.name)
			}
			ips[i] = iparam{n, intern(hd.valueID, p.value)}
		}
		// By name, the values of a name given more than once in the
		// key's order: "?a=1&a=2" and "?a=2&a=1" are two keys, which a
		// server may read as two pages (the last value wins).
		slices.SortStableFunc(ips, func(a, b iparam) int { return int(a.name - b.name) })
		caps = append(caps, hcap{path: intern(pathID, path), params: ips, digest: d, key: k, t: r.t, url: r.url})
	}
	hd.errDigest = errDigest
	count := make([]int32, len(digestID))
	byKey := make([][]int32, len(keyID)) // the digests of each key's captures
	for _, c := range caps {
		count[c.digest]++
		byKey[c.key] = append(byKey[c.key], c.digest)
	}
	drop := func(c hcap) bool {
		ds := byKey[c.key]
		if len(ds) < 2 {
			return false
		}
		distinct := slices.Compact(slices.Sorted(slices.Values(ds)))
		switch {
		case len(distinct) == 1:
			return false
		case len(ds) >= 3 && len(distinct) == len(ds):
			return true // a page that changes on every capture
		case count[c.digest] > 1:
			return false
		}
		// A digest no other capture shows, on a URL that shows another
		// one more than once: noise.
		for _, d := range distinct {
			if d != c.digest && countIn(ds, d) >= 2 {
				return true
			}
		}
		return false
	}
	kept := caps[:0]
	for _, c := range caps {
		if drop(c) {
			hd.excluded++
			continue
		}
		kept = append(kept, c)
	}
	hd.caps = kept
	hd.digestCount = make([]int32, len(digestID))
	hd.keyDigests = make([][]int32, len(keyID))
	hd.spans = map[[2]int32][2]int64{}
	for _, c := range hd.caps {
		hd.digestCount[c.digest]++
		if !slices.Contains(hd.keyDigests[c.key], c.digest) {
			hd.keyDigests[c.key] = append(hd.keyDigests[c.key], c.digest)
		}
		if c.t != 0 {
			k := [2]int32{c.key, c.digest}
			if sp, ok := hd.spans[k]; ok {
				hd.spans[k] = [2]int64{min(sp[0], c.t), max(sp[1], c.t)}
			} else {
				hd.spans[k] = [2]int64{c.t, c.t}
			}
		}
	}
	slices.SortStableFunc(hd.caps, func(a, b hcap) int {
		switch {
		case a.t != b.t:
			if a.t < b.t {
				return -1
			}
			return 1
		case a.url != b.url:
			return strings.Compare(a.url, b.url)
		}
		return int(a.digest - b.digest)
	})
	return hd
}

// learnHost learns the parameters of the host that do not name its
// pages: sets of up to maxSetSize of its most frequent names, smallest
// first, each judged with the sets learned before it left out. It
// returns the names learned, a capture URL that has some of them (to
// check the rule on), and the findings: the learned sets, in the order
// they were learned, then every set of the last round that had pairs.
func (hd *hostData) learnHost(minPairs int) (learned []string, sample string, findings []Finding) {
	count := map[string]int{}
	for _, c := range hd.caps {
		for i, p := range c.params {
			if i == 0 || c.params[i-1].name != p.name {
				count[hd.names[p.name]]++
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
	// Greedy rounds learn a set at a time, each judged with the sets
	// learned before left out; then each learned set is judged again
	// with all the others left out (a set learned early, on groups that
	// another parameter split thin, may show its counterexamples only
	// then). A set that fails is banned and the rounds run again, up to
	// maxReruns times; then a failing set is only dropped.
	banned := map[string]bool{}
	var bannedFindings []Finding
	sets, findings, samples, last := hd.rounds(cands, banned, minPairs)
	for reruns := 0; ; {
		failed := -1
		var ff Finding
		for i, set := range sets {
			others := map[string]bool{}
			for k, o := range sets {
				for _, n := range o {
					others[n] = others[n] || k != i
				}
			}
			f, s := hd.judge(set, others, minPairs)
			if f.Verdict != Learned {
				failed, ff = i, f
				break
			}
			findings[i], samples[i] = f, s
		}
		if failed < 0 {
			break
		}
		ff.Why = "judged again with the other learned sets left out: " + ff.Why
		bannedFindings = append(bannedFindings, ff)
		banned[strings.Join(sets[failed], "\x00")] = true
		if reruns < maxReruns {
			reruns++
			sets, findings, samples, last = hd.rounds(cands, banned, minPairs)
			continue
		}
		sets = slices.Delete(sets, failed, failed+1)
		findings = slices.Delete(findings, failed, failed+1)
		samples = slices.Delete(samples, failed, failed+1)
	}
	last = append(last, bannedFindings...)
	// A learned set makes a rule only where the rule would drop nothing
	// but what was judged. canon.Rules match names in any letter case: a
	// learned name that another name of the host spells in another case
	// would drop that one too; and a SessionParams rule drops the path
	// parameters of its names too (";name=value"), which no judgment
	// sees. Such a set is refused (its finding says why), and the others
	// stand: they were judged with its names left out of the groups, which
	// only joins more captures into a group.
	folded := map[string]int{}
	for n := range count {
		folded[strings.ToLower(n)]++
	}
	unusable := func(n string) string {
		switch ln := strings.ToLower(n); {
		case folded[ln] > 1:
			return "no rule: another parameter of the host spells " + n + " in another letter case, which the rule would drop too"
		case hd.pathNames[ln]:
			return "no rule: the host's captures use " + n + " as a path parameter (;" + n + "=…), which the rule (SessionParams) would drop too"
		}
		return ""
	}
	var kept []Finding
	var refused []Finding
	sample = ""
	for i, set := range sets {
		why := ""
		for _, n := range set {
			if why = unusable(n); why != "" {
				break
			}
		}
		if why != "" {
			f := findings[i]
			f.Verdict, f.Why = Refused, why
			refused = append(refused, f)
			continue
		}
		kept = append(kept, findings[i])
		learned = append(learned, set...)
		if sample == "" {
			sample = samples[i]
		}
	}
	sort.Strings(learned)
	findings = append(kept, refused...)
	return learned, sample, append(findings, last...)
}

// countIn returns how many times d is in ds.
func countIn(ds []int32, d int32) int {
	n := 0
	for _, x := range ds {
		if x == d {
			n++
		}
	}
	return n
}

// rounds learns sets of the names cands greedily, smallest first, in
// the order of cands, each judged with the sets learned before it left
// out, but none of banned (sets joined by NUL). It returns the learned
// sets, their findings and sample URLs, and the findings of every other
// set of the last round that had pairs.
func (hd *hostData) rounds(cands []string, banned map[string]bool, minPairs int) (sets [][]string, findings []Finding, samples []string, last []Finding) {
	ignored := map[string]bool{}
	for again := true; again; {
		again = false
		last = last[:0]
		for size := 1; size <= maxSetSize && !again; size++ {
			for _, set := range subsets(cands, ignored, size) {
				if banned[strings.Join(set, "\x00")] {
					continue
				}
				if hd.budget == 0 {
					hd.unfinished = true
					return sets, findings, samples, last
				}
				hd.budget--
				f, s := hd.judge(set, ignored, minPairs)
				if f.Verdict == Learned {
					sets = append(sets, set)
					findings = append(findings, f)
					samples = append(samples, s)
					for _, n := range set {
						ignored[n] = true
					}
					again = true
					break
				}
				if f.Pairs > 0 {
					last = append(last, f)
				}
			}
		}
	}
	return sets, findings, samples, last
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

// pairKind is what a pair says of the judged set.
type pairKind uint8

const (
	pairAgree       pairKind = iota // one digest
	pairErrorPage                   // one digest, an error page's: no agreement
	pairHistory                     // either URL showed the other's digest at another time, on the side of a change between them: the page changed
	pairChurn                       // a change point of the host's pages lies between them
	pairNeutral                     // a value seen once on the host: it cannot tell a page from noise
	pairUnconfirmed                 // a digest seen once on the host: noise, unless its value's captures keep disagreeing
	pairCounter                     // a counterexample: the set names the page
)

// pair is two captures next to each other in time, in one group (what
// is left of their keys without the judged set), whose values of the set
// differ.
type pair struct {
	a, b  int32 // indexes in caps, a first in time
	group int32
	kind  pairKind
	odd   [2]bool // pairUnconfirmed: which side's digest no other capture shows
}

// judgment is the state of one judgment.
type judgment struct {
	hd    *hostData
	set   []string
	vals  []int32 // of each capture, the value of each name of set (len(set) a capture); -1: absent
	group []int32 // of each capture
	pairs []pair
	count []map[int32]int32 // of each name of set, the captures of each value

	errDigest map[int32]bool       // digests several groups share (error pages)
	members   [][]int32            // of each group, its captures
	witness   map[[2]int32][]int32 // see witnesses

	churned bool // explainChurn ran
}

// judge decides whether the parameters set, with those in ignored left
// out, do not name the pages of the host. It returns the finding and,
// for a learned set, the URL of a capture with one of its names.
func (hd *hostData) judge(set []string, ignored map[string]bool, minPairs int) (Finding, string) {
	j := &judgment{hd: hd, set: set}
	j.build(ignored)
	f := Finding{Host: hd.host, Params: slices.Clone(set), Pairs: len(j.pairs)}
	v := j.weigh(minPairs)
	if v.wantChurn {
		// Only where it matters: the host's changes in time may explain
		// disagreements that would otherwise refuse the set.
		j.explainChurn()
		v = j.weigh(minPairs)
	}
	f.Agree, f.Explained, f.Unexplained, f.Counter = v.agree, v.explained, v.unexplained, v.counter
	f.Verdict, f.Why = v.verdict, v.why
	for i, p := range j.pairs {
		if len(f.Counterexamples) == 3 {
			break
		}
		if k := v.kinds[i]; k == pairCounter || v.ratioFailed && (k == pairNeutral || k == pairUnconfirmed) {
			f.Counterexamples = append(f.Counterexamples, [2]string{redact(hd.caps[p.a].url), redact(hd.caps[p.b].url)})
		}
	}
	return f, v.sample
}

// build groups the captures and makes the pairs.
func (j *judgment) build(ignored map[string]bool) {
	hd, set := j.hd, j.set
	n := len(hd.caps)
	// Of each name of the host: its index in set (-1: none), and whether
	// it is left out.
	inSet := make([]int, len(hd.names))
	skip := make([]bool, len(hd.names))
	for id, name := range hd.names {
		inSet[id] = slices.Index(set, name)
		skip[id] = ignored[name] || inSet[id] >= 0
	}
	j.vals = make([]int32, n*len(set))
	for i := range j.vals {
		j.vals[i] = -1
	}
	j.group = make([]int32, n)
	// The group of a capture: its path and the parameters left, hashed,
	// each hash's groups told apart by a capture of theirs.
	byHash := make(map[uint64]int32, n) // a hash's first group
	collided := map[uint64][]int32{}    // the hash's other groups (a collision)
	var first []int32                   // of each group, a capture of it
	sameRest := func(a, b *hcap) bool {
		if a.path != b.path {
			return false
		}
		pa, pb := a.params, b.params
		for {
			for len(pa) > 0 && skip[pa[0].name] {
				pa = pa[1:]
			}
			for len(pb) > 0 && skip[pb[0].name] {
				pb = pb[1:]
			}
			if len(pa) == 0 || len(pb) == 0 {
				return len(pa) == len(pb)
			}
			if pa[0] != pb[0] {
				return false
			}
			pa, pb = pa[1:], pb[1:]
		}
	}
	repeated := make([]bool, len(set))
	for i := range hd.caps {
		c := &hd.caps[i]
		h := uint64(14695981039346656037) ^ uint64(c.path)
		h *= 1099511628211
		vals := j.vals[i*len(set) : (i+1)*len(set)]
		for _, p := range c.params {
			if k := inSet[p.name]; k >= 0 {
				if vals[k] >= 0 {
					repeated[k] = true
				}
				vals[k] = p.value
				continue
			}
			if skip[p.name] {
				continue
			}
			h = (h ^ uint64(p.name)) * 1099511628211
			h = (h ^ uint64(p.value)) * 1099511628211
		}
		for k, name := range set {
			if repeated[k] {
				// A name given more than once: its values, joined (a
				// value of its own, which no single value spells).
				repeated[k] = false
				vals[k] = intern(hd.valueID, "\x00"+strings.Join(valuesOf(c, hd.nameID[name]), "\x00"))
			}
		}
		g := int32(-1)
		if cand, ok := byHash[h]; ok && sameRest(c, &hd.caps[first[cand]]) {
			g = cand
		} else if ok {
			for _, cand := range collided[h] {
				if sameRest(c, &hd.caps[first[cand]]) {
					g = cand
					break
				}
			}
		}
		if g < 0 {
			g = int32(len(first))
			first = append(first, int32(i))
			if _, ok := byHash[h]; ok {
				collided[h] = append(collided[h], g)
			} else {
				byHash[h] = g
			}
		}
		j.group[i] = g
	}
	// A digest that the captures of several groups share is an error
	// page's (a soft-404 of ids that do not exist): two captures that
	// show it make no agreement (but one that shows it and one that
	// does not disagree as any other two).
	type groupsOf struct {
		n  int
		gs [errorDigestGroup]int32
	}
	digestGroups := make([]groupsOf, len(hd.digestCount))
	j.errDigest = map[int32]bool{}
	for i := range hd.caps {
		dg := &digestGroups[hd.caps[i].digest]
		if dg.n < errorDigestGroup && !slices.Contains(dg.gs[:dg.n], j.group[i]) {
			dg.gs[dg.n] = j.group[i]
			if dg.n++; dg.n == errorDigestGroup {
				j.errDigest[hd.caps[i].digest] = true
			}
		}
	}
	j.count = make([]map[int32]int32, len(set))
	for k := range set {
		j.count[k] = make(map[int32]int32, 64)
	}
	for i := range hd.caps {
		for k := range set {
			j.count[k][j.vals[i*len(set)+k]]++
		}
	}
	// (The members in one array, each group's a slice of it.)
	size := make([]int32, len(first)+1)
	for _, g := range j.group {
		size[g+1]++
	}
	for g := 1; g < len(size); g++ {
		size[g] += size[g-1]
	}
	flat := make([]int32, n)
	j.members = make([][]int32, len(first))
	for g := range j.members {
		j.members[g] = flat[size[g]:size[g]:size[g+1]]
	}
	for i, g := range j.group {
		j.members[g] = append(j.members[g], int32(i))
	}
	j.witness = map[[2]int32][]int32{}
	prev := make([]int32, len(first))
	for g := range prev {
		prev[g] = -1
	}
	j.pairs = make([]pair, 0, n/2)
	for i := range hd.caps {
		g := j.group[i]
		if pi := prev[g]; pi >= 0 && !slices.Equal(j.values(int(pi)), j.values(i)) {
			j.pairs = append(j.pairs, j.classify(pi, int32(i), g))
		}
		prev[g] = int32(i)
	}
}

// valuesOf returns the values (their IDs, as text) of the parameter
// name (an ID) of c.
func valuesOf(c *hcap, name int32) []string {
	var vs []string
	for _, p := range c.params {
		if p.name == name {
			vs = append(vs, strconv.Itoa(int(p.value)))
		}
	}
	return vs
}

func (j *judgment) values(i int) []int32 { return j.vals[i*len(j.set) : (i+1)*len(j.set)] }

// once reports whether the value v of the set's k-th name is one capture's only.
func (j *judgment) once(k int, v int32) bool { return j.count[k][v] == 1 }

// classify makes the pair of captures a and b of group g.
func (j *judgment) classify(a, b, g int32) pair {
	hd := j.hd
	p := pair{a: a, b: b, group: g}
	ca, cb := &hd.caps[a], &hd.caps[b]
	switch {
	case ca.digest == cb.digest && (hd.errDigest[ca.digest] || j.errDigest[ca.digest]):
		p.kind = pairErrorPage
	case ca.digest == cb.digest:
		p.kind = pairAgree
	case hd.changed(ca, cb):
		p.kind = pairHistory
	case j.neutral(a, b, g):
		p.kind = pairNeutral
	case hd.digestCount[ca.digest] >= 2 && hd.digestCount[cb.digest] >= 2:
		p.kind = pairCounter
	default:
		p.kind = pairUnconfirmed
		p.odd = [2]bool{hd.digestCount[ca.digest] == 1, hd.digestCount[cb.digest] == 1}
	}
	return p
}

// changed reports whether the pages' history explains the disagreement
// of a and b (a no later than b): either URL showed the other's digest
// at another time, and the change from a's digest to b's can lie between
// them: neither URL shows a's digest after b, nor b's before a (a page
// that shows both again and again, each on its own URL, is two pages,
// however one of them once showed the other's). Unknown times do not
// contradict.
func (hd *hostData) changed(a, b *hcap) bool {
	if !slices.Contains(hd.keyDigests[a.key], b.digest) && !slices.Contains(hd.keyDigests[b.key], a.digest) {
		return false
	}
	if a.t == 0 || b.t == 0 {
		return true
	}
	for _, k := range [2]int32{a.key, b.key} {
		if sp, ok := hd.spans[[2]int32{k, a.digest}]; ok && sp[1] > b.t {
			return false
		}
		if sp, ok := hd.spans[[2]int32{k, b.digest}]; ok && sp[0] < a.t {
			return false
		}
	}
	return true
}

// neutral reports whether the disagreement of captures a and b of group
// g says nothing of the set: for every name of the set whose values
// differ between them, no two different values that other captures have
// too show their two digests in the group (a value seen once cannot
// tell a page from noise; but where such values show both digests, the
// values name the pages, whichever captures are next to each other in
// time).
func (j *judgment) neutral(a, b, g int32) bool {
	va, vb := j.values(int(a)), j.values(int(b))
	wa, wb := j.witnesses(g, j.hd.caps[a].digest), j.witnesses(g, j.hd.caps[b].digest)
	for k := range va {
		if va[k] == vb[k] {
			continue
		}
		for _, x := range wa[2*k : 2*k+2] {
			for _, y := range wb[2*k : 2*k+2] {
				if x != -2 && y != -2 && x != y {
					return false
				}
			}
		}
	}
	return true
}

// witnesses returns the values that the captures of group g with digest
// d show for each name of the set (the k-th name's at 2k and 2k+1) and
// that other captures have too: up to two, -2 for none.
func (j *judgment) witnesses(g, d int32) []int32 {
	if w, ok := j.witness[[2]int32{g, d}]; ok {
		return w
	}
	w := make([]int32, 2*len(j.set))
	for x := range w {
		w[x] = -2
	}
	for _, i := range j.members[g] {
		if j.hd.caps[i].digest != d {
			continue
		}
		for k := range j.set {
			v := j.vals[int(i)*len(j.set)+k]
			if j.once(k, v) || w[2*k] == v || w[2*k+1] != -2 {
				continue
			}
			if w[2*k] == -2 {
				w[2*k] = v
			} else {
				w[2*k+1] = v
			}
		}
	}
	j.witness[[2]int32{g, d}] = w
	return w
}

// verdict is the outcome of weighing a judgment's pairs.
type verdict struct {
	verdict                                Verdict
	why                                    string
	agree, explained, unexplained, counter int
	ratioFailed                            bool
	wantChurn                              bool       // change points could change the verdict
	sample                                 string     // a learned set: a capture URL with one of its names
	kinds                                  []pairKind // of each pair, with the unconfirmed ones that veto as pairCounter
}

// weigh weighs the pairs. A counterexample vetoes: a pair whose digests
// other captures show too (no noise), with no value seen once, that
// neither the pages' history nor the host's change points explain; a
// pair whose odd digest (seen once) falls on a value that at least
// twice, and on at least half of its captures in pairs, shows such an
// odd digest (a rare value that names pages, not noise); or a pair with
// an odd digest in a group where two pairs or more have odd digests on
// both sides (a listing whose pages, each captured once, all differ). The other
// unexplained disagreements (values seen once, noise) are tolerated up
// to what digest noise makes (noiseAllowance). A set is learned when
// nothing vetoes, at least minPairs pairs agree, on at least
// minAgreeGroups pages, showing at least minValues values of each name.
func (j *judgment) weigh(minPairs int) verdict {
	hd, set := j.hd, j.set
	// The odd captures of the unconfirmed pairs, by name and value, and
	// the captures of each value that are in pairs.
	type nv struct {
		k int
		v int32
	}
	// (Only where a pair has an odd digest.)
	var odd, inPairs map[nv]int32
	if slices.ContainsFunc(j.pairs, func(p pair) bool { return p.kind == pairUnconfirmed }) {
		odd, inPairs = map[nv]int32{}, map[nv]int32{}
		paired := make([]bool, len(hd.caps))
		oddOn := make([]uint8, len(hd.caps)) // bit k: odd on the set's k-th name
		for _, p := range j.pairs {
			if p.kind == pairHistory || p.kind == pairChurn || p.kind == pairErrorPage {
				continue
			}
			paired[p.a], paired[p.b] = true, true
			if p.kind != pairUnconfirmed {
				continue
			}
			va, vb := j.values(int(p.a)), j.values(int(p.b))
			for k := range set {
				if va[k] == vb[k] || j.once(k, va[k]) || j.once(k, vb[k]) {
					continue
				}
				if p.odd[0] {
					oddOn[p.a] |= 1 << k
				}
				if p.odd[1] {
					oddOn[p.b] |= 1 << k
				}
			}
		}
		for i := range hd.caps {
			if !paired[i] {
				continue
			}
			for k := range set {
				key := nv{k, j.vals[i*len(set)+k]}
				inPairs[key]++
				if oddOn[i]&(1<<k) != 0 {
					odd[key]++
				}
			}
		}
	}
	rare := func(k int, v int32) bool {
		o := odd[nv{k, v}]
		return o >= 2 && 2*o >= inPairs[nv{k, v}]
	}
	// A group in which two pairs or more have odd digests on both sides
	// (a listing whose pages, each captured once, all differ: noise
	// makes that about as often as three odd digests in a row).
	bothOdd := map[int32]int{}
	for _, p := range j.pairs {
		if p.kind == pairUnconfirmed && p.odd[0] && p.odd[1] {
			bothOdd[p.group]++
		}
	}
	var out verdict
	values := make([]map[int32]bool, len(set))
	for k := range values {
		values[k] = map[int32]bool{}
	}
	agreeGroups := map[int32]bool{}
	out.kinds = make([]pairKind, len(j.pairs))
	for i, p := range j.pairs {
		kind := p.kind
		if kind == pairUnconfirmed && bothOdd[p.group] >= 2 {
			kind = pairCounter
		}
		if kind == pairUnconfirmed {
			va, vb := j.values(int(p.a)), j.values(int(p.b))
			for k := range set {
				if va[k] != vb[k] && (p.odd[0] && rare(k, va[k]) || p.odd[1] && rare(k, vb[k])) {
					kind = pairCounter
					break
				}
			}
		}
		out.kinds[i] = kind
		switch kind {
		case pairAgree:
			out.agree++
			agreeGroups[p.group] = true
			va, vb := j.values(int(p.a)), j.values(int(p.b))
			for k := range set {
				values[k][va[k]], values[k][vb[k]] = true, true
			}
			if out.sample == "" {
				for _, c := range []int32{p.a, p.b} {
					if slices.ContainsFunc(hd.caps[c].params, func(q iparam) bool { return slices.Contains(set, hd.names[q.name]) }) {
						out.sample = hd.caps[c].url
						break
					}
				}
			}
		case pairHistory, pairChurn, pairErrorPage:
			out.explained++
		case pairCounter:
			out.counter++
		default:
			out.unexplained++
		}
	}
	disagree := out.unexplained + out.counter
	out.ratioFailed = disagree > noiseAllowance(out.agree+disagree)
	fewValues := ""
	for k, n := range set {
		if len(values[k]) < minValues && fewValues == "" {
			fewValues = "the agreeing captures show " + strconv.Itoa(len(values[k])) + " values of " + n + ", a rule needs " + strconv.Itoa(minValues)
		}
	}
	enough := out.agree >= minPairs && fewValues == "" && len(agreeGroups) >= minAgreeGroups
	switch {
	case out.counter > 0:
		out.verdict, out.why = Refused, plural(out.counter, "counterexample")
	case out.ratioFailed:
		out.verdict, out.why = Refused, strconv.Itoa(disagree)+" of "+strconv.Itoa(out.agree+disagree)+" pairs disagree, more than digest noise makes"
	case out.agree < minPairs:
		out.verdict, out.why = NearMiss, plural(out.agree, "agreeing pair")+" of the "+strconv.Itoa(minPairs)+" a rule needs"
	case fewValues != "":
		out.verdict, out.why = NearMiss, fewValues
	case len(agreeGroups) < minAgreeGroups:
		out.verdict, out.why = NearMiss, "the agreeing pairs fall on "+plural(len(agreeGroups), "page")+", a rule needs "+strconv.Itoa(minAgreeGroups)
	default:
		out.verdict = Learned
	}
	if out.verdict != Learned {
		out.sample = ""
	}
	// Change points can only turn disagreements into explained ones.
	out.wantChurn = enough && (out.counter > 0 || out.ratioFailed) && !j.churned
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
