package canon

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ErrUnusedRules is wrapped by the error of [Profile.WithRules] for rules
// the profile would never use: a list no step of the profile reads (see
// [Rules]), a TrackingParams or TrackingPrefixes that a keep-only list
// applying to the same hosts overrides, a host without lists, or a host
// key that is never the host of a key (under StripWWW, "www.example.com"
// is written "example.com"). Such rules are a mistake that changes no
// key, but would change the KeyVersion, so they are refused, not ignored.
var ErrUnusedRules = errors.New("rules the profile never uses")

// unusedRulesError is an error wrapping ErrUnusedRules, its text naming
// the field and why.
type unusedRulesError struct{ text string }

func (e *unusedRulesError) Error() string { return e.text }
func (e *unusedRulesError) Unwrap() error { return ErrUnusedRules }

// WithRules returns p with its rules replaced by r (see [Rules]). The
// rules act through the steps RemoveTrackingParams (TrackingParams,
// TrackingPrefixes, KeepParams) and RemoveSessionIDs (SessionParams);
// WithRules does not add those steps, and it returns an error wrapping
// [ErrUnusedRules], naming the field, when r holds a rule p would never
// use: a list whose step p lacks ("WHATWG.WithRules" of any list), or
// another rule that cannot fire (see ErrUnusedRules). Two profiles are ==
// when they have the same steps and the same rules, compared as sets of
// lowercased names (and domains); String prints the rules after the
// steps. WithRules of the zero Rules removes p's rules.
//
//	p, err := canon.Crawler.WithRules(canon.Rules{TrackingPrefixes: []string{"pk_"}})
func (p Profile) WithRules(r Rules) (Profile, error) {
	rs, err := internRules(r)
	if err != nil {
		return Profile{}, err
	}
	steps := p.plan().steps
	if err := checkRulesUsed(steps, r, rs); err != nil {
		return Profile{}, err
	}
	if rs != nil && len(rs.hosts) < len(r.Hosts) {
		// Keys that name one domain ("Example.com" and "example.com.")
		// have one set of rules, the union of theirs: it must be one a
		// profile uses as well, so that WithRules of Rules() gives the
		// profile back. The error names the keys as written.
		if err := checkRulesUsed(steps, profileOf(steps, rs).Rules(), rs); err != nil {
			return Profile{}, &unusedRulesError{sameDomainKeys(r) + strings.TrimPrefix(err.Error(), "canon: ")}
		}
	}
	return profileOf(steps, rs), nil
}

// sameDomainKeys names the keys of r.Hosts that name one domain, as
// written, for an error about their union: `canon: Rules.Hosts["Example.com"]
// and Rules.Hosts["example.com."] name one domain, example.com; their rules
// together: `.
func sameDomainKeys(r Rules) string {
	byDomain := map[string][]string{}
	for _, h := range slices.Sorted(maps.Keys(r.Hosts)) {
		if d, err := ruleDomain("", h); err == nil {
			byDomain[d] = append(byDomain[d], "Rules.Hosts["+strconv.Quote(h)+"]")
		}
	}
	var b strings.Builder
	for _, d := range slices.Sorted(maps.Keys(byDomain)) {
		if keys := byDomain[d]; len(keys) > 1 {
			b.WriteString("canon: " + strings.Join(keys, " and ") + " name one domain, " + d + "; their rules together: ")
		}
	}
	return b.String()
}

// ruleFieldSteps is which step reads each list of Rules.
var ruleFieldSteps = [...]struct {
	field string
	set   func(Rules) bool
	step  Step
}{
	{"TrackingParams", func(r Rules) bool { return len(r.TrackingParams) > 0 }, RemoveTrackingParams},
	{"TrackingPrefixes", func(r Rules) bool { return len(r.TrackingPrefixes) > 0 }, RemoveTrackingParams},
	{"KeepParams", func(r Rules) bool { return len(r.KeepParams) > 0 }, RemoveTrackingParams},
	{"SessionParams", func(r Rules) bool { return len(r.SessionParams) > 0 }, RemoveSessionIDs},
}

// checkRulesUsed returns an error wrapping ErrUnusedRules for the first
// rule of r (interned as rs) that a profile of steps would never use.
func checkRulesUsed(steps uint64, r Rules, rs *ruleSet) error {
	unused := func(field, why string) error {
		return &unusedRulesError{"canon: " + field + ": " + why}
	}
	pl := profileOf(steps, nil).plan()
	lists := func(field string, l Rules, keepAbove bool) error {
		for _, f := range ruleFieldSteps {
			if f.set(l) && steps&(1<<f.step) == 0 {
				return unused(field+"."+f.field, "no step of the profile reads it: "+f.step.String()+
					" does, and the profile "+profileOf(steps, nil).String()+" lacks it")
			}
		}
		if (len(l.KeepParams) > 0 || keepAbove) && (len(l.TrackingParams) > 0 || len(l.TrackingPrefixes) > 0) {
			which := "TrackingParams"
			if len(l.TrackingParams) == 0 {
				which = "TrackingPrefixes"
			}
			return unused(field+"."+which, "never read: a keep-only list (KeepParams) applies to the same hosts, and RemoveTrackingParams then drops every name it does not keep")
		}
		return nil
	}
	if err := lists("Rules", r, false); err != nil {
		return err
	}
	hosts := make([]string, 0, len(r.Hosts))
	for h := range r.Hosts {
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	for _, h := range hosts {
		hr := r.Hosts[h]
		field := "Rules.Hosts[" + strconv.Quote(h) + "]"
		if len(hr.TrackingParams)+len(hr.TrackingPrefixes)+len(hr.SessionParams)+len(hr.KeepParams) == 0 {
			return unused(field, "no lists: the host's rules would be the top-level ones")
		}
		if err := lists(field, hr, len(r.KeepParams) > 0); err != nil {
			return err
		}
		// The host as the key writes it: the key of the URL with this
		// host must pick this host's rules, as a key of the profile
		// with rules would (ruleSet.forHost on the key's host).
		d, _ := ruleDomain(field, h) // (internRules accepted it)
		probe := "http://" + d + "/"
		u := keyValue(probe, nil)
		if _, f := keyInto(&u, pl); f != nil {
			return unused(field, "no key has this host: the profile rejects "+strconv.Quote(probe)+": "+f.Error())
		}
		key := u.str()
		if !u.hasAuth || rs.forHost(key[u.hostStart:u.hostEnd]).host != d {
			return unused(field, "no key has this host: the profile writes "+strconv.Quote(probe)+
				" as "+strconv.Quote(strings.Clone(key))+"; key the rules by the host as the key writes it")
		}
	}
	return nil
}
