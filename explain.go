package canon

// Change is one step of a profile that changed a URL, with the URL
// before and after it (see [Explain]).
type Change struct {
	Step          Step
	Before, After string

	// Host is, for a step that reads the profile's Rules
	// (RemoveTrackingParams, RemoveSessionIDs), the domain of
	// Rules.Hosts whose rules it applied to this URL, and "" when it
	// applied the top-level rules alone.
	Host string
}

// Explain lists, in the order they run, the steps of p that change
// rawURL, each with the URL before and after it; the After of the last
// Change is Normalize(rawURL, p). An already canonical URL gives no
// Change. On error it returns the error Normalize returns.
//
// Each step's effect is measured as the difference between the keys of
// the profiles made of the steps up to it and up to the one before (the
// first Before is the input, trimmed): the engine runs a profile in one
// pass, so Explain runs it once per step. A step whose prefix cannot
// read the input alone (ParseWHATWG before DefaultScheme, on
// "example.com/") shares its Change with the first step after it that
// can. Explain is for people reading why two URLs got one key; Normalize
// does none of this work.
func Explain(rawURL string, p Profile) ([]Change, error) {
	if _, err := keyString("Explain", "", rawURL, p.plan(), nil); err != nil {
		return nil, err
	}
	in, _, _ := trim(rawURL)
	var changes []Change
	prev := in
	var steps uint64
	for _, s := range p.Steps() {
		steps |= 1 << s
		key, err := keyString("Explain", "", rawURL, profileOf(steps, p.plan().rules).plan(), nil)
		if err != nil {
			// The steps so far cannot read the input without a later
			// one (ParseWHATWG alone cannot read "example.com/", which
			// DefaultScheme makes absolute): their change shows at the
			// first step that completes a profile that can.
			continue
		}
		if key != prev {
			changes = append(changes, Change{Step: s, Before: prev, After: key, Host: rulesHost(s, key, p.plan())})
			prev = key
		}
	}
	// The last prefix is p itself, so the last After is the key.
	return changes, nil
}

// rulesHost returns the domain of the Hosts entry whose rules step s of
// plan pl applied to the URL whose key after s is key, or "". The key's
// host is the one the rules were matched against: no step after the
// rules' readers changes the host.
func rulesHost(s Step, key string, pl *plan) string {
	if s != RemoveTrackingParams && s != RemoveSessionIDs || pl.rules == nil || pl.rules.hosts == nil {
		return ""
	}
	var pr parts
	pr.split(key, pl.syn)
	if !pr.hasAuth {
		return ""
	}
	return pl.rules.forHost(key[pr.hostStart:pr.hostEnd]).host
}
