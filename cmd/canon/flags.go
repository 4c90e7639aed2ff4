package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/seed15588f71/canon"
)

type config struct {
	profile      canon.Profile
	profileName  string
	base         string
	format       string
	unique       bool
	count        bool
	skipInvalid  bool
	progress     bool
	workers      int
	file         string
	equal        bool
	listProfiles bool
	version      bool
	urls         []string
}

var errHelp = errors.New("help")

const usageText = `usage: canon [flags] [URL ...]

canon prints the canonical key of each URL given as an argument, or of each
line of standard input (or -f FILE), one output line per input line, in
input order.

Examples:
  canon 'HTTP://Example.COM:80/a/./b/../c'          # http://example.com/a/c
  canon -p iri 'http://xn--rsum-bpad.example/'      # http://résumé.example/
  canon -p rfc3986 -steps +RemoveFragment < links.txt
  canon -base https://example.com/dir/ '../x' 'y?q'  # resolve, then normalize
  canon -p whatwg -base https://example.com/dir/ 'a\b'  # as a browser reads a link
  canon -u < links.txt                               # dedupe a link list
  canon -u -c < links.txt | sort -rn | head          # most repeated URLs
  canon -format tsv < links.txt | sort -t$'\t' -k2   # input and key, by key
  canon -equal 'http://h/%7Ea' 'HTTP://H:80/~a'      # exit 0: same key

A line that fails gives "line N: error" on standard error and, in text
format, an empty output line, so that output stays aligned with input
(-skip-invalid drops it). Exit status: 0 all lines normalized, 1 some line
failed (or -equal: different), 2 usage or I/O error.

Flags:
`

func parseFlags(args []string, stderr io.Writer) (*config, int, error) {
	cfg := &config{}
	fs := flag.NewFlagSet("canon", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		io.WriteString(stderr, usageText)
		fs.PrintDefaults()
	}
	profile := "rfc3986"
	fs.StringVar(&profile, "profile", profile, "profile: rfc3986, iri, webcapture, powder, whatwg (see -list-profiles)")
	fs.StringVar(&profile, "p", profile, "shorthand for -profile")
	steps := fs.String("steps", "", "add or remove steps, comma-separated: +Step or -Step (e.g. +RemoveFragment)")
	fs.StringVar(&cfg.base, "base", "", "resolve each URL against this base URL before normalizing")
	fs.StringVar(&cfg.format, "format", "text", "output format: text (the key), tsv (input TAB key), jsonl")
	fs.BoolVar(&cfg.unique, "u", false, "print each key once, in order of first occurrence (memory grows with distinct keys)")
	fs.BoolVar(&cfg.count, "c", false, "with -u: prefix each key with its number of occurrences, as uniq -c")
	fs.BoolVar(&cfg.skipInvalid, "skip-invalid", false, "print nothing for a line that fails (default: an empty line in text format)")
	fs.BoolVar(&cfg.progress, "progress", false, "report progress on standard error (default: only when it is a terminal)")
	fs.IntVar(&cfg.workers, "j", runtime.NumCPU(), "number of worker goroutines")
	fs.StringVar(&cfg.file, "f", "", "read URLs from this file instead of standard input")
	fs.BoolVar(&cfg.equal, "equal", false, "with two URL arguments: exit 0 if they have the same key, 1 if not")
	fs.BoolVar(&cfg.listProfiles, "list-profiles", false, "print each profile with its steps")
	fs.BoolVar(&cfg.version, "version", false, "print the version")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, exitOK, errHelp
		}
		return nil, exitUsage, errHelp // the flag package has said why
	}
	cfg.urls = fs.Args()
	p, ok := canon.LookupProfile(profile)
	if !ok {
		return nil, exitUsage, fmt.Errorf("unknown profile %q (see -list-profiles)", profile)
	}
	cfg.profileName = strings.ToLower(profile)
	if *steps != "" {
		var err error
		if p, err = applySteps(p, *steps); err != nil {
			return nil, exitUsage, err
		}
	}
	cfg.profile = p
	switch cfg.format {
	case "text", "tsv", "jsonl":
	default:
		return nil, exitUsage, fmt.Errorf("unknown format %q: want text, tsv or jsonl", cfg.format)
	}
	if cfg.count && !cfg.unique {
		return nil, exitUsage, errors.New("-c needs -u")
	}
	if cfg.workers < 1 {
		return nil, exitUsage, errors.New("-j needs at least 1 worker")
	}
	if cfg.equal && len(cfg.urls) != 2 {
		return nil, exitUsage, errors.New("-equal needs exactly two URLs")
	}
	if cfg.file != "" && len(cfg.urls) > 0 {
		return nil, exitUsage, errors.New("-f and URL arguments cannot be used together")
	}
	return cfg, exitOK, nil
}

// stepAliases are short names the -steps flag accepts besides the Step names.
var stepAliases = map[string]canon.Step{
	"nofragment": canon.RemoveFragment,
}

// applySteps adds (+Name) or removes (-Name) steps from p.
func applySteps(p canon.Profile, spec string) (canon.Profile, error) {
	have := map[canon.Step]bool{}
	for _, s := range p.Steps() {
		have[s] = true
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		add := true
		switch item[0] {
		case '+':
			item = item[1:]
		case '-':
			add, item = false, item[1:]
		}
		s, ok := stepAliases[strings.ToLower(item)]
		if !ok {
			var err error
			if s, err = canon.ParseStep(item); err != nil {
				return p, fmt.Errorf("-steps: unknown step %q (see -list-profiles)", item)
			}
		}
		have[s] = add
	}
	var steps []canon.Step
	for s, on := range have {
		if on {
			steps = append(steps, s)
		}
	}
	np, err := canon.NewProfile(steps...)
	if err != nil {
		return p, fmt.Errorf("-steps: %v", err)
	}
	return np, nil
}

func listProfiles(w io.Writer) int {
	for _, n := range []string{"rfc3986", "iri", "webcapture", "powder", "whatwg"} {
		p, _ := canon.LookupProfile(n)
		fmt.Fprintf(w, "%-11s %s\n", n, strings.ReplaceAll(p.String(), "|", " "))
	}
	fmt.Fprintln(w, "\nsteps for -steps:")
	for s := canon.Step(0); ; s++ {
		name := s.String()
		if strings.HasPrefix(name, "Step(") {
			break
		}
		fmt.Fprintln(w, "  "+name)
	}
	return exitOK
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "(devel)"
}
