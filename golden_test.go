package canon

// Golden keys: testdata/golden/ holds the key (or the error) each
// predefined profile gives for every input of a fixed list, made under one
// Unicode version and named in each file's header with the profile's
// KeyVersion. TestGoldenKeys normalizes every input again and fails on any
// difference, so that no change of canon's code, of a step or of a
// dependency changes a stored key unnoticed. Under another Unicode version
// (another Go toolchain) it accepts exactly the differences listed in that
// version's delta file. docs/keys.md says how to change keys on purpose.
//
// Files (gzip, so that the sixteen stay small in the repository):
//
//	NAME.tsv.gz       Normalize(input, Profile): "input TAB key" lines
//	NAME.ref.tsv.gz   NormalizeRef(base, ref, Profile): "base TAB ref TAB key"
//	unicode-V.delta.tsv  the lines whose key differs under Unicode V:
//	                  "FILE TAB [base TAB] input TAB golden TAB key under V"
//
// where NAME is the profile's name in lowercase. A key is written as it
// is; an error as "!" and the name of the sentinel it wraps
// ("!ErrInvalidHost"), which no key can be (a key starts with its
// scheme). A field that is empty, starts with '"' or '#', or holds a
// control character, DEL or invalid UTF-8 is written as a Go string
// literal (strconv.Quote). Lines that start with "#" are the header.

import (
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

var goldenUpdate = flag.Bool("golden.update", false,
	"rewrite testdata/golden (docs/keys.md): the golden files under their Unicode version, the delta file under another;\n"+
		"a profile's changed keys are written only with a new KeyVersion that CHANGELOG.md names")

const (
	goldenDir  = "testdata/golden"
	goldenShow = 20 // differences printed per file; then a count
)

// goldenRow is one line of a golden file: base is set in ref files only.
type goldenRow struct {
	base, input, key string
}

// goldenFile is one golden file: the keys of one profile, Normalize's or
// NormalizeRef's.
type goldenFile struct {
	name       string // e.g. "crawler.tsv.gz"
	profile    string // e.g. "Crawler"
	ref        bool
	keyVersion string // the profile's KeyVersion when the file was made
	unicode    string // the Unicode version it was made under
	rows       []goldenRow
}

func goldenFileName(profile string, ref bool) string {
	if ref {
		return strings.ToLower(profile) + ".ref.tsv.gz"
	}
	return strings.ToLower(profile) + ".tsv.gz"
}

func goldenDeltaName(unicode string) string { return "unicode-" + unicode + ".delta.tsv" }

// goldenResult is what a golden file records for one input: the key, or
// "!" and the sentinel of the error.
func goldenResult(p Profile, base, input string, ref bool) string {
	var key string
	var err error
	if ref {
		key, err = NormalizeRef(base, input, p)
	} else {
		key, err = Normalize(input, p)
	}
	if err == nil {
		return key
	}
	names := make([]string, 0, len(sentinels))
	for n := range sentinels {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if errors.Is(err, sentinels[n]) {
			return "!" + n
		}
	}
	return "!error"
}

// goldenCall writes the call a row stands for, for failure messages.
func goldenCall(profile string, r goldenRow, ref bool) string {
	if ref {
		return fmt.Sprintf("NormalizeRef(%q, %q, %s)", r.base, r.input, profile)
	}
	return fmt.Sprintf("Normalize(%q, %s)", r.input, profile)
}

// goldenField writes s as a field (see the file comment).
func goldenField(s string) string {
	if s == "" || s[0] == '"' || s[0] == '#' || !utf8.ValidString(s) ||
		strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return strconv.Quote(s)
	}
	return s
}

func parseGoldenField(f string) (string, error) {
	if f != "" && f[0] == '"' {
		return strconv.Unquote(f)
	}
	return f, nil
}

// parseGoldenLine splits a data line into n fields.
func parseGoldenLine(line string, n int) ([]string, error) {
	raw := strings.Split(line, "\t")
	if len(raw) != n {
		return nil, fmt.Errorf("%d fields, want %d", len(raw), n)
	}
	for i, f := range raw {
		s, err := parseGoldenField(f)
		if err != nil {
			return nil, fmt.Errorf("field %d: %v", i+1, err)
		}
		raw[i] = s
	}
	return raw, nil
}

// readGolden reads the golden file at path.
func readGolden(path string) (*goldenFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	gf := &goldenFile{name: filepath.Base(path), ref: strings.HasSuffix(path, ".ref.tsv.gz")}
	n := 2
	if gf.ref {
		n = 3
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			for _, h := range [...]struct {
				prefix string
				to     *string
			}{{"# profile ", &gf.profile}, {"# key-version ", &gf.keyVersion}, {"# unicode ", &gf.unicode}} {
				if v, ok := strings.CutPrefix(line, h.prefix); ok {
					*h.to = v
				}
			}
			continue
		}
		fields, err := parseGoldenLine(line, n)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		r := goldenRow{input: fields[n-2], key: fields[n-1]}
		if gf.ref {
			r.base = fields[0]
		}
		gf.rows = append(gf.rows, r)
	}
	if gf.profile == "" || gf.keyVersion == "" || gf.unicode == "" {
		return nil, fmt.Errorf("%s: the header must name the profile, the key-version and the unicode version", path)
	}
	return gf, nil
}

// writeGolden writes gf to dir, gzipped with no time or name in the gzip
// header, so that the same keys give the same bytes.
func writeGolden(dir string, gf *goldenFile) error {
	var b bytes.Buffer
	call, cols := "Normalize(input, "+gf.profile+")", "input TAB key"
	if gf.ref {
		call, cols = "NormalizeRef(base, ref, "+gf.profile+")", "base TAB ref TAB key"
	}
	fmt.Fprintf(&b, "# canon golden keys: %s, one %q line per input, or %q for an error\n", call, cols, "!Sentinel")
	fmt.Fprintf(&b, "# fields are as written, except a Go string literal for one that is empty, starts with '\"' or '#',\n")
	fmt.Fprintf(&b, "# or holds a control character, DEL or invalid UTF-8. Regenerate: testdata/golden/update.sh (docs/keys.md)\n")
	fmt.Fprintf(&b, "# profile %s\n# key-version %s\n# unicode %s\n# rows %d\n", gf.profile, gf.keyVersion, gf.unicode, len(gf.rows))
	for _, r := range gf.rows {
		if gf.ref {
			b.WriteString(goldenField(r.base))
			b.WriteByte('\t')
		}
		b.WriteString(goldenField(r.input))
		b.WriteByte('\t')
		b.WriteString(goldenField(r.key))
		b.WriteByte('\n')
	}
	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(b.Bytes()); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, gf.name), z.Bytes(), 0o644)
}

// goldenDeltaKey identifies a row of a golden file in a delta file.
type goldenDeltaKey struct{ file, base, input string }

// goldenDeltaRow is one line of a delta file.
type goldenDeltaRow struct {
	golden, key string // the golden file's key, and the key under the delta's Unicode version
	line        int
}

// goldenDelta is a delta file: the rows whose key differs under its
// Unicode version, and the KeyVersion of each profile it was made for.
type goldenDelta struct {
	unicode     string
	keyVersions map[string]string // profile name -> KeyVersion under unicode
	rows        map[goldenDeltaKey]goldenDeltaRow
	used        map[goldenDeltaKey]bool
}

func readGoldenDelta(path string) (*goldenDelta, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d := &goldenDelta{keyVersions: map[string]string{}, rows: map[goldenDeltaKey]goldenDeltaRow{}, used: map[goldenDeltaKey]bool{}}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			if v, ok := strings.CutPrefix(line, "# key-version "); ok {
				name, kv, _ := strings.Cut(v, " ")
				d.keyVersions[name] = kv
			}
			if v, ok := strings.CutPrefix(line, "# unicode "); ok {
				d.unicode = v
			}
			continue
		}
		file, _, _ := strings.Cut(line, "\t")
		n := 4
		if strings.HasSuffix(file, ".ref.tsv.gz") {
			n = 5
		}
		fields, err := parseGoldenLine(line, n)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		k := goldenDeltaKey{file: fields[0], input: fields[n-3]}
		if n == 5 {
			k.base = fields[1]
		}
		if _, dup := d.rows[k]; dup {
			return nil, fmt.Errorf("%s:%d: %s %q listed twice", path, i+1, k.file, k.input)
		}
		d.rows[k] = goldenDeltaRow{golden: fields[n-2], key: fields[n-1], line: i + 1}
	}
	if d.unicode == "" {
		return nil, fmt.Errorf("%s: the header must name the unicode version", path)
	}
	return d, nil
}

func writeGoldenDelta(path string, d *goldenDelta, goldenUnicode string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# canon golden keys under Unicode %s: every row of the golden files (made under Unicode %s) whose key\n", d.unicode, goldenUnicode)
	fmt.Fprintf(&b, "# differs under Unicode %s, and nothing else. Lines: FILE TAB input TAB golden key TAB key under %s\n", d.unicode, d.unicode)
	fmt.Fprintf(&b, "# (ref files: FILE TAB base TAB ref TAB ...), fields as in the golden files. Regenerate: testdata/golden/update.sh\n")
	fmt.Fprintf(&b, "# unicode %s\n", d.unicode)
	for _, np := range namedProfiles {
		fmt.Fprintf(&b, "# key-version %s %s\n", np.name, d.keyVersions[np.name])
	}
	keys := make([]goldenDeltaKey, 0, len(d.rows))
	for k := range d.rows {
		keys = append(keys, k)
	}
	order := map[string]int{}
	for i, np := range namedProfiles {
		order[goldenFileName(np.name, false)] = 2 * i
		order[goldenFileName(np.name, true)] = 2*i + 1
	}
	sort.Slice(keys, func(i, j int) bool {
		a, c := keys[i], keys[j]
		if a.file != c.file {
			return order[a.file] < order[c.file]
		}
		if a.base != c.base {
			return a.base < c.base
		}
		return a.input < c.input
	})
	for _, k := range keys {
		r := d.rows[k]
		b.WriteString(k.file)
		b.WriteByte('\t')
		if strings.HasSuffix(k.file, ".ref.tsv.gz") {
			b.WriteString(goldenField(k.base))
			b.WriteByte('\t')
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", goldenField(k.input), goldenField(r.golden), goldenField(r.key))
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// goldenCheck is the outcome of checking one golden file.
type goldenCheck struct {
	problems []string // what to report, at most goldenShow differences
	diffs    int      // rows whose key is not what the files say
	delta    int      // rows that differ as the delta file lists
}

// checkGolden checks gf against profile p run under the Unicode version
// running: every row must give its key, or, when the file was made under
// another version, the key delta lists for it (delta, which may be nil
// when there is no delta file). It marks the delta rows it uses.
func checkGolden(gf *goldenFile, p Profile, running string, delta *goldenDelta) goldenCheck {
	var c goldenCheck
	if want := p.keyVersion(gf.unicode); gf.keyVersion != want {
		c.problems = append(c.problems, fmt.Sprintf("%s was made for KeyVersion %q; %s's is %q under Unicode %s: regenerate it (docs/keys.md)",
			gf.name, gf.keyVersion, gf.profile, want, gf.unicode))
	}
	other := gf.unicode != running
	if other && delta == nil {
		c.problems = append(c.problems, fmt.Sprintf("%s was made under Unicode %s and this is %s, which has no %s: make it with testdata/golden/update.sh",
			gf.name, gf.unicode, running, goldenDeltaName(running)))
	}
	results := goldenResults(gf, p)
	for i, r := range gf.rows {
		got := results[i]
		want, source := r.key, "golden"
		if other && delta != nil {
			k := goldenDeltaKey{file: gf.name, base: r.base, input: r.input}
			if d, ok := delta.rows[k]; ok {
				delta.used[k] = true
				if d.golden != r.key {
					c.diffs++
					c.problems = append(c.problems, fmt.Sprintf("%s:%d lists golden %q for %s; %s has %q",
						goldenDeltaName(running), d.line, d.golden, goldenCall(gf.profile, r, gf.ref), gf.name, r.key))
					continue
				}
				want, source = d.key, goldenDeltaName(running)
			}
		}
		if got == want {
			if source != "golden" {
				c.delta++
			}
			continue
		}
		c.diffs++
		if c.diffs <= goldenShow {
			c.problems = append(c.problems, fmt.Sprintf("%s = %q, %s %q", goldenCall(gf.profile, r, gf.ref), got, source, want))
		}
	}
	if c.diffs > goldenShow {
		c.problems = append(c.problems, fmt.Sprintf("%s: %d differences in all", gf.name, c.diffs))
	}
	return c
}

// goldenResults normalizes the rows of gf with p, on every core.
func goldenResults(gf *goldenFile, p Profile) []string {
	out := make([]string, len(gf.rows))
	workers := 4
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(gf.rows); i += workers {
				r := gf.rows[i]
				out[i] = goldenResult(p, r.base, r.input, gf.ref)
			}
		}()
	}
	wg.Wait()
	return out
}

// staleDelta returns the rows of delta that no check used: the golden
// files have no such row, or it differs no more.
func (d *goldenDelta) stale() []string {
	var out []string
	for k, r := range d.rows {
		if !d.used[k] {
			out = append(out, fmt.Sprintf("%s:%d: %s %q (base %q) is listed, but its key no longer differs (or the row is gone): remove it (testdata/golden/update.sh)",
				goldenDeltaName(d.unicode), r.line, k.file, k.input, k.base))
		}
	}
	slices.Sort(out)
	return out
}

// TestGoldenKeys checks every golden file: each row must give its key
// (under the golden files' Unicode version) or its delta's key (under
// another). With -golden.update it rewrites them instead (docs/keys.md).
func TestGoldenKeys(t *testing.T) {
	if *goldenUpdate {
		updateGolden(t)
		return
	}
	start := time.Now()
	var delta *goldenDelta
	deltaLoaded := false
	rows, diffs, deltaRows := 0, 0, 0
	var goldenUnicode string
	for _, np := range namedProfiles {
		for _, ref := range []bool{false, true} {
			gf, err := readGolden(filepath.Join(goldenDir, goldenFileName(np.name, ref)))
			if err != nil {
				t.Errorf("%v (make it with testdata/golden/update.sh)", err)
				continue
			}
			if gf.profile != np.name {
				t.Errorf("%s: header names profile %q, want %q", gf.name, gf.profile, np.name)
				continue
			}
			goldenUnicode = gf.unicode
			if gf.unicode != UnicodeVersion && !deltaLoaded {
				deltaLoaded = true
				d, err := readGoldenDelta(filepath.Join(goldenDir, goldenDeltaName(UnicodeVersion)))
				switch {
				case err == nil:
					delta = d
				case !errors.Is(err, os.ErrNotExist):
					t.Error(err)
				}
				if delta != nil {
					for _, np := range namedProfiles {
						if got, want := delta.keyVersions[np.name], np.p.KeyVersion(); got != want {
							t.Errorf("%s was made for %s %q, which is %q now: regenerate it (testdata/golden/update.sh)",
								goldenDeltaName(UnicodeVersion), np.name, got, want)
						}
					}
				}
			}
			c := checkGolden(gf, np.p, UnicodeVersion, delta)
			for _, pr := range c.problems {
				t.Error(pr)
			}
			rows += len(gf.rows)
			diffs += c.diffs
			deltaRows += c.delta
		}
	}
	if delta != nil {
		for _, s := range delta.stale() {
			t.Error(s)
		}
	}
	listed := ""
	if goldenUnicode != UnicodeVersion {
		listed = fmt.Sprintf(" (and %d as %s lists them)", deltaRows, goldenDeltaName(UnicodeVersion))
	}
	t.Logf("golden keys: %d rows in %d files, made under Unicode %s, checked under Unicode %s: %d differences%s; %v",
		rows, 2*len(namedProfiles), goldenUnicode, UnicodeVersion, diffs, listed, time.Since(start).Round(time.Millisecond))
}

// TestGoldenKeysAlteredKey shows that TestGoldenKeys's check fails on a
// golden file with one key altered, and, under another Unicode version,
// on a delta file with a row missing, a row too many, or a wrong key.
func TestGoldenKeysAlteredKey(t *testing.T) {
	gf, err := readGolden(filepath.Join(goldenDir, goldenFileName("Crawler", false)))
	if err != nil {
		t.Fatal(err)
	}
	// Only the rows that give their key now are kept (not those that
	// differ under this Unicode version, nor any difference that
	// TestGoldenKeys reports anyway), so that the one altered key is the
	// one difference, under any toolchain.
	now := goldenResults(gf, Crawler)
	kept := gf.rows[:0:0]
	for i, r := range gf.rows {
		if now[i] == r.key {
			kept = append(kept, r)
		}
	}
	gf.rows = kept
	i := len(gf.rows) / 2
	for ; i < len(gf.rows) && !strings.HasPrefix(gf.rows[i].key, "https://"); i++ {
	}
	if i == len(gf.rows) {
		t.Fatal("no https key in the second half of crawler.tsv.gz")
	}
	run := func(gf *goldenFile, running string, delta *goldenDelta) goldenCheck {
		return checkGolden(gf, Crawler, running, delta)
	}
	altered := *gf
	altered.rows = slices.Clone(gf.rows)
	altered.unicode = UnicodeVersion
	altered.keyVersion = Crawler.KeyVersion()
	r := altered.rows[i]
	altered.rows[i].key = "http://" + strings.TrimPrefix(r.key, "https://")
	// Through a file, as TestGoldenKeys reads one.
	dir := t.TempDir()
	if err := writeGolden(dir, &altered); err != nil {
		t.Fatal(err)
	}
	reread, err := readGolden(filepath.Join(dir, altered.name))
	if err != nil {
		t.Fatal(err)
	}
	c := run(reread, UnicodeVersion, nil)
	want := fmt.Sprintf("Normalize(%q, Crawler) = %q, golden %q", r.input, r.key, altered.rows[i].key)
	if c.diffs != 1 || len(c.problems) != 1 || c.problems[0] != want {
		t.Errorf("one key altered: %d differences, problems %q; want 1, %q", c.diffs, c.problems, want)
	}

	// The same file as if made under another Unicode version, "0.0.0":
	// the altered row passes when the delta lists it with the key of this
	// version, and fails when the delta misses it or names another key.
	altered.unicode = "0.0.0"
	altered.keyVersion = Crawler.keyVersion("0.0.0")
	k := goldenDeltaKey{file: altered.name, input: r.input}
	newDelta := func(rows map[goldenDeltaKey]goldenDeltaRow) *goldenDelta {
		return &goldenDelta{unicode: UnicodeVersion, rows: rows, used: map[goldenDeltaKey]bool{}}
	}
	d := newDelta(map[goldenDeltaKey]goldenDeltaRow{k: {golden: altered.rows[i].key, key: r.key, line: 1}})
	if c := run(&altered, UnicodeVersion, d); c.diffs != 0 || len(c.problems) != 0 || c.delta != 1 || len(d.stale()) != 0 {
		t.Errorf("delta lists the row: %+v, stale %q; want no problem", c, d.stale())
	}
	if c := run(&altered, UnicodeVersion, newDelta(map[goldenDeltaKey]goldenDeltaRow{})); c.diffs != 1 {
		t.Errorf("delta misses the row: %d differences, want 1", c.diffs)
	}
	d = newDelta(map[goldenDeltaKey]goldenDeltaRow{k: {golden: altered.rows[i].key, key: r.key + "x", line: 1}})
	if c := run(&altered, UnicodeVersion, d); c.diffs != 1 {
		t.Errorf("delta names another key: %d differences, want 1", c.diffs)
	}
	stale := goldenDeltaKey{file: altered.name, input: gf.rows[0].input}
	d = newDelta(map[goldenDeltaKey]goldenDeltaRow{
		k:     {golden: altered.rows[i].key, key: r.key, line: 1},
		stale: {golden: gf.rows[0].key, key: gf.rows[0].key + "x", line: 2},
	})
	run(&altered, UnicodeVersion, d)
	if s := d.stale(); len(s) != 0 {
		t.Errorf("a delta row for a key that does not differ: stale %q, want it reported as a difference", s)
	}
	d = newDelta(map[goldenDeltaKey]goldenDeltaRow{
		k: {golden: altered.rows[i].key, key: r.key, line: 1},
		{file: altered.name, input: "no such input"}: {line: 2},
	})
	run(&altered, UnicodeVersion, d)
	if s := d.stale(); len(s) != 1 {
		t.Errorf("a delta row for no row of the file: stale %q, want 1", s)
	}
}

// TestChangelogNamesKeyVersions checks that CHANGELOG.md names every part
// of every predefined profile's KeyVersion: a bumped profile version, a
// new Unicode version or a new Public Suffix List has its entry.
func TestChangelogNamesKeyVersions(t *testing.T) {
	b, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, np := range namedProfiles {
		for _, part := range strings.Fields(np.p.KeyVersion()) {
			if !changelogNames(string(b), part) {
				t.Errorf("CHANGELOG.md does not name %s, a part of %s's KeyVersion %q: add an entry that says what changed", part, np.name, np.p.KeyVersion())
			}
		}
	}
}

// TestChangelogByRelease checks CHANGELOG.md's shape: "## [Unreleased]"
// first, then "## [vX.Y.Z] - YYYY-MM-DD" headings, newest first; in a
// release, "### " sections of the usual names; the key entries ("#### ")
// only under "### Keys"; and every part of every predefined profile's
// KeyVersion named in some release's Keys, so that each key change is
// under the release that brings it.
func TestChangelogByRelease(t *testing.T) {
	b, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	release := regexp.MustCompile(`^## \[v(\d+)\.(\d+)\.(\d+)\] - \d{4}-\d{2}-\d{2}$`)
	sections := map[string]bool{"Added": true, "Changed": true, "Deprecated": true, "Removed": true, "Fixed": true, "Security": true, "Keys": true}
	var releases []string
	var prev []int
	section := ""
	var keys strings.Builder
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			section = ""
			if len(releases) == 0 && line != "## [Unreleased]" {
				t.Errorf("CHANGELOG.md:%d: %q: the first release heading must be \"## [Unreleased]\"", i+1, line)
			}
			if len(releases) > 0 {
				m := release.FindStringSubmatch(line)
				if m == nil {
					t.Errorf("CHANGELOG.md:%d: %q is not \"## [vX.Y.Z] - YYYY-MM-DD\"", i+1, line)
					break
				}
				v := []int{atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3])}
				if prev != nil && slices.Compare(v, prev) >= 0 {
					t.Errorf("CHANGELOG.md:%d: %q is not older than the release above it", i+1, line)
				}
				prev = v
			}
			releases = append(releases, line)
		case strings.HasPrefix(line, "### "):
			section = strings.TrimPrefix(line, "### ")
			if !sections[section] || len(releases) == 0 {
				t.Errorf("CHANGELOG.md:%d: %q: a section of a release is one of %v", i+1, line, slices.Sorted(maps.Keys(sections)))
			}
		case strings.HasPrefix(line, "#### ") && section != "Keys":
			t.Errorf("CHANGELOG.md:%d: %q: a key entry outside a release's \"### Keys\"", i+1, line)
		}
		if section == "Keys" {
			keys.WriteString(line + "\n")
		}
	}
	for _, np := range namedProfiles {
		for _, part := range strings.Fields(np.p.KeyVersion()) {
			if !changelogNames(keys.String(), part) {
				t.Errorf("CHANGELOG.md: no release's Keys names %s, a part of %s's KeyVersion", part, np.name)
			}
		}
	}
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// changelogNames reports whether text names token as a word of its own:
// "crawler/1" is not named by "crawler/12", nor "unicode-17.0.0" by
// "unicode-17.0.0.1".
func changelogNames(text, token string) bool {
	isWord := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-/+", c) >= 0
	}
	for i := 0; ; {
		k := strings.Index(text[i:], token)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(token)
		before := k == 0 || !isWord(text[k-1]) && text[k-1] != '.'
		after := end == len(text) || !isWord(text[end]) &&
			!(text[end] == '.' && end+1 < len(text) && isWord(text[end+1]))
		if before && after {
			return true
		}
		i = k + 1
	}
}

// goldenRewriteAllowed says whether a file whose keys changed may be
// rewritten: only under a KeyVersion other than the file's, each new part
// of which CHANGELOG.md names.
func goldenRewriteAllowed(oldKV, newKV, changelog string) error {
	if oldKV == newKV {
		return fmt.Errorf("the KeyVersion is still %q: bump the profile's version in profileRuleVersions (keyversion.go)", newKV)
	}
	old := strings.Fields(oldKV)
	for _, part := range strings.Fields(newKV) {
		if !slices.Contains(old, part) && !changelogNames(changelog, part) {
			return fmt.Errorf("CHANGELOG.md has no entry naming %s: add one that says what changed and why", part)
		}
	}
	return nil
}

// TestGoldenRewriteAllowed checks the rule of goldenRewriteAllowed.
func TestGoldenRewriteAllowed(t *testing.T) {
	log := "## crawler/2 unicode-17.0.0\n- Crawler: fixed.\n"
	for _, c := range []struct {
		old, new string
		ok       bool
	}{
		{"crawler/1 unicode-15.0.0", "crawler/1 unicode-15.0.0", false},
		{"crawler/1 unicode-15.0.0", "crawler/2 unicode-15.0.0", true},
		{"crawler/1 unicode-15.0.0", "crawler/3 unicode-15.0.0", false},
		{"crawler/2 unicode-15.0.0", "crawler/2 unicode-17.0.0", true},
		{"archive/1 unicode-15.0.0 psl-2026-02-06", "archive/1 unicode-15.0.0 psl-2026-05-08", false},
	} {
		if err := goldenRewriteAllowed(c.old, c.new, log); (err == nil) != c.ok {
			t.Errorf("goldenRewriteAllowed(%q, %q) = %v, want allowed %v", c.old, c.new, err, c.ok)
		}
	}
	for _, c := range []struct {
		text, token string
		ok          bool
	}{
		{"`crawler/1`", "crawler/1", true},
		{"crawler/12", "crawler/1", false},
		{"xcrawler/1", "crawler/1", false},
		{"crawler/1.", "crawler/1", true},
		{"unicode-17.0.0.1", "unicode-17.0.0", false},
		{"crawler/1, crawler/12", "crawler/12", true},
	} {
		if got := changelogNames(c.text, c.token); got != c.ok {
			t.Errorf("changelogNames(%q, %q) = %v, want %v", c.text, c.token, got, c.ok)
		}
	}
}

// updateGolden rewrites the golden files (under the Unicode version they
// were made under, or when there are none) or the delta file of the
// running Unicode version (under any other).
func updateGolden(t *testing.T) {
	changelog, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	existing := map[string]*goldenFile{}
	goldenUnicode := ""
	for _, np := range namedProfiles {
		for _, ref := range []bool{false, true} {
			gf, err := readGolden(filepath.Join(goldenDir, goldenFileName(np.name, ref)))
			switch {
			case errors.Is(err, os.ErrNotExist):
				continue
			case err != nil:
				t.Fatal(err)
			}
			if goldenUnicode != "" && gf.unicode != goldenUnicode {
				t.Fatalf("%s was made under Unicode %s, others under %s", gf.name, gf.unicode, goldenUnicode)
			}
			goldenUnicode = gf.unicode
			existing[gf.name] = gf
		}
	}
	if goldenUnicode == "" || goldenUnicode == UnicodeVersion {
		updateGoldenFiles(t, existing, string(changelog))
	} else {
		updateGoldenDelta(t, existing, goldenUnicode, string(changelog))
	}
}

func updateGoldenFiles(t *testing.T, existing map[string]*goldenFile, changelog string) {
	inputs, refs := goldenInputs(t)
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, np := range namedProfiles {
		for _, ref := range []bool{false, true} {
			gf := &goldenFile{name: goldenFileName(np.name, ref), profile: np.name, ref: ref,
				keyVersion: np.p.KeyVersion(), unicode: UnicodeVersion}
			if ref {
				for _, r := range refs {
					gf.rows = append(gf.rows, goldenRow{base: r[0], input: r[1]})
				}
			} else {
				for _, in := range inputs {
					gf.rows = append(gf.rows, goldenRow{input: in})
				}
			}
			for i, key := range goldenResults(gf, np.p) {
				gf.rows[i].key = key
			}
			if old := existing[gf.name]; old != nil {
				was := map[[2]string]string{}
				for _, r := range old.rows {
					was[[2]string{r.base, r.input}] = r.key
				}
				var changed []string
				for _, r := range gf.rows {
					if k, ok := was[[2]string{r.base, r.input}]; ok && k != r.key {
						changed = append(changed, fmt.Sprintf("%s = %q, golden %q", goldenCall(np.name, r, ref), r.key, k))
					}
				}
				if len(changed) > 0 {
					if err := goldenRewriteAllowed(old.keyVersion, gf.keyVersion, changelog); err != nil {
						t.Errorf("%s not rewritten: %d keys changed (%s; first: %s): %v",
							gf.name, len(changed), gf.keyVersion, changed[0], err)
						continue
					}
					t.Logf("%s: %d keys changed (%s -> %s)", gf.name, len(changed), old.keyVersion, gf.keyVersion)
				}
			}
			if err := writeGolden(goldenDir, gf); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s: %d rows, %s", gf.name, len(gf.rows), gf.keyVersion)
		}
	}
}

func updateGoldenDelta(t *testing.T, existing map[string]*goldenFile, goldenUnicode, changelog string) {
	path := filepath.Join(goldenDir, goldenDeltaName(UnicodeVersion))
	old, err := readGoldenDelta(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	d := &goldenDelta{unicode: UnicodeVersion, keyVersions: map[string]string{}, rows: map[goldenDeltaKey]goldenDeltaRow{}}
	refused := false
	for _, np := range namedProfiles {
		kv := np.p.KeyVersion()
		d.keyVersions[np.name] = kv
		var changed []string
		for _, ref := range []bool{false, true} {
			gf := existing[goldenFileName(np.name, ref)]
			if gf == nil {
				t.Fatalf("%s is missing: make the golden files under Unicode %s first", goldenFileName(np.name, ref), goldenUnicode)
			}
			if want := np.p.keyVersion(goldenUnicode); gf.keyVersion != want {
				t.Fatalf("%s was made for %q, and %s is %q now: regenerate the golden files under Unicode %s first",
					gf.name, gf.keyVersion, np.name, want, goldenUnicode)
			}
			for i, got := range goldenResults(gf, np.p) {
				r := gf.rows[i]
				k := goldenDeltaKey{file: gf.name, base: r.base, input: r.input}
				if got != r.key {
					d.rows[k] = goldenDeltaRow{golden: r.key, key: got}
				}
				// The key under this Unicode version before: the old
				// delta's, or the golden file's.
				before := r.key
				if old != nil {
					if o, ok := old.rows[k]; ok {
						before = o.key
					}
				}
				if old != nil && got != before {
					changed = append(changed, fmt.Sprintf("%s = %q, was %q", goldenCall(np.name, r, ref), got, before))
				}
			}
		}
		if len(changed) > 0 {
			if err := goldenRewriteAllowed(old.keyVersions[np.name], kv, changelog); err != nil {
				t.Errorf("%s not rewritten: %d keys of %s changed under Unicode %s (first: %s): %v",
					goldenDeltaName(UnicodeVersion), len(changed), np.name, UnicodeVersion, changed[0], err)
				refused = true
			}
		}
	}
	if refused {
		return
	}
	if err := writeGoldenDelta(path, d, goldenUnicode); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d rows", goldenDeltaName(UnicodeVersion), len(d.rows))
}

// goldenInputs collects the inputs of the golden files: a sample of the
// corpus in the bench module's testdata (every 4th line of real.txt and
// of messy.txt), testdata/corpus-sample.txt, every input of the vector
// files under testdata (as the tests that read them build it: the IDNA
// files' hosts in "https://" + input + "/x", urlcanon's IPv4 hosts and
// dot paths in their URLs, urlcanon's strings also as the bytes they
// stand for), the strings of the fuzz corpus, and
// testdata/golden/inputs.txt, inputs written for the golden files. Refs
// are the (base, reference) pairs of the files that have them.
func goldenInputs(t *testing.T) (inputs []string, refs [][2]string) {
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			inputs = append(inputs, s)
		}
	}
	seenRef := map[[2]string]bool{}
	addRef := func(base, ref string) {
		if p := [2]string{base, ref}; !seenRef[p] {
			seenRef[p] = true
			refs = append(refs, p)
		}
	}
	lines := func(path string) []string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	for _, name := range []string{"real.txt", "messy.txt"} {
		for i, l := range lines(filepath.Join("bench", "testdata", name)) {
			if i%4 == 0 {
				add(l)
			}
		}
	}
	for _, l := range lines(filepath.Join("testdata", "corpus-sample.txt")) {
		add(l)
	}
	for i, l := range lines(filepath.Join(goldenDir, "inputs.txt")) {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		s, err := parseGoldenField(l)
		if err != nil {
			t.Fatalf("%s:%d: %v", filepath.Join(goldenDir, "inputs.txt"), i+1, err)
		}
		add(s)
	}

	// The vector files: each input, each base and reference.
	var cases struct {
		Cases []struct{ In, Base string }
	}
	for _, f := range []string{"canon.json", "keys.json", "hostile.json"} {
		cases.Cases = nil
		loadJSON(t, f, &cases)
		for _, c := range cases.Cases {
			add(c.In)
			if c.Base != "" {
				add(c.Base)
				addRef(c.Base, c.In)
			}
		}
	}
	var res []struct{ Base, Ref string }
	loadJSON(t, "rfc-resolution.json", &res)
	for _, r := range res {
		add(r.Base)
		addRef(r.Base, r.Ref)
	}
	for _, r := range wptRows[urlTestRow](t, "wpt/urltestdata.json") {
		add(r.Input)
		if r.Base != nil {
			add(*r.Base)
			addRef(*r.Base, r.Input)
		}
	}
	for _, f := range []string{"wpt/toascii.json", "wpt/IdnaTestV2.json"} {
		for _, r := range wptRows[idnaRow](t, f) {
			add("https://" + r.Input + "/x")
		}
	}
	// Files whose inputs are the strings of "input", "in" and "uris"
	// fields, wherever they are.
	for _, f := range []string{"rfc3986-examples.json", "python-rfc3986.json", "purell.json",
		"crawler-commons/basic_url_normalizer_cases.json", "normalize-url/normalize_url_cases.json"} {
		var v any
		loadJSON(t, f, &v)
		walkJSON(v, "", func(key, s string, _ bool) {
			if key == "input" || key == "in" || key == "uris" {
				add(s)
				if f == "purell.json" {
					add(latin1Bytes(s)) // the latin1_bytes cases' inputs
				}
			}
		})
	}
	// urlcanon: the keys of its maps whose values are answers.
	var ipv4 map[string]*string
	loadURLCanon(t, "funky_ipv4.json", &ipv4)
	for k := range ipv4 {
		add("http://" + k + "/")
	}
	var dots map[string]map[string]*string
	loadURLCanon(t, "path_dots.json", &dots)
	for _, sec := range dots {
		for k := range sec {
			add("http://example.com" + k)
			add("foo://example.com" + k)
		}
	}
	for _, f := range []string{"aggressive.json", "semantic_precise.json", "surt.json", "ssurt.json"} {
		var v any
		loadURLCanon(t, f, &v)
		walkJSON(v, "", func(key, _ string, leaf bool) {
			if leaf {
				add(key)
				add(latin1Bytes(key))
			}
		})
	}
	// The fuzz corpus: each string argument; FuzzResolve's are a base and
	// a reference.
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	for _, f := range files {
		var args []string
		for _, l := range lines(f) {
			if q, ok := strings.CutPrefix(l, "string("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				args = append(args, s)
				add(s)
			}
		}
		if strings.Contains(f, "FuzzResolve") && len(args) == 2 {
			addRef(args[0], args[1])
		}
	}
	slices.Sort(inputs)
	slices.SortFunc(refs, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	return inputs, refs
}

// latin1Bytes returns the bytes that the Latin-1 code points of s stand
// for, or s when it holds a code point above U+00FF.
func latin1Bytes(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return s
		}
		b = append(b, byte(r))
	}
	return string(b)
}

// walkJSON calls f with the key and value of every string in v (key is
// the nearest object key above it), and with the key of every object
// member whose value is a string or null (leaf true, s its value or "").
func walkJSON(v any, key string, f func(key, s string, leaf bool)) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch e.(type) {
			case string, nil:
				s, _ := e.(string)
				f(k, s, true)
			}
			walkJSON(e, k, f)
		}
	case []any:
		for _, e := range x {
			walkJSON(e, key, f)
		}
	case string:
		f(key, x, false)
	}
}

// TestGoldenCoversInputs checks that the golden files of Normalize hold
// one list of at least 20,000 distinct inputs, and logs the inputs of the
// vector files that they do not hold yet (a case added since they were
// made, which the next regeneration adds).
func TestGoldenCoversInputs(t *testing.T) {
	inputs, refs := goldenInputs(t)
	var first *goldenFile
	for _, np := range namedProfiles {
		gf, err := readGolden(filepath.Join(goldenDir, goldenFileName(np.name, false)))
		if err != nil {
			t.Fatal(err)
		}
		distinct := map[string]bool{}
		for _, r := range gf.rows {
			distinct[r.input] = true
		}
		if len(distinct) < 20000 || len(distinct) != len(gf.rows) {
			t.Errorf("%s: %d rows, %d distinct inputs; want one row for each of at least 20,000", gf.name, len(gf.rows), len(distinct))
		}
		if first == nil {
			first = gf
			continue
		}
		if len(gf.rows) != len(first.rows) {
			t.Errorf("%s has %d rows, %s %d: the files are made from one list", gf.name, len(gf.rows), first.name, len(first.rows))
			continue
		}
		for i := range gf.rows {
			if gf.rows[i].input != first.rows[i].input {
				t.Errorf("%s row %d is %q, %s's %q: the files are made from one list", gf.name, i+1, gf.rows[i].input, first.name, first.rows[i].input)
				break
			}
		}
	}
	missing := 0
	have := map[string]bool{}
	for _, r := range first.rows {
		have[r.input] = true
	}
	for _, in := range inputs {
		if !have[in] {
			missing++
		}
	}
	ref, err := readGolden(filepath.Join(goldenDir, goldenFileName("WHATWG", true)))
	if err != nil {
		t.Fatal(err)
	}
	haveRef := map[[2]string]bool{}
	for _, r := range ref.rows {
		haveRef[[2]string{r.base, r.input}] = true
	}
	missingRefs := 0
	for _, r := range refs {
		if !haveRef[r] {
			missingRefs++
		}
	}
	t.Logf("golden inputs: %d in the files, %d in the list now (%d not in the files yet); references: %d, %d (%d not yet)",
		len(first.rows), len(inputs), missing, len(ref.rows), len(refs), missingRefs)
}
