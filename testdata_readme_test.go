package canon

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readmeTableCount returns the last cell ("cases") of the row of
// testdata/README.md's table for file.
func readmeTableCount(t *testing.T, readme, file string) string {
	t.Helper()
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "| `"+file+"` |") {
			cells := strings.Split(strings.TrimSuffix(strings.TrimSpace(line), "|"), "|")
			return strings.TrimSpace(cells[len(cells)-1])
		}
	}
	t.Fatalf("testdata/README.md: no table row for %s", file)
	return ""
}

// TestTestdataREADMECounts holds testdata/README.md to the files of
// canon's own lists of exceptions: the count in the table row of
// conformance-differences.json, whatwg-node-differences.json and
// wpt-exceptions.json, and the breakdown by vector file that the section
// on conformance-differences.json gives, are those of the files.
func TestTestdataREADMECounts(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)

	var conf []confDiff
	loadJSON(t, conformanceDiffFile, &conf)
	var node whatwgDiffFileData
	loadJSON(t, whatwgDiffFile, &node)
	var wpt []any
	loadJSON(t, "wpt-exceptions.json", &wpt)
	for _, c := range []struct {
		file string
		n    int
	}{
		{conformanceDiffFile, len(conf)},
		{whatwgDiffFile, len(node.Differences)},
		{"wpt-exceptions.json", len(wpt)},
	} {
		if got := readmeTableCount(t, readme, c.file); got != strconv.Itoa(c.n) {
			t.Errorf("testdata/README.md gives %s %q rows in its table; the file has %d", c.file, got, c.n)
		}
	}

	// "Every case canon answers otherwise (114: 65 semantic_precise, 1
	// surt, 15 crawler-commons, 33 normalize-url, none in aggressive)".
	byFile := map[string]int{}
	for _, r := range conf {
		byFile[r.File]++
	}
	names := map[string]string{
		"semantic_precise": "urlcanon/semantic_precise.json",
		"surt":             "urlcanon/surt.json",
		"aggressive":       "urlcanon/aggressive.json",
		"crawler-commons":  "crawler-commons/basic_url_normalizer_cases.json",
		"normalize-url":    "normalize-url/normalize_url_cases.json",
	}
	flat := strings.Join(strings.Fields(readme), " ")
	m := regexp.MustCompile(`Every case canon answers otherwise \((\d+): ([^)]*)\)`).FindStringSubmatch(flat)
	if m == nil {
		t.Fatal(`testdata/README.md: no "Every case canon answers otherwise (N: ...)" in the section on conformance-differences.json`)
	}
	if m[1] != strconv.Itoa(len(conf)) {
		t.Errorf("testdata/README.md: every case canon answers otherwise: %s; %s has %d rows", m[1], conformanceDiffFile, len(conf))
	}
	covered := map[string]bool{}
	for _, part := range strings.Split(m[2], ", ") {
		count, name, _ := strings.Cut(part, " ")
		if count == "none" {
			count, name = "0", strings.TrimPrefix(name, "in ")
		}
		file, ok := names[name]
		if !ok {
			t.Errorf("testdata/README.md: %q in the breakdown of the differences names no vector file the test knows", part)
			continue
		}
		covered[file] = true
		if count != strconv.Itoa(byFile[file]) {
			t.Errorf("testdata/README.md gives %s differences for %s; %s has %d", count, file, conformanceDiffFile, byFile[file])
		}
	}
	for file, n := range byFile {
		if !covered[file] {
			t.Errorf("testdata/README.md: the breakdown of the differences leaves out %s (%d rows)", file, n)
		}
	}
}
