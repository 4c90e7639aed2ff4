package learn

// Change points: times at which a host's pages changed, which explain
// the disagreements of pairs that span them.

import (
	"slices"
	"sort"
)

const (
	maxChangePoints = 4 // changes of the host's content in time a set's disagreements may be explained by
	minChangeGroups = 2 // pages (groups) whose disagreements a change point must explain
)

// interval is a stretch of time (t1, t2], of a pair (its index) of a
// group.
type interval struct {
	t1, t2 int64
	pair   int
	group  int32
}

// mergeIntervals returns the union of the intervals, sorted, as
// disjoint intervals.
func mergeIntervals(in []interval) []interval {
	in = slices.Clone(in)
	slices.SortFunc(in, func(x, y interval) int {
		switch {
		case x.t1 != y.t1:
			if x.t1 < y.t1 {
				return -1
			}
			return 1
		case x.t2 < y.t2:
			return -1
		case x.t2 > y.t2:
			return 1
		}
		return 0
	})
	var out []interval
	for _, a := range in {
		if n := len(out); n > 0 && a.t1 < out[n-1].t2 {
			out[n-1].t2 = max(out[n-1].t2, a.t2)
			continue
		}
		out = append(out, a)
	}
	return out
}

// explainChurn finds up to maxChangePoints times at which the host's
// content changed and marks the disagreeing pairs they explain as
// pairChurn. A change point lies where no page is seen unchanged: inside
// no interval of two captures of a group next to each other in time with
// one digest (an agreeing pair, or two captures of one value; an error
// page's digest excepted); and inside the intervals of disagreeing pairs
// of at least minChangeGroups groups, each a clean change in time: its
// group shows
// the first capture's digest at no later time and the second's at no
// earlier one (a page that comes back to what it was did not change;
// its values do). The point that explains most pairs not yet explained
// comes first (the earliest of equals). Pairs without times are never
// explained.
func (j *judgment) explainChurn() {
	j.churned = true
	hd := j.hd
	type groupDigest struct{ g, d int32 }
	first, last := map[groupDigest]int64{}, map[groupDigest]int64{}
	for i, c := range hd.caps {
		k := groupDigest{j.group[i], c.digest}
		if _, ok := first[k]; !ok {
			first[k] = c.t
		}
		last[k] = c.t
	}
	var dis []interval
	for i, p := range j.pairs {
		a, b := &hd.caps[p.a], &hd.caps[p.b]
		if a.t == 0 || b.t == 0 || a.t >= b.t {
			continue
		}
		switch p.kind {
		case pairNeutral, pairUnconfirmed, pairCounter:
			if last[groupDigest{p.group, a.digest}] <= a.t && first[groupDigest{p.group, b.digest}] >= b.t {
				dis = append(dis, interval{a.t, b.t, i, p.group})
			}
		}
	}
	if len(dis) == 0 {
		return
	}
	// Where a page did not change: two captures of a group next to each
	// other in time with one digest (an agreeing pair, or captures of one
	// value), but an error page's (which stays when the pages change).
	var agree []interval
	prevOf := map[int32]int{} // group: its last capture so far
	for i, c := range hd.caps {
		g := j.group[i]
		if k, ok := prevOf[g]; ok {
			if p := hd.caps[k]; p.digest == c.digest && p.t != 0 && p.t < c.t && !hd.errDigest[c.digest] && !j.errDigest[c.digest] {
				agree = append(agree, interval{t1: p.t, t2: c.t})
			}
		}
		prevOf[g] = i
	}
	agreeUnion := mergeIntervals(agree)
	valid := func(t int64) bool {
		// The last interval of the union that starts before t.
		k := sort.Search(len(agreeUnion), func(i int) bool { return agreeUnion[i].t1 >= t }) - 1
		return k < 0 || t > agreeUnion[k].t2
	}
	// The candidates: where a disagreeing interval starts, and where an
	// unchanged one ends (the coverage of the disagreeing intervals is
	// largest, over a stretch where a change point may lie, at one of
	// these).
	var cands []int64
	for _, d := range dis {
		cands = append(cands, d.t1+1)
	}
	for _, a := range agreeUnion {
		cands = append(cands, a.t2+1)
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	explained := make([]bool, len(dis))
	for range maxChangePoints {
		type event struct {
			t     int64
			delta int
			group int32
		}
		var events []event
		for i, d := range dis {
			if !explained[i] {
				events = append(events, event{d.t1 + 1, 1, d.group}, event{d.t2 + 1, -1, d.group})
			}
		}
		if len(events) == 0 {
			break
		}
		slices.SortFunc(events, func(x, y event) int {
			if x.t != y.t {
				if x.t < y.t {
					return -1
				}
				return 1
			}
			return 0
		})
		active := map[int32]int{}
		n, e := 0, 0
		best, bestN := int64(0), 0
		for _, t := range cands {
			for e < len(events) && events[e].t <= t {
				ev := events[e]
				n += ev.delta
				active[ev.group] += ev.delta
				if active[ev.group] == 0 {
					delete(active, ev.group)
				}
				e++
			}
			if n > bestN && len(active) >= minChangeGroups && valid(t) {
				best, bestN = t, n
			}
		}
		if bestN == 0 {
			break
		}
		for i, d := range dis {
			if !explained[i] && d.t1 < best && best <= d.t2 {
				explained[i] = true
				j.pairs[d.pair].kind = pairChurn
			}
		}
	}
}
