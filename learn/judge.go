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
	maxHostCaptures  = 100_000  // a host with more evidence is sampled (hostBatch)
	maxHostBytes     = 64 << 20 // the same, in bytes of its captures' keys, URLs and digests
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
	path   string  // the key up to its query
	params []param // the key's query parameters
	digest int32   // interned
	key    int32   // interned key: captures of one URL
	t      int64   // Unix nanoseconds; 0: unknown
	url    string
}

type param struct{ name, value string }

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
	for rest := key[q+1:]; rest != ""; {
		var pair string
		pair, rest, _ = strings.Cut(rest, "&")
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
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
	errDigest   []bool // of each digest: an error page's (see newHostData)
	excluded    int    // captures the pages' own history leaves out (noise, pages that change on every capture)
}

// newHostData prepares the evidence captures of a host: it marks the
// digests of error pages (shared by several unrelated paths), which make
// no agreement, and leaves out the captures the page's own history
// explains (a digest that no other
// capture shows, on a URL whose other captures show another: noise; and
// every capture of a URL whose captures all differ: a page that changes
// on every capture), in time order.
func newHostData(host string, recs []record) *hostData {
	hd := &hostData{host: host}
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
		caps = append(caps, hcap{path: path, params: params, digest: d, key: k, t: r.t, url: r.url})
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
	for _, c := range hd.caps {
		hd.digestCount[c.digest]++
		if !slices.Contains(hd.keyDigests[c.key], c.digest) {
			hd.keyDigests[c.key] = append(hd.keyDigests[c.key], c.digest)
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
			if !slices.ContainsFunc(c.params[:i], func(q param) bool { return q.name == p.name }) {
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
	// Greedy rounds learn a set at a time, each judged with the sets
	// learned before left out; then each learned set is judged again
	// with all the others left out (a set learned early, on groups that
	// another parameter split thin, may show its counterexamples only
	// then). A set that fails is banned and the rounds run again.
	banned := map[string]bool{}
	var sets [][]string
	var last []Finding
	var samples []string
	for {
		sets, findings, samples, last = hd.rounds(cands, banned, minPairs)
		failed := -1
		for i, set := range sets {
			others := map[string]bool{}
			for k, o := range sets {
				for _, n := range o {
					others[n] = k != i
				}
			}
			f, s := hd.judge(set, others, minPairs)
			if f.Verdict != Learned {
				failed = i
				break
			}
			findings[i], samples[i] = f, s
		}
		if failed < 0 {
			break
		}
		banned[strings.Join(sets[failed], "\x00")] = true
	}
	ignored := map[string]bool{}
	for _, set := range sets {
		for _, n := range set {
			ignored[n] = true
		}
	}
	// canon.Rules match names in any letter case: a learned name that
	// another name of the host spells in another case would drop that one
	// too, which nothing showed irrelevant.
	folded := map[string]int{}
	for n := range count {
		folded[strings.ToLower(n)]++
	}
	for n := range ignored {
		if folded[strings.ToLower(n)] == 1 {
			learned = append(learned, n)
		}
	}
	sort.Strings(learned)
	if len(samples) > 0 {
		sample = samples[0]
	}
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
	pairHistory                     // either URL showed the other's digest at another time: the page changed
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
	vals  []string // of each capture, the values of each name of set (len(set) a capture); "\x01": absent
	group []int32  // of each capture
	pairs []pair
	once  []map[string]bool // of each name of set, the values one capture has

	errDigest map[int32]bool          // digests several groups share (error pages)
	witness   map[[2]int32][][]string // see build

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
	j.vals = make([]string, n*len(set))
	j.group = make([]int32, n)
	groups := map[string]int32{}
	var rest []string
	var gk strings.Builder
	for i := range hd.caps {
		c := &hd.caps[i]
		rest = rest[:0]
		vals := j.vals[i*len(set) : (i+1)*len(set)]
		for _, p := range c.params {
			if k := slices.Index(set, p.name); k >= 0 {
				vals[k] += p.value + "\x00"
			} else if !ignored[p.name] {
				rest = append(rest, p.name+"="+p.value)
			}
		}
		for k := range vals {
			if vals[k] == "" {
				vals[k] = "\x01"
			}
		}
		sort.Strings(rest)
		gk.Reset()
		gk.WriteString(c.path)
		for _, r := range rest {
			gk.WriteByte(0)
			gk.WriteString(r)
		}
		g, ok := groups[gk.String()]
		if !ok {
			g = int32(len(groups))
			groups[gk.String()] = g
		}
		j.group[i] = g
	}
	// A digest that the captures of several groups share is an error
	// page's (a soft-404 of ids that do not exist): two captures that
	// show it make no agreement (but one that shows it and one that
	// does not disagree as any other two).
	digestGroups := map[int32][]int32{}
	for i := range hd.caps {
		d := hd.caps[i].digest
		if gs := digestGroups[d]; len(gs) < errorDigestGroup && !slices.Contains(gs, j.group[i]) {
			digestGroups[d] = append(gs, j.group[i])
		}
	}
	counts := make([]map[string]int, len(set))
	for k := range counts {
		counts[k] = map[string]int{}
	}
	j.errDigest = map[int32]bool{}
	for d, gs := range digestGroups {
		if len(gs) >= errorDigestGroup {
			j.errDigest[d] = true
		}
	}
	for i := range hd.caps {
		for k := range set {
			counts[k][j.vals[i*len(set)+k]]++
		}
	}
	j.once = make([]map[string]bool, len(set))
	for k := range set {
		j.once[k] = map[string]bool{}
		for v, c := range counts[k] {
			if c == 1 {
				j.once[k][v] = true
			}
		}
	}
	// The values each (group, digest) shows for each name of set that
	// no other capture has too (up to two): a disagreement between two
	// digests of a group is neutral when no two different such values
	// show them.
	j.witness = map[[2]int32][][]string{}
	for i := range hd.caps {
		gd := [2]int32{j.group[i], hd.caps[i].digest}
		w := j.witness[gd]
		if w == nil {
			w = make([][]string, len(set))
			j.witness[gd] = w
		}
		for k := range set {
			if v := j.vals[i*len(set)+k]; !j.once[k][v] && len(w[k]) < 2 && !slices.Contains(w[k], v) {
				w[k] = append(w[k], v)
			}
		}
	}
	prev := make([]int32, len(groups))
	for g := range prev {
		prev[g] = -1
	}
	for i := range hd.caps {
		g := j.group[i]
		if pi := prev[g]; pi >= 0 && !slices.Equal(j.values(int(pi)), j.values(i)) {
			j.pairs = append(j.pairs, j.classify(pi, int32(i), g))
		}
		prev[g] = int32(i)
	}
}

func (j *judgment) values(i int) []string { return j.vals[i*len(j.set) : (i+1)*len(j.set)] }

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
	case slices.Contains(hd.keyDigests[ca.key], cb.digest) || slices.Contains(hd.keyDigests[cb.key], ca.digest):
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

// neutral reports whether the disagreement of captures a and b of group
// g says nothing of the set: for every name of the set whose values
// differ between them, no two different values that other captures have
// too show their two digests in the group (a value seen once cannot
// tell a page from noise; but where such values show both digests, the
// values name the pages, whichever captures are next to each other in
// time).
func (j *judgment) neutral(a, b, g int32) bool {
	va, vb := j.values(int(a)), j.values(int(b))
	wa := j.witness[[2]int32{g, j.hd.caps[a].digest}]
	wb := j.witness[[2]int32{g, j.hd.caps[b].digest}]
	for k := range va {
		if va[k] == vb[k] {
			continue
		}
		for _, x := range wa[k] {
			for _, y := range wb[k] {
				if x != y {
					return false
				}
			}
		}
	}
	return true
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
		v string
	}
	odd := map[nv]map[int32]bool{}
	inPairs := map[nv]map[int32]bool{}
	note := func(m map[nv]map[int32]bool, key nv, i int32) {
		if m[key] == nil {
			m[key] = map[int32]bool{}
		}
		m[key][i] = true
	}
	for _, p := range j.pairs {
		if p.kind == pairHistory || p.kind == pairChurn || p.kind == pairErrorPage {
			continue
		}
		va, vb := j.values(int(p.a)), j.values(int(p.b))
		for k := range set {
			note(inPairs, nv{k, va[k]}, p.a)
			note(inPairs, nv{k, vb[k]}, p.b)
			if p.kind != pairUnconfirmed || va[k] == vb[k] || j.once[k][va[k]] || j.once[k][vb[k]] {
				continue
			}
			if p.odd[0] {
				note(odd, nv{k, va[k]}, p.a)
			}
			if p.odd[1] {
				note(odd, nv{k, vb[k]}, p.b)
			}
		}
	}
	rare := func(k int, v string) bool {
		o := len(odd[nv{k, v}])
		return o >= 2 && 2*o >= len(inPairs[nv{k, v}])
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
	values := make([]map[string]bool, len(set))
	for k := range values {
		values[k] = map[string]bool{}
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
					if slices.ContainsFunc(hd.caps[c].params, func(q param) bool { return slices.Contains(set, q.name) }) {
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
