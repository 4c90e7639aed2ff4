// Package canonbeam runs canon in Apache Beam pipelines: transforms that
// turn a PCollection of URLs, or of links found on pages, into canonical
// keys, keyed records, distinct keys and counts, on any Beam runner (prism
// in-process, Dataflow, Flink, Spark).
//
// It lives in its own module, github.com/seed15588f71/canon/beam, so that
// users of the library never download the Beam SDK.
//
// Every input element ends in exactly one of three ways: its key, a
// [Failure] holding the input and the error, or, when it is blank (empty,
// or only spaces, tabs, CR, VT or FF, as the canon command reads a blank
// line), nothing: a blank is not a URL, so it is neither a key nor a
// failure, and no base makes one of it. Nothing else is dropped: the
// counters canon/keys, canon/failures and canon/blank add up to the
// number of inputs.
//
// A [canon.Profile] has no exported fields, and Beam ships a DoFn to its
// workers as the JSON (encoding/json) of the DoFn's exported fields. The
// DoFns here therefore carry the profile as the names of its steps
// (canon.Step.String) and its [canon.Rules], whole, as encoding/json
// writes them, and rebuild it in Setup with canon.NewProfile and
// Profile.WithRules. Each transform checks, as it is applied, that this
// round trip gives back a profile == to the one it was given, and panics
// (as beam.ParDo does for a DoFn it cannot use) when it does not: a
// profile is refused while the pipeline is built, never altered on the
// workers. [CheckProfile] makes the same check and returns the error.
package canonbeam

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/seed15588f71/canon"
)

// Failure is an input the library rejected. Message, Kind, Component and
// Offset are what the canon command writes for a failing line: after
// "line N: " on standard error, and as the "error", "kind", "component"
// and "offset" fields of -format jsonl.
type Failure struct {
	// Input is the element as it came in (for the KV transforms, the
	// href). Unlike Error it is not redacted: it is the caller's own
	// data, as the canon command's tsv and jsonl formats write it.
	Input string
	// Error is the error's text, e.g. `canon.Normalize("http://h:8x/"):
	// port: invalid character (at "x/")`, with any password in the
	// quoted input replaced by "xxxxx".
	Error string
	// Message is the error as the canon command words it, without the
	// function and the input, which is in its own column (the
	// error's [canon.Error.Detail]): `port: invalid character (at
	// "x/")`; `resolved against -base: ...` when the problem is in the
	// URL made of the base and the input, `resolved against the page:
	// ...` for the KV transforms; `base: ...` or `page: ...` when the
	// base or the page is itself invalid; `line longer than 4194304
	// bytes` for an input longer than canon.MaxLength.
	Message string
	// Kind is the name of the library's sentinel error the error wraps,
	// e.g. "ErrInvalidPort" (the Go variable's name, stable where its text
	// may change), or "error" for an error that wraps none.
	Kind string
	// Component is where the problem is, as canon.Component.String
	// names it ("port", "host", ...), or "" when the error does not say.
	Component string
	// Offset is the byte offset in Input of the text Message quotes after
	// "at", or -1 when the problem has no place in Input (it was found in
	// a rewritten form of it, or in the base or the page).
	Offset int
	// Page is the page an href was resolved against, for the KV
	// transforms (NormalizeRefKV, KeyByRefKV); "" otherwise.
	Page string
}

// Link is a link as found on a page: the page's URL and the href as
// written there. KeyByRefKV keys each Link by the href's key.
type Link struct {
	Page string
	Href string
}

// Counters, so that a runner's UI (and the canon-beam command's summary)
// shows how many inputs gave keys, how many failed and how many were
// blank, without a pass over the outputs.
var (
	keysCounter     = beam.NewCounter("canon", "keys")
	failuresCounter = beam.NewCounter("canon", "failures")
	blankCounter    = beam.NewCounter("canon", "blank")
)

func init() {
	// Struct DoFns must be registered to run on remote workers; the
	// generic registrations also spare the reflection on each call.
	register.DoFn4x0[context.Context, string, func(string), func(Failure)](&normalizeFn{})
	register.DoFn4x0[context.Context, string, func(string, string), func(Failure)](&keyByFn{})
	register.DoFn5x0[context.Context, string, string, func(string, string), func(Failure)](&normalizeKVFn{})
	register.DoFn5x0[context.Context, string, string, func(string, Link), func(Failure)](&keyByKVFn{})
	register.Emitter1[string]()
	register.Emitter2[string, string]()
	register.Emitter2[string, Link]()
	register.Emitter1[Failure]()
	beam.RegisterType(reflect.TypeOf((*Failure)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Link)(nil)).Elem())
}

// profileSpec is a canon.Profile in the form the DoFns carry it to the
// workers: the names of its steps, and its Rules as the text
// encoding/json writes for them (the whole struct, so that a field added
// to canon.Rules travels without a change here). The Rules go as text,
// not as a struct field: canon.Rules holds Rules (per host), and Beam's
// schema inference cannot describe a recursive type.
type profileSpec struct {
	Steps []string `json:"steps"`
	Rules string   `json:"rules"` // JSON of canon.Rules
}

// specOf returns the serializable form of p.
func specOf(p canon.Profile) profileSpec {
	steps := p.Steps()
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = s.String()
	}
	rules, err := json.Marshal(p.Rules())
	if err != nil {
		panic(err) // string slices and maps of them always marshal
	}
	return profileSpec{Steps: names, Rules: string(rules)}
}

// profile rebuilds the profile specOf described.
func (ps profileSpec) profile() (canon.Profile, error) {
	steps := make([]canon.Step, len(ps.Steps))
	for i, n := range ps.Steps {
		s, err := canon.ParseStep(n)
		if err != nil {
			return canon.Profile{}, err
		}
		steps[i] = s
	}
	p, err := canon.NewProfile(steps...)
	if err != nil {
		return canon.Profile{}, err
	}
	var r canon.Rules
	if ps.Rules != "" {
		dec := json.NewDecoder(strings.NewReader(ps.Rules))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return canon.Profile{}, fmt.Errorf("rules %s: %w", ps.Rules, err)
		}
	}
	return p.WithRules(r)
}

// checkSpec reports whether spec, sent through encoding/json as Beam
// sends a DoFn's fields and rebuilt as Setup rebuilds it, gives back p.
func checkSpec(p canon.Profile, spec profileSpec) error {
	data, err := json.Marshal(spec)
	if err != nil {
		return fmt.Errorf("canonbeam: profile %v cannot be carried to the workers: %w", p, err)
	}
	var back profileSpec
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&back); err != nil {
		return fmt.Errorf("canonbeam: profile %v cannot be carried to the workers: %s: %w", p, data, err)
	}
	got, err := back.profile()
	if err != nil {
		return fmt.Errorf("canonbeam: profile %v cannot be rebuilt on the workers from %s: %w", p, data, err)
	}
	if got != p {
		return fmt.Errorf("canonbeam: profile %v cannot be carried to the workers: rebuilt from %s it is %v", p, data, got)
	}
	return nil
}

// CheckProfile reports whether p can be carried to the workers: whether
// its steps and rules, as the DoFns send them, rebuild a profile == p.
// The transforms make this check as they are applied and panic when it
// fails; CheckProfile gives a program the error instead, to report before
// it builds the pipeline.
func CheckProfile(p canon.Profile) error {
	return checkSpec(p, specOf(p))
}

// specHook lets a test hand the check a spec that loses part of the
// profile, as a future field of canon.Profile that the spec does not
// carry would.
var specHook = func(spec profileSpec) profileSpec { return spec }

// mustSpec is specOf, checked; op names the transform in the panic.
func mustSpec(op string, p canon.Profile) profileSpec {
	spec := specHook(specOf(p))
	if err := checkSpec(p, spec); err != nil {
		panic(fmt.Sprintf("canonbeam.%s: %v", op, err))
	}
	return spec
}

// normalizer is what every DoFn does to one input; Setup makes it.
type normalizer struct {
	p canon.Profile
	// ref resolves each input against base (canon.NormalizeRef); kv
	// against the page that comes with it.
	ref, kv bool
	base    string
	// page is the base (ref) or the last page (kv) read into prepared,
	// once for all the inputs that come with it (canon.NewBase): a
	// DoFn instance handles one bundle at a time, and a page's links
	// mostly come together.
	page     string
	prepared *canon.Base
}

func (n *normalizer) setup(spec profileSpec, ref, kv bool, base string) error {
	p, err := spec.profile()
	*n = normalizer{p: p, ref: ref, kv: kv, base: base}
	return err
}

// normalizeRef is canon.NormalizeRef(page, in, n.p), with page read once
// while it stays the same (canon.NewBase): the key NormalizeRef gives and
// its error, whose Op is then Base.Normalize. A page that NewBase refuses
// is left to NormalizeRef, whose error names it.
func (n *normalizer) normalizeRef(page, in string) (string, error) {
	if n.prepared == nil || n.page != page {
		b, err := canon.NewBase(page, n.p)
		if err != nil {
			n.prepared = nil
			return canon.NormalizeRef(page, in, n.p)
		}
		n.page, n.prepared = page, b
	}
	return n.prepared.Normalize(in)
}

// process handles one input, found on page for the KV transforms: it
// returns the input's key, or false when the input is blank (counted) or
// failed (sent to fail).
func (n *normalizer) process(ctx context.Context, page, in string, fail func(Failure)) (string, bool) {
	// As the canon command does: a line too long to read fails, whatever
	// its bytes; a blank one is skipped.
	if len(in) <= canon.MaxLength && isBlank(in) {
		blankCounter.Inc(ctx, 1)
		return "", false
	}
	var k string
	var err error
	switch {
	case n.kv:
		k, err = n.normalizeRef(page, in)
	case n.ref:
		k, err = n.normalizeRef(n.base, in)
	default:
		k, err = canon.Normalize(in, n.p)
	}
	if err != nil {
		// A rejected input is data, not a fault of the pipeline, so
		// ProcessElement returns no error: one would make the runner
		// retry the bundle and then fail the job.
		failuresCounter.Inc(ctx, 1)
		fail(n.failure(page, in, err))
		return "", false
	}
	keysCounter.Inc(ctx, 1)
	return k, true
}

// isBlank reports whether s is empty or only ASCII white space, as the
// canon command decides that a line is blank.
func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

// sentinels names the library's sentinel errors for Failure.Kind, as the
// canon command names them.
var sentinels = [...]struct {
	err  error
	name string
}{
	{canon.ErrRelative, "ErrRelative"},
	{canon.ErrInvalidEscape, "ErrInvalidEscape"},
	{canon.ErrInvalidHost, "ErrInvalidHost"},
	{canon.ErrInvalidPort, "ErrInvalidPort"},
	{canon.ErrInvalidScheme, "ErrInvalidScheme"},
	{canon.ErrInvalidChar, "ErrInvalidChar"},
	{canon.ErrTooLong, "ErrTooLong"},
}

// failure describes err, which the library returned for in (found on
// page, for the KV transforms), in the canon command's terms.
func (n *normalizer) failure(page, in string, err error) Failure {
	f := Failure{Input: in, Error: err.Error(), Message: err.Error(), Kind: "error", Offset: -1, Page: page}
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			f.Kind = s.name
			break
		}
	}
	if len(in) > canon.MaxLength {
		// The canon command does not keep such a line; it says so
		// without quoting it.
		f.Message = "line longer than " + strconv.Itoa(canon.MaxLength) + " bytes"
		f.Component = canon.ComponentURL.String()
		return f
	}
	var e *canon.Error
	if !errors.As(err, &e) {
		return f
	}
	f.Component = e.Component.String()
	// The error without the function and the input, which is in its own
	// column: `port: invalid character (at "x/")`, as the canon command
	// words it.
	f.Message = e.Detail()
	switch e.Arg {
	case "resolved":
		if n.kv {
			f.Message = "resolved against the page: " + f.Message
		} else {
			f.Message = "resolved against -base: " + f.Message
		}
	case "base":
		if n.kv {
			f.Message = "page: " + f.Message
		} else {
			f.Message = "base: " + f.Message
		}
		return f // the offset is in the base, not in the input
	}
	// e.Offset indexes e.Input: the input with any password replaced by
	// "xxxxx", or the URL resolved from the base and the input. The text
	// from the offset on is what Message quotes; when the input ends
	// with it, the offset maps back to the input.
	switch {
	case e.Offset < 0 || e.Offset > len(e.Input):
	case e.Input == in:
		f.Offset = e.Offset
	case e.Offset < len(e.Input) && strings.HasSuffix(in, e.Input[e.Offset:]):
		f.Offset = len(in) - (len(e.Input) - e.Offset)
	}
	return f
}

// NewFailure describes err, an error the library returned for in, as
// the transforms describe an input they reject (Page is left empty): for
// a pipeline that runs a step of its own on the keys, such as canon.SURT
// or canon.LookupExpressions, and sends what that step rejects to the
// same failures. Message is the error's Detail (its text without the
// library's `canon.Op("input"): `), and Offset is the place in in of the text it
// quotes, when in ends with that text (-1 otherwise), as for a failure of
// the transforms.
func NewFailure(in string, err error) Failure {
	var n normalizer
	return n.failure("", in, err)
}

// normalizeFn emits the key of each input, or a Failure.
type normalizeFn struct {
	Profile profileSpec `json:"profile"`
	// Ref resolves each input against Base (canon.NormalizeRef). A flag
	// of its own because "" is a base too, one every reference fails on.
	Ref  bool   `json:"ref,omitempty"`
	Base string `json:"base,omitempty"`

	n normalizer
}

func (f *normalizeFn) Setup() error { return f.n.setup(f.Profile, f.Ref, false, f.Base) }

func (f *normalizeFn) ProcessElement(ctx context.Context, in string, key func(string), fail func(Failure)) {
	if k, ok := f.n.process(ctx, "", in, fail); ok {
		key(k)
	}
}

// keyByFn emits KV<key, input> for each input, or a Failure.
type keyByFn struct {
	Profile profileSpec `json:"profile"`
	Ref     bool        `json:"ref,omitempty"`
	Base    string      `json:"base,omitempty"`

	n normalizer
}

func (f *keyByFn) Setup() error { return f.n.setup(f.Profile, f.Ref, false, f.Base) }

func (f *keyByFn) ProcessElement(ctx context.Context, in string, kv func(string, string), fail func(Failure)) {
	if k, ok := f.n.process(ctx, "", in, fail); ok {
		kv(k, in)
	}
}

// normalizeKVFn emits KV<page, key> for each KV<page, href>, or a Failure.
type normalizeKVFn struct {
	Profile profileSpec `json:"profile"`

	n normalizer
}

func (f *normalizeKVFn) Setup() error { return f.n.setup(f.Profile, false, true, "") }

func (f *normalizeKVFn) ProcessElement(ctx context.Context, page, href string, kv func(string, string), fail func(Failure)) {
	if k, ok := f.n.process(ctx, page, href, fail); ok {
		kv(page, k)
	}
}

// keyByKVFn emits KV<key, Link> for each KV<page, href>, or a Failure.
type keyByKVFn struct {
	Profile profileSpec `json:"profile"`

	n normalizer
}

func (f *keyByKVFn) Setup() error { return f.n.setup(f.Profile, false, true, "") }

func (f *keyByKVFn) ProcessElement(ctx context.Context, page, href string, kv func(string, Link), fail func(Failure)) {
	if k, ok := f.n.process(ctx, page, href, fail); ok {
		kv(k, Link{Page: page, Href: href})
	}
}

// Normalize returns the key of each URL in urls, a PCollection<string>,
// under profile p (canon.Normalize), and a PCollection<Failure> of the
// URLs it rejects; blank elements give neither. Keys keep their
// multiplicity: apply [Dedup] or [CountByKey] to merge them. It panics,
// while the pipeline is built, when p cannot be carried to the workers
// (see [CheckProfile]).
func Normalize(s beam.Scope, urls beam.PCollection, p canon.Profile) (keys, failures beam.PCollection) {
	s = s.Scope("canon.Normalize")
	return beam.ParDo2(s, &normalizeFn{Profile: mustSpec("Normalize", p)}, urls)
}

// NormalizeRef is [Normalize] for references: each element of refs is
// resolved against base, then normalized (canon.NormalizeRef). A blank
// element is skipped, not resolved to the base. An invalid base fails
// every other element, each with the base's error.
func NormalizeRef(s beam.Scope, base string, refs beam.PCollection, p canon.Profile) (keys, failures beam.PCollection) {
	s = s.Scope("canon.NormalizeRef")
	return beam.ParDo2(s, &normalizeFn{Profile: mustSpec("NormalizeRef", p), Ref: true, Base: base}, refs)
}

// KeyBy returns a PCollection<KV<string, string>> of each URL's key and
// the URL as it came in, for joins and group-bys on the key, and the
// PCollection<Failure> of the URLs p rejects; blank elements give neither.
func KeyBy(s beam.Scope, urls beam.PCollection, p canon.Profile) (keyed, failures beam.PCollection) {
	s = s.Scope("canon.KeyBy")
	return beam.ParDo2(s, &keyByFn{Profile: mustSpec("KeyBy", p)}, urls)
}

// KeyByRef is [KeyBy] with each element resolved against base first, as
// [NormalizeRef] does; the value of each KV is the reference as written.
func KeyByRef(s beam.Scope, base string, refs beam.PCollection, p canon.Profile) (keyed, failures beam.PCollection) {
	s = s.Scope("canon.KeyByRef")
	return beam.ParDo2(s, &keyByFn{Profile: mustSpec("KeyByRef", p), Ref: true, Base: base}, refs)
}

// NormalizeRefKV is [NormalizeRef] for links that each come with their
// own page, as in a crawl: links is a PCollection<KV<string, string>> of
// page and href, and each href is resolved against its page
// (canon.NormalizeRef(page, href, p)). It returns a
// PCollection<KV<string, string>> of each link's page and key (the edges
// of a link graph, by the targets' keys; beam.DropKey leaves the keys),
// and a PCollection<Failure> whose Page says which page a failing href
// was on. A blank href gives neither; an invalid page fails each of its
// hrefs.
func NormalizeRefKV(s beam.Scope, links beam.PCollection, p canon.Profile) (keyed, failures beam.PCollection) {
	s = s.Scope("canon.NormalizeRefKV")
	return beam.ParDo2(s, &normalizeKVFn{Profile: mustSpec("NormalizeRefKV", p)}, links)
}

// KeyByRefKV is [NormalizeRefKV] keyed by the link: it returns a
// PCollection<KV<string, Link>> of each href's key and the link as it came
// in (its page and the href as written), for grouping the links to one
// key, and the PCollection<Failure>.
func KeyByRefKV(s beam.Scope, links beam.PCollection, p canon.Profile) (keyed, failures beam.PCollection) {
	s = s.Scope("canon.KeyByRefKV")
	return beam.ParDo2(s, &keyByKVFn{Profile: mustSpec("KeyByRefKV", p)}, links)
}

// Dedup returns the distinct elements of keys, a PCollection<string>. The
// merge happens in the runner's shuffle, so no worker holds the set of
// keys in memory (unlike canon -u).
func Dedup(s beam.Scope, keys beam.PCollection) beam.PCollection {
	s = s.Scope("canon.Dedup")
	return filter.Distinct(s, keys)
}

// CountByKey returns a PCollection<KV<string, int>>: each distinct
// element of keys with the number of times it occurs.
func CountByKey(s beam.Scope, keys beam.PCollection) beam.PCollection {
	s = s.Scope("canon.CountByKey")
	return stats.Count(s, keys)
}
