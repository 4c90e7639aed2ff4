package canonbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/learn"
)

// Capture is a learn.Capture in a form Beam encodes: the time as Unix
// nanoseconds, which is what the learner reads of a learn.Capture's
// Time. [CaptureOf] and [Capture.Learn] convert.
type Capture struct {
	URL      string
	UnixNano int64 // when it was captured, in nanoseconds since 1970 UTC; 0: unknown (the zero time.Time)
	Status   int   // the HTTP status; 0: unknown, taken as 200
	Digest   string
}

// CaptureOf returns c as a Capture. The zero Time gives UnixNano 0.
func CaptureOf(c learn.Capture) Capture {
	out := Capture{URL: c.URL, Status: c.Status, Digest: c.Digest}
	if !c.Time.IsZero() {
		out.UnixNano = c.Time.UnixNano()
	}
	return out
}

// Learn returns c as a learn.Capture, in UTC; UnixNano 0 gives the zero
// Time. A learner gives c.Learn() the weight it gives the learn.Capture
// CaptureOf made c of.
func (c Capture) Learn() learn.Capture {
	out := learn.Capture{URL: c.URL, Status: c.Status, Digest: c.Digest}
	if c.UnixNano != 0 {
		out.Time = time.Unix(0, c.UnixNano).UTC()
	}
	return out
}

// Counters of the learning transforms, in a namespace of their own (the
// canon namespace counts URLs).
var (
	capturesCounter  = beam.NewCounter("canon.learn", "captures")   // index lines read as captures
	malformedCounter = beam.NewCounter("canon.learn", "malformed")  // index lines that failed
	ignoredCounter   = beam.NewCounter("canon.learn", "ignored")    // empty lines, comments, CDX headers
	noHostCounter    = beam.NewCounter("canon.learn", "no-host")    // captures whose URL learn.Host refuses, dropped
	hostsCounter     = beam.NewCounter("canon.learn", "hosts")      // hosts judged (learn.Stats)
	ruleHostsCounter = beam.NewCounter("canon.learn", "rule-hosts") // hosts given rules
	// What the hosts' learners left out (learn.Skipped).
	skippedStatusCounter   = beam.NewCounter("canon.learn", "skipped-status")
	skippedNoDigestCounter = beam.NewCounter("canon.learn", "skipped-no-digest")
	skippedEmptyCounter    = beam.NewCounter("canon.learn", "skipped-empty-payload")
	skippedInvalidCounter  = beam.NewCounter("canon.learn", "skipped-invalid")
	skippedSampledCounter  = beam.NewCounter("canon.learn", "skipped-sampled")
	// The sets of parameters judged, by verdict (learn.Finding).
	learnedCounter    = beam.NewCounter("canon.learn", "sets-learned")
	refusedCounter    = beam.NewCounter("canon.learn", "sets-refused")
	nearMissCounter   = beam.NewCounter("canon.learn", "sets-near-miss")
	unfinishedCounter = beam.NewCounter("canon.learn", "hosts-unfinished") // hosts judged in part (learn.Stats.Unfinished)
)

func init() {
	register.DoFn4x0[context.Context, string, func(Capture), func(Failure)](&parseCaptureFn{})
	register.DoFn3x0[context.Context, Capture, func(string, Capture)](&captureHostFn{})
	register.DoFn4x1[context.Context, string, func(*Capture) bool, func(string), error](&learnHostFn{})
	register.DoFn4x1[context.Context, []byte, func(*string) bool, func(string), error](&mergeRulesFn{})
	register.Emitter1[Capture]()
	register.Emitter2[string, Capture]()
	register.Iter1[Capture]()
	register.Iter1[string]()
	beam.RegisterType(reflect.TypeOf((*Capture)(nil)).Elem())
}

// ParseCaptures reads lines, a PCollection<string> of the lines of
// capture indexes in format f (learn.CDX, CDXJ, CrawlLog or Pairs; not
// "": a line alone cannot show the format), each with
// learn.ReadCaptures on that one line. It returns a PCollection<Capture>
// and a PCollection<Failure> of the malformed lines: Input the line,
// Error learn's error (which says "line 1": each element is read alone),
// Message why the line is malformed (learn.LineError's Reason), Kind
// "ErrMalformed" (a line longer than learn reads too). Error and Message
// quote no more of the line than a field, with any password masked, as
// canon's errors do. Empty lines, "#" comments and CDX header lines give
// neither.
//
// Each line is read alone, so a CDX header cannot set the field order
// of the lines after it: CDX lines are read in the default order, 11
// or 9 fields (N b a m s k r M S V g, or N b a m s k r V g); a header
// that puts the timestamp (b), original URL (a), status (s) or digest
// (k) elsewhere is a failure, "CDX header with fields in an order other
// than the default ...", rather than the lines after it being read
// wrongly. It panics, while the pipeline is built, for another f.
func ParseCaptures(s beam.Scope, f learn.Format, lines beam.PCollection) (captures, failures beam.PCollection) {
	if _, err := learn.ParseFormat(string(f)); err != nil {
		panic(fmt.Sprintf("canonbeam.ParseCaptures: index format %q: want one of %v", string(f), learn.Formats()))
	}
	s = s.Scope("canon.ParseCaptures")
	return beam.ParDo2(s, &parseCaptureFn{Format: string(f)}, lines)
}

// parseCaptureFn reads one index line.
type parseCaptureFn struct {
	Format string `json:"format"`
}

func (fn *parseCaptureFn) ProcessElement(ctx context.Context, line string, capture func(Capture), fail func(Failure)) {
	f := learn.Format(fn.Format)
	n := 0
	var bad error
	for c, err := range learn.ReadCaptures(strings.NewReader(line), f) {
		if err != nil {
			bad = err
			continue
		}
		n++
		capture(CaptureOf(c))
	}
	switch {
	case bad != nil:
		malformedCounter.Inc(ctx, 1)
		fail(malformed(line, bad))
	case n > 0:
		capturesCounter.Inc(ctx, int64(n))
	case f == learn.CDX && !defaultCDXHeader(line):
		malformedCounter.Inc(ctx, 1)
		const msg = "CDX header with fields in an order other than the default (N b a m s k ...), which canonbeam.ParseCaptures cannot apply: each line is read alone"
		fail(Failure{Input: line, Error: "canonbeam: " + msg, Message: msg, Kind: "error", Offset: -1})
	default:
		ignoredCounter.Inc(ctx, 1)
	}
}

// malformed is the Failure of a line ReadCaptures refused with err:
// Message is the reason (learn.LineError's, which quotes no more of the
// line than a field, with any password masked), the line itself being
// the Input.
func malformed(line string, err error) Failure {
	fl := Failure{Input: line, Error: err.Error(), Message: err.Error(), Kind: "error", Offset: -1}
	var le *learn.LineError
	if errors.As(err, &le) {
		fl.Kind, fl.Message = "ErrMalformed", le.Reason
	}
	return fl
}

// defaultCDXHeader reports whether line, which ReadCaptures read as
// neither a capture nor a malformed line, is no CDX header, or one whose
// fields are in the order each line is read in without one.
func defaultCDXHeader(line string) bool {
	fs := strings.Fields(line)
	if len(fs) == 0 || fs[0] != "CDX" {
		return true // an empty line or a comment
	}
	codes := fs[1:]
	return (len(codes) == 9 || len(codes) == 11) && codes[1] == "b" && codes[2] == "a" && codes[4] == "s" && codes[5] == "k"
}

// captureHostFn keys each capture by learn.Host under the profile.
type captureHostFn struct {
	Profile profileSpec `json:"profile"`

	p canon.Profile
}

func (fn *captureHostFn) Setup() error {
	var err error
	fn.p, err = fn.Profile.profile()
	return err
}

func (fn *captureHostFn) ProcessElement(ctx context.Context, c Capture, emit func(string, Capture)) {
	h, ok := learn.Host(c.URL, fn.p)
	if !ok {
		noHostCounter.Inc(ctx, 1)
		return
	}
	emit(h, c)
}

// learnHostFn learns one host from its captures, with a learner of its
// own, and emits what it learned (learn.HostRules: the names learned and
// the names its captures use, which the merge needs for the rules of
// parent domains) as JSON.
type learnHostFn struct {
	Profile profileSpec `json:"profile"`

	p canon.Profile
}

func (fn *learnHostFn) Setup() error {
	var err error
	fn.p, err = fn.Profile.profile()
	return err
}

func (fn *learnHostFn) ProcessElement(ctx context.Context, host string, captures func(*Capture) bool, emit func(string)) error {
	l := learn.New(learn.Options{Profile: fn.p})
	defer l.Close()
	var c Capture
	for captures(&c) {
		if err := l.Add(c.Learn()); err != nil {
			return err
		}
	}
	hs, err := l.Hosts(nil)
	if err != nil {
		return err
	}
	st := l.Stats()
	hostsCounter.Inc(ctx, int64(st.Hosts))
	skippedStatusCounter.Inc(ctx, int64(st.Status))
	skippedNoDigestCounter.Inc(ctx, int64(st.NoDigest))
	skippedEmptyCounter.Inc(ctx, int64(st.EmptyPayload))
	skippedInvalidCounter.Inc(ctx, int64(st.Invalid+st.NoHost))
	skippedSampledCounter.Inc(ctx, int64(st.Sampled))
	learnedCounter.Inc(ctx, int64(st.Learned))
	refusedCounter.Inc(ctx, int64(st.Refused))
	nearMissCounter.Inc(ctx, int64(st.NearMisses))
	unfinishedCounter.Inc(ctx, int64(st.Unfinished))
	for _, h := range hs {
		b, err := json.Marshal(h)
		if err != nil {
			return err
		}
		emit(string(b))
	}
	return nil
}

// mergeRulesFn merges the hosts' results (a side input) into one
// canon.Rules with learn.Merge, and emits it, once, as canon -learn
// writes it.
type mergeRulesFn struct {
	Profile profileSpec `json:"profile"`

	p canon.Profile
}

func (fn *mergeRulesFn) Setup() error {
	var err error
	fn.p, err = fn.Profile.profile()
	return err
}

func (fn *mergeRulesFn) ProcessElement(ctx context.Context, _ []byte, hostResults func(*string) bool, emit func(string)) error {
	var all []learn.HostRules
	var js string
	for hostResults(&js) {
		var h learn.HostRules
		if err := json.Unmarshal([]byte(js), &h); err != nil {
			return fmt.Errorf("canonbeam.LearnRules: a host's result %s: %w", js, err)
		}
		all = append(all, h)
	}
	r := learn.Merge(all, fn.p)
	ruleHostsCounter.Inc(ctx, int64(len(r.Hosts)))
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	emit(string(b) + "\n")
	return nil
}

// LearnRules learns per-host rules from captures, a PCollection<Capture>,
// as package learn does (learn.New with Options{Profile: p}): it groups
// the captures by learn.Host under p (a capture whose URL p refuses is
// counted, canon.learn/no-host, and dropped), learns each host with a
// learner of its own, and merges the hosts' rules into one canon.Rules.
// A learner's rules for a host depend only on that host's captures, in
// any order, so these are the rules one learner given all the captures
// would learn. It returns a PCollection<string> of one element, those
// rules as canon -learn writes them: encoding/json's MarshalIndent with
// two spaces, and a newline ("{}\n" when no host has rules).
//
// The captures of one host are learned on one worker, in its memory, as
// a learner holds them. It panics, while the pipeline is built, when p
// cannot be carried to the workers (see [CheckProfile]).
func LearnRules(s beam.Scope, p canon.Profile, captures beam.PCollection) beam.PCollection {
	spec := mustSpec("LearnRules", p)
	s = s.Scope("canon.LearnRules")
	byHost := beam.GroupByKey(s, beam.ParDo(s, &captureHostFn{Profile: spec}, captures))
	hostRules := beam.ParDo(s, &learnHostFn{Profile: spec}, byHost)
	return beam.ParDo(s, &mergeRulesFn{Profile: spec}, beam.Impulse(s), beam.SideInput{Input: hostRules})
}
