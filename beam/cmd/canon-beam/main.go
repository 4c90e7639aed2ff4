// Command canon-beam is canon as an Apache Beam pipeline: it reads text
// files of URLs, one a line (or of links, page TAB href, with -pairs), and
// writes their canonical keys, distinct keys, counts per key, input TAB
// key, the SURTs of the keys (-mode surt, as canon -format surt) or their
// Safe Browsing lookup expressions (-mode expressions, with -profile
// safebrowsing), as text shards; every line the profile rejects goes to a
// failures output with its error, worded as the canon command words it. A
// blank line, as for the canon command, is neither a key nor a failure.
// With -mode learn it reads capture indexes instead (-learn-input cdx,
// cdxj, crawl-log or pairs) and writes the rules canon -learn writes for
// them.
//
//	canon-beam -input 'links/*.txt' -output /tmp/canon-beam/keys -mode dedup
//	canon-beam -input 'crawl/*.txt' -output /tmp/canon-beam/cdx -mode surt -profile archive
//	canon-beam -input 'urls/*.txt' -output /tmp/canon-beam/sb -mode expressions -profile safebrowsing -hash 4
//	canon-beam -input 'cdx/*.cdx' -output /tmp/canon-beam/rules -mode learn -learn-input cdx -profile crawler
//
// It runs on prism, Beam's in-process runner, unless --runner names
// another (dataflow, flink, spark, universal); the runner flags are
// Beam's own. canon-beam -h lists both; see README.md beside go.mod.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/beam/canonbeam"
	"github.com/seed15588f71/canon/learn"

	// The file systems -input and -output may name: local paths, gs://
	// (Google Cloud Storage) and s3:// (Amazon S3 and S3-compatible
	// stores). Another is one blank import more (see README.md).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
)

// config is what the flags say; main parses them into one, the tests
// build their own.
type config struct {
	input          string // glob of text files
	output         string // prefix of the output shards
	failures       string // prefix of the failure shards; output+"-failures" if empty
	failuresFormat string // tsv or jsonl
	profile        string
	rules          string // file of canon.Rules in JSON, or ""
	base           string
	pairs          bool   // lines are page TAB href
	mode           string // keys, dedup, count, tsv, surt, expressions or learn
	learnInput     string // -mode learn: the captures' format (cdx, cdxj, crawl-log or pairs)
	hash           int    // -mode expressions: bytes of SHA-256 in a third column, 0 for none
	shards         int
}

// defineFlags registers the command's flags on fs. main registers them
// on a FlagSet of their own, for the usage, and then on
// flag.CommandLine, where Beam's runner flags (--runner, --project, ...)
// already are, so that one flag.Parse reads both.
func defineFlags(fs *flag.FlagSet) *config {
	c := &config{}
	fs.StringVar(&c.input, "input", "", "`glob` of the text files to read, one URL a line (required; gs:// and s3:// work where the workers can read them)")
	fs.StringVar(&c.output, "output", "", "`prefix` of the output shards, written as PREFIX-SSSSS-of-NNNNN (required)")
	fs.StringVar(&c.mode, "mode", "keys", "keys: a key per valid line (-pairs: page TAB key);\ndedup: distinct keys; count: count TAB key per distinct key;\ntsv: input TAB key per valid line (-pairs: page TAB href TAB key);\nsurt: the SURT of the key per valid line, as canon -format surt (-pairs: page TAB SURT;\nany profile: archive's keys are the CDX keys);\nexpressions (-profile safebrowsing): input TAB expression per lookup expression of\neach valid line's key (-pairs: page TAB href TAB expression), TAB hex with -hash;\nlearn: the lines are captures (-learn-input): the canon.Rules they show, as canon -learn writes them\n(one file; -profile crawler, archive or aggressive)")
	fs.StringVar(&c.learnInput, "learn-input", "", "with -mode learn (required): the captures' `format`, one of "+learnFormats()+"\n(cdx: 9 or 11 fields in the default order)")
	fs.IntVar(&c.hash, "hash", 0, "with -mode expressions: a third column, the first `N` bytes of the expression's SHA-256\nin lowercase hex (4 to 32: 4 is the prefix Safe Browsing v4/v5 looks up, 32 the full hash;\n0: no hash column)")
	fs.StringVar(&c.profile, "profile", "rfc3986", "profile `name`: rfc3986, iri, webcapture, powder, whatwg, crawler, archive, aggressive\nor safebrowsing")
	fs.StringVar(&c.rules, "rules", "", "JSON `file` of canon.Rules, applied to the profile with WithRules\n(they act through the steps RemoveTrackingParams and RemoveSessionIDs)")
	fs.StringVar(&c.base, "base", "", "resolve each line against this base `URL` before normalizing (canon.NormalizeRef)")
	fs.BoolVar(&c.pairs, "pairs", false, "each line is page TAB href: the href is resolved against its page (canon.NormalizeRef)")
	fs.StringVar(&c.failures, "failures", "", "`prefix` of the failure shards (default: OUTPUT-failures)")
	fs.StringVar(&c.failuresFormat, "failures-format", "tsv", "tsv: input TAB error (-pairs: page TAB href TAB error);\njsonl: {\"in\",\"error\",\"kind\",\"component\",\"offset\"} as canon -format jsonl (-pairs: and \"page\")")
	fs.IntVar(&c.shards, "shards", 1, "number of output shards (and of failure shards)")
	return c
}

func (c *config) failuresPrefix() string {
	if c.failures == "" {
		return c.output + "-failures"
	}
	return c.failures
}

// errUsage marks errors in the flags, which exit 2 as the canon command's do.
var errUsage = errors.New("usage")

func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUsage}, args...)...)
}

const usageLine = `usage: canon-beam -input GLOB -output PREFIX [-mode keys|dedup|count|tsv|surt|expressions]
                  [-hash N] [-profile NAME] [-rules FILE] [-base URL | -pairs] [-failures PREFIX]
                  [-failures-format tsv|jsonl] [-shards N] [Beam's flags: --runner NAME --endpoint HOST:PORT ...]
       canon-beam -input GLOB -output PREFIX -mode learn -learn-input cdx|cdxj|crawl-log|pairs
                  -profile crawler|archive|aggressive [-rules FILE] [-failures PREFIX] [...]

canon-beam runs canon on Apache Beam: it reads text files of URLs, one a
line, and writes their keys (canon.Normalize), distinct keys, counts,
input TAB key, the keys' SURTs (canon.SURT) or their Safe Browsing lookup
expressions (canon.LookupExpressions), and each line that fails with its
error. Blank lines are neither. With -mode learn it reads captures and
writes the canon.Rules they show (package learn), as canon -learn does.
Without --runner it runs on prism, in this process.
`

// usage writes the usage line, the command's own flags, then Beam's:
// the flags of all that own does not define.
func usage(w io.Writer, own, all *flag.FlagSet) {
	fmt.Fprint(w, usageLine)
	fmt.Fprintln(w, "\nFlags:")
	own.SetOutput(w)
	own.PrintDefaults()
	beamFlags := flag.NewFlagSet("beam", flag.ContinueOnError)
	all.VisitAll(func(f *flag.Flag) {
		if own.Lookup(f.Name) == nil {
			beamFlags.Var(f.Value, f.Name, f.Usage)
			beamFlags.Lookup(f.Name).DefValue = f.DefValue
		}
	})
	fmt.Fprintln(w, "\nBeam's flags (the runner's; see README.md for Dataflow, Flink and Spark):")
	beamFlags.SetOutput(w)
	beamFlags.PrintDefaults()
}

// registerFlags defines the command's flags on own and on all, which
// holds Beam's, and makes all's usage print them first.
func registerFlags(own, all *flag.FlagSet) *config {
	cfg := defineFlags(own)
	own.VisitAll(func(f *flag.Flag) { all.Var(f.Value, f.Name, f.Usage) })
	all.Usage = func() { usage(all.Output(), own, all) }
	return cfg
}

func main() {
	cfg := registerFlags(flag.NewFlagSet("canon-beam", flag.ContinueOnError), flag.CommandLine)
	flag.Parse()
	// beam.Init must come after flag.Parse: on a distributed runner's
	// workers it takes over main here and never returns.
	beam.Init()
	ctx := context.Background()
	if flag.NArg() > 0 {
		fail(usageError("unexpected arguments %q (the URLs come from -input)", flag.Args()))
	}
	if err := run(ctx, cfg, os.Stderr); err != nil {
		fail(err)
	}
}

// run builds the pipeline, runs it on the runner --runner names (prism
// by default) and writes the summary to stderr.
func run(ctx context.Context, cfg *config, stderr io.Writer) error {
	p, err := buildPipeline(ctx, cfg)
	if err != nil {
		return err
	}
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		return err
	}
	printSummary(stderr, res, cfg)
	return nil
}

// fail exits as the canon command does: 2 for a flag error, 1 for a job
// that failed. It does not print the usage: Beam's runner flags make it
// pages long.
func fail(err error) {
	fmt.Fprintln(os.Stderr, "canon-beam:", err)
	if errors.Is(err, errUsage) {
		fmt.Fprintln(os.Stderr, "canon-beam -h lists the flags")
		os.Exit(2)
	}
	os.Exit(1)
}

// loadRules reads a canon.Rules from the JSON file at path, refusing
// fields canon.Rules does not have and anything after the object.
func loadRules(path string) (canon.Rules, error) {
	var r canon.Rules
	data, err := os.ReadFile(path)
	if err != nil {
		return r, usageError("-rules: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, usageError("-rules %s: %v", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return r, usageError("-rules %s: more after the JSON object", path)
	}
	return r, nil
}

// profileOf returns the profile cfg names, with its -rules.
func profileOf(cfg *config) (canon.Profile, error) {
	prof, ok := canon.LookupProfile(cfg.profile)
	if !ok {
		return prof, usageError("unknown profile %q", cfg.profile)
	}
	if cfg.rules == "" {
		return prof, nil
	}
	r, err := loadRules(cfg.rules)
	if err != nil {
		return prof, err
	}
	if prof, err = prof.WithRules(r); err != nil {
		return prof, usageError("-rules %s: %w", cfg.rules, err)
	}
	return prof, nil
}

// buildPipeline checks cfg and builds its pipeline. It checks what can
// be checked before any worker starts: the flags, the rules, the base,
// the file systems, and that the glob matches a file (a typo in it would
// otherwise give an empty output and a successful job).
func buildPipeline(ctx context.Context, cfg *config) (*beam.Pipeline, error) {
	if cfg.input == "" || cfg.output == "" {
		return nil, usageError("-input and -output are required")
	}
	prof, err := profileOf(cfg)
	if err != nil {
		return nil, err
	}
	if err := canonbeam.CheckProfile(prof); err != nil {
		return nil, usageError("%v", err)
	}
	switch cfg.mode {
	case "keys", "dedup", "count", "tsv", "surt":
	case "expressions":
		// As canon -format expressions: the expressions are made of a
		// Safe Browsing key, and another profile's key is not one.
		if !prof.Has(canon.ParseSafeBrowsing) {
			return nil, usageError("-mode expressions needs -profile safebrowsing: the expressions are made of its key")
		}
	case "learn":
		if err := checkLearn(cfg, prof); err != nil {
			return nil, err
		}
	default:
		return nil, usageError("unknown mode %q (keys, dedup, count, tsv, surt, expressions or learn)", cfg.mode)
	}
	if cfg.learnInput != "" && cfg.mode != "learn" {
		return nil, usageError("-learn-input needs -mode learn")
	}
	switch {
	case cfg.hash != 0 && cfg.mode != "expressions":
		return nil, usageError("-hash needs -mode expressions")
	case cfg.hash != 0 && (cfg.hash < 4 || cfg.hash > sha256.Size):
		return nil, usageError("-hash %d: want 4 to 32 (bytes of each expression's SHA-256), or 0 for no hash column", cfg.hash)
	}
	switch cfg.failuresFormat {
	case "tsv", "jsonl":
	default:
		return nil, usageError("unknown -failures-format %q (tsv or jsonl)", cfg.failuresFormat)
	}
	if cfg.shards < 1 {
		return nil, usageError("-shards must be at least 1")
	}
	if cfg.pairs && cfg.base != "" {
		return nil, usageError("-base and -pairs exclude each other: with -pairs each href has its page for base")
	}
	if cfg.base != "" {
		// An unusable base would fail every line; resolving the base
		// against itself finds that once, before the job starts.
		if _, err := canon.NormalizeRef(cfg.base, cfg.base, prof); err != nil {
			return nil, usageError("-base: %v", err)
		}
	}
	for _, prefix := range []string{cfg.output, cfg.failuresPrefix()} {
		if err := checkScheme(ctx, prefix); err != nil {
			return nil, err
		}
	}
	if err := checkGlob(ctx, cfg.input); err != nil {
		return nil, err
	}
	p, s := beam.NewPipelineWithRoot()
	lines := beam.ParDo(s, trimCR, textio.Read(s, cfg.input))
	var out, failures beam.PCollection
	switch {
	case cfg.mode == "learn":
		var captures beam.PCollection
		captures, failures = canonbeam.ParseCaptures(s, learn.Format(cfg.learnInput), lines)
		rules := canonbeam.LearnRules(s, prof, captures)
		// One file, whatever -shards (which the failures take): the
		// rules' JSON, its lines as canon -learn writes them.
		writeShards(s.Scope("output"), cfg.output, 1, beam.ParDo(s, trimNewline, rules))
		writeShards(s.Scope("failures"), cfg.failuresPrefix(), cfg.shards, beam.ParDo(s, &formatFailureFn{JSONL: cfg.failuresFormat == "jsonl"}, failures))
		return p, nil
	case cfg.mode == "surt" || cfg.mode == "expressions":
		// Each valid line's key with the line (page and href, for
		// -pairs), and from the key the line's output lines.
		var keyed, bad beam.PCollection
		if cfg.pairs {
			var links beam.PCollection
			links, bad = beam.ParDo2(s, &splitPairFn{}, lines)
			keyed, failures = canonbeam.KeyByRefKV(s, links, prof)
		} else {
			var kv beam.PCollection
			if cfg.base != "" {
				kv, failures = canonbeam.KeyByRef(s, cfg.base, lines, prof)
			} else {
				kv, failures = canonbeam.KeyBy(s, lines, prof)
			}
			keyed = beam.ParDo(s, hrefLink, kv)
		}
		var keyFailures beam.PCollection
		out, keyFailures = beam.ParDo2(s, &keyLinesFn{Mode: cfg.mode, Pairs: cfg.pairs, Hash: cfg.hash}, keyed)
		failures = beam.Flatten(s, failures, keyFailures)
		if cfg.pairs {
			failures = beam.Flatten(s, failures, bad)
		}
	case cfg.pairs:
		links, bad := beam.ParDo2(s, &splitPairFn{}, lines)
		var keys beam.PCollection
		if cfg.mode == "tsv" {
			var keyed beam.PCollection
			keyed, failures = canonbeam.KeyByRefKV(s, links, prof)
			out = beam.ParDo(s, formatLinkTSV, keyed)
		} else {
			var pageKeys beam.PCollection
			pageKeys, failures = canonbeam.NormalizeRefKV(s, links, prof)
			keys = beam.DropKey(s, pageKeys)
			if cfg.mode == "keys" {
				out = beam.ParDo(s, formatPageKey, pageKeys)
			}
		}
		failures = beam.Flatten(s, failures, bad)
		if cfg.mode == "dedup" || cfg.mode == "count" {
			out = merge(s, cfg.mode, keys)
		}
	case cfg.mode == "tsv":
		var keyed beam.PCollection
		if cfg.base != "" {
			keyed, failures = canonbeam.KeyByRef(s, cfg.base, lines, prof)
		} else {
			keyed, failures = canonbeam.KeyBy(s, lines, prof)
		}
		out = beam.ParDo(s, formatTSV, keyed)
	default:
		var keys beam.PCollection
		if cfg.base != "" {
			keys, failures = canonbeam.NormalizeRef(s, cfg.base, lines, prof)
		} else {
			keys, failures = canonbeam.Normalize(s, lines, prof)
		}
		out = keys
		if cfg.mode != "keys" {
			out = merge(s, cfg.mode, keys)
		}
	}
	writeShards(s.Scope("output"), cfg.output, cfg.shards, out)
	ff := &formatFailureFn{Pairs: cfg.pairs, JSONL: cfg.failuresFormat == "jsonl"}
	writeShards(s.Scope("failures"), cfg.failuresPrefix(), cfg.shards, beam.ParDo(s, ff, failures))
	return p, nil
}

// merge applies -mode dedup or count to keys.
func merge(s beam.Scope, mode string, keys beam.PCollection) beam.PCollection {
	if mode == "dedup" {
		return canonbeam.Dedup(s, keys)
	}
	return beam.ParDo(s, formatCount, canonbeam.CountByKey(s, keys))
}

// checkScheme fails when no file system is registered for path's
// scheme, before the job starts rather than on a worker.
func checkScheme(ctx context.Context, path string) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return usageError("%v", err)
	}
	return fs.Close()
}

// checkGlob fails when glob matches no file.
func checkGlob(ctx context.Context, glob string) error {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return usageError("-input: %v", err)
	}
	defer fs.Close()
	files, err := fs.List(ctx, glob)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError("-input %q matches no file", glob)
	}
	return nil
}

func init() {
	register.Function1x1(trimCR)
	register.Function1x1(trimNewline)
	register.DoFn4x0[context.Context, string, func(string, string), func(canonbeam.Failure)](&splitPairFn{})
	register.Function2x1(formatTSV)
	register.Function2x1(formatLinkTSV)
	register.Function2x1(formatPageKey)
	register.Function2x1(formatCount)
	register.Function2x2(hrefLink)
	register.DoFn5x0[context.Context, string, canonbeam.Link, func(string), func(canonbeam.Failure)](&keyLinesFn{})
	register.DoFn1x2[canonbeam.Failure, string, error](&formatFailureFn{})
}

// trimCR drops the CR of a CRLF line end, as the canon command does:
// textio splits on LF only, and the CR would otherwise stay in the input
// column of the tsv and failure outputs (the key is the same either way:
// canon trims trailing control characters).
func trimCR(line string) string { return strings.TrimSuffix(line, "\r") }

// trimNewline drops the newline that ends LearnRules' JSON: writeShards
// ends each element with one.
func trimNewline(s string) string { return strings.TrimSuffix(s, "\n") }

// learnFormats lists the formats -learn-input takes.
func learnFormats() string {
	var names []string
	for _, f := range learn.Formats() {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// checkLearn refuses what -mode learn cannot do, as canon -learn does:
// a format it does not read (and none: a line alone does not show it),
// a profile whose rules would not be read, -base and -pairs.
func checkLearn(cfg *config, prof canon.Profile) error {
	switch {
	case cfg.learnInput == "":
		return usageError("-mode learn needs -learn-input, the captures' format: %s", learnFormats())
	case !slices.Contains(learn.Formats(), learn.Format(cfg.learnInput)):
		// (learn.ParseFormat's error quotes the name with any password
		// masked: a URL given to the wrong flag.)
		_, err := learn.ParseFormat(cfg.learnInput)
		return usageError("-learn-input: %s", strings.TrimPrefix(err.Error(), "learn: "))
	case !prof.Has(canon.RemoveTrackingParams) && !prof.Has(canon.RemoveSessionIDs):
		return usageError("-mode learn: the profile %s has neither RemoveTrackingParams nor RemoveSessionIDs, which read the rules it learns: use -profile crawler, archive or aggressive", cfg.profile)
	case cfg.base != "" || cfg.pairs:
		return usageError("-mode learn reads captures: -base and -pairs do not apply")
	}
	return nil
}

// Counters of the lines splitPairFn settles itself, added to canonbeam's
// counters of the same names (the summary sums them); keyLinesFn moves a
// line whose key the library then refuses from keys to failures.
var (
	keysCounter     = beam.NewCounter("canon", "keys")
	failuresCounter = beam.NewCounter("canon", "failures")
	blankCounter    = beam.NewCounter("canon", "blank")
)

// splitPairFn reads a -pairs line, page TAB href, as KV<page, href>. A
// blank line is skipped, as any blank line; a line without a TAB is a
// failure. The href is the rest of the line after the first TAB.
type splitPairFn struct{}

func (f *splitPairFn) ProcessElement(ctx context.Context, line string, link func(string, string), fail func(canonbeam.Failure)) {
	page, href, ok := strings.Cut(line, "\t")
	if ok {
		link(page, href)
		return
	}
	if strings.TrimLeft(line, " \v\f\r") == "" {
		blankCounter.Inc(ctx, 1)
		return
	}
	failuresCounter.Inc(ctx, 1)
	fail(canonbeam.Failure{
		Input: line, Error: "canon-beam: no TAB between page and href",
		Message: "no TAB between page and href", Kind: "error", Offset: -1,
	})
}

// hrefLink makes a KeyBy record, KV<key, input>, a record of
// KeyByRefKV's shape, KV<key, Link>, with the input as the href and no
// page, for keyLinesFn.
func hrefLink(key, input string) (string, canonbeam.Link) {
	return key, canonbeam.Link{Href: input}
}

// The library's functions keyLinesFn calls; a test replaces them to see
// how the command reports a key they reject, which no profile makes.
var (
	appendSURT        = canon.AppendSURT
	lookupExpressions = canon.LookupExpressions
)

// keyLinesFn writes the lines of -mode surt and expressions from a
// line's key and the line (Link.Href; and its page with -pairs):
//
//	surt:        SURT                     (-pairs: page TAB SURT)
//	expressions: input TAB expression     (-pairs: page TAB href TAB expression)
//	             ... TAB hex, with Hash > 0
//
// surt writes the SURT in the CDX form, as canon -format surt does
// (canon.AppendSURT with the zero SURTForm). expressions writes a line
// for each of the key's lookup expressions (canon.LookupExpressions), in
// the order Safe Browsing looks them up; hex is the first Hash bytes of
// the expression's SHA-256 in lowercase hex, as canon.LookupHashes
// computes them. The input and the page are written as -mode tsv writes
// them (tsvField). A key the library refuses (which no profile makes)
// gives a Failure, worded as the canon command words it ("SURT of the
// key: ..."), and is counted as a failure, not a key.
type keyLinesFn struct {
	Mode  string `json:"mode"`
	Pairs bool   `json:"pairs,omitempty"`
	Hash  int    `json:"hash,omitempty"`
}

func (f *keyLinesFn) ProcessElement(ctx context.Context, key string, l canonbeam.Link, line func(string), fail func(canonbeam.Failure)) {
	if f.Mode == "surt" {
		b, err := appendSURT(nil, key, 0)
		if err != nil {
			f.fail(ctx, l, "SURT of the key: ", err, fail)
			return
		}
		if f.Pairs {
			b = append([]byte(tsvField(l.Page)+"\t"), b...)
		}
		line(string(b))
		return
	}
	exprs, err := lookupExpressions(key)
	if err != nil {
		f.fail(ctx, l, "lookup expressions of the key: ", err, fail)
		return
	}
	in := tsvField(l.Href)
	if f.Pairs {
		in = tsvField(l.Page) + "\t" + in
	}
	for _, x := range exprs {
		if f.Hash == 0 {
			line(in + "\t" + x)
			continue
		}
		sum := sha256.Sum256([]byte(x))
		line(in + "\t" + x + "\t" + hex.EncodeToString(sum[:f.Hash]))
	}
}

// fail sends the failure of a line whose key the library gave and then
// refused in the step what names, and moves the line's count from keys
// to failures.
func (f *keyLinesFn) fail(ctx context.Context, l canonbeam.Link, what string, err error, fail func(canonbeam.Failure)) {
	fl := canonbeam.NewFailure(l.Href, err)
	var e *canon.Error
	if errors.As(err, &e) {
		// The problem is in the key, which the quoted text is from;
		// another error comes whole, as from the canon command.
		fl.Message = what + fl.Message
	}
	if f.Pairs {
		fl.Page = l.Page
	}
	keysCounter.Dec(ctx, 1)
	failuresCounter.Inc(ctx, 1)
	fail(fl)
}

// formatTSV writes a KeyBy record as the canon command's -format tsv
// does: input TAB key.
func formatTSV(key, input string) string { return tsvField(input) + "\t" + key }

// formatLinkTSV writes a KeyByRefKV record: page TAB href TAB key.
func formatLinkTSV(key string, l canonbeam.Link) string {
	return tsvField(l.Page) + "\t" + tsvField(l.Href) + "\t" + key
}

// formatPageKey writes a NormalizeRefKV record: page TAB key.
func formatPageKey(page, key string) string { return tsvField(page) + "\t" + key }

// formatCount writes count TAB key, so that sort -rn orders the keys by
// their counts, as with uniq -c.
func formatCount(key string, n int) string { return strconv.Itoa(n) + "\t" + key }

// formatFailureFn writes a failure as a line: input TAB message (-pairs:
// page TAB href TAB message), the message being the canon command's
// (quoted Go syntax at the end, so it holds no TAB or line end); or, with
// JSONL, the record canon -format jsonl writes for a failing line, less
// its line number, which Beam does not know (and with the page, for
// -pairs).
type formatFailureFn struct {
	Pairs bool `json:"pairs,omitempty"`
	JSONL bool `json:"jsonl,omitempty"`
}

// failureRecord is a jsonl failure, with the canon command's field names.
type failureRecord struct {
	In        string  `json:"in"`
	Page      *string `json:"page,omitempty"`
	Error     string  `json:"error"`
	Kind      string  `json:"kind"`
	Component string  `json:"component,omitempty"`
	Offset    *int    `json:"offset,omitempty"`
}

func (f *formatFailureFn) ProcessElement(fl canonbeam.Failure) (string, error) {
	if !f.JSONL {
		line := tsvField(fl.Input) + "\t" + fl.Message
		if f.Pairs {
			line = tsvField(fl.Page) + "\t" + line
		}
		return line, nil
	}
	rec := failureRecord{In: fl.Input, Error: fl.Message, Kind: fl.Kind, Component: fl.Component}
	if f.Pairs {
		rec.Page = &fl.Page
	}
	if fl.Offset >= 0 {
		rec.Offset = &fl.Offset
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&rec); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// tsvField replaces each TAB, CR and LF byte by a space, as the canon
// command's -format tsv does (without -header), so that a line stays one
// record of its columns; every other byte is the input's, invalid UTF-8
// included: the column beside a key is the input it was made of.
func tsvField(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\t' || c == '\r' || c == '\n' {
			if b == nil {
				b = []byte(s)
			}
			b[i] = ' '
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// printSummary reports the counters of canonbeam's DoFns. A runner that
// reports no metrics (or a job submitted without waiting for it) gives
// no summary.
func printSummary(w io.Writer, res beam.PipelineResult, cfg *config) {
	if res == nil {
		return
	}
	if cfg.mode == "learn" {
		printLearnSummary(w, res, cfg)
		return
	}
	var keys, failures, blank int64
	found := false
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() != "canon" {
			continue
		}
		found = true
		switch c.Name() {
		case "keys":
			keys += c.Result()
		case "failures":
			failures += c.Result()
		case "blank":
			blank += c.Result()
		}
	}
	if !found {
		return
	}
	fmt.Fprintf(w, "canon-beam: %d lines (%d blank), %d failed (%s-*)\n", keys+failures+blank, blank, failures, cfg.failuresPrefix())
}

// printLearnSummary reports the counters of canonbeam's learning
// transforms, as canon -learn reports its reading.
func printLearnSummary(w io.Writer, res beam.PipelineResult, cfg *config) {
	n := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "canon.learn" {
			n[c.Name()] += c.Result()
		}
	}
	if len(n) == 0 {
		return
	}
	sampled := ""
	if n["skipped-sampled"] > 0 {
		sampled = fmt.Sprintf(", %d out of the sample of a host with more than 100000 captures or 64 MiB of them", n["skipped-sampled"])
	}
	fmt.Fprintf(w, "canon-beam: %d captures (%d malformed lines; skipped: %d not status 200, %d without digest, %d empty payload, %d invalid URL%s): rules for %d hosts (%s-*)\n",
		n["captures"], n["malformed"], n["skipped-status"], n["skipped-no-digest"], n["skipped-empty-payload"], n["no-host"]+n["skipped-invalid"], sampled, n["rule-hosts"], cfg.failuresPrefix())
	unfinished := ""
	if n["hosts-unfinished"] > 0 {
		unfinished = fmt.Sprintf(" (%d in part: the bound of the sets a host's judging reads)", n["hosts-unfinished"])
	}
	misses := "near misses"
	if n["sets-near-miss"] == 1 {
		misses = "near miss"
	}
	fmt.Fprintf(w, "canon-beam: %d hosts judged%s: %d sets of parameters learned, %d refused, %d %s\n",
		n["hosts"], unfinished, n["sets-learned"], n["sets-refused"], n["sets-near-miss"], misses)
}
