package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// TestUpgradingWalkthrough replays docs/upgrading.md: its shell blocks,
// in order, with this command as canon, on an index canon wrote under
// crawler/2 (testdata/upgrade/crawler-2.tsv, which stands for the first
// block's output: that version wrote it from the same links.txt) and on a
// real CDX index (learn/testdata/real/aut-example-arc.cdx, written without
// keys). Nothing else is given: the links are what -inputs prints of the
// index. The migrated index must be, byte for byte, the one the running
// version writes from the inputs, and the page's figures (records that
// change key, keys newly shared) must be those of the replay; the
// migrated CDX index must hold every record of the old one, each keyed by
// the SURT Archive makes of its URL, sorted. Every command the page shows
// is in a block the test runs.
func TestUpgradingWalkthrough(t *testing.T) {
	b, err := os.ReadFile("../../docs/upgrading.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(doc, -1)
	if len(blocks) < 10 {
		t.Fatalf("docs/upgrading.md: %d shell blocks, want the six steps and the CDX index's four", len(blocks))
	}
	// The commands of the page are in the blocks: no other fence holds
	// one, and an inline command (a pipe or a redirection) is one of a
	// block's.
	var sh strings.Builder
	for _, b := range blocks {
		sh.WriteString(b[1])
	}
	for _, f := range regexp.MustCompile("(?s)```([a-z]*)\n(.*?)```").FindAllStringSubmatch(doc, -1) {
		if f[1] != "sh" && strings.Contains(f[2], "canon ") {
			t.Errorf("docs/upgrading.md: a ```%s block runs canon, and the test runs only ```sh blocks:\n%s", f[1], f[2])
		}
	}
	prose := regexp.MustCompile("(?s)```.*?```").ReplaceAllString(doc, "")
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(prose, -1) {
		if c := m[1]; strings.Contains(c, "canon ") && strings.ContainsAny(c, "|<>") && !strings.Contains(sh.String(), c) {
			t.Errorf("docs/upgrading.md shows the command %q outside the blocks the test runs", c)
		}
	}
	// The first block is what the old version ran: the fixture is its
	// output (testdata/README.md says how it was made).
	if got, want := strings.TrimSpace(blocks[0][1]), "canon -p crawler -format tsv -header < links.txt > index.tsv"; got != want {
		t.Fatalf("docs/upgrading.md's first step is %q; testdata/upgrade/crawler-2.tsv was made by %q", got, want)
	}
	dir := t.TempDir()
	fixtureRecords := 0 // of the real CDX index, which the page's figures count
	for name, from := range map[string]string{"index.tsv": "../../testdata/upgrade/crawler-2.tsv", "index.cdx": "../../learn/testdata/real/aut-example-arc.cdx"} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if name == "index.cdx" {
			// Records whose URL has no key now: one without a key, which
			// stays "-", and one with a key, which it loses. The check
			// of the page must hold on them.
			fixtureRecords = strings.Count(string(b), "\n") - 1
			b = append(append(b, noKeyRecords...), noURLRecord...)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"), "LC_ALL=C")
	var outputs []string
	output := func(cmd string) string { // of the block that runs cmd
		for i, b := range blocks[1:] {
			if strings.Contains(b[1], cmd) {
				return outputs[i]
			}
		}
		t.Fatalf("docs/upgrading.md has no block that runs %q", cmd)
		return ""
	}
	for i, b := range blocks[1:] {
		cmd := exec.Command("bash", "-o", "pipefail", "-c", b[1])
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		// A block may exit 1 only for inputs without a key, which the
		// corpus has and canon counts at the end of standard error.
		if err != nil && !(cmd.ProcessState.ExitCode() == 1 && regexp.MustCompile(`(?m)^canon: \d+ of \d+ lines failed$`).Match(out)) {
			t.Fatalf("step %d:\n%s\n%s: %v", i+2, b[1], out, err)
		}
		outputs = append(outputs, string(out))
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// Step 2 shows the two versions; step 5 the most shared key; step 6
	// says the files are equal.
	if want := "#canon crawler/2 unicode-15.0.0\n" + canon.Crawler.KeyVersion() + "\n"; outputs[0] != want {
		t.Errorf("step 2 prints %q, want %q", outputs[0], want)
	}
	var top []string // step 5's lines, but canon's summary
	for _, l := range strings.Split(output("-u -c"), "\n") {
		if l != "" && !strings.HasPrefix(l, "canon: ") {
			top = append(top, l)
		}
	}
	shared := 0
	if len(top) == 3 {
		shared, _ = strconv.Atoi(strings.Fields(top[0])[0])
	}
	if shared < 2 {
		t.Errorf("step 5 prints %q: no key shared by two inputs first", top)
	}
	if !strings.HasSuffix(output("cmp index.new.tsv fresh.tsv"), "the migrated index is the one this version writes\n") {
		t.Errorf("step 6 prints %q", output("cmp index.new.tsv fresh.tsv"))
	}
	corpus, err := os.ReadFile("../../testdata/corpus-sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	if links := read("links.txt"); links != string(corpus) {
		t.Errorf("the inputs -inputs printed (%d bytes) are not the links the index was made of (%d bytes)", len(links), len(corpus))
	}
	migrated, fresh := read("index.new.tsv"), read("fresh.tsv")
	if migrated != fresh || !strings.HasPrefix(migrated, "#canon "+canon.Crawler.KeyVersion()+"\n") {
		t.Errorf("the migrated index (%d bytes) is not the fresh one (%d bytes)", len(migrated), len(fresh))
	}
	changed := strings.Count(read("changed.tsv"), "\n") - 1
	merged := strings.Count(read("merged.txt"), "\n")
	if changed == 0 || merged == 0 {
		t.Errorf("%d records change key, %d keys newly shared: the walk shows no migration", changed, merged)
	}
	// The page's figures are those of Go 1.26's Unicode tables.
	if canon.UnicodeVersion == "15.0.0" {
		claim := regexp.MustCompile(`(\d+) records\s+change key and (\d+) keys are now shared`).FindStringSubmatch(doc)
		if claim == nil || claim[1] != strconv.Itoa(changed) || claim[2] != strconv.Itoa(merged) {
			t.Errorf("docs/upgrading.md says %q; the replay: %d records change key, %d keys newly shared", claim, changed, merged)
		}
	}
	t.Logf("%d records changed key, %d keys newly shared", changed, merged)

	// The CDX index: every record of the old one, keyed by the SURT of
	// Archive's key of its URL, sorted, after the header.
	if out := output("cmp - keys.txt"); !strings.HasSuffix(out, "every key is the one this version makes\n") {
		t.Errorf("the CDX check prints %q", out)
	}
	old := strings.Split(strings.TrimSuffix(read("index.cdx"), "\n"), "\n")
	cdx := strings.Split(strings.TrimSuffix(read("index.new.cdx"), "\n"), "\n")
	if len(cdx) != len(old) || cdx[0] != old[0] || !strings.HasPrefix(cdx[0], " CDX ") || !slices.IsSorted(cdx) {
		t.Fatalf("the migrated CDX index: %d lines, first %q, sorted %v; the index had %d lines, first %q", len(cdx), cdx[0], slices.IsSorted(cdx), len(old), old[0])
	}
	rest := func(lines []string) []string {
		var r []string
		for _, l := range lines[1:] {
			_, after, _ := strings.Cut(l, " ")
			r = append(r, after)
		}
		slices.Sort(r)
		return r
	}
	if !slices.Equal(rest(cdx), rest(old)) {
		t.Errorf("the migrated CDX index does not hold the old one's records but for their keys")
	}
	noKey := 0
	for _, l := range cdx[1:] {
		f := strings.Fields(l)
		if f[2] == "-" {
			continue // no URL: left as it is
		}
		key, err := canon.Normalize(f[2], canon.Archive)
		if err == nil {
			key, err = canon.SURT(key)
		}
		if err != nil {
			key = "-" // (no key now: the record says so)
			noKey++
		}
		if f[0] != key {
			t.Errorf("migrated CDX record %q: key %q, want %q (%v)", l, f[0], key, err)
		}
	}
	if noKey != strings.Count(noKeyRecords, "\n") {
		t.Errorf("the migrated CDX index has %d records without a key, want the %d the test added", noKey, strings.Count(noKeyRecords, "\n"))
	}
	// The same blocks on the index with CRLF line ends: the records keep
	// them, and the migration is the same.
	crlf := t.TempDir()
	if err := os.WriteFile(filepath.Join(crlf, "index.cdx"), []byte(strings.ReplaceAll(read("index.cdx"), "\n", "\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if !strings.Contains(b[1], ".cdx") {
			continue
		}
		cmd := exec.Command("bash", "-o", "pipefail", "-c", b[1])
		cmd.Dir, cmd.Env = crlf, env
		if out, err := cmd.CombinedOutput(); err != nil && !(cmd.ProcessState.ExitCode() == 1 && regexp.MustCompile(`(?m)^canon: \d+ of \d+ lines failed$`).Match(out)) {
			t.Fatalf("on a CRLF index:\n%s\n%s: %v", b[1], out, err)
		} else if strings.Contains(b[1], "cmp - keys.txt") && !strings.HasSuffix(string(out), "every key is the one this version makes\n") {
			t.Errorf("the CDX check on a CRLF index prints %q", out)
		}
	}
	if b, err := os.ReadFile(filepath.Join(crlf, "index.new.cdx")); err != nil || strings.ReplaceAll(string(b), "\r\n", "\n") != read("index.new.cdx") || strings.Count(string(b), "\r\n") != len(cdx) {
		t.Errorf("the CDX index with CRLF line ends is not migrated as with LF (%v)", err)
	}
	// The page's figures are the real index's: of the records the test
	// added, the one that had a key changes (it loses it).
	if !slices.Contains(cdx, strings.TrimSuffix(noURLRecord, "\n")) {
		t.Errorf("the migrated CDX index lacks the record without a URL, as it was: %q", noURLRecord)
	}
	changedCDX := strings.Count(read("changed.cdx"), "\n") - 1 - 1
	if claim := regexp.MustCompile(`(\d+)\s+records\),\s+written without keys: its key field is .-., so the (\d+)\s+records all change`).FindStringSubmatch(doc); claim == nil ||
		claim[1] != strconv.Itoa(fixtureRecords) || claim[2] != strconv.Itoa(changedCDX) {
		t.Errorf("docs/upgrading.md says %q; the CDX index has %d records, %d change", claim, fixtureRecords, changedCDX)
	}
}

// noKeyRecords are the CDX records TestUpgradingWalkthrough adds to the
// real index: URLs canon rejects now (a bad port), one without a key and
// one with a key of an earlier version.
const noKeyRecords = "- 20080430204825 http://h:8x/ text/plain 200 SUCGMUVXDKVB5CS2NL4R4JABNX7K466U - - - - -\n" +
	"h:8x)/y 20080430204825 http://h:8x/y text/plain 200 SUCGMUVXDKVB5CS2NL4R4JABNX7K466U - - - - -\n"

// noURLRecord is a record without a URL, which TestUpgradingWalkthrough
// adds too: -rekey reports it and leaves it as it is, and the page's
// check leaves it out.
const noURLRecord = "h)/z 20080430204825 - text/plain 200 SUCGMUVXDKVB5CS2NL4R4JABNX7K466U - - - - -\n"
