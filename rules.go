package canon

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Rules are the parameter names a profile drops beyond the built-in ones:
// what a crawl of one site, or a company's own links, needs without
// forking the package. They take effect through the profile's steps:
// RemoveTrackingParams drops TrackingParams and names that start with one
// of TrackingPrefixes, RemoveSessionIDs drops SessionParams. Names are
// compared with the parameter name as written in the key (escapes are not
// decoded), ASCII letters case-insensitively.
type Rules struct {
	// TrackingParams are query parameter names dropped by
	// RemoveTrackingParams, whatever their value: "ref", "source".
	TrackingParams []string

	// TrackingPrefixes: a query parameter whose name starts with one of
	// them is dropped by RemoveTrackingParams: "pk_", "hsa_".
	TrackingPrefixes []string

	// SessionParams are query and path parameter names whose value is a
	// session id on this site, dropped by RemoveSessionIDs whatever the
	// value's shape (the built-in names are dropped only when their value
	// has the shape of an id).
	SessionParams []string
}

// ruleSet is the interned form of Rules: one *ruleSet per distinct set of
// names, so that a Profile holding one stays comparable with ==, and two
// profiles made with the same rules (in any order, any letter case) are
// equal. The lists are lowercased, sorted and without repeats.
type ruleSet struct {
	tracking, prefixes, session []string
	text                        string // the lists as String prints them
}

var (
	rulesMu     sync.Mutex
	rulesByText = map[string]*ruleSet{}
)

// internRules returns the *ruleSet for r, nil when r is empty.
func internRules(r Rules) (*ruleSet, error) {
	var rs ruleSet
	var err error
	if rs.tracking, err = ruleNames("TrackingParams", r.TrackingParams); err != nil {
		return nil, err
	}
	if rs.prefixes, err = ruleNames("TrackingPrefixes", r.TrackingPrefixes); err != nil {
		return nil, err
	}
	if rs.session, err = ruleNames("SessionParams", r.SessionParams); err != nil {
		return nil, err
	}
	if len(rs.tracking)+len(rs.prefixes)+len(rs.session) == 0 {
		return nil, nil
	}
	var b strings.Builder
	list := func(label string, names []string) {
		if len(names) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(label)
		b.WriteByte('=')
		b.WriteString(strings.Join(names, ","))
	}
	list("tracking", rs.tracking)
	list("prefixes", rs.prefixes)
	list("session", rs.session)
	rs.text = b.String()

	rulesMu.Lock()
	defer rulesMu.Unlock()
	if p, ok := rulesByText[rs.text]; ok {
		return p, nil
	}
	p := &rs
	rulesByText[rs.text] = p
	return p, nil
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
			return nil, errors.New("canon: Rules." + field + ": empty name")
		}
		for i := 0; i < len(n); i++ {
			c := n[i]
			if c <= ' ' || c >= 0x7f || strings.IndexByte("&=;#?/,", c) >= 0 {
				return nil, errors.New("canon: Rules." + field + ": name " + strconv.Quote(n) +
					" holds " + strconv.QuoteRune(rune(c)) + ", which cannot be in a parameter name")
			}
		}
		out = append(out, strings.ToLower(n))
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// WithRules returns p with its rules replaced by r (see [Rules]). The
// rules only act through the steps RemoveTrackingParams and
// RemoveSessionIDs; WithRules does not add those steps. Two profiles are
// == when they have the same steps and the same rules, compared as sets
// of lowercased names; String prints the rules after the steps.
//
//	p, err := canon.Crawler.WithRules(canon.Rules{TrackingPrefixes: []string{"pk_"}})
func (p Profile) WithRules(r Rules) (Profile, error) {
	rs, err := internRules(r)
	if err != nil {
		return Profile{}, err
	}
	return profileOf(p.plan().steps, rs), nil
}

// Rules returns a copy of the profile's rules, lowercased and sorted.
func (p Profile) Rules() Rules {
	rs := p.plan().rules
	if rs == nil {
		return Rules{}
	}
	return Rules{
		TrackingParams:   slices.Clone(rs.tracking),
		TrackingPrefixes: slices.Clone(rs.prefixes),
		SessionParams:    slices.Clone(rs.session),
	}
}
