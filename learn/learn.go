// Package learn learns per-host URL rules from the captures a crawler or
// a web archive already keeps: each capture's URL and a digest of what it
// returned. Where URLs of a host that differ only in some query
// parameters keep giving the same content, those parameters do not name
// the page on that host ("?sid=…", "?from=home", "?_=1700000000"); where
// they give different content, they do. The rules come out as
// [canon.Rules] (a Hosts entry per host), which [canon.Profile.WithRules]
// and the command's -rules read, learned against the keys of a profile
// (canon.Crawler by default), so that what the profile merges already is
// not learned again.
//
// # The rule
//
// Precision comes first: a wrong rule merges pages a crawler then never
// fetches. Only status-200 captures with a digest count as evidence, and
// not the empty payload's. A digest that several unrelated paths of a
// host share, or the captures of several groups while a set is judged,
// is an error page's: two captures of it make no agreement. The page's
// own history explains some digests: one that no other capture shows,
// on a URL whose other captures show another one twice, is noise (ads,
// counters); a URL captured three times or more that never showed one
// digest twice is a page that changes on every capture; the captures of
// both are left out.
//
// The captures of a host that differ only in a set of parameters (one,
// two or three names, the host's most frequent ones first, each judged
// with the sets learned before left out) are grouped by the rest of
// their keys; in each group, two captures next to each other in time
// whose values of the set differ make a pair, which agrees when their
// digests are equal. A disagreeing pair is explained, and says nothing
// of the set, when either URL showed the other's digest at another time
// and the change can lie between the two captures (neither URL shows the
// earlier one's digest after the later capture, nor the later one's
// before the earlier: URLs that keep showing their own digests are two
// pages, even if one once showed the other's), or when a change point of the host lies between its captures: a time
// at which the pages of at least two groups changed cleanly (neither
// showed its old digest again) and where no page is seen unchanged (two
// captures of a group next to each other in time with one digest). Of
// the pairs left:
//
//   - A counterexample vetoes the set, however many pairs agree: a pair
//     whose two digests other captures of the host show too (neither is
//     noise), between values of which none is seen only once; a pair with
//     a digest no other capture shows (it could be noise) on a value
//     whose captures show such a digest at least twice and on at least
//     half of their pairs (a rare value that names other pages:
//     "?lang=fr" among many "?lang=en", each URL captured once); or a
//     pair with such a digest in a group where two pairs or more have
//     one on both sides (a listing whose pages, each captured once, all
//     differ).
//   - A value seen once is neutral: a pair in which every differing value
//     is seen once (every "sid" value is) is no veto, unless other
//     captures of the same two digests in the group show repeated values
//     that differ; and its agreement counts like any other.
//   - The disagreements that do not veto (values seen once, noise) may be
//     as many as digest noise makes: 6 % of the pairs (1–3 % of captures
//     with a random digest, each in up to two pairs) and three standard
//     deviations more; more refuse the set.
//
// A set is learned when nothing vetoes it, at least MinPairs pairs agree
// (5 by default), on at least three pages, and the agreeing captures show
// at least three values of each name (a parameter whose values 0 and 1
// show one page but others do not is relevant). Each learned set is then
// judged again with all the other learned sets left out (a set learned
// early, on groups another parameter split thin, may show its
// counterexamples only then); one that fails is refused and the others
// learned again without it. A set whose rule would drop more than was
// judged is refused too: a name another name of the host spells in
// another letter case (canon.Rules match names in any case), and, where
// the rules are SessionParams (which drop ";name=value" path parameters
// too), a name the captures of the host or of a subdomain use as a path
// parameter. A set that nothing refuses but that has too
// little evidence is a near miss. A name learned on one host says
// nothing about another.
//
// # Hosts, order and memory
//
// A host is judged as canon.Rules match it: example.com, EXAMPLE.com and
// example.com. are one host, a Unicode host is its A-labels; a host that
// Rules cannot name gets no rule, and a name learned for a domain is left
// out of its rule when a subdomain the rule applies to uses the name
// without having learned it. A host is judged on all its captures: the
// Learner holds them in memory up to Options.SpillBytes and then sorts
// them and writes them to a temporary directory, which it removes when it
// is done; the same captures, in any order, split into any number of
// indexes, give the same rules and the same report (a capture given
// twice counts once). A host with more than 100,000 captures (or 64 MiB
// of them) is learned from a sample: its paths with the smallest hashes,
// whole, and the last of them sampled by URL; its judging reads at most
// 150,000,000 captures (1,500 sets for 100,000 captures: Stats.Unfinished
// counts the hosts that reach the bound).
//
// Digests cannot see what does not change the bytes fetched: a parameter
// that a script of the page reads (a player's start time, a tab, a
// client-side route) leaves the digest as it is, and is learned.
package learn

import (
	"errors"
	"hash/fnv"
	"io"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/seed15588f71/canon"
)

// Capture is one capture of a URL in an archive's or a crawler's index.
type Capture struct {
	URL    string
	Time   time.Time // when it was captured; the zero Time (or one before 1678 or after 2261): unknown
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

	// SpillBytes bounds the memory the captures added are held in: past
	// it, they are sorted and written to a file of a temporary directory
	// (made in TempDir, "" for os.TempDir), which Learn, Hosts and Close
	// remove. 0 is 64 MiB.
	SpillBytes int
	TempDir    string
}

// Verdict is what a judgment concluded of a set of parameters.
type Verdict string

const (
	Learned  Verdict = "learned"   // the set does not name the host's pages: a rule
	Refused  Verdict = "refused"   // a counterexample, or more disagreement than noise makes
	NearMiss Verdict = "near miss" // nothing refuses the set, but the evidence is too thin for a rule
)

// Finding is the evidence for one set of parameters of a host.
type Finding struct {
	Host    string
	Params  []string
	Verdict Verdict
	Why     string `json:",omitempty"` // why the set is refused or a near miss
	// Pairs are the pairs of captures judged: next to each other in time,
	// differing only in Params. Of them, Agree have one digest, Explained
	// disagree where the pages' history or the host's change points say
	// why, Unexplained disagree with a value seen once or a digest seen
	// once (noise, within what noise makes), and Counter are
	// counterexamples, which veto.
	Pairs, Agree, Explained, Unexplained, Counter int
	// Counterexamples are up to three pairs of URLs (passwords masked)
	// that differ only in Params and whose digests differ: of the
	// counterexamples, or of the disagreements that refused the set.
	Counterexamples [][2]string `json:",omitempty"`
}

// Stats counts what a Learner read and concluded.
type Stats struct {
	Captures int // captures added
	// Captures that are no evidence (their parameter names still count
	// for the rules of the domains above their host): a status other
	// than 200, no digest, the empty payload's digest.
	Status, NoDigest, EmptyPayload int
	Invalid                        int // URLs the profile refuses
	NoHost                         int // keys no host rule can apply to (no host)
	Sampled                        int // captures a host with more than 100,000 left out of its sample
	Unfinished                     int // hosts whose judging stopped at its bound (1,500 sets judged for 100,000 captures): sets it did not reach were not learned
	Hosts                          int // hosts judged
	Unnamed                        int // hosts with names learned that canon.Rules cannot name, or on whose captures their rule does not apply: no rule
	// Judged sets of parameters, by verdict (as in the report).
	Learned, Refused, NearMisses int
}

// Learner learns rules from captures (Add) and gives them (Learn), with
// their evidence. The same captures, in any order, give the same rules
// and findings. A Learner is not safe for concurrent use, but for Close.
type Learner struct {
	p        canon.Profile
	minPairs int
	sp       spiller
	enc, hk  []byte
	stats    Stats
	done     atomic.Bool // learned, or closed (Close may come from another goroutine)
}

// New returns a Learner with the options o.
func New(o Options) *Learner {
	if o.Profile == (canon.Profile{}) {
		o.Profile = canon.Crawler
	}
	if o.MinPairs <= 0 {
		o.MinPairs = defaultMinPairs
	}
	if o.SpillBytes <= 0 {
		o.SpillBytes = 64 << 20
	}
	return &Learner{p: o.Profile, minPairs: o.MinPairs, sp: spiller{limit: o.SpillBytes, tmpDir: o.TempDir}}
}

// emptyPayload holds the digests of an empty payload as indexes write
// them (SHA-1 in base32, as CDX files do, and in hex): a redirect or an
// error without a body, which says nothing of a page.
var emptyPayload = map[string]bool{
	"3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ":         true,
	"DA39A3EE5E6B4B0D3255BFEF95601890AFD80709": true,
}

// ErrLearned is returned by Add, Learn and Hosts on a Learner that has
// learned already (or was closed).
var ErrLearned = errors.New("learn: the Learner has learned already")

// Add adds a capture. A capture that cannot be evidence (a status other
// than 200, no digest, the empty payload's) is counted in Stats, and its
// parameter names are kept for the rules of its host's domains; a URL
// the profile refuses is counted and left out. Its error is the
// temporary directory's (the captures could not be written), or
// ErrLearned.
func (l *Learner) Add(c Capture) error {
	if l.done.Load() {
		return ErrLearned
	}
	l.stats.Captures++
	key, err := canon.Normalize(c.URL, l.p)
	if err != nil {
		l.stats.Invalid++
		return nil
	}
	kh, ok := keyHost(key)
	var rh string
	if ok {
		rh, ok = ruleHost(kh)
	}
	if ok {
		l.hk, ok = hostKey(l.hk[:0], rh)
	}
	if !ok {
		l.stats.NoHost++
		return nil
	}
	kind, d := recEvidence, ""
	switch {
	case c.Status != 0 && c.Status != 200:
		l.stats.Status++
		kind = recNames
	case c.Digest == "" || c.Digest == "-":
		l.stats.NoDigest++
		kind = recNames
	default:
		d = strings.ToUpper(c.Digest)
		if i := strings.IndexByte(d, ':'); i >= 0 {
			d = d[i+1:]
		}
		if emptyPayload[d] {
			l.stats.EmptyPayload++
			kind = recNames
		}
	}
	path, _, hasQuery := strings.Cut(key, "?")
	var t int64
	if kind == recNames {
		if !hasQuery {
			return nil // no names
		}
		// Only the key counts: one record a URL.
		d, c.URL = "", ""
	} else if y := c.Time.Year(); !c.Time.IsZero() && y > 1677 && y < 2262 {
		t = c.Time.UnixNano() // (outside those years, unknown: no int64 holds it)
	}
	l.enc = appendRecord(l.enc[:0], l.hk, rank(path), rank(key), kind, t, key, d, c.URL)
	return l.sp.add(l.enc)
}

// rank is the hash a large host's captures are sampled by (FNV-1a: the
// same in every process).
func rank(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// Stats returns the counts of what the Learner read and concluded (the
// verdicts once it has learned).
func (l *Learner) Stats() Stats { return l.stats }

// Learn judges each host on all its captures and returns the rules: for
// each host with a rule, a Hosts entry that lists the parameter names
// that do not name its pages, in the field the profile reads:
// TrackingParams under RemoveTrackingParams (Crawler), SessionParams
// under RemoveSessionIDs alone (Aggressive, Archive; it also drops a path
// parameter of that name, ";name=…"). Under a profile with neither, no
// list would be read: canon.Profile.WithRules refuses the rules. report,
// when not nil, is called with every finding: the hosts in the order of
// their labels from the right (a domain before its subdomains), each
// host's learned sets first, in the order they were learned, then every
// other set of its last round of judgment that had pairs; a set learned
// on a domain and left out of its rule because a subdomain uses one of
// its names comes again, refused, after the subdomain's findings (a
// set's last finding is its verdict, and Stats counts those). Learn can
// be called once; it removes the temporary directory.
func (l *Learner) Learn(report func(Finding)) (canon.Rules, error) {
	// A set learned on a domain that a subdomain's captures show is left
	// out of the domain's rule (domainRules) once the subdomains are
	// judged: its finding comes again, refused, so that the report's last
	// word on each set is the rules'.
	d := domainRules{leftOut: func(f Finding) {
		l.stats.Learned--
		l.stats.Refused++
		if report != nil {
			report(f)
		}
	}}
	err := l.run(report, func(key []byte, h string, learned []string, sets []Finding, names []string) {
		d.add(key, h, learned, sets, names)
	})
	if err != nil {
		return canon.Rules{}, err
	}
	return rulesOf(l.p, d.finish()), nil
}

// HostRules is what a Learner learned of one host: the names learned
// (Learned, those of a rule canon.Rules can hold for the host and that
// applies to its captures), and every parameter name its captures have,
// in lowercase (Names; under a profile whose rules are SessionParams,
// the names of their path parameters too), which Merge needs for the
// rules of the host's domains. Sets are the sets of parameters Learned
// was learned in: a domain's rule leaves out a whole set one of whose
// names a subdomain uses (a name of Learned in no set is a set of its
// own).
type HostRules struct {
	Host    string
	Learned []string   `json:",omitempty"`
	Names   []string   `json:",omitempty"`
	Sets    [][]string `json:",omitempty"`
}

// Hosts is Learn for a pipeline that learns hosts apart (a Beam
// transform: a Learner a host): it returns what the Learner learned of
// each host, in the order Learn judges them, for Merge.
func (l *Learner) Hosts(report func(Finding)) ([]HostRules, error) {
	var out []HostRules
	err := l.run(report, func(_ []byte, h string, learned []string, sets []Finding, names []string) {
		var ss [][]string
		for _, f := range sets {
			ss = append(ss, f.Params)
		}
		out = append(out, HostRules{Host: h, Learned: learned, Names: names, Sets: ss})
	})
	return out, err
}

// Merge makes the canon.Rules of the hosts' results (Learner.Hosts)
// under the profile p (the zero Profile: canon.Crawler), as
// Learner.Learn does: the names learned of each host, less those that a
// host the rule would apply to uses without having learned them. Given
// the Hosts of Learners that each had all the captures of their hosts,
// it gives the Rules one Learner of all the captures gives. A host given
// more than once (Learners of parts of its captures) keeps only what
// none of them refused: a name one of them uses without having learned
// it is left out, with the sets it was learned in.
func Merge(hosts []HostRules, p canon.Profile) canon.Rules {
	if p == (canon.Profile{}) {
		p = canon.Crawler
	}
	type keyed struct {
		key []byte
		h   HostRules
	}
	var ks []keyed
	for _, h := range hosts {
		k, ok := hostKey(nil, h.Host)
		if !ok {
			continue
		}
		ks = append(ks, keyed{k, h})
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return strings.Compare(string(a.key), string(b.key)) })
	var d domainRules
	for i := 0; i < len(ks); {
		h := ks[i].h
		var learned, names []string
		var sets []Finding
		j := i
		for ; j < len(ks) && string(ks[j].key) == string(ks[i].key); j++ {
			hj := ks[j].h
			learned = append(learned, hj.Learned...)
			names = append(names, lowerNames(hj.Names)...)
			inSet := map[string]bool{}
			for _, set := range hj.Sets {
				// (Only a set of names of Learned is one.)
				if len(set) == 0 || slices.ContainsFunc(set, func(n string) bool { return !slices.Contains(hj.Learned, n) }) {
					continue
				}
				sets = append(sets, Finding{Host: h.Host, Params: set, Verdict: Learned})
				for _, n := range set {
					inSet[n] = true
				}
			}
			for _, n := range hj.Learned {
				if !inSet[n] {
					sets = append(sets, Finding{Host: h.Host, Params: []string{n}, Verdict: Learned})
				}
			}
		}
		if j-i > 1 {
			// A host given more than once (learners of parts of its
			// captures): a name one of them uses without having learned
			// it is learned by none, nor is the set it is in.
			vetoed := map[string]bool{}
			for _, k := range ks[i:j] {
				for _, n := range k.h.Names {
					if !slices.ContainsFunc(k.h.Learned, func(m string) bool { return strings.EqualFold(m, n) }) {
						vetoed[strings.ToLower(n)] = true
					}
				}
			}
			bad := func(n string) bool { return vetoed[strings.ToLower(n)] }
			sets = slices.DeleteFunc(sets, func(f Finding) bool { return slices.ContainsFunc(f.Params, bad) })
			learned = learned[:0]
			for _, f := range sets {
				learned = append(learned, f.Params...)
			}
		}
		slices.Sort(learned)
		slices.Sort(names)
		d.add(ks[i].key, h.Host, slices.Compact(learned), sets, slices.Compact(names))
		i = j
	}
	return rulesOf(p, d.finish())
}

func lowerNames(ns []string) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strings.ToLower(n)
	}
	return out
}

// Close removes the Learner's temporary directory, if it made one, and
// ends it: Add, Learn and Hosts then return ErrLearned. It may be called
// from another goroutine (a signal handler) while the Learner works.
func (l *Learner) Close() error {
	l.done.Store(true)
	return l.sp.close()
}

// run judges the hosts of the captures added, in the order of their
// hostKeys, and gives each one's result to each.
func (l *Learner) run(report func(Finding), each func(key []byte, host string, learned []string, sets []Finding, names []string)) error {
	if l.done.Swap(true) {
		return ErrLearned
	}
	defer l.sp.close()
	src, done, err := l.sp.all()
	if err != nil {
		return err
	}
	defer done()
	var b hostBatch
	flush := func() {
		if b.key == nil {
			return
		}
		learned, names, findings := l.judgeBatch(&b)
		var sets []Finding
		for _, f := range findings {
			switch f.Verdict {
			case Learned:
				l.stats.Learned++
				sets = append(sets, f)
			case Refused:
				l.stats.Refused++
			default:
				l.stats.NearMisses++
			}
			if report != nil {
				report(f)
			}
		}
		if learned == nil {
			sets = nil
		}
		each(b.key, b.host, learned, sets, names)
	}
	for {
		rec, err := src.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return err
		}
		hk := recordHost(rec)
		if b.key == nil || string(hk) != string(b.key) {
			flush()
			b.reset(hk)
		}
		if err := b.add(rec); err != nil {
			return err
		}
	}
	flush()
	return nil
}

// hostBatch gathers the records of one host: its evidence, up to the
// sample's bounds (the records come by the rank of their path, then of
// their key: the sample is the paths of the smallest ranks, whole, and
// the last one cut by the rank of its URLs), and the names of all.
type hostBatch struct {
	key       []byte
	host      string
	evid      []record
	bytes     int
	names     map[string]bool
	pathNames map[string]bool // the names of the path parameters (";name=value") of all
	sampled   int
}

func (b *hostBatch) reset(key []byte) {
	b.key = append(b.key[:0], key...)
	b.host = hostOfKey(key)
	b.evid, b.bytes, b.sampled = nil, 0, 0
	b.names = map[string]bool{}
	b.pathNames = map[string]bool{}
}

func (b *hostBatch) add(rec []byte) error {
	r, err := decodeRecord(rec)
	if err != nil {
		return err
	}
	if _, q, ok := strings.Cut(r.key, "?"); ok {
		for rest := q; rest != ""; {
			var pair string
			pair, rest, _ = strings.Cut(rest, "&")
			if i := strings.IndexByte(pair, '#'); i >= 0 {
				pair, rest = pair[:i], ""
			}
			if name, _, _ := strings.Cut(pair, "="); name != "" {
				b.names[strings.ToLower(name)] = true
			}
		}
	}
	addPathParamNames(b.pathNames, r.key)
	if r.kind != recEvidence {
		return nil
	}
	size := len(r.key) + len(r.url) + len(r.digest)
	if len(b.evid) >= maxHostCaptures || b.bytes+size > maxHostBytes && len(b.evid) > 0 {
		b.sampled++
		return nil
	}
	r.hostKey = nil
	b.evid = append(b.evid, r)
	b.bytes += size
	return nil
}

// judgeBatch judges one host: the names learned that make a rule it can
// have, the (lowercase, sorted) names its captures use, and the
// findings.
func (l *Learner) judgeBatch(b *hostBatch) (learned, names []string, findings []Finding) {
	l.stats.Hosts++
	l.stats.Sampled += b.sampled
	for n := range b.names {
		names = append(names, n)
	}
	// Under a profile that reads the rules as SessionParams, a rule also
	// drops the path parameters ";name=value" of its names, which no
	// judgment sees (a path is a page's): a name the host's captures use
	// as one gets no rule, here or on a domain above.
	var pathNames map[string]bool
	if !l.p.Has(canon.RemoveTrackingParams) {
		pathNames = b.pathNames
		for n := range pathNames {
			if !b.names[n] {
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	if len(b.evid) < 2 {
		return nil, names, nil
	}
	hd := newHostData(b.host, b.evid)
	hd.pathNames = pathNames
	learnedNames, sample, findings := hd.learnHost(l.minPairs)
	if hd.unfinished {
		l.stats.Unfinished++
	}
	if len(learnedNames) > 0 {
		learned = hostRule(l.p, b.host, learnedNames, sample)
		if learned == nil {
			l.stats.Unnamed++
			for i := range findings {
				if findings[i].Verdict == Learned {
					findings[i].Verdict = Refused
					findings[i].Why = "no rule: canon.Rules cannot name the host, or the rule does not apply to its captures"
				}
			}
		}
	}
	return learned, names, findings
}
