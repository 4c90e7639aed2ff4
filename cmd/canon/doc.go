// Canon prints the canonical form (the key) of URLs: a Unix filter for
// crawl pipelines, built on package github.com/seed15588f71/canon.
//
// Usage:
//
//	canon [flags] [URL ...]
//	canon -explain [-p profile] [-steps list] [-format jsonl] [URL ...]
//	canon -equal [-p profile] [-steps list] [-base URL] URL1 URL2
//	canon -rekey [-p profile] [-steps list] [-base URL] [-index-format format] [-f FILE]
//	canon -inputs [-index-format format] [-f FILE]
//	canon -keyversion [-p profile] [-steps list] [-rules FILE]
//	canon -learn [-p profile] [-rules FILE] [-learn-input format] [-learn-report FILE] [-f FILE]
//	canon -list-profiles
//
// Flags may come before or after the URL arguments ("canon URL -p
// crawler"); "--" ends the flags, so that a URL after it may start with
// "-". With URL arguments canon normalizes those; otherwise it reads one URL
// per line from standard input (or from -f FILE) and writes one line per
// input line, in input order, streaming with bounded memory (except -u).
// A CR before the LF, a missing final newline and lines of any length
// are handled; a line longer than canon.MaxLength (4 MiB) fails. "canon -h"
// prints a summary of what follows.
//
// The flags are:
//
//	-p name, -profile name
//		The profile, one of the names canon.LookupProfile knows:
//		rfc3986 (the default; RFC 3986 normalization), iri (RFC 3987:
//		hosts and text as Unicode), webcapture (PDF Web Capture),
//		powder (W3C POWDER: every escape decoded, for matching),
//		whatwg (as browsers read a URL), crawler (a crawl frontier's
//		key: whatwg without fragment, tracking parameters and session
//		ids whose value has an id's shape, the query sorted), archive (the Internet Archive's
//		canonicalization for CDX keys, for -format surt), aggressive
//		(urlcanon's: archive's steps, https as http, empty parameters
//		dropped) or safebrowsing (Google Safe Browsing's
//		canonicalization, for -format expressions). -list-profiles
//		shows the steps of each.
//	-steps list
//		Add steps to the profile or remove them: a comma-separated list
//		of +Step or -Step, e.g. +RemoveFragment ("+nofragment" for
//		short). The step names are in -list-profiles; what each step
//		does, with an example and the profiles that run it, is in
//		docs/steps.md in the repository (go doc canon.RemoveFragment
//		prints one step's).
//	-rules FILE
//		Apply the canon.Rules in the JSON file FILE to the profile
//		(Profile.WithRules): parameter names to drop (TrackingParams,
//		TrackingPrefixes), session-id names (SessionParams), a keep-only
//		list (KeepParams) and rules per domain (Hosts), as encoding/json
//		reads them, e.g. {"TrackingPrefixes":["pk_"],"Hosts":
//		{"shop.example":{"KeepParams":["item"]}}}. They act through the
//		steps RemoveTrackingParams and RemoveSessionIDs (crawler,
//		archive, aggressive). A file that is not one such object, or
//		that names a parameter or domain WithRules refuses, is a usage
//		error.
//	-schemes list
//		Write keys only for the URLs whose key has a scheme of the
//		comma-separated list, e.g. http,https: javascript:, mailto: and
//		data: links are no crawl keys. A line with another scheme is
//		skipped: it gives what a blank line gives (see Blank lines; in
//		jsonl {"in":INPUT,"skipped":"scheme"}), is not a failure, and is
//		counted in a line "canon: S of N lines skipped: ..." at the end
//		of standard error. Not with -equal or -rekey.
//	-base URL
//		Resolve each line against the base URL, by the profile's rule
//		(RFC 3986, RFC 1808 for webcapture, the WHATWG URL Standard for
//		whatwg and safebrowsing), before normalizing it. The base is checked first: one
//		that is not a valid absolute URL (a bad port or host, no
//		scheme) is a usage error, reported once before any input is
//		read.
//	-encoding label
//		The encoding of the page the URLs were read from, by a label of
//		the Encoding Standard (shift_jis, gbk, windows-1251, ...; see
//		Page encodings). Only with a profile that has ParseWHATWG; an
//		unknown label is a usage error.
//	-format format
//		The output format: text (the default), tsv, jsonl, surt or
//		expressions; see Formats.
//	-hash N
//		With -format expressions: add a column with the first N bytes
//		(4 to 32) of each expression's SHA-256, in hex; see Formats.
//	-header
//		With -format tsv or expressions: write "#canon " and the key version of the
//		profile (with -steps and -rules) as the first line, and write a
//		TAB, CR, LF or "\" of an input as \t, \r, \n or \\, so that the
//		input field is the input byte for byte. Write an index that
//		-rekey will migrate so, with -format tsv: -inputs prints its
//		inputs back; see Rekey. With -format expressions the first line
//		ends in " expressions": -inputs prints the input of each line,
//		once per expression, and -rekey refuses such an index, which is
//		made again from its inputs (see Formats).
//	-u
//		Print each key once, in order of first occurrence. Memory grows
//		with the number of distinct keys.
//	-c
//		With -u: prefix each key with its number of occurrences, as
//		uniq -c does; the keys come at the end of the input.
//	-skip-invalid
//		Print nothing for a line that has no key, a failed or a blank
//		one. By default such a line gives an output line with an empty
//		key, which keeps output aligned with input.
//	-q
//		Do not report each failing line on standard error. The summary
//		line at the end stays.
//	-progress
//		Report lines, lines/s and failures on standard error: on a
//		terminal as one line rewritten in place, four times a second;
//		elsewhere (a log file, a pipe) as a plain line once a second and
//		a last one with the totals, without carriage returns or escape
//		sequences. It is on by default when standard error is a
//		terminal; -progress=false turns it off there.
//	-j N
//		Normalize on N worker goroutines (by default, one per core). The
//		output keeps input order. Memory does not grow with N but for a
//		few MiB a worker: the lines in flight are bounded by their bytes,
//		so lines of 4 MiB are normalized one or two at a time.
//	-f FILE
//		Read URLs from FILE instead of standard input ("-" is standard
//		input). It cannot be combined with URL arguments.
//	-equal
//		With two URL arguments: exit 0 if they have the same key, 1 if
//		not, 2 if either fails or is blank.
//	-explain
//		For each URL, print which steps of the profile change it, and
//		how; see Explain.
//	-rekey
//		Read an index of keys made with an earlier version of canon:
//		the "input TAB key" lines that -format tsv wrote, or a CDX or
//		CDXJ index; write "input TAB oldkey TAB newkey" for each tsv
//		line whose key the profile now makes differently, or each such
//		CDX or CDXJ record with its new key; see Rekey.
//	-inputs
//		Read an index as -rekey reads it and print the input of each
//		record, one a line: a tsv index's input field (unescaped after
//		its "#canon" header: the input byte for byte), a CDX record's
//		original URL (a), a CDXJ record's "url"; see Inputs.
//	-index-format format
//		With -rekey or -inputs: the index's format, tsv, cdx or cdxj
//		(default: told by its first line; see Rekey).
//	-keyversion
//		Print the key version (canon.Profile.KeyVersion) of the profile
//		that -p, -steps and -rules make, and exit: the label to store
//		beside the keys ("crawler/6 unicode-15.0.0", or
//		"crawler/6+rules-DIGEST unicode-15.0.0" with -rules).
//	-learn
//		Read captures, not URLs: an archive's CDX index (9 or 11 fields,
//		with or without its " CDX" header line), a CDXJ index, a
//		Heritrix crawl.log, or "url TAB digest [TAB time]" lines, in any
//		order (indexes concatenated, sorted or not); and write the
//		canon.Rules they show as JSON, for -rules: per host, the query
//		parameters whose values do not change what the URL returns (see
//		Learning rules). The profile is crawler unless -p names another
//		with RemoveTrackingParams or RemoveSessionIDs; -rules adds rules
//		it already has, which are not learned again.
//	-learn-input format
//		With -learn: the captures' format, cdx, cdxj, crawl-log or
//		pairs (default: detected from the first line that shows one).
//	-learn-report FILE
//		With -learn: write every set of parameters judged to FILE, a
//		JSON object a line (package learn's Finding): learned, refused
//		or a near miss, why, its pairs of captures, how many agreed,
//		how many disagreements were explained, and counterexamples.
//		A set's last line is its verdict: one learned on a domain and
//		left out of its rule because a subdomain uses one of its names
//		comes again, refused, after the subdomain's lines.
//	-list-profiles
//		Print each profile with its steps and, on the next line, its key
//		version (canon.Profile.KeyVersion), then, when -steps or -rules
//		changed the -p profile, that profile and its key version, then
//		the step names.
//	-version
//		Print the version.
//	-h, -help
//		Print the usage on standard output.
//
// # Formats
//
// text: the key. With -u -c, the count right-aligned in 7 columns, a
// space and the key.
//
// tsv: the input, a TAB and the key; with -u -c, the count and a TAB
// come first. A TAB or a CR inside the input is written as a space in
// the input field (an LF cannot occur inside a line), so that the
// columns always hold; that field is then not byte for byte the input.
// With -header, the first line is "#canon " and the key version, and the
// input field escapes those bytes and "\" instead (\t, \r, \n, \\):
// it is the input byte for byte, but for a line longer than
// canon.MaxLength, which is not kept: its field is \L (no escape), which
// -rekey and -inputs report again as a failing line.
//
// surt: the SURT of the key instead of the key, in the form CDX indexes
// (the Wayback Machine, pywb) key URLs by, as canon.SURT writes it and
// the Internet Archive's surt library by default: the labels of the host
// reversed and joined by ",", the port, ")", then the path and query of
// the key as the library writes them (decoded, escaped again its way,
// lowercased, the query sorted as it sorts it), without the scheme,
// userinfo and fragment. An IPv4 address is reversed like a name, an
// IPv6 address is written without its brackets (and reversed at any
// dots), and a URL without a host is its scheme, ":", path and query:
//
//	http://www.example.com:8080/a?b  ->  com,example,www:8080)/a?b
//	http://10.1.2.3:8080/a%3Fb#c     ->  3,2,1,10:8080)/a?b
//	http://[::1]:8080/a              ->  ::1:8080)/a
//	file:///etc/hosts                ->  file:/etc/hosts
//	dns:example.com                  ->  dns:example.com
//
// With -p archive, which canonicalizes as the Internet Archive's surt
// library does before it writes a CDX key, the lines are the library's
// CDX keys (but for the departures the package's docs/deviations.md
// lists). With -u each
// SURT is printed once (two keys that differ only in their userinfo have
// one SURT), and -u -c counts SURTs as text counts keys. A key that SURT
// cannot reorder (none of the profiles makes one) fails its line like
// any other, with "SURT of the key: " before the problem, which is then
// in the key.
//
// expressions (with -p safebrowsing only): the lookup expressions of
// the key, as Google Safe Browsing and Web Risk look a URL up
// (canon.LookupExpressions), one per line after the input and a TAB, in
// the order of their "URLs and Hashing" document: for each host (the
// key's, then up to four suffixes of its last five labels, none for an
// IP address), each path (with the query, without it, then up to four
// directories from the root), without the scheme. Each is what those
// services hash (SHA-256) and match a prefix of against their lists;
// -hash N adds a column with the first N bytes of that hash in hex (4 to
// 32: the Safe Browsing v4 and v5 APIs look up 4-byte prefixes, then
// full hashes), so a batch lookup needs no other tool:
//
//	$ canon -p safebrowsing -format expressions -hash 4 'http://a.b.c/1/2.html?param=1'
//	http://a.b.c/1/2.html?param=1	a.b.c/1/2.html?param=1	1cd5cf5e
//	http://a.b.c/1/2.html?param=1	a.b.c/1/2.html	8b19a5a5
//	http://a.b.c/1/2.html?param=1	a.b.c/	f9c142c4
//	http://a.b.c/1/2.html?param=1	a.b.c/1/	59e650c4
//	http://a.b.c/1/2.html?param=1	b.c/1/2.html?param=1	9b7d85bb
//	http://a.b.c/1/2.html?param=1	b.c/1/2.html	1803dee4
//	http://a.b.c/1/2.html?param=1	b.c/	b225cf5d
//	http://a.b.c/1/2.html?param=1	b.c/1/	ac5f446d
//
// An input gives as many lines as it has expressions (at most 30); a
// blank line and a failing line give none (the failure is reported on
// standard error as usual). The input field is written as tsv writes it
// (with -header, the "#canon" line first, ending in " expressions", and
// the field escaped). It cannot be combined with -u, -explain, -equal or
// -rekey. Such a file is a lookup table, not an index -rekey migrates:
// its lines are expressions, not keys, and an input without a key has
// none. -rekey refuses one written with -header; make it again from its
// inputs, which -inputs prints, one for each of its lines:
//
//	canon -inputs < expr.tsv | uniq | canon -p safebrowsing -format expressions -header > new.tsv
//
// jsonl: one JSON object per line. For a key,
//
//	{"in":INPUT,"out":KEY}
//
// with "count":N added under -u -c. For a failure,
//
//	{"in":INPUT,"line":N,"error":MESSAGE,"kind":KIND,"component":NAME,"offset":N}
//
// where MESSAGE is the text that standard error shows after "line N: ",
// KIND names the library's sentinel error (ErrRelative, ErrInvalidEscape,
// ErrInvalidHost, ErrInvalidPort, ErrInvalidScheme, ErrInvalidChar or
// ErrTooLong), NAME is the component the problem is in (url, scheme,
// userinfo, host, port, path, query or fragment) and offset, the byte
// offset in INPUT of the text the message quotes after "at", is left out
// when the problem has no such place (say, a part of the URL that -base
// resolution made). INPUT is "" for a line longer than canon.MaxLength,
// which is not kept. Invalid UTF-8 in a string is written as U+FFFD.
//
// # Page encodings
//
// A browser writes the query of a link in the encoding of its page:
// -encoding says which. The input stays text (UTF-8: the page decoded, as
// an HTML parser decodes it); with a profile that has ParseWHATWG
// (whatwg, crawler, archive, aggressive), the query of an http, https,
// ftp or file URL is written in the encoding before it is
// percent-encoded, as the WHATWG URL Standard's parser writes it, and a
// character the encoding lacks becomes "&#N;" percent-encoded
// (%26%23N%3B):
//
//	canon -p whatwg -encoding shift_jis -base http://example.jp/dir/ '/日本?q=日本#日本'
//	http://example.jp/%E6%97%A5%E6%9C%AC?q=%93%FA%96{#%E6%97%A5%E6%9C%AC
//
// The path, the fragment and the host stay UTF-8 and IDNA, and so does
// the query of ws:, wss: and other schemes. Labels resolve as the
// Encoding Standard's "get an encoding" does (sjis and x-sjis are
// Shift_JIS, latin1 and ascii windows-1252; utf-16 and replacement are
// UTF-8 for URLs). The key version is the profile's: keys made with
// and without -encoding belong to one index. -explain does not take it.
//
// # Explain
//
// -explain shows why a URL got its key: for each URL, the URL as given,
// then, for each step of the profile (after -steps) that changes it, in
// the order the steps run, a line
//
//	Step: before -> after
//
// (two spaces first), then an empty line; an already canonical URL gives
// the URL and the empty line. A step that applied the rules of an entry
// of Rules.Hosts (-rules) says which: "  RemoveTrackingParams (rules of
// example.com): before -> after". It is what canon.Explain returns:
//
//	$ canon -explain 'HTTP://Example.COM/a/./b'
//	HTTP://Example.COM/a/./b
//	  LowercaseScheme: HTTP://Example.COM/a/./b -> http://Example.COM/a/./b
//	  LowercaseHost: http://Example.COM/a/./b -> http://example.com/a/./b
//	  RemoveDots: http://example.com/a/./b -> http://example.com/a/b
//
// A blank line gives nothing, and so does a failing line, which is
// reported on standard error and counted as in the other modes. With
// -format jsonl the output is the usual one record per line, and each
// key's record has a "changes" array besides "in" and "out":
//
//	{"in":INPUT,"out":KEY,"changes":[{"step":STEP,"before":URL,"after":URL},...]}
//
// ([] when nothing changes; a change made with a host's rules has
// "host":DOMAIN too). -explain is an output mode of its own: it
// cannot be combined with -u, -equal, -base (it explains the profile's
// steps on one URL, not the resolution of a reference) or -format tsv,
// surt or expressions; each of those is a usage error. Explain normalizes each URL
// once per step of the profile, so it is for reading, not for bulk use.
//
// # Learning rules
//
// With -learn, canon reads captures: captures of URLs that differ only in
// some query parameters and keep returning one digest show that those
// parameters do not name the page on that host ("?sid=…", "?from=home").
// Package github.com/seed15588f71/canon/learn says how the evidence is
// weighed: status-200 captures with a digest only, error pages and
// redirects left out, captures next to each other in time; one
// counterexample refuses a parameter however many pairs agree, values
// seen once and digest noise excepted; a rule needs 5 agreeing pairs.
// The rules are learned against the profile's keys, and written for
// -rules:
//
//	cat crawl-*.cdx | canon -learn -learn-report findings.jsonl > site-rules.json
//	canon -p crawler -rules site-rules.json < links.txt
//
// Standard error says how many captures were read and skipped, how many
// hosts had rules, how many sets of parameters were learned, refused and
// near misses, and the three refusals with the most agreeing pairs.
// Read the report before using the rules: a rule merges the URLs it
// names, and the crawler then fetches one of them. A malformed or
// over-long line is reported (its password, if any, written xxxxx) and
// skipped. The captures may come in any order and from any number of
// indexes: -learn holds 64 MiB of them in memory and writes the rest,
// sorted, to a temporary directory of $TMPDIR, which it removes when it
// is done or interrupted (exit status 130). The exit status is 1 when
// the input had lines and none was a capture.
//
// # Rekey
//
// A key lasts as long as its key version, which -keyversion prints
// (canon.Profile.KeyVersion) for the profile -p, -steps and -rules make:
// the profile's rule version, a digest of the rules, the Unicode version
// of the IDNA and NFC tables, and, for a profile with StripWWW, the
// Public Suffix List snapshot, as in
//
//	$ canon -p crawler -keyversion
//	crawler/6 unicode-15.0.0
//
// Store it beside the keys: -format tsv -header writes it as the first
// line of the index, "#canon crawler/6 unicode-15.0.0". Keys made under
// one key version are the keys canon makes under it; when the key version
// changes (a new release of canon, a Go toolchain with other Unicode
// tables), some keys may change, and -rekey finds them. It reads an
// index of keys, and writes the records whose key is not the one the
// profile (with -steps, and -base as the earlier run had it) makes now,
// in input order, and nothing for the others: the changes the index
// needs. It reads three formats.
//
// tsv, lines input TAB key as -format tsv writes them; for each line
// whose key changed it writes
//
//	input TAB oldkey TAB newkey
//
// e.g.
//
//	canon -p crawler -format tsv -header < links.txt > index.tsv  # then
//	canon -p crawler -rekey < index.tsv > changed.tsv             # later
//
// With -format surt the keys are SURTs, as -format surt writes them: the
// lines are input TAB SURT, and newkey is the SURT of the key the
// profile makes now. An index that starts with the header line is read
// with its input fields escaped; its key version is compared with the
// one the profile makes now, and standard error says when they are the
// same (no key should change) or of two profiles (an archive index
// rekeyed with -p crawler, a forgotten -p). The output then starts with
// the header of the key version of its new keys, and its lines echo the
// input field as the index holds it. An index without the header is read
// as -format tsv writes without -header: its input fields as they are.
//
// CDX, an archive's index of captures: records of fields separated by
// spaces, after a header line that names each field by a letter
// (" CDX N b a m s k r M S V g") or without one (7, 9 or 11 fields, the
// key first and the original URL third; 7 is what the Wayback CDX server
// writes by default: urlkey timestamp original mimetype statuscode
// digest length). The key is the N field (the
// massaged URL), the input the a field (the original URL), wherever the
// header puts them. CDXJ: records "key timestamp {json}", the input the
// JSON's "url" string. The keys of both are SURTs, as -format surt
// writes them (-p archive makes the Internet Archive's; without -p,
// standard error says that the index is rekeyed under rfc3986, as a
// forgotten -p is likelier than such keys); -format tsv does not apply.
// A record whose key changed is written as it is, with
// the new key in place of the old, and its line end (a CR before the LF
// stays), after the index's CDX header when it has one: records in the
// index's own format, which take the place of
// the old ones in the index, which is then sorted again (LC_ALL=C sort),
// as CDX and CDXJ indexes are sorted by their key. docs/upgrading.md in
// the repository shows how, on a real CDX index:
//
//	canon -p archive -rekey < index.cdx > changed.cdx
//
// "-" as a key is a record that had none (an index written without
// keys): -rekey writes it with its key. A record without a URL (an a
// field "-", a JSON without a "url" string) has nothing to key: it is
// reported as "line N: CDX record without a URL" and counted as a
// failing line, and not written. A record whose URL has no key now is
// reported and counted too, and written with the key "-" (CDX's absent
// field) when it had another. A line that is no record of the index
// (not as many fields as its header names, not "key timestamp {json}",
// JSON that is not valid or has two "url" members) is reported and
// counted, and not written.
//
// The first line that is not blank says the format, from a file or a pipe
// alike, unless -index-format names it. A line with a TAB is a tsv line
// (every line -format tsv writes has one; no CDX or CDXJ line has one),
// even one whose input starts with "#canon " or " CDX"; "key digits
// {...}" is a CDXJ record, and 7, 9 or 11 fields whose second is 14 digits
// (a timestamp) a CDX record, even one whose key is "#canon" or "CDX".
// Then a line that starts with "#canon " is the header of a tsv index,
// and one whose first field is "CDX" the header of a CDX index. Any
// other first line is a usage error (exit status 2). (JSON encoders
// write no TAB in a CDXJ record; one whose JSON has one is read as a tsv
// line unless -index-format cdxj says otherwise.) A "#canon" line with
// a TAB is an index line, never the header, as -format tsv writes the
// input "#canon <key version>", which has no key, with a TAB and an empty
// key, which -rekey must read back as unchanged. An awk that assigns a
// field (awk -F'\t' -v OFS='\t' '{$2=$2} 1') writes the header back
// with a TAB too: where the first line is "#canon ", a key version
// (" unicode-" in it) and TABs only, -rekey and -inputs say on standard
// error that they read it as an index line.
//
// The header stays first: it says how the lines after it are read. A
// "#canon" header on a later line is reported and counted as a failing
// line, as is a " CDX" header after the first line, but for the index's
// own header again, as cat joins two indexes of one key version, which
// is skipped. LC_ALL=C sort of a whole tsv index moves its header below
// the lines that start with a byte before "#" (a space, "!", a quote, a
// blank input's TAB): sort the lines after it,
//
//	(head -n 1 index.tsv; tail -n +2 index.tsv | LC_ALL=C sort)
//
// (A CDX header's leading space sorts it first.)
//
// A line of an index may be 20971537 bytes long, its line end aside: an
// input of canon.MaxLength escaped (two bytes for one), a TAB and its key
// (at most three bytes for one, and 16); one limit, from a file, a pipe
// or -f alike. A longer record is a failing line ("line N: line longer
// than 20971537 bytes"), a longer header a reading error (exit status 2),
// as is a first line that long when it is to say the format.
//
// In a tsv index, an empty oldkey is an input that had no key then (it
// failed, or was blank) and has one now. An empty newkey is an input that
// had a key and has none now: it fails now, and the failure is reported
// on standard error as in the other modes, or it is blank (an index
// -format tsv did not write), reported as "line N: blank input with a
// key"; either counts as a failing line. An input without a key then and
// now (it failed or was blank) and a blank line give nothing. A line
// without exactly one TAB (not what -format tsv writes; -u -c adds a
// count column) is reported as "line N: not an "input TAB key" line" and
// gives nothing. A CR before the LF is dropped, as in the other modes.
// Without the header, the input field is read as it is written: a TAB or
// CR that was inside the original input is a space there (see Formats),
// and its new key is that of the field; with it, a "\" that starts none
// of the four escapes fails the line. -rekey cannot be combined with -u,
// -equal, -explain, -skip-invalid, -format jsonl, or URL arguments. The
// exit status is 0 when no line failed, 1 otherwise.
//
// # Inputs
//
// -inputs prints the inputs an index keeps, one a line, in its order:
// what to give canon again, to check the index or to key its inputs
// another way. It reads the index as -rekey does (its first line, or
// -index-format, says the format), and prints a tsv index's input
// fields, unescaped after its "#canon" header, so that each is the input
// byte for byte (without the header, as they are: a TAB or CR of the
// input is a space there); a CDX record's original URL (a); a CDXJ
// record's "url"; of an index of expressions (-format expressions
// -header), the input of each line, an input as many times as it has
// expressions. A header gives nothing; a blank input of a tsv index
// is printed as it is, so that the inputs of an index -format tsv wrote
// are the lines it was given (CRs before LFs aside, and a line longer
// than canon.MaxLength, which the index does not keep: its \L is
// reported as a failing line):
//
//	canon -inputs < index.tsv | canon -p crawler -u -c   # each key, counted
//
// An input that ends in a CR is printed with a second CR, since canon
// reads a last CR before the LF as part of the line's end. An input with
// an LF (\n in an escaped field, in a CDXJ "url") cannot be a line: it
// is reported and counted
// as a failing line, as are a record without a URL and a line that is no
// record of the index. -inputs takes no flag but -f, -index-format, -j,
// -q and -progress: no profile or format has a part in what it prints.
//
// # Blank lines
//
// A blank line, empty or holding only spaces, TABs, CRs, VTs or FFs, is
// not a URL: it has no key, is not a failure (it leaves the exit status
// alone) and is not resolved against -base (as an empty reference would
// be, to the base itself). It gives an empty line in text format, the
// input and an empty key in tsv, and {"in":INPUT,"blank":true} in jsonl;
// -u and -skip-invalid drop it.
//
// # Errors and exit status
//
// A line that fails gives
//
//	line N: component: reason (at "rest")
//
// on standard error (not with -q), for example
// `line 5: port: invalid character (at "x/")`, and, unless -skip-invalid
// (or -explain, whose text output has no block for it), an output line
// with an empty key. A password in the input is written
// as xxxxx in error text, and so in every message that quotes a line
// itself (the first line of an index -rekey cannot read, a header): there
// what lies between the first ":" or "%" and the last "@" or "%" of a
// line that could hold an "@" is xxxxx, which masks more than a password
// when the line holds more. When any line failed, "canon: F of N lines
// failed" ends standard error.
//
// The exit status is 0 when every line was normalized or blank (-equal:
// the two keys are the same), 1 when some line failed (-equal: the keys
// differ), and 2 on a usage error, a bad -base among them, or an I/O
// error.
//
// # Examples
//
//	canon 'HTTP://Example.COM:80/a/./b/../c'          # http://example.com/a/c
//	canon -p iri 'http://xn--rsum-bpad.example/'      # http://résumé.example/
//	canon -base https://example.com/dir/ '../x' 'y?q'  # resolve, then normalize
//	canon -p whatwg -base https://example.com/dir/ 'a\b'  # as a browser reads a link
//	canon -u -c < links.txt | sort -rn | head          # most repeated URLs
//	canon -format tsv < links.txt | sort -t$'\t' -k2   # input and key, by key
//	canon -p archive -format surt < links.txt | LC_ALL=C sort  # CDX keys, in CDX order
//	canon -explain -p crawler 'HTTP://Example.com/?utm_source=x&b=2&a=1'  # why this key
//	canon -p safebrowsing -format expressions < links.txt  # what Safe Browsing looks up
//	canon -p whatwg -steps +SortQuery < links.txt     # a profile and a step
//	canon -equal 'http://h/%7Ea' 'HTTP://H:80/~a'      # exit 0: same key
//	canon -p crawler -rekey < index.tsv > changed.tsv  # keys this version changes
//	canon -p archive -rekey < index.cdx > changed.cdx  # CDX records whose key changes
//	canon -inputs < index.tsv > links.txt              # the inputs of an index, back
package main
