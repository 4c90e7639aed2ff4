package canon

// Base is the URL of a page, prepared for the links of that page: it is
// parsed, checked and keyed once, and each link is resolved against it
// as [NormalizeRef] resolves it (a crawler resolves tens to hundreds of
// links against one page). A Base is immutable and safe for concurrent
// use.
type Base struct {
	page string
	p    Profile
	pl   *plan         // the plan the targets are keyed by (a blob: base's: see plan.blob; p's surtRef with ReadAsSURT)
	pe   *pageEncoding // the page's encoding (Encoding.NewBase); nil: UTF-8
	bu   url           // ParseWHATWG and SafeBrowsing: the base's value (whatwgBase)
	b    parts         // the other profiles: the base's parts (rfcBase)
	surt *plan         // with ReadAsSURT, p's plan: the targets without a host are keyed by it (see plan.surtRef)
}

// NewBase returns pageURL prepared as the base of the links of its page
// under p: b.Normalize(href) is NormalizeRef(pageURL, href, p), key and
// error alike (but for the error's Op, "Base.Normalize"), without reading
// pageURL again. A pageURL that NormalizeRef would refuse as a base is an
// error here (its Op is "NewBase").
func NewBase(pageURL string, p Profile) (*Base, error) {
	return Encoding{}.NewBase(pageURL, p)
}

// NewBase is [NewBase] for a page in enc: the Base's keys are
// enc.NormalizeRef's (see [Encoding.NormalizeRef]).
func (enc Encoding) NewBase(pageURL string, p Profile) (*Base, error) {
	const op = "NewBase"
	pl := p.plan()
	if f := enc.check(pl); f != nil {
		return nil, toArgError(op, "base", pageURL, 0, f)
	}
	b := &Base{page: pageURL, p: p, pl: pl, pe: enc.pe}
	var err error
	switch {
	case pl.whatwg:
		if pl.surtRead {
			b.surt, pl = pl, pl.surtRef
		}
		b.bu = keyValue(pageURL, nil)
		b.bu.enc = enc.pe
		b.pl, err = whatwgBase(&b.bu, op, pl)
	case pl.safeBrowsing:
		b.bu = keyValue(pageURL, nil)
		_, err = whatwgBase(&b.bu, op, whatwgResolvePlan)
	default:
		b.b, err = rfcBase(op, pageURL)
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// String returns the page's URL as NewBase was given it.
func (b *Base) String() string { return b.page }

// Profile returns the profile the Base keys links by.
func (b *Base) Profile() Profile { return b.p }

// Normalize returns the key of href, a link of the page, as
// NormalizeRef(page, href, p) returns it, key and error alike but for
// the error's Op, which is "Base.Normalize":
//
//	canon.Base.Normalize(resolved "http://h/a/%zz"): path: invalid percent-encoding (at "%zz")
func (b *Base) Normalize(href string) (string, error) {
	const op = "Base.Normalize"
	switch {
	case b.pl.whatwg:
		u := keyValue(href, nil)
		u.enc = b.pe
		if err := refWHATWG(&u, op, &b.bu, b.pl, nil, false); err != nil {
			return "", err
		}
		if b.surt != nil && u.hostlessPath() {
			return refSURTHostless(op, b.page, href, b.surt, b.pe)
		}
		return u.result(), nil
	case b.pl.safeBrowsing:
		return refSafeBrowsing(op, &b.bu, href)
	}
	return refRFC(op, &b.b, href, b.pl)
}

// AppendNormalized appends the key of href (see [Base.Normalize]) to dst
// and returns the extended buffer; its errors are Normalize's, with the
// Op "Base.AppendNormalized". Under a profile with ParseWHATWG it
// allocates nothing when dst has spare capacity for the key and 32 bytes
// more, for an absolute link of the common shape (see Performance in the
// package documentation) and for a relative one (a path, query or
// fragment; not "//host/...", which is read as the base's scheme and the
// reference, a string of their own); it may write in that capacity past
// the key. On error it returns dst with its length and contents as they
// were.
func (b *Base) AppendNormalized(dst []byte, href string) ([]byte, error) {
	const op = "Base.AppendNormalized"
	if !b.pl.whatwg {
		var key string
		var err error
		if b.pl.safeBrowsing {
			key, err = refSafeBrowsing(op, &b.bu, href)
		} else {
			key, err = refRFC(op, &b.b, href, b.pl)
		}
		if err != nil {
			return dst, err
		}
		return append(dst, key...), nil
	}
	u := keyValue(href, dst)
	u.enc = b.pe
	if err := refWHATWG(&u, op, &b.bu, b.pl, dst, false); err != nil {
		return dst, err
	}
	if b.surt != nil && u.hostlessPath() {
		key, err := refSURTHostless(op, b.page, href, b.surt, b.pe)
		if err != nil {
			return dst, err
		}
		return append(dst, key...), nil
	}
	return u.appendResult(dst), nil
}
