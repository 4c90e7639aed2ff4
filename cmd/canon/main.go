package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

func main() {
	// The heap is small (a few batches in flight), so trading a little
	// memory for fewer collections is cheap; GOGC still overrides this.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailed  = 1 // some line failed, or -equal found the URLs different
	exitUsage   = 2
	exitProblem = 2 // an I/O error
)

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, code, err := parseFlags(args, stdout, stderr)
	if err != nil {
		if err != errHelp {
			fmt.Fprintln(stderr, "canon:", err)
		}
		return code
	}
	if cfg.keyVersion {
		// The KeyVersion of the profile the flags build, steps and rules
		// included: what an index stores beside its keys.
		fmt.Fprintln(stdout, cfg.profile.KeyVersion())
		return exitOK
	}
	if cfg.listProfiles {
		return listProfiles(cfg, stdout)
	}
	if cfg.version {
		fmt.Fprintln(stdout, "canon", version())
		return exitOK
	}
	if cfg.equal {
		return runEqual(cfg, stdout, stderr)
	}
	var in io.Reader = stdin
	switch {
	case len(cfg.urls) > 0:
		in = nil
	case cfg.file != "" && cfg.file != "-":
		f, err := os.Open(cfg.file)
		if err != nil {
			fmt.Fprintln(stderr, "canon:", err)
			return exitUsage
		}
		defer f.Close()
		in = f
	}
	if cfg.learn {
		return runLearn(cfg, in, stdout, stderr) // (captures, not URLs: no URL arguments)
	}
	return process(cfg, in, stdout, stderr)
}
