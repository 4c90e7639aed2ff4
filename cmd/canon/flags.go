package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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
	quiet        bool
	progress     bool
	progressSet  bool // -progress given, either way: no terminal check
	workers      int
	file         string
	equal        bool
	explain      bool
	rekey        bool
	listProfiles bool
	keyVersion   bool // -keyversion
	version      bool
	urls         []string
	rulesFile    string          // -rules: a JSON file of canon.Rules
	schemes      map[string]bool // -schemes: the schemes whose keys are written; nil for all
	header       bool            // -header: -format tsv starts with the "#canon" line and escapes its fields
	hashBytes    int             // -hash: -format expressions adds the first N bytes of each expression's SHA-256, in hex
	rekeySURT    bool            // -rekey -format surt, or a CDX or CDXJ index: the keys of the input and the output are SURTs
	inputs       bool            // -inputs: print the inputs of an index
	indexFormat  string          // -index-format: the format of the index -rekey and -inputs read ("": told by its first line)
	index        indexLayout     // -rekey, -inputs: the index's format and layout, as its first line says (readIndexStart)
	formatFlag   string          // -format as given (-rekey makes cfg.format "tsv")
	encoding     canon.Encoding  // -encoding: the encoding of the page the URLs were read from
	page         *canon.Base     // -base, read once (with -encoding)
	learn        bool            // -learn: read captures, write the rules they show (learn.go)
	learnInput   string          // -learn-input: the captures' format ("": detected)
	learnReport  string          // -learn-report: a file for the findings, as JSON lines
	profileSet   bool            // -p or -profile given
}

// schemeAllowed reports whether key (a URL's key, which starts with its
// scheme) has a scheme that -schemes allows.
func (cfg *config) schemeAllowed(key string) bool {
	if cfg.schemes == nil {
		return true
	}
	k := strings.IndexByte(key, ':')
	return k > 0 && cfg.schemes[strings.ToLower(key[:k])]
}

// mode names the mode that reads an index, for messages.
func (cfg *config) mode() string {
	if cfg.inputs {
		return "-inputs"
	}
	return "-rekey"
}

// withInput reports whether the output format writes the input beside
// the key (tsv, jsonl), which -u -c then keeps.
func (cfg *config) withInput() bool { return cfg.format == "tsv" || cfg.format == "jsonl" }

// profiles are the profiles -p accepts, by the names canon.LookupProfile
// knows them by, in the order the usage and -list-profiles show them,
// each with what it is for. The command names them nowhere else: the -p
// help, the usage's list, the unknown-profile error and -list-profiles
// are made from this (TestProfileNames checks it against the library's
// predefined profiles; doc.go, which is a comment, is checked too).
var profiles = []struct{ name, about string }{
	{"rfc3986", "RFC 3986 syntax- and scheme-based normalization (the default)"},
	{"iri", "RFC 3987: as rfc3986, with hosts and text as Unicode"},
	{"webcapture", "PDF Web Capture: RFC 1808 resolution, escapes left alone"},
	{"powder", "W3C POWDER: every escape decoded; for matching, not fetching"},
	{"whatwg", "as browsers read a URL (the WHATWG URL Standard)"},
	{"crawler", "whatwg without fragment, tracking parameters and session ids, query sorted"},
	{"archive", "the Internet Archive's canonicalization for CDX keys (with -format surt)"},
	{"aggressive", "urlcanon's aggressive: archive's steps, https as http, empty parameters dropped"},
	{"safebrowsing", "Google Safe Browsing's canonicalization (its lookup expressions: -format expressions)"},
}

// profileList returns the profile names as a list in words: "a, b or c".
func profileList() string {
	var b strings.Builder
	for i, p := range profiles {
		switch {
		case i == 0:
		case i == len(profiles)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(p.name)
	}
	return b.String()
}

// usage returns what "canon -h" prints before the flag list: usageText
// with the profiles listed where it says so.
func usage() string {
	var b strings.Builder
	width := 0
	for _, p := range profiles {
		width = max(width, len(p.name)+1)
	}
	for _, p := range profiles {
		fmt.Fprintf(&b, "  %-*s%s\n", width, p.name, p.about)
	}
	return strings.Replace(usageText, "{{profiles}}\n", b.String(), 1)
}

// errHelp is parseFlags's error when it has printed what the user asked
// for (-h) or the flag package's complaint: nothing more to print.
var errHelp = errors.New("help")

// usageText comes before the flag list in "canon -h", with the profiles
// in place of {{profiles}} (see usage). doc.go says the same at more
// length: keep the two in step (TestDocListsFlags checks the flag names).
const usageText = `usage: canon [flags] [URL ...]
       canon -explain [-p profile] [-steps list] [-format jsonl] [URL ...]
       canon -equal [-p profile] [-steps list] [-base URL] URL1 URL2
       canon -rekey [-p profile] [-steps list] [-base URL] [-index-format format] < old.tsv
       canon -inputs [-index-format format] < index.tsv
       canon -keyversion [-p profile] [-steps list] [-rules FILE]
       canon -learn [-p profile] [-rules FILE] [-learn-input format] [-learn-report FILE] [-f FILE]
       canon -list-profiles

canon prints the canonical key of each URL given as an argument, or of each
line of standard input (or -f FILE), one output line per input line, in
input order. Flags may come before or after the URLs; "--" ends them (a
URL after it may start with "-").

Examples:
  canon 'HTTP://Example.COM:80/a/./b/../c'          # http://example.com/a/c
  canon -p iri 'http://xn--rsum-bpad.example/'      # http://résumé.example/
  canon -p rfc3986 -steps +RemoveFragment < links.txt
  canon -base https://example.com/dir/ '../x' 'y?q'  # resolve, then normalize
  canon -p whatwg -base https://example.com/dir/ 'a\b'  # as a browser reads a link
  canon -p crawler -encoding shift_jis -base http://example.jp/ '?q=日本'  # ?q=%93%FA%96{
  canon -u < links.txt                               # dedupe a link list
  canon -u -c < links.txt | sort -rn | head          # most repeated URLs
  canon -format tsv < links.txt | sort -t$'\t' -k2   # input and key, by key
  canon -format surt 'http://www.example.com/a?b'    # com,example,www)/a?b
  canon -p archive -format surt < links.txt | LC_ALL=C sort  # CDX keys, in CDX order
  canon -explain -p crawler 'HTTP://Example.com/?utm_source=x&b=2&a=1'  # why this key
  canon -p safebrowsing -format expressions < links.txt  # what Safe Browsing looks up
  canon -equal 'http://h/%7Ea' 'HTTP://H:80/~a'      # exit 0: same key
  canon -rekey -p crawler < index.tsv > changed.tsv  # keys this version changes
  canon -rekey -p archive < index.cdx > changed.cdx  # CDX records whose key changes
  canon -p crawler -schemes http,https -rules site.json -skip-invalid < links.txt  # crawl keys

Profiles (-p; -list-profiles shows their steps and key versions):
{{profiles}}

Input: one URL per line; a CR before the LF and a missing final newline
are fine. A blank line (empty, or only spaces, tabs, CR, VT or FF) is not
a URL: it has no key, is not resolved against -base and is not a failure.
It gives an empty line in text format, the input and an empty key in tsv,
{"in":INPUT,"blank":true} in jsonl; -u and -skip-invalid drop it. With
-schemes, a line whose key has another scheme is skipped the same way
({"in":INPUT,"skipped":"scheme"} in jsonl), not a failure, and counted
at the end of standard error.

Formats (-format):
  text   the key (-u -c: the count, right-aligned in 7 columns, a space, the key)
  tsv    the input, TAB, the key (-u -c: the count and a TAB first); a TAB
         or CR inside the input is written as a space in the input field,
         which is then not byte for byte the input, but the columns hold
  jsonl  {"in":INPUT,"out":KEY} (-u -c: and "count":N); a failure is
         {"in":INPUT,"line":N,"error":MESSAGE,"kind":KIND,"component":NAME,
         "offset":N}: KIND is the library's sentinel error, one of
         ErrRelative, ErrInvalidEscape, ErrInvalidHost, ErrInvalidPort,
         ErrInvalidScheme, ErrInvalidChar, ErrTooLong; NAME one of url,
         scheme, userinfo, host, port, path, query, fragment; offset, the
         byte offset in INPUT of the text the error points at, is left out
         when it has none; INPUT is "" for a line over 4 MiB, not kept.
         Invalid UTF-8 in a string is written as U+FFFD.
  surt   the SURT of the key, as CDX indexes key URLs (canon.SURT, as the
         Internet Archive's surt library writes it): the host's labels
         reversed, the port, ")", then path and query decoded, escaped
         again and lowercased as the library writes them, the query
         sorted its way, without scheme, userinfo or fragment
         (http://www.example.com:81/a%3Fb#c -> com,example,www:81)/a?b);
         an IPv4 address is reversed too (http://10.1.2.3/ ->
         3,2,1,10)/), an IPv6 address loses its brackets; a URL without
         a host is scheme ":" path (file:///etc/hosts -> file:/etc/hosts);
         with -p archive, the library's CDX key; -u and -c as in text, on
         SURTs
  expressions
         (-p safebrowsing) the key's Safe Browsing lookup expressions
         (canon.LookupExpressions), a line each, "input TAB expression", in
         the order Safe Browsing looks them up: http://a.b.c/1/2.html?p=1 ->
         a.b.c/1/2.html?p=1, a.b.c/1/2.html, a.b.c/, a.b.c/1/,
         b.c/1/2.html?p=1, ...; with -hash N, "input TAB expression TAB
         hex", the first N bytes of the expression's SHA-256 (-hash 4: the
         prefixes the v4 and v5 APIs look up; -hash 32: full hashes); the
         input field as in tsv (-header too); nothing for a blank or a
         failing line; not with -u, -explain or -equal

Page encodings (-encoding LABEL): the URLs are links of a page in that
encoding (the input is text all the same: UTF-8, the page decoded, as
an HTML parser decodes it). With a profile that has ParseWHATWG, the
query of an http, https, ftp or file URL is written in the encoding, as
a browser requests it: -encoding shift_jis makes ?q=日本 ?q=%93%FA%96{; a
character the encoding lacks is "&#N;", percent-encoded (%26%23N%3B).
The path, the fragment and the host stay UTF-8 and IDNA, and so does the
query of ws:, wss: and other schemes. Labels resolve as the Encoding
Standard says (sjis and x-sjis are Shift_JIS; latin1 and ascii are
windows-1252; utf-16 is UTF-8 here). The key version is the profile's:
keys made with and without -encoding are one index.

Explain (-explain): for each URL, the URL, then a line
"  Step: before -> after" for each step of the profile that changes it,
in the order they run ("  Step (rules of DOMAIN): ..." where it applied
the -rules of that host), then an empty line; nothing for a blank or a
failing line (the failure goes to standard error as usual). With
-format jsonl, one record per line as usual, each key's with
"changes":[{"step":S,"before":B,"after":A},...] added (and "host":DOMAIN). -explain cannot
be combined with -u, -equal, -base or -format tsv, surt or expressions.

A line that fails gives "line N: component: reason (at "rest")" on standard
error (not with -q), a password in it written as xxxxx, and an output line
with an empty key, so that output stays aligned with input (-skip-invalid
drops it); "canon: F of N lines failed" ends standard error.

Rekey (-rekey): reads an index of keys made by an earlier version and
writes the records whose key the profile now makes differently, nothing
for the others: the changes the index needs. Three formats, told by the
first line that is not blank (or named by -index-format tsv|cdx|cdxj):
  tsv    "input TAB key" lines as -format tsv wrote them; writes
         "input TAB oldkey TAB newkey" (an empty oldkey: the input had no
         key then; an empty newkey: it fails now, reported, exit 1). With
         -format surt the keys are SURTs. Write the index with -format
         tsv -header: its first line names the key version, and its
         input fields are escaped, so -rekey reads each input byte for
         byte (a file without the header is read as it is written).
  cdx    a CDX index, after its " CDX N b a ..." header or not (7, 9 or
         11 fields, key first, URL third): the key is N, the input a
  cdxj   "key timestamp {json}" records, the input the JSON's "url"
         CDX and CDXJ keys are SURTs (-p archive: the Internet Archive's);
         a record whose key changed is written with its new key, in the
         index's format (its header first): put them in place of the old
         records and sort the index again (LC_ALL=C sort). A record
         without a URL is reported (exit 1) and not written.
A first line with a TAB is a tsv line (even "#canon ..." or " CDX ...";
a header holds no TAB, and one an awk gave one is said so); "key digits
{...}" a CDXJ record; 7, 9 or 11 fields, the second 14 digits, a CDX
record; then "#canon " starts a tsv header, "CDX" a CDX header; any
other first line is a usage error. A line that is no record of the
index is reported and skipped (exit 1), and so is a header that is not
the first line (sort the lines after it), but the first header again.

Inputs (-inputs): reads an index as -rekey does and prints the input of
each record, a line each: the input field (unescaped after a "#canon"
header: the input byte for byte), a CDX record's URL, a CDXJ "url":
  canon -inputs < index.tsv | canon -p crawler -u -c

Exit status: 0 every line normalized or blank (-equal: the same key), 1
some line failed (-equal: different keys), 2 usage error (a bad -base too)
or I/O error.

Flags:
`

// newFlagSet defines the command's flags on a new FlagSet that stores
// them in cfg; profile and steps receive -profile and -steps.
func newFlagSet(cfg *config, profile, steps *string) *flag.FlagSet {
	fs := flag.NewFlagSet("canon", flag.ContinueOnError)
	*profile = "rfc3986"
	fs.StringVar(profile, "profile", *profile, "the profile, by `name`: "+profileList()+" (see -list-profiles)")
	fs.StringVar(profile, "p", *profile, "shorthand for -profile `name`")
	fs.StringVar(steps, "steps", "", "add steps to the profile or remove them: a comma-separated `list` of +Step or -Step\n(e.g. +RemoveFragment; the names are in -list-profiles)")
	fs.StringVar(&cfg.base, "base", "", "resolve each line against the base `URL` (by the profile's rule) before normalizing;\na base that is not a valid absolute URL is a usage error (exit 2)")
	fs.Func("encoding", "the `label` of the encoding of the page the URLs were read from (the Encoding Standard's labels:\nshift_jis, gbk, windows-1251, ...): with a profile that has ParseWHATWG, the query of an http, https,\nftp or file URL is written in it, as a browser writes it (see above); an unknown label is a usage error", func(v string) error {
		enc, err := canon.LookupEncoding(v)
		cfg.encoding = enc
		return err
	})
	fs.StringVar(&cfg.format, "format", "text", "output `format`: text (the key), tsv (input TAB key), jsonl, surt (the key's SURT)\nor expressions (-p safebrowsing: input TAB expression lines, -hash adds hashes; see above)")
	fs.BoolVar(&cfg.unique, "u", false, "print each key once, in order of first occurrence (memory grows with distinct keys)")
	fs.BoolVar(&cfg.count, "c", false, "with -u: prefix each key with its number of occurrences, as uniq -c")
	fs.BoolVar(&cfg.skipInvalid, "skip-invalid", false, "print nothing for a line that has no key, failed or blank\n(default: an output line with an empty key, which keeps output aligned with input)")
	fs.BoolVar(&cfg.quiet, "q", false, "do not report each failing line on standard error; the summary line stays")
	fs.BoolVar(&cfg.progress, "progress", false, "report lines, lines/s and failures on standard error: on a terminal, a line rewritten\nin place; elsewhere, a plain line a second and one at the end (default: on when\nstandard error is a terminal; -progress=false turns it off there)")
	fs.IntVar(&cfg.workers, "j", runtime.NumCPU(), "normalize on `N` worker goroutines, one a core by default; the output keeps input order")
	fs.StringVar(&cfg.file, "f", "", "read URLs from `FILE` instead of standard input (\"-\": standard input)")
	fs.BoolVar(&cfg.equal, "equal", false, "with two URL arguments: exit 0 if they have the same key, 1 if not")
	fs.BoolVar(&cfg.explain, "explain", false, "for each URL, print it and each step that changes it, as \"  Step: before -> after\" lines,\nthen an empty line (-format jsonl: a \"changes\" array in each record; see above)")
	fs.IntVar(&cfg.hashBytes, "hash", 0, "with -format expressions: add a column with the first `N` bytes (4 to 32) of each expression's\nSHA-256 in hex: 4 is the hash prefix the Safe Browsing v4 and v5 APIs look up, 32 the full hash")
	fs.BoolVar(&cfg.header, "header", false, "with -format tsv or expressions: write \"#canon KEYVERSION\" as the first line (the key version the keys are\nmade under, which -rekey reads; with -format expressions, followed by \" expressions\": -rekey refuses such a file)\nand write a TAB, CR, LF or \"\\\" of an input as \\t \\r \\n \\\\ (see Rekey)")
	fs.BoolVar(&cfg.rekey, "rekey", false, "read an index of keys (an earlier -format tsv's \"input TAB key\" lines, a CDX or CDXJ index) and write\n\"input TAB oldkey TAB newkey\" for each tsv line whose key the profile now makes differently,\nor each such CDX or CDXJ record with its new key (see above)")
	fs.BoolVar(&cfg.inputs, "inputs", false, "read an index as -rekey reads it (-format tsv's, CDX or CDXJ) and print the input of each record, a line each:\nthe input field (unescaped after a \"#canon\" header), a CDX record's URL (a), a CDXJ record's \"url\" (see above)")
	fs.StringVar(&cfg.indexFormat, "index-format", "", "with -rekey or -inputs: the index's `format`, "+indexFormats+" (default: told by its first line; see Rekey)")
	fs.StringVar(&cfg.rulesFile, "rules", "", "apply the canon.Rules in the JSON `FILE` to the profile (WithRules): parameter names to drop\nor keep, per host too; they act through RemoveTrackingParams and RemoveSessionIDs (see above)")
	fs.Func("schemes", "write keys only for URLs whose key has one of the schemes in the comma-separated `list`\n(e.g. http,https); a line with another scheme is skipped: no key, not a failure (see above)", func(v string) error {
		set, err := parseSchemes(v)
		cfg.schemes = set
		return err
	})
	fs.BoolVar(&cfg.learn, "learn", false, "read captures (an archive's CDX or CDXJ index, a Heritrix crawl.log, or \"url TAB digest [TAB time]\" lines)\nand write the canon.Rules they show as JSON: per host, the query parameters whose values do not change\nthe content (TrackingParams), learned against the profile's keys (default crawler; see above)")
	fs.StringVar(&cfg.learnInput, "learn-input", "", "with -learn: the captures' `format`, one of "+learnFormats()+" (default: detected from the first line that shows one)")
	fs.StringVar(&cfg.learnReport, "learn-report", "", "with -learn: write every set of parameters judged (learned, refused or a near miss, with its pairs,\nagreement and counterexamples) as a JSON line to `FILE`")
	fs.BoolVar(&cfg.keyVersion, "keyversion", false, "print the key version (Profile.KeyVersion) of the profile that -p, -steps and -rules make, and exit:\nthe label to store with the keys (see Rekey)")
	fs.BoolVar(&cfg.listProfiles, "list-profiles", false, "print each profile with its steps and its key version (Profile.KeyVersion), and the step names")
	fs.BoolVar(&cfg.version, "version", false, "print the version")
	return fs
}

// parseFlags parses args. On -h it prints the usage on stdout and returns
// errHelp with exit status 0; on a flag the flag package rejects, it
// prints one line on stderr and returns errHelp with status 2; any other
// error is for the caller to print.
func parseFlags(args []string, stdout, stderr io.Writer) (*config, int, error) {
	cfg := &config{}
	var profile, steps string
	fs := newFlagSet(cfg, &profile, &steps)
	// The flag package prints its complaint and then the whole usage on
	// the same writer; a mistyped flag should cost one line on stderr,
	// and asked-for help belongs on stdout, so canon prints both itself.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	// Flags may come after URLs too ("canon URL -p crawler"), as users
	// of other tools expect: the flag package stops at the first
	// argument that is not a flag, so the rest is parsed again from the
	// next one that starts with "-". "--" ends the flags: every
	// argument after it is a URL, even "-x".
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				io.WriteString(stdout, usage())
				fs.SetOutput(stdout)
				fs.PrintDefaults()
				return nil, exitOK, errHelp
			}
			fmt.Fprintf(stderr, "canon: %v (see canon -h)\n", err)
			return nil, exitUsage, errHelp
		}
		left := fs.Args()
		if n := len(rest) - len(left); n > 0 && rest[n-1] == "--" {
			cfg.urls = append(cfg.urls, left...) // after "--"
			break
		}
		for len(left) > 0 && (len(left[0]) < 2 || left[0][0] != '-') {
			cfg.urls = append(cfg.urls, left[0])
			left = left[1:]
		}
		if len(left) == 0 {
			break
		}
		rest = left
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		set[f.Name] = true
		switch f.Name {
		case "progress":
			cfg.progressSet = true
		case "p", "profile":
			cfg.profileSet = true
		}
	})
	if cfg.learn && !cfg.profileSet {
		profile = "crawler" // (the rules are learned against a key profile's keys)
	}
	p, ok := canon.LookupProfile(profile)
	if !ok {
		return nil, exitUsage, fmt.Errorf("unknown profile %q: want %s (see -list-profiles)", profile, profileList())
	}
	cfg.profileName = strings.ToLower(profile)
	if steps != "" {
		var err error
		if p, err = applySteps(p, steps); err != nil {
			return nil, exitUsage, err
		}
	}
	if cfg.rulesFile != "" {
		r, err := loadRules(cfg.rulesFile)
		if err != nil {
			return nil, exitUsage, fmt.Errorf("-rules %s: %v", cfg.rulesFile, err)
		}
		if p, err = p.WithRules(r); err != nil {
			return nil, exitUsage, fmt.Errorf("-rules %s: %s", cfg.rulesFile, strings.TrimPrefix(err.Error(), "canon: "))
		}
	}
	cfg.profile = p
	if cfg.schemes != nil {
		switch {
		case cfg.equal:
			return nil, exitUsage, errors.New("-schemes cannot be used with -equal")
		case cfg.rekey:
			return nil, exitUsage, errors.New("-schemes cannot be used with -rekey")
		}
	}
	switch cfg.format {
	case "text", "tsv", "jsonl", "surt":
	case "expressions":
		// Lookup expressions are made of a Safe Browsing key, one line
		// each: no other profile's keys, and no mode that writes one line
		// for an input.
		switch {
		case !p.Has(canon.ParseSafeBrowsing):
			return nil, exitUsage, errors.New("-format expressions needs -p safebrowsing: the expressions are made of its key")
		case cfg.unique || cfg.explain || cfg.equal || cfg.rekey:
			return nil, exitUsage, errors.New("-format expressions cannot be used with -u, -explain, -equal or -rekey: it writes the lines of each key's expressions")
		}
	default:
		return nil, exitUsage, fmt.Errorf("unknown format %q: want text, tsv, jsonl, surt or expressions", cfg.format)
	}
	if cfg.header && (cfg.format != "tsv" && cfg.format != "expressions" || cfg.rekey) {
		return nil, exitUsage, errors.New("-header needs -format tsv or expressions (and -rekey writes one when its input has one)")
	}
	if cfg.hashBytes != 0 && (cfg.format != "expressions" || cfg.hashBytes < 4 || cfg.hashBytes > sha256.Size) {
		return nil, exitUsage, errors.New("-hash needs -format expressions and a number of bytes from 4 (the prefix the Safe Browsing APIs ask for) to 32 (the whole SHA-256)")
	}
	if cfg.explain {
		// -explain writes blocks, or jsonl records with the changes;
		// the other modes have no place for them.
		switch {
		case cfg.equal:
			return nil, exitUsage, errors.New("-explain cannot be used with -equal")
		case cfg.unique:
			return nil, exitUsage, errors.New("-explain cannot be used with -u")
		case cfg.base != "":
			return nil, exitUsage, errors.New("-explain cannot be used with -base: it explains the profile's steps on a URL, not the resolution of a reference")
		case cfg.encoding != canon.Encoding{}:
			return nil, exitUsage, errors.New("-explain cannot be used with -encoding: it explains the profile's steps on a URL of a UTF-8 page")
		case cfg.format != "text" && cfg.format != "jsonl":
			return nil, exitUsage, fmt.Errorf("-explain cannot be used with -format %s: it writes text blocks, or jsonl records with \"changes\"", cfg.format)
		}
	}
	cfg.formatFlag = cfg.format
	switch cfg.indexFormat {
	case "", indexTSV, indexCDX, indexCDXJ:
	default:
		return nil, exitUsage, fmt.Errorf("-index-format %q: want %s", cfg.indexFormat, indexFormats)
	}
	if cfg.indexFormat != "" && !cfg.rekey && !cfg.inputs {
		return nil, exitUsage, errors.New("-index-format needs -rekey or -inputs")
	}
	if cfg.inputs {
		// -inputs reads an index and writes its inputs: no profile, key
		// or output format has a part in it.
		var others []string
		for _, name := range []string{"rekey", "equal", "explain", "u", "c", "skip-invalid", "format", "header", "hash", "schemes",
			"base", "encoding", "p", "profile", "steps", "rules", "learn", "keyversion", "list-profiles"} {
			if set[name] {
				others = append(others, "-"+name)
			}
		}
		switch {
		case len(others) > 0:
			return nil, exitUsage, fmt.Errorf("-inputs cannot be used with %s: it prints the inputs of an index, which no profile or format changes", strings.Join(others, ", "))
		case len(cfg.urls) > 0:
			return nil, exitUsage, errors.New("-inputs reads an index from standard input or -f, not URL arguments")
		}
	}
	if cfg.rekey && cfg.indexFormat != "" && cfg.indexFormat != indexTSV && cfg.format == "tsv" {
		return nil, exitUsage, fmt.Errorf("-rekey: a %s index is keyed by SURTs: -format tsv does not apply (-format surt, or none)", strings.ToUpper(cfg.indexFormat))
	}
	if cfg.rekey {
		// -rekey writes its own three columns for a changed line, and
		// nothing for the others: no other output mode fits.
		switch {
		case cfg.equal:
			return nil, exitUsage, errors.New("-rekey cannot be used with -equal")
		case cfg.explain:
			return nil, exitUsage, errors.New("-rekey cannot be used with -explain")
		case cfg.unique:
			return nil, exitUsage, errors.New("-rekey cannot be used with -u")
		case cfg.skipInvalid:
			return nil, exitUsage, errors.New("-rekey cannot be used with -skip-invalid: it writes only the lines whose key changed")
		case cfg.format != "text" && cfg.format != "tsv" && cfg.format != "surt":
			return nil, exitUsage, fmt.Errorf("-rekey cannot be used with -format %s: it writes in the index's own format (tsv: input TAB oldkey TAB newkey, the keys SURTs with -format surt; CDX and CDXJ: the records with their new key)", cfg.format)
		case len(cfg.urls) > 0:
			return nil, exitUsage, errors.New("-rekey reads an index (-format tsv's \"input TAB key\" lines, CDX or CDXJ) from standard input or -f, not URL arguments")
		}
		cfg.rekeySURT = cfg.format == "surt"
		cfg.format = "tsv"
	}
	if cfg.encoding != (canon.Encoding{}) && !p.Has(canon.ParseWHATWG) {
		return nil, exitUsage, fmt.Errorf("-encoding %s needs a profile with ParseWHATWG (whatwg, crawler, archive, aggressive): the others read a query as UTF-8 (RFC 3987 section 3.1)", cfg.encoding.Name())
	}
	if err := checkLearnFlags(cfg); err != nil {
		return nil, exitUsage, err
	}
	if cfg.keyVersion && (len(cfg.urls) > 0 || cfg.file != "") {
		return nil, exitUsage, errors.New("-keyversion prints the profile's key version and reads no URLs")
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
	if cfg.base != "" {
		// The base is read once, for every line (canon.NewBase); a bad
		// one is reported now, not with every relative line after the
		// whole input was read.
		b, err := cfg.encoding.NewBase(cfg.base, p)
		if err != nil {
			return nil, exitUsage, fmt.Errorf("-base: %s", errorText(err))
		}
		cfg.page = b
	}
	return cfg, exitOK, nil
}

// parseSchemes reads the -schemes list: scheme names (RFC 3986 §3.1:
// a letter, then letters, digits, "+", "-" or "."), any case, separated by
// commas.
func parseSchemes(list string) (map[string]bool, error) {
	set := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		for i := 0; i < len(name); i++ {
			c := name[i]
			letter := 'a' <= c && c <= 'z'
			if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
				return nil, fmt.Errorf("%q is not a scheme name", name)
			}
		}
		set[name] = true
	}
	if len(set) == 0 {
		return nil, errors.New("no scheme given")
	}
	return set, nil
}

// loadRules reads a canon.Rules from the JSON file path: one object,
// with no field canon.Rules lacks.
func loadRules(path string) (canon.Rules, error) {
	var r canon.Rules
	data, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, err
	}
	if dec.More() {
		return r, errors.New("more after the JSON object")
	}
	return r, nil
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
		// The library's errors start with "canon: ", which the
		// command's own prefix says already.
		return p, fmt.Errorf("-steps: %s", strings.TrimPrefix(err.Error(), "canon: "))
	}
	return np, nil
}

// listProfiles prints each profile with its steps and, on a line of its
// own, its KeyVersion; then, when -steps or -rules changed the -p
// profile, that profile's; then the step names.
func listProfiles(cfg *config, w io.Writer) int {
	for _, np := range profiles {
		p, _ := canon.LookupProfile(np.name)
		fmt.Fprintf(w, "%-11s %s\n", np.name, strings.ReplaceAll(p.String(), "|", " "))
		fmt.Fprintf(w, "%-11s key version %s\n", "", p.KeyVersion())
	}
	if p, _ := canon.LookupProfile(cfg.profileName); p != cfg.profile {
		fmt.Fprintf(w, "\n-p %s with -steps or -rules: %s\n", cfg.profileName, strings.ReplaceAll(cfg.profile.String(), "|", " "))
		fmt.Fprintf(w, "%-11s key version %s\n", "", cfg.profile.KeyVersion())
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
