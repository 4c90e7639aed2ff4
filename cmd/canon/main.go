// Command canon prints the canonical form of URLs.
//
//	canon [-profile rfc3986|iri|webcapture|powder] [-base URL] [URL ...]
//
// With no URL arguments it reads one URL per line from standard input.
// A line that fails gives "line N: error" on standard error and an empty
// output line, so that output lines stay aligned with input lines; the
// exit status is 1 when any line failed and 2 on a usage error.
package main

import (
	"bufio"
	"flag"
	"io"
	"os"
	"strconv"

	"github.com/seed15588f71/canon"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("canon", flag.ContinueOnError)
	fs.SetOutput(stderr)
	profileName := fs.String("profile", "rfc3986", "profile: rfc3986, iri, webcapture or powder")
	base := fs.String("base", "", "resolve each URL against this base URL first")
	fs.Usage = func() {
		io.WriteString(stderr, "usage: canon [-profile name] [-base URL] [URL ...]\n\n"+
			"Prints the canonical form of each URL argument, or of each line of standard input.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	p, ok := canon.LookupProfile(*profileName)
	if !ok {
		io.WriteString(stderr, "canon: unknown profile "+strconv.Quote(*profileName)+"\n")
		return 2
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	failed := 0
	line := 0
	do := func(u string) {
		line++
		var key string
		var err error
		if *base != "" {
			key, err = canon.NormalizeRef(*base, u, p)
		} else {
			key, err = canon.Normalize(u, p)
		}
		if err != nil {
			failed++
			out.Flush()
			io.WriteString(stderr, "line "+strconv.Itoa(line)+": "+err.Error()+"\n")
		}
		out.WriteString(key)
		out.WriteByte('\n')
	}
	if fs.NArg() > 0 {
		for _, u := range fs.Args() {
			do(u)
		}
	} else {
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 64*1024), canon.MaxLength+2)
		for sc.Scan() {
			t := sc.Text()
			if n := len(t); n > 0 && t[n-1] == '\r' {
				t = t[:n-1]
			}
			do(t)
		}
		if err := sc.Err(); err != nil {
			out.Flush()
			io.WriteString(stderr, "canon: "+err.Error()+"\n")
			return 2
		}
	}
	if failed > 0 {
		return 1
	}
	return 0
}
