package canon

import "golang.org/x/net/idna"

// The IDNA profiles of golang.org/x/net/idna the hosts are converted
// with: UTS #46 for RFC 3987 hosts (host.go), the Rules' host names
// (rules.go) and StripWWW's Public Suffix List lookups (keys.go). The
// WHATWG URL Standard's own profile is in whatwg.go, beside its host
// parser.

// idnaProfile is UTS #46 nontransitional processing with the STD3 ASCII
// rules (UseSTD3ASCIIRules), as RFC 3987 §3.1 asks: an IRI host becomes
// an RFC 3986 reg-name, which holds letters, digits and hyphens between
// the dots. It runs only on labels that need it (see idnaHost).
// MapForLookup maps and validates labels and applies the STD3 rules,
// BidiRule and CheckJoiners check RFC 5893 and RFC 5892, and CheckHyphens
// is off (UTS #46 CheckHyphens=false) so that real CDN names such as
// "r2---sn-huoa-cvhl" pass. (The WHATWG URL Standard uses the same flags
// but for UseSTD3ASCIIRules, which it leaves off.)
var idnaProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.CheckJoiners(true),
	idna.Transitional(false),
	idna.CheckHyphens(false),
)

// idnaMapping is the UTS #46 mapping step alone, as far as
// golang.org/x/net/idna offers it: it is used to see a host as a browser
// does (fullwidth digits are digits, U+3002 is a dot) without converting
// it (see hostView, mapsToACE).
var idnaMapping = idna.New(idna.MapForLookup(), idna.Transitional(false), idna.CheckHyphens(false))

// maxIDNALabel bounds a label handed to golang.org/x/net/idna, whose
// ToASCII takes time quadratic in the label length (one 50,000-rune
// label: 15.7 s). A label of more bytes cannot map to an A-label of at
// most 63 octets anyway: every rune takes at least one octet.
const maxIDNALabel = 4 * 63
