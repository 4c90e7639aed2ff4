package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seed15588f71/canon"
)

// TestUpgradingWalkthrough replays docs/upgrading.md: its shell blocks,
// in order, with this command as canon, on an index canon wrote under
// crawler/2 (testdata/upgrade/crawler-2.tsv, which stands for the first
// block's output: that version wrote it from the same links.txt). The
// migrated index must be, byte for byte, the one the running version
// writes from the inputs, and the page's figures (records that change
// key, keys newly shared) must be those of the replay.
func TestUpgradingWalkthrough(t *testing.T) {
	doc, err := os.ReadFile("../../docs/upgrading.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 6 {
		t.Fatalf("docs/upgrading.md: %d shell blocks, want the six steps", len(blocks))
	}
	// The first block is what the old version ran: the fixture is its
	// output (testdata/README.md says how it was made).
	if got, want := strings.TrimSpace(blocks[0][1]), "canon -p crawler -format tsv -header < links.txt > index.tsv"; got != want {
		t.Fatalf("docs/upgrading.md's first step is %q; testdata/upgrade/crawler-2.tsv was made by %q", got, want)
	}
	dir := t.TempDir()
	for name, from := range map[string]string{"index.tsv": "../../testdata/upgrade/crawler-2.tsv", "links.txt": "../../testdata/corpus-sample.txt"} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"), "LC_ALL=C")
	var outputs []string
	for i, b := range blocks[1:] {
		cmd := exec.Command("bash", "-o", "pipefail", "-c", b[1])
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil && i != len(blocks)-2 { // (the check's canon exits 1: the corpus has inputs without a key)
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
	// Step 2 shows the two versions; step 6 says the files are equal.
	if want := "#canon crawler/2 unicode-15.0.0\n" + canon.Crawler.KeyVersion() + "\n"; outputs[0] != want {
		t.Errorf("step 2 prints %q, want %q", outputs[0], want)
	}
	if !strings.HasSuffix(outputs[len(outputs)-1], "the migrated index is the one this version writes\n") {
		t.Errorf("step 6 prints %q", outputs[len(outputs)-1])
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
		claim := regexp.MustCompile(`(\d+) records\s+change key and (\d+) keys are now shared`).FindStringSubmatch(string(doc))
		if claim == nil || claim[1] != strconv.Itoa(changed) || claim[2] != strconv.Itoa(merged) {
			t.Errorf("docs/upgrading.md says %q; the replay: %d records change key, %d keys newly shared", claim, changed, merged)
		}
	}
	t.Logf("%d records changed key, %d keys newly shared", changed, merged)
}
