package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/seed15588f71/canon"
	"github.com/seed15588f71/canon/learn"
)

// learnFormats lists the formats -learn-input takes.
func learnFormats() string {
	var names []string
	for _, f := range learn.Formats() {
		names = append(names, string(f))
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
		if _, err := learn.ParseFormat(cfg.learnInput); err != nil {
			return fmt.Errorf("-learn-input %s: want one of %s", quoteInput([]byte(cfg.learnInput)), learnFormats())
		}
	}
	return nil
}

// contested is how many of the refused sets, those with the most
// agreeing pairs, the summary names.
const contested = 3

// runLearn reads captures from in, in any order, learns the rules they
// show against cfg's profile and writes them to stdout as indented JSON,
// which -rules reads; every finding goes to -learn-report, and a summary
// to stderr: what was read, how many rules and refused sets, and the
// refusals with the most agreeing pairs. The captures the learner cannot
// hold in memory go to a temporary directory, removed at the end and on
// an interrupt.
func runLearn(cfg *config, in io.Reader, stdout, stderr io.Writer) int {
	// The learner's heap is no small batch of lines (main's GOGC 400):
	// it holds up to 64 MiB of captures before it writes them to a
	// temporary file, which collections at five times that would make
	// 320 MB. GOGC still overrides this.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
	l := learn.New(learn.Options{Profile: cfg.profile})
	defer l.Close()
	stop := closeOnSignal(l)
	defer stop()

	var report *os.File
	var reportBuf *bufio.Writer
	var enc *json.Encoder
	if cfg.learnReport != "" {
		f, err := os.Create(cfg.learnReport)
		if err != nil {
			fmt.Fprintln(stderr, "canon:", err)
			return exitProblem
		}
		defer f.Close() // (on an early return; closed below otherwise)
		report, reportBuf = f, bufio.NewWriter(f)
		enc = json.NewEncoder(reportBuf)
		enc.SetEscapeHTML(false) // (URLs with "&", read by people)
	}

	read, malformed := 0, 0
	for c, err := range learn.ReadCaptures(in, learn.Format(cfg.learnInput)) {
		var le *learn.LineError
		switch {
		case errors.As(err, &le):
			malformed++
			if !cfg.quiet {
				fmt.Fprintf(stderr, "canon: line %d: %v\n", le.Line, err)
			}
			continue
		case err != nil:
			fmt.Fprintln(stderr, "canon:", err)
			return exitProblem
		}
		read++
		if err := l.Add(c); err != nil {
			fmt.Fprintln(stderr, "canon:", err)
			return exitProblem
		}
	}

	var refused []learn.Finding
	var reportErr error
	rules, err := l.Learn(func(f learn.Finding) {
		if enc != nil && reportErr == nil {
			reportErr = enc.Encode(f)
		}
		if f.Verdict == learn.Refused {
			refused = append(refused, f)
			slices.SortStableFunc(refused, func(a, b learn.Finding) int {
				return cmp.Or(cmp.Compare(b.Agree, a.Agree), cmp.Compare(len(a.Params), len(b.Params)), cmp.Compare(a.Counter, b.Counter))
			})
			if len(refused) > contested {
				refused = refused[:contested]
			}
		}
	})
	if err == nil {
		err = reportErr
	}
	if err != nil {
		fmt.Fprintln(stderr, "canon:", err)
		return exitProblem
	}
	b, err := json.MarshalIndent(rules, "", "  ")
	if err != nil {
		fmt.Fprintln(stderr, "canon:", err)
		return exitProblem
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", b); err != nil {
		fmt.Fprintln(stderr, "canon:", err)
		return exitProblem
	}
	if report != nil {
		err := reportBuf.Flush()
		if cerr := report.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fmt.Fprintln(stderr, "canon:", err)
			return exitProblem
		}
	}
	printLearnSummary(stderr, l.Stats(), read, malformed, len(rules.Hosts), refused)
	if read == 0 && malformed > 0 {
		return exitFailed // not one line was a capture
	}
	return exitOK
}

// printLearnSummary writes what was read and learned, and the most
// contested refusals, on standard error.
func printLearnSummary(w io.Writer, st learn.Stats, read, malformed, ruleHosts int, refused []learn.Finding) {
	sampled := ""
	if st.Sampled > 0 {
		sampled = fmt.Sprintf(", %d out of the sample of a host with more than 100000 captures or 64 MiB of them", st.Sampled)
	}
	fmt.Fprintf(w, "canon: %d captures (%d malformed lines; skipped: %d not status 200, %d without digest, %d empty payload, %d invalid URL%s): rules for %d hosts\n",
		read, malformed, st.Status, st.NoDigest, st.EmptyPayload, st.Invalid+st.NoHost, sampled, ruleHosts)
	unfinished := ""
	if st.Unfinished > 0 {
		unfinished = fmt.Sprintf(" (%d in part: the bound of the sets a host's judging reads)", st.Unfinished)
	}
	misses := "near misses"
	if st.NearMisses == 1 {
		misses = "near miss"
	}
	fmt.Fprintf(w, "canon: %d hosts judged%s: %d sets of parameters learned, %d refused, %d %s\n",
		st.Hosts, unfinished, st.Learned, st.Refused, st.NearMisses, misses)
	for _, f := range refused {
		ex := ""
		if len(f.Counterexamples) > 0 {
			ex = fmt.Sprintf(", e.g. %s and %s", f.Counterexamples[0][0], f.Counterexamples[0][1])
		}
		fmt.Fprintf(w, "canon: refused %s on %s: %d of %d pairs agree; %s%s\n",
			strings.Join(f.Params, "+"), f.Host, f.Agree, f.Pairs, f.Why, ex)
	}
}

// closeOnSignal closes l (removing its temporary directory) and exits
// on an interrupt or a termination signal, as sort(1) removes its
// temporary files; the function it returns stops watching.
func closeOnSignal(l *learn.Learner) func() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			l.Close()
			code := 130
			if sig == syscall.SIGTERM {
				code = 143
			}
			os.Exit(code)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
