package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/learn"
)

// learnFormats lists the formats -learn-input takes.
func learnFormats() string {
	names := make([]string, len(learn.Formats))
	for i, f := range learn.Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// checkLearnFlags refuses the flags -learn has no use for, and the
// -learn-* flags without -learn.
func checkLearnFlags(cfg *config) error {
	if !cfg.learn {
		if cfg.learnInput != "" || cfg.learnReport != "" {
			return errors.New("-learn-input and -learn-report need -learn")
		}
		return nil
	}
	switch {
	case len(cfg.urls) > 0:
		return errors.New("-learn reads captures from standard input or -f, not URL arguments")
	case cfg.equal || cfg.rekey || cfg.explain || cfg.unique || cfg.keyVersion || cfg.base != "" || cfg.schemes != nil:
		return errors.New("-learn cannot be used with -equal, -rekey, -explain, -u, -keyversion, -base or -schemes: it writes rules, not keys")
	case cfg.format != "text":
		return errors.New("-learn writes canon.Rules as JSON: -format does not apply")
	case !cfg.profile.Has(canon.RemoveTrackingParams) && !cfg.profile.Has(canon.RemoveSessionIDs):
		return fmt.Errorf("-learn: the profile %s has neither RemoveTrackingParams nor RemoveSessionIDs, which read the rules it learns: use crawler, archive or aggressive, or add +RemoveTrackingParams", cfg.profileName)
	}
	if cfg.learnInput != "" {
		for _, f := range learn.Formats {
			if string(f) == cfg.learnInput {
				return nil
			}
		}
		return fmt.Errorf("-learn-input %q: want one of %s", cfg.learnInput, learnFormats())
	}
	return nil
}

// runLearn reads captures from in, learns the rules they show against
// cfg's profile and writes them to stdout as indented JSON, which -rules
// reads; the findings go to -learn-report, and a summary to stderr.
func runLearn(cfg *config, in io.Reader, stdout, stderr io.Writer) int {
	br := bufio.NewReaderSize(in, 1<<16)
	format := learn.Format(cfg.learnInput)
	if format == "" {
		// (Detected here, for HostRuns, as ReadCaptures detects it.)
		f, err := learn.PeekFormat(br)
		if err != nil {
			fmt.Fprintln(stderr, "canon:", err)
			return exitProblem
		}
		format = f
	}
	// A CDX or CDXJ index is sorted (by SURT): a host's captures come
	// together, and each host is learned when its run ends.
	l := learn.New(learn.Options{Profile: cfg.profile, HostRuns: format == learn.CDX || format == learn.CDXJ})
	read, malformed := 0, 0
	err := learn.ReadCaptures(br, format, func(c learn.Capture) error {
		read++
		l.Add(c)
		return nil
	}, func(line int, err error) {
		malformed++
		if !cfg.quiet {
			fmt.Fprintf(stderr, "canon: line %d: %v\n", line, err)
		}
	})
	if err != nil {
		fmt.Fprintln(stderr, "canon:", err)
		return exitProblem
	}
	rules := l.Rules()
	b, err := json.MarshalIndent(rules, "", "  ")
	if err != nil {
		fmt.Fprintln(stderr, "canon:", err)
		return exitProblem
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", b); err != nil {
		fmt.Fprintln(stderr, "canon:", err)
		return exitProblem
	}
	findings := l.Report()
	if cfg.learnReport != "" {
		if err := writeFindings(cfg.learnReport, findings); err != nil {
			fmt.Fprintln(stderr, "canon:", err)
			return exitProblem
		}
	}
	sk := l.Skipped
	sampled := ""
	if sk.Sampled > 0 {
		sampled = fmt.Sprintf(", %d out of the sample of a host with more than 100000", sk.Sampled)
	}
	fmt.Fprintf(stderr, "canon: %d captures (%d malformed lines; skipped: %d not status 200, %d without digest, %d empty payload, %d invalid URL%s): rules for %d hosts\n",
		read, malformed, sk.Status, sk.NoDigest, sk.EmptyPayload, sk.Invalid, sampled, len(rules.Hosts))
	return exitOK
}

// writeFindings writes the findings to the file path, a JSON object a
// line.
func writeFindings(path string, findings []learn.Finding) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false) // (URLs with "&", read by people)
	for _, fd := range findings {
		if err := enc.Encode(fd); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
