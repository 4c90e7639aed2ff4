package canon

import (
	"errors"
	"sync"
)

// A plan is a profile compiled: its steps read once into the rules every
// stage applies, as data. Each Profile holds one, interned, so that a
// call costs a pointer load to reach it and two profiles with the same
// steps and rules hold the same plan (and are ==).
type plan struct {
	steps uint64   // bit s for Step s
	rules *ruleSet // interned Rules; nil for none

	// Reading the input (parse.go, prepass.go, resolve.go).
	syn           syntax
	defaultScheme bool // DefaultScheme
	decodeAll     bool // DecodeAll
	plusToSpace   bool // PlusToSpace
	resolve1808   bool // ResolveRFC1808
	whatwg        bool // ParseWHATWG: the standard's parser and serializer
	safeBrowsing  bool // ParseSafeBrowsing: its own reader and writer (safebrowsing.go), in place of all the rest
	surtRead      bool // ReadAsSURT: the surt library's ports, file hosts, numeric hosts, "\" and free-form paths (whatwg.go, keys.go)

	// surtKeys is set in a plan with ReadAsSURT and in the plans it keys
	// references and bases by (surtRef, refBase, absRef): the rules of
	// ReadAsSURT that hold of a key whatever URL it was read from, and so
	// of the URL the standard's resolution makes too: a domain the surt
	// library reads as an IPv4 address ("1.2.3.4..") is one, and an
	// opaque host of digits too (whatwg.go); TrimHostDots keeps ".." only
	// after a domain the standard would reject without it (host.go); a
	// ".." that the key steps decode at the root stays (keys.go); and
	// with RemoveSessionIDs (surtSessions) the session ids are those of
	// the library's patterns (params.go).
	surtKeys     bool
	surtSessions bool

	// Writing the components (engine.go, host.go, whatwg.go).
	lowerScheme   bool // LowercaseScheme (or the standard's)
	lowerHost     bool // LowercaseHost
	toASCII       bool // HostToASCII
	toUnicode     bool // HostToUnicode
	trimDots      bool // TrimHostDots
	fileLocalhost bool // StripFileLocalhost
	port          portRule
	esc           escapeMode
	decodeUnres   bool // DecodeUnreserved
	upperEscapes  bool // UppercaseEscapes
	decodeIUnres  bool // DecodeIUnreserved
	nfc           bool // NFC
	dots          dotRule
	root          rootRule
	dropFragment  bool // RemoveFragment

	// pctTriplets is setTriplet when a WHATWG plan rewrites escapes
	// (UppercaseEscapes, DecodeUnreserved): the bit engine.encode adds
	// to a component's percent-encode set so that it stops at "%".
	pctTriplets uint16

	// The key passes (keys.go): their steps' bits.
	keys uint64

	// base is the plan of the steps that are not key steps, without
	// Rules: the profile whose key the key passes edit (itself when it
	// has no key step and no Rules).
	base *plan

	// refBase is, for a plan with ParseWHATWG, the plan NormalizeRef
	// reads the base with: ParseWHATWG and the plan's steps that spell
	// what the standard writes another way (UppercaseEscapes,
	// DecodeUnreserved, TrimHostDots). The target keeps the base's
	// scheme, authority and path as the base's key has them, so they
	// must be spelled as the profile spells them: under Crawler the base
	// "a://h%70/" and the reference "x" gave "a://h%70/x", whose key is
	// "a://hp/x". DefaultScheme, RemoveFragment and the key steps are
	// not in it: a base must have a scheme, its fragment is never the
	// target's, and the key steps run on the target.
	refBase *plan

	// absRef is, for a plan with ParseWHATWG, the plan NormalizeRef keys
	// a reference that has a scheme of its own with: the plan without
	// DefaultScheme. Against a base, a reference has a scheme when the
	// standard reads one ("http:0" is http, host 0); DefaultScheme's
	// reading of "http:0" as the host "http" and port 0 is for an input
	// alone.
	absRef *plan

	// surtRef is, for a plan with ReadAsSURT, the plan without it, by
	// which NormalizeRef and Base key a reference first. ReadAsSURT's
	// reading is the surt library's, of a URL a crawler wrote; a
	// reference is resolved as the URL Standard resolves it, then keyed
	// (see ReadAsSURT). Where the target has a host, the key of the
	// reference by surtRef is that key: the resolved URL has no default
	// port and no file host "localhost" left (the standard's resolution
	// drops them), and only a path without a host is read otherwise
	// under ReadAsSURT; so is one with an opaque path, which no step
	// edits as segments. Where it has a path of segments and no host,
	// the reference is resolved, then keyed by the plan
	// (refSURTHostless).
	surtRef *plan

	// blob is, for a plan with ParseWHATWG whose steps would merge blob:
	// URLs (blobEditSteps) and that has none of the archive tools' steps
	// (archiveToolSteps), the plan a blob: URL is keyed with: ParseWHATWG
	// with DefaultScheme and RemoveFragment where the profile has them. A
	// blob: URL names an entry of the browser's blob URL store, which is
	// looked up by the URL's serialization without its fragment (the
	// File API, "resolve a blob URL"): "blob:http://h/%61bc" and
	// "blob:http://h/abc" are two entries, which DecodeUnreserved would
	// give one key. The archive tools (surt, urlcanon) edit every URL
	// whatever its scheme, and the profiles that follow them do too.
	blob *plan
}

// blobEditSteps are the steps that would edit a blob: URL beyond the
// WHATWG URL Standard's serialization: the escape spellings, host dots,
// and the key steps.
const blobEditSteps = 1<<UppercaseEscapes | 1<<DecodeUnreserved | 1<<TrimHostDots | keyStepBits

// archiveToolSteps are the steps that come from the archive tools (the
// Internet Archive's surt, urlcanon's aggressive canonicalizer), which
// read every URL case-insensitively and decoded, whatever its scheme; a
// profile with one keys blob: URLs by its steps, as those tools do.
const archiveToolSteps = 1<<DecodePathRepeatedly | 1<<DecodeQueryRepeatedly | 1<<LowercasePath | 1<<LowercaseQuery

// blobSteps are the steps of a plan's blob plan that it keeps.
const blobSteps = 1<<ParseWHATWG | 1<<DefaultScheme | 1<<RemoveFragment

// refBaseSteps are the steps of a WHATWG plan that its refBase keeps.
const refBaseSteps = 1<<ParseWHATWG | 1<<UppercaseEscapes | 1<<DecodeUnreserved | 1<<TrimHostDots

// portRule is which ports a profile drops.
type portRule uint8

const (
	portKeep    portRule = iota // as written
	portHTTPFTP                 // RemoveHTTPFTPPort: 80 of http, 21 of ftp
	portDefault                 // RemoveDefaultPort or ParseWHATWG: empty, the scheme's default, leading zeros
	portSURT                    // ParseWHATWG with ReadAsSURT: empty, 80 of http, 443 of https, leading zeros
)

// dotRule is how a profile removes dot segments.
type dotRule uint8

const (
	dotsNone    dotRule = iota
	dotsRFC3986         // RemoveDots: RFC 3986 §5.2.4
	dotsRFC1808         // RemoveDots1808: RFC 1808 §4 step 6
	dotsWHATWG          // ParseWHATWG: the standard's path state
)

// rootRule is when a profile writes an empty path as "/".
type rootRule uint8

const (
	rootNone    rootRule = iota
	rootAny              // AddRootPath: whenever there is an authority
	rootSpecial          // AddHTTPRootPath: for the schemes with a default port
)

// escapeMode is how a profile treats percent-encoding and characters
// outside the grammar.
type escapeMode uint8

const (
	escapeKeep   escapeMode = iota // no step reads escapes: bytes are kept (WebCapture)
	escapeNorm                     // escapes are read and validated; other bytes kept
	escapeURI                      // EncodeToURI
	escapeIRI                      // EncodeToIRI
	escapePOWDER                   // DecodeAll: the input is decoded; "%", space, "\", CTL, DEL, non-ASCII encoded
	escapeWHATWG                   // ParseWHATWG: the standard's percent-encode sets; escapes kept as written
)

// has reports whether the plan's profile has step s.
func (pl *plan) has(s Step) bool { return pl.steps&(1<<s) != 0 }

// compile derives a plan's rules from its steps. NewProfile has checked
// that they do not conflict.
func compile(steps uint64, rules *ruleSet, surtKeys bool) *plan {
	pl := &plan{steps: steps, rules: rules, keys: steps & keyStepBits}
	has := pl.has
	pl.whatwg = has(ParseWHATWG)
	pl.safeBrowsing = has(ParseSafeBrowsing)
	pl.surtRead = has(ReadAsSURT)
	pl.surtKeys = surtKeys && pl.whatwg // (ReadAsSURT needs ParseWHATWG)
	pl.surtSessions = pl.surtKeys && has(RemoveSessionIDs)
	pl.defaultScheme = has(DefaultScheme)
	pl.decodeAll = has(DecodeAll)
	pl.plusToSpace = has(PlusToSpace)
	pl.resolve1808 = has(ResolveRFC1808)
	pl.dropFragment = has(RemoveFragment)
	pl.lowerScheme = has(LowercaseScheme) || pl.whatwg
	// The standard's host parser lowercases an ASCII domain (the quick
	// scan reads lowerHost; the engine's WHATWG writers lowercase it their
	// own way).
	pl.lowerHost = has(LowercaseHost) || pl.whatwg
	pl.toASCII = has(HostToASCII)
	pl.toUnicode = has(HostToUnicode)
	pl.trimDots = has(TrimHostDots)
	pl.fileLocalhost = has(StripFileLocalhost)
	pl.decodeUnres = has(DecodeUnreserved)
	pl.upperEscapes = has(UppercaseEscapes)
	pl.decodeIUnres = has(DecodeIUnreserved)
	pl.nfc = has(NFC)
	if pl.whatwg && (pl.upperEscapes || pl.decodeUnres) {
		pl.pctTriplets = setTriplet
	}
	switch {
	case pl.surtRead:
		pl.port = portSURT
	case pl.whatwg || has(RemoveDefaultPort):
		pl.port = portDefault
	case has(RemoveHTTPFTPPort):
		pl.port = portHTTPFTP
	}
	switch {
	case pl.whatwg:
		pl.esc = escapeWHATWG
	case pl.decodeAll:
		pl.esc = escapePOWDER
	case has(EncodeToURI):
		pl.esc = escapeURI
	case has(EncodeToIRI):
		pl.esc = escapeIRI
	case pl.upperEscapes || pl.decodeUnres || pl.decodeIUnres:
		pl.esc = escapeNorm
	}
	switch pl.esc {
	case escapeWHATWG:
		pl.syn = syntaxWHATWG
	case escapePOWDER:
		pl.syn = syntaxLenient
	}
	switch {
	case pl.whatwg:
		pl.dots = dotsWHATWG
	case has(RemoveDots):
		pl.dots = dotsRFC3986
	case has(RemoveDots1808):
		pl.dots = dotsRFC1808
	}
	switch {
	case has(AddRootPath):
		pl.root = rootAny
	case has(AddHTTPRootPath) || pl.whatwg:
		// The standard writes a special URL's empty path as "/" (its
		// path state; whatwgPath writes it).
		pl.root = rootSpecial
	}
	return pl
}

// zeroPlan is the plan of the zero Profile, which has no step.
var zeroPlan = func() *plan {
	plansMu.Lock()
	defer plansMu.Unlock()
	return internPlan(0, nil)
}()

// planKey is what a plan is interned by: its steps and rules, whether
// it keys blob: URLs as any other (see plan.blob): so does a profile with
// an archive tool's step, and the plans it reads bases and references
// with (refBase, absRef, surtRef), which lack that step but read the
// same URLs; and whether it has ReadAsSURT's key rules (plan.surtKeys):
// a plan with ReadAsSURT, and the plans it reads bases and references
// with, which may lack it.
type planKey struct {
	steps     uint64
	rules     *ruleSet
	blobAsAny bool
	surtKeys  bool
}

var (
	plansMu sync.Mutex
	plans   = map[planKey]*plan{}
)

// internPlan returns the interned plan of steps and rules, compiling it
// (and its base) the first time. plansMu must be held.
func internPlan(steps uint64, rules *ruleSet) *plan {
	return internPlanKey(planKey{steps, rules, steps&archiveToolSteps != 0, steps&(1<<ReadAsSURT) != 0})
}

// internPlanKey is internPlan of a key: the plans a plan reads bases
// and references with key blob: URLs as it does.
func internPlanKey(k planKey) *plan {
	if pl, ok := plans[k]; ok {
		return pl
	}
	steps, rules := k.steps, k.rules
	pl := compile(steps, rules, k.surtKeys)
	plans[k] = pl
	if b := steps &^ keyStepBits; b != steps || rules != nil {
		pl.base = internPlan(b, nil)
	} else {
		pl.base = pl
	}
	if pl.surtRead {
		pl.surtRef = internPlanKey(planKey{steps &^ (1 << ReadAsSURT), rules, k.blobAsAny, true})
	}
	if pl.whatwg {
		pl.refBase = internPlanKey(planKey{steps & refBaseSteps, nil, k.blobAsAny, k.surtKeys})
		pl.absRef = internPlanKey(planKey{steps &^ (1 << DefaultScheme), rules, k.blobAsAny, k.surtKeys})
		if steps&blobEditSteps != 0 && !k.blobAsAny {
			pl.blob = internPlan(steps&blobSteps, nil)
		}
	}
	return pl
}

// stepConflicts lists pairs of steps that cannot be in one profile.
var stepConflicts = [][2]Step{
	{HostToASCII, HostToUnicode},
	{RemoveDots, RemoveDots1808},
	{EncodeToURI, EncodeToIRI},
	{DecodeAll, EncodeToURI}, {DecodeAll, EncodeToIRI}, {DecodeAll, UppercaseEscapes},
	{DecodeAll, DecodeUnreserved}, {DecodeAll, DecodeIUnreserved}, {DecodeAll, NFC},
	{DecodeAll, HostToASCII}, {DecodeAll, HostToUnicode},
	{DecodeIUnreserved, EncodeToURI},
}

// whatwgExcludes are the steps ParseWHATWG cannot be combined with: the
// standard does their work its own way (case, hosts, ports, encoding,
// dots, the root path), or they contradict it (DecodeAll, PlusToSpace,
// RFC 1808, IRI's decoding and NFC, which would write what the standard
// encodes). UppercaseEscapes and DecodeUnreserved combine with it: the
// standard keeps escapes as written, and RFC 3986 §6.2.2.1-2 say which
// spellings of them are one (see engine.whatwgTriplet); TrimHostDots
// too, on a domain (trimDomainDots).
var whatwgExcludes = []Step{
	DecodeAll, PlusToSpace, ResolveRFC1808, LowercaseScheme, LowercaseHost, HostToASCII,
	HostToUnicode, StripFileLocalhost, RemoveHTTPFTPPort, RemoveDefaultPort,
	EncodeToURI, EncodeToIRI, DecodeIUnreserved, NFC,
	RemoveDots, RemoveDots1808, AddRootPath, AddHTTPRootPath,
}

// needsWHATWGWhy says why a step needs ParseWHATWG.
var needsWHATWGWhy = map[Step]string{
	DecodePathRepeatedly:  ", whose percent-encode sets it encodes with",
	DecodeQueryRepeatedly: ", whose percent-encode sets it encodes with",
	ReadAsSURT:            ", whose reading it changes where the surt library reads a URL otherwise",
}

// checkSteps reports why steps cannot make one profile, or nil.
func checkSteps(steps uint64) error {
	has := func(s Step) bool { return steps&(1<<s) != 0 }
	if has(ParseSafeBrowsing) && steps != 1<<ParseSafeBrowsing {
		return errors.New("canon: step ParseSafeBrowsing cannot be combined with other steps: it reads and writes the whole URL as Google Safe Browsing's canonicalization says")
	}
	for _, c := range stepConflicts {
		if has(c[0]) && has(c[1]) {
			return errors.New("canon: steps " + c[0].String() + " and " + c[1].String() + " conflict")
		}
	}
	for _, s := range []Step{DecodePathRepeatedly, DecodeQueryRepeatedly, ReadAsSURT} {
		if has(s) && !has(ParseWHATWG) {
			return errors.New("canon: step " + s.String() + " needs ParseWHATWG" + needsWHATWGWhy[s])
		}
	}
	if has(ParseWHATWG) {
		for _, s := range whatwgExcludes {
			if has(s) {
				return errors.New("canon: step " + s.String() + " cannot be combined with ParseWHATWG, which does its work as the WHATWG URL Standard says")
			}
		}
	}
	return nil
}

// dropsPort reports whether the plan drops the port of value v (-1 when
// empty) from a URL of scheme kind (RFC 3986 §6.2.3; the PDF's step 6;
// the WHATWG URL Standard's default ports). The writers strip the
// leading zeros of a port they keep when pl.port is portDefault or
// portSURT (the surt library reads a port as a number).
func (pl *plan) dropsPort(kind schemeKind, v int) bool {
	switch pl.port {
	case portDefault:
		return v < 0 || v == kind.defaultPort()
	case portSURT:
		return v < 0 || v == 80 && kind == schemeHTTP || v == 443 && kind == schemeHTTPS
	case portHTTPFTP:
		return v == 80 && kind == schemeHTTP || v == 21 && kind == schemeFTP
	}
	return false
}

// addsRoot reports whether the plan writes an empty path of a URL of
// scheme kind with an authority as "/" (POWDER's AddRootPath: any scheme;
// RFC 3986 §6.2.3's AddHTTPRootPath: the schemes with a default port).
func (pl *plan) addsRoot(kind schemeKind) bool {
	return pl.root == rootAny || pl.root == rootSpecial && kind.defaultPort() > 0
}

// tripletRule is what a plan does with a valid percent-encoded triplet.
type tripletRule uint8

const (
	tripletKeep   tripletRule = iota // as written
	tripletDecode                    // decoded: an unreserved octet, with DecodeUnreserved (RFC 3986 §6.2.2.2)
	tripletUpper                     // in uppercase hex, with UppercaseEscapes (§6.2.2.1)
)

// triplet is the plan's rule for the triplet "%" h1 h2 of octet v, where
// decode says whether unreserved octets are decoded there (DecodeUnreserved
// in every component; also DecodeIUnreserved in a host, whose octets the
// IDNA steps read decoded): every writer of every component, and of a
// host and an IPv6 zone identifier, writes escapes by it.
func (pl *plan) triplet(v, h1, h2 byte, decode bool) tripletRule {
	switch {
	case decode && byteClass[v]&clsUnreserved != 0:
		return tripletDecode
	case pl.upperEscapes && (!isUpperHex(h1) || !isUpperHex(h2)):
		return tripletUpper
	}
	return tripletKeep
}
