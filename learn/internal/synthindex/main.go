// Command synthindex writes the captures of the synthetic sites of
// learn/internal/synth as a capture index, for canon -learn: the example
// of docs/learn.md and the scale figures of bench/README.md.
//
//	go run ./learn/internal/synthindex [-seed 11] [-half learn|all] [-format cdx|pairs]
//		[-order surt|time|shuffled] [-captures N] [-files N -o PREFIX]
//
// By default it writes, to standard output, the half of seed 11's
// captures that package learn's TestSyntheticSites learns from, as a CDX
// index sorted by SURT as an archive sorts one. -captures N writes N
// captures instead, of seeds 1,000,001 on, every capture of each, each
// seed's hosts named apart (synth.Site.Distinct; in -order shuffled,
// each 50 seeds' captures shuffled together). -files N
// writes N files, PREFIX-1.cdx to PREFIX-N.cdx, of the captures of each
// of N stretches of time, each sorted by SURT: the index of N crawls,
// which cat PREFIX-*.cdx concatenates into an unsorted one.
package main

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/learn/internal/synth"
)

func main() {
	seed := flag.Uint64("seed", synth.TuningSeeds[0], "the seed of the sites")
	half := flag.String("half", "learn", "learn: the captures TestSyntheticSites learns from; all: every capture")
	format := flag.String("format", "cdx", "cdx (11 fields, with its header line) or pairs (url TAB digest TAB time)")
	order := flag.String("order", "surt", "surt: sorted as an archive sorts a CDX index; time; shuffled")
	captures := flag.Int("captures", 0, "write this many captures, of seeds 1,000,001 on (every capture of each), instead")
	files := flag.Int("files", 0, "write this many files (-o PREFIX), each the captures of a stretch of time, sorted by SURT")
	prefix := flag.String("o", "", "with -files: the files' prefix")
	flag.Parse()
	if *format != "cdx" && *format != "pairs" || *order != "surt" && *order != "time" && *order != "shuffled" ||
		*half != "learn" && *half != "all" || *files > 0 && *prefix == "" {
		flag.Usage()
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	var err error
	switch {
	case *captures > 0:
		err = writeScale(w, *captures, *format, *order)
	case *files > 0:
		err = writeFiles(*seed, *half, *format, *files, *prefix)
	default:
		err = writeLines(w, sorted(lines(site(*seed, *half), *format), *order, *seed), *format)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "synthindex:", err)
		os.Exit(1)
	}
}

// site returns the captures of a seed: the half to learn from, or all.
func site(seed uint64, half string) []synth.Capture {
	s := synth.Generate(seed)
	if half == "all" {
		return s.Captures
	}
	learnSet, _ := s.Split()
	return learnSet
}

// line is a capture as an index line, with what it sorts by.
type line struct {
	surt, time, text string
}

// lines writes captures as index lines.
func lines(cs []synth.Capture, format string) []line {
	out := make([]line, 0, len(cs))
	for _, c := range cs {
		ts := c.Time.UTC().Format("20060102150405")
		key, err := canon.Normalize(c.URL, canon.Archive)
		if err == nil {
			key, err = canon.SURT(key)
		}
		if err != nil {
			key = c.URL
		}
		var text string
		if format == "pairs" {
			text = c.URL + "\t" + c.Digest + "\t" + ts
		} else {
			text = fmt.Sprintf("%s %s %s text/html %d %s - - 1000 0 synth.warc.gz", key, ts, c.URL, c.Status, strings.TrimPrefix(c.Digest, "sha1:"))
		}
		out = append(out, line{key, ts, text})
	}
	return out
}

// sorted orders lines: by SURT then time (as an archive sorts a CDX
// index), by time, or shuffled by the seed.
func sorted(ls []line, order string, seed uint64) []line {
	switch order {
	case "surt":
		slices.SortStableFunc(ls, func(a, b line) int { return cmp.Or(strings.Compare(a.surt, b.surt), strings.Compare(a.time, b.time)) })
	case "time":
		slices.SortStableFunc(ls, func(a, b line) int { return strings.Compare(a.time, b.time) })
	default:
		r := rand.New(rand.NewPCG(seed, 0x5bf1e))
		r.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
	}
	return ls
}

// writeLines writes lines, after a CDX header in format cdx.
func writeLines(w io.Writer, ls []line, format string) error {
	if format == "cdx" {
		if _, err := io.WriteString(w, " CDX N b a m s k r M S V g\n"); err != nil {
			return err
		}
	}
	for _, l := range ls {
		if _, err := io.WriteString(w, l.text+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// writeFiles writes n files, each the lines of a stretch of the year,
// sorted by SURT.
func writeFiles(seed uint64, half, format string, n int, prefix string) error {
	ls := lines(site(seed, half), format)
	parts := make([][]line, n)
	for _, l := range ls {
		k := int(l.time[4]-'0')*10 + int(l.time[5]-'0') - 1 // month, 0-11
		parts[k*n/12] = append(parts[k*n/12], l)
	}
	for i, part := range parts {
		f, err := os.Create(fmt.Sprintf("%s-%d.%s", prefix, i+1, map[string]string{"cdx": "cdx", "pairs": "tsv"}[format]))
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		err = writeLines(w, sorted(part, "surt", seed), format)
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeScale writes n captures of seeds 1,000,001 on, every capture of
// each seed: in host order (surt: each seed's hosts sorted), in time
// order within each 50 seeds, or shuffled within each 50 seeds.
func writeScale(w io.Writer, n int, format, order string) error {
	if format == "cdx" {
		if _, err := io.WriteString(w, " CDX N b a m s k r M S V g\n"); err != nil {
			return err
		}
	}
	const batch = 50
	written := 0
	for seed := uint64(1_000_001); written < n; seed += batch {
		var ls []line
		for s := seed; s < seed+batch && written+len(ls) < n; s++ {
			more := lines(synth.Generate(s).Distinct().Captures, format)
			if order == "surt" {
				more = sorted(more, "surt", s)
			}
			ls = append(ls, more...)
		}
		if order != "surt" {
			ls = sorted(ls, order, seed)
		}
		for _, l := range ls[:min(len(ls), n-written)] {
			if _, err := io.WriteString(w, l.text+"\n"); err != nil {
				return err
			}
		}
		written += min(len(ls), n-written)
	}
	return nil
}
