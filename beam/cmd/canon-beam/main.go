// Command canon-beam is canon as an Apache Beam pipeline: it reads text
// files of URLs, one a line, and writes their canonical keys, distinct
// keys, counts per key, or input TAB key, as text shards; every line the
// profile rejects goes to a failures output with its error.
//
//	canon-beam -input 'links/*.txt' -output out/keys -mode dedup
//
// It runs on prism, Beam's in-process runner, unless --runner names
// another (dataflow, flink, spark, universal); the runner flags are
// Beam's own. See README.md beside go.mod.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/beam/canonbeam"
)

// config is what the flags say; main parses them into one, the tests
// build their own.
type config struct {
	input    string // glob of text files
	output   string // prefix of the output shards
	failures string // prefix of the failure shards; output+"-failures" if empty
	profile  string
	base     string
	mode     string // keys, dedup, count or tsv
	shards   int
}

// defineFlags registers the command's flags on fs. main passes
// flag.CommandLine, where Beam's runner flags (--runner, --project, ...)
// already are, so that one flag.Parse reads both.
func defineFlags(fs *flag.FlagSet) *config {
	c := &config{}
	fs.StringVar(&c.input, "input", "", "glob of the text files to read, one URL a line (required; gs:// works where the runner has GCS)")
	fs.StringVar(&c.output, "output", "", "prefix of the output shards, written as PREFIX-SSSSS-of-NNNNN (required)")
	fs.StringVar(&c.failures, "failures", "", "prefix of the failure shards, lines of input TAB error (default: OUTPUT-failures)")
	fs.StringVar(&c.profile, "profile", "rfc3986", "profile: rfc3986, iri, webcapture, powder, whatwg, crawler, archive or aggressive")
	fs.StringVar(&c.base, "base", "", "resolve each line against this base URL before normalizing (canon.NormalizeRef)")
	fs.StringVar(&c.mode, "mode", "keys", "keys: a key per valid line; dedup: distinct keys; count: count TAB key per distinct key; tsv: input TAB key per valid line")
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

func main() {
	cfg := defineFlags(flag.CommandLine)
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

// buildPipeline checks cfg and builds its pipeline. It checks what can
// be checked before any worker starts: the flags, the base, and that the
// glob matches a file (a typo in it would otherwise give an empty output
// and a successful job).
func buildPipeline(ctx context.Context, cfg *config) (*beam.Pipeline, error) {
	if cfg.input == "" || cfg.output == "" {
		return nil, usageError("-input and -output are required")
	}
	prof, ok := canon.LookupProfile(cfg.profile)
	if !ok {
		return nil, usageError("unknown profile %q", cfg.profile)
	}
	switch cfg.mode {
	case "keys", "dedup", "count", "tsv":
	default:
		return nil, usageError("unknown mode %q (keys, dedup, count or tsv)", cfg.mode)
	}
	if cfg.shards < 1 {
		return nil, usageError("-shards must be at least 1")
	}
	if cfg.base != "" {
		// An unusable base would fail every line; resolving the base
		// against itself finds that once, before the job starts.
		if _, err := canon.NormalizeRef(cfg.base, cfg.base, prof); err != nil {
			return nil, usageError("-base: %v", err)
		}
	}
	if err := checkGlob(ctx, cfg.input); err != nil {
		return nil, err
	}
	p, s := beam.NewPipelineWithRoot()
	lines := beam.ParDo(s, trimCR, textio.Read(s, cfg.input))
	var out, failures beam.PCollection
	if cfg.mode == "tsv" {
		var keyed beam.PCollection
		if cfg.base != "" {
			keyed, failures = canonbeam.KeyByRef(s, cfg.base, lines, prof)
		} else {
			keyed, failures = canonbeam.KeyBy(s, lines, prof)
		}
		out = beam.ParDo(s, formatTSV, keyed)
	} else {
		var keys beam.PCollection
		if cfg.base != "" {
			keys, failures = canonbeam.NormalizeRef(s, cfg.base, lines, prof)
		} else {
			keys, failures = canonbeam.Normalize(s, lines, prof)
		}
		switch cfg.mode {
		case "keys":
			out = keys
		case "dedup":
			out = canonbeam.Dedup(s, keys)
		case "count":
			out = beam.ParDo(s, formatCount, canonbeam.CountByKey(s, keys))
		}
	}
	writeShards(s.Scope("output"), cfg.output, cfg.shards, out)
	writeShards(s.Scope("failures"), cfg.failuresPrefix(), cfg.shards, beam.ParDo(s, formatFailure, failures))
	return p, nil
}

// checkGlob fails when glob matches no file.
func checkGlob(ctx context.Context, glob string) error {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return err
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
	register.Function2x1(formatTSV)
	register.Function2x1(formatCount)
	register.Function1x1(formatFailure)
}

// trimCR drops the CR of a CRLF line end, as the canon command does:
// textio splits on LF only, and the CR would otherwise stay in the input
// column of the tsv and failure outputs (the key is the same either way:
// canon trims trailing control characters).
func trimCR(line string) string { return strings.TrimSuffix(line, "\r") }

// formatTSV writes a KeyBy record as the canon command's -format tsv
// does: input TAB key.
func formatTSV(key, input string) string { return tsvField(input) + "\t" + key }

// formatCount writes count TAB key, so that sort -rn orders the keys by
// their counts, as with uniq -c.
func formatCount(key string, n int) string { return strconv.Itoa(n) + "\t" + key }

// formatFailure writes input TAB error. The error's text is quoted Go
// syntax, so it holds no TAB or line end.
func formatFailure(f canonbeam.Failure) string { return tsvField(f.Input) + "\t" + f.Error }

// tsvField replaces TAB, CR and LF by spaces, as the canon command does,
// so that a line stays one record of two columns.
func tsvField(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// printSummary reports the counters of canonbeam's DoFns. A runner that
// reports no metrics (or a job submitted without waiting for it) gives
// no summary.
func printSummary(w io.Writer, res beam.PipelineResult, cfg *config) {
	if res == nil {
		return
	}
	var keys, failures int64
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
		}
	}
	if !found {
		return
	}
	fmt.Fprintf(w, "canon-beam: %d lines, %d failed (%s-*)\n", keys+failures, failures, cfg.failuresPrefix())
}
