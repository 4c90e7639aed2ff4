// Package canonbeam runs canon in Apache Beam pipelines: transforms that
// turn a PCollection of URLs into canonical keys, keyed records, distinct
// keys and counts, on any Beam runner (prism in-process, Dataflow, Flink,
// Spark).
//
// It lives in its own module, github.com/seed15588f71/canon/beam, so that
// users of the library never download the Beam SDK.
//
// Every input element ends in exactly one of two outputs: its key, or a
// [Failure] holding the input and the error's text. Nothing is dropped, so
// the number of keys plus the number of failures is the number of inputs.
//
// A [canon.Profile] has no exported fields, and Beam ships a DoFn to its
// workers as the JSON of its exported fields; the DoFns here therefore
// carry the profile as the names of its steps (canon.Step.String) and
// rebuild it with canon.NewProfile in Setup. Names rather than the Step
// numbers keep the serialized pipeline readable and independent of the
// order of the Step constants.
package canonbeam

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/seed15588f71/canon"
)

// Failure is an input the library rejected.
type Failure struct {
	// Input is the element as it came in. Unlike Error it is not
	// redacted: it is the caller's own data, as the canon command's tsv
	// and jsonl formats write it.
	Input string
	// Error is the error's text, e.g. `canon.Normalize("http://h:8x/"):
	// port: invalid character (at "x/")`, with any password in the
	// quoted input replaced by "xxxxx".
	Error string
}

// Counters, so that a runner's UI (and the canon-beam command's summary)
// shows how many inputs gave keys and how many failed, without a pass
// over the outputs.
var (
	keysCounter     = beam.NewCounter("canon", "keys")
	failuresCounter = beam.NewCounter("canon", "failures")
)

func init() {
	// Struct DoFns must be registered to run on remote workers; the
	// generic registrations also spare the reflection on each call.
	register.DoFn4x0[context.Context, string, func(string), func(Failure)](&normalizeFn{})
	register.DoFn4x0[context.Context, string, func(string, string), func(Failure)](&keyByFn{})
	register.Emitter1[string]()
	register.Emitter2[string, string]()
	register.Emitter1[Failure]()
	beam.RegisterType(reflect.TypeOf((*Failure)(nil)).Elem())
}

// stepNames is the serializable form of a profile.
func stepNames(p canon.Profile) []string {
	steps := p.Steps()
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = s.String()
	}
	return names
}

// profileOf rebuilds the profile stepNames wrote.
func profileOf(names []string) (canon.Profile, error) {
	steps := make([]canon.Step, len(names))
	for i, n := range names {
		s, err := canon.ParseStep(n)
		if err != nil {
			return canon.Profile{}, err
		}
		steps[i] = s
	}
	return canon.NewProfile(steps...)
}

// normalizer is what both DoFns do to one input; Setup makes it.
type normalizer struct {
	p    canon.Profile
	ref  bool
	base string
}

func (n *normalizer) key(in string) (string, error) {
	if n.ref {
		return canon.NormalizeRef(n.base, in, n.p)
	}
	return canon.Normalize(in, n.p)
}

// normalizeFn emits the key of each input, or a Failure.
type normalizeFn struct {
	Steps []string `json:"steps"`
	// Ref resolves each input against Base (canon.NormalizeRef). A flag
	// of its own because "" is a base too, one every reference fails on.
	Ref  bool   `json:"ref,omitempty"`
	Base string `json:"base,omitempty"`

	n normalizer
}

func (f *normalizeFn) Setup() error {
	p, err := profileOf(f.Steps)
	f.n = normalizer{p: p, ref: f.Ref, base: f.Base}
	return err
}

func (f *normalizeFn) ProcessElement(ctx context.Context, in string, key func(string), fail func(Failure)) {
	k, err := f.n.key(in)
	if err != nil {
		failed(ctx, in, err, fail)
		return
	}
	keysCounter.Inc(ctx, 1)
	key(k)
}

// keyByFn emits KV<key, input> for each input, or a Failure.
type keyByFn struct {
	Steps []string `json:"steps"`
	Ref   bool     `json:"ref,omitempty"`
	Base  string   `json:"base,omitempty"`

	n normalizer
}

func (f *keyByFn) Setup() error {
	p, err := profileOf(f.Steps)
	f.n = normalizer{p: p, ref: f.Ref, base: f.Base}
	return err
}

func (f *keyByFn) ProcessElement(ctx context.Context, in string, kv func(string, string), fail func(Failure)) {
	k, err := f.n.key(in)
	if err != nil {
		failed(ctx, in, err, fail)
		return
	}
	keysCounter.Inc(ctx, 1)
	kv(k, in)
}

// failed sends a rejected input to the failures output. A rejected input
// is data, not a fault of the pipeline, so ProcessElement returns no
// error: one would make the runner retry the bundle and then fail the job.
func failed(ctx context.Context, in string, err error, fail func(Failure)) {
	failuresCounter.Inc(ctx, 1)
	fail(Failure{Input: in, Error: err.Error()})
}

// Normalize returns the key of each URL in urls, a PCollection<string>,
// under profile p (canon.Normalize), and a PCollection<Failure> of the
// URLs it rejects. Keys keep their multiplicity: apply [Dedup] or
// [CountByKey] to merge them.
func Normalize(s beam.Scope, urls beam.PCollection, p canon.Profile) (keys, failures beam.PCollection) {
	s = s.Scope("canon.Normalize")
	return beam.ParDo2(s, &normalizeFn{Steps: stepNames(p)}, urls)
}

// NormalizeRef is [Normalize] for references: each element of refs is
// resolved against base, then normalized (canon.NormalizeRef). An
// invalid base fails every element, each with the base's error.
func NormalizeRef(s beam.Scope, base string, refs beam.PCollection, p canon.Profile) (keys, failures beam.PCollection) {
	s = s.Scope("canon.NormalizeRef")
	return beam.ParDo2(s, &normalizeFn{Steps: stepNames(p), Ref: true, Base: base}, refs)
}

// KeyBy returns a PCollection<KV<string, string>> of each URL's key and
// the URL as it came in, for joins and group-bys on the key, and the
// PCollection<Failure> of the URLs p rejects.
func KeyBy(s beam.Scope, urls beam.PCollection, p canon.Profile) (keyed, failures beam.PCollection) {
	s = s.Scope("canon.KeyBy")
	return beam.ParDo2(s, &keyByFn{Steps: stepNames(p)}, urls)
}

// KeyByRef is [KeyBy] with each element resolved against base first, as
// [NormalizeRef] does; the value of each KV is the reference as written.
func KeyByRef(s beam.Scope, base string, refs beam.PCollection, p canon.Profile) (keyed, failures beam.PCollection) {
	s = s.Scope("canon.KeyByRef")
	return beam.ParDo2(s, &keyByFn{Steps: stepNames(p), Ref: true, Base: base}, refs)
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
