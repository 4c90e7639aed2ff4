package canon

// Ref is a URI reference split into its components (RFC 3986 §3).
// Every string field is a slice of the input given to [Parse]: parsing
// copies nothing. Delimiters are not part of the fields. A component can
// be absent or present but empty, and RFC 3986 §5.3 keeps the two apart,
// so Ref records presence separately: "http://h/?" has HasQuery and an
// empty Query, "http://h/" has neither.
//
// Ref is a small comparable value; the zero Ref is the empty reference.
type Ref struct {
	Scheme   string // without the ":"; "" when the reference is relative
	Userinfo string // without the "@"
	Host     string // as written; an IP literal keeps its brackets
	Port     string // decimal digits, as written (leading zeros kept)
	Path     string
	Query    string // without the "?"
	Fragment string // without the "#"

	HasAuthority bool // "//" was present (the authority may be empty)
	HasUserinfo  bool // an "@" was present in the authority
	HasPort      bool // a ":" followed the host (the port may be empty)
	HasQuery     bool // a "?" was present
	HasFragment  bool // a "#" was present
}

// IsAbs reports whether the reference has a scheme (RFC 3986 §4.3).
func (r Ref) IsAbs() bool { return r.Scheme != "" }

// String reassembles the reference as RFC 3986 §5.3 says. For a Ref
// returned by Parse it returns the (trimmed) input byte for byte.
func (r Ref) String() string {
	return string(r.AppendTo(make([]byte, 0, r.len())))
}

func (r Ref) len() int {
	return len(r.Scheme) + len(r.Userinfo) + len(r.Host) + len(r.Port) + len(r.Path) +
		len(r.Query) + len(r.Fragment) + 7
}

// AppendTo appends the reassembled reference (see [Ref.String]) to dst and
// returns the extended buffer.
func (r Ref) AppendTo(dst []byte) []byte {
	if r.Scheme != "" {
		dst = append(dst, r.Scheme...)
		dst = append(dst, ':')
	}
	if r.HasAuthority {
		dst = append(dst, "//"...)
		if r.HasUserinfo {
			dst = append(dst, r.Userinfo...)
			dst = append(dst, '@')
		}
		dst = append(dst, r.Host...)
		if r.HasPort {
			dst = append(dst, ':')
			dst = append(dst, r.Port...)
		}
	}
	dst = append(dst, r.Path...)
	if r.HasQuery {
		dst = append(dst, '?')
		dst = append(dst, r.Query...)
	}
	if r.HasFragment {
		dst = append(dst, '#')
		dst = append(dst, r.Fragment...)
	}
	return dst
}

// Parse splits rawURL into its components without decoding anything.
//
// It follows the outside-in order of the RFC 2396 drafts: the fragment
// starts at the first "#", the scheme ends at a ":" that comes before any
// "/", "?" or "#", the authority follows "//" up to the next "/" or "?",
// the query starts at the first "?" after that, and the path is what
// remains. The userinfo ends at the last "@" of the authority.
//
// Leading and trailing spaces and C0 control characters are trimmed first.
// Parse then rejects, with an [*Error]: an input longer than [MaxLength]
// ([ErrTooLong]); a control character inside it or a backslash in the
// authority or path ([ErrInvalidChar]); a ":" before the first "/", "?" or
// "#" that does not end a valid scheme ([ErrInvalidScheme]); a port that is
// not digits or exceeds 65535 ([ErrInvalidPort]); and a host that is not
// an IP literal or a registered name ([ErrInvalidHost], [ErrInvalidEscape]).
// It does not check percent-encoding outside the host.
func Parse(rawURL string) (Ref, error) {
	in, shift, err := trim(rawURL)
	if err != nil {
		return Ref{}, toError("Parse", rawURL, 0, err)
	}
	var p parts
	if f := p.parse(in, syntaxRFC3986); f != nil {
		return Ref{}, toError("Parse", rawURL, shift, f)
	}
	return p.ref(), nil
}

func (p *parts) ref() Ref {
	s := p.s
	var r Ref
	if p.schemeEnd >= 0 {
		r.Scheme = s[:p.schemeEnd]
	}
	if p.hasAuth {
		r.HasAuthority = true
		if p.hasUser {
			r.HasUserinfo = true
			r.Userinfo = s[p.authStart:p.userEnd]
		}
		r.Host = s[p.hostStart:p.hostEnd]
		if p.hasPort {
			r.HasPort = true
			r.Port = s[p.hostEnd+1 : p.authEnd]
		}
	}
	r.Path = s[p.pathStart:p.pathEnd]
	if p.hasQuery {
		r.HasQuery = true
		r.Query = s[p.queryStart:p.queryEnd]
	}
	if p.hasFrag {
		r.HasFragment = true
		r.Fragment = s[p.fragStart:]
	}
	return r
}
