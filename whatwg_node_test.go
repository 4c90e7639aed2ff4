package canon

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// whatwgUnderTest is the WHATWG URL parser that TestWHATWGDifferentialNode
// compares with whatwg-url: it returns the href of new URL(input, base),
// or ok == false where the URL constructor throws. base "" means no base.
// It is set from an init function in another test file; while it is nil
// the differential test skips.
var whatwgUnderTest func(input, base string) (href string, ok bool)

const (
	whatwgNodeDir     = "testdata/node"
	whatwgURLVersion  = "17.3.0" // must match testdata/node/package.json
	whatwgNodeMinimum = 20       // whatwg-url 17.3.0 does not load on node 18
	whatwgDiffFile    = "whatwg-node-differences.json"
	// whatwgDiffOutEnv names a file to which the test writes the whole
	// differences file as it would have to be for the test to pass: the
	// listed entries that still occur, with their reasons, and every new
	// difference with the reason "TODO", which the test rejects until a
	// reason is written.
	whatwgDiffOutEnv = "CANON_WHATWG_DIFFS_OUT"
	whatwgInstall    = "cd testdata/node && npm ci"
	// whatwgDiffStride: without -long the test runs every
	// whatwgDiffStride-th input (and every hostile and listed one).
	whatwgDiffStride = 10
)

// whatwgDiffBases are the bases against which the sampled references are
// resolved: special with path, query and fragment; special with
// credentials and a port; file with a drive letter; non-special with a
// host; non-special with an opaque path (against which only fragments
// resolve).
var whatwgDiffBases = []string{
	"http://example.com/a/b/c?q#f",
	"https://user:pw@h.example:8080/dir/file",
	"file:///C:/dir/file",
	"foo://h/a/b",
	"non-special:opaque",
}

// whatwgProbes are rows of the URL Standard's tests (WPT urltestdata.json)
// whose answers the oracle must give: they make sure that the program
// answering is whatwg-url and that the protocol lines up, so that a
// broken install fails here instead of as thousands of differences. The
// first two are rows that node's built-in URL (ada 2.9.2) gets wrong.
var whatwgProbes = []struct{ in, base, want string }{ // want "": failure
	{"non-special:opaque  ?hi", "", "non-special:opaque %20?hi"},
	{"https://xn--/", "", "https://xn--/"},
	{"http://a.b.c.xn--pokxncvks", "", "http://a.b.c.xn--pokxncvks/"},
	{"http://example.com/foo/bar//../..", "", "http://example.com/foo/"},
	{"\\\\x\\hello", "http://example.org/foo/bar", "http://x/hello"},
	{"\\a", "foo://foo/a", "foo://foo/\\a"},
	{"http://[1:0::]", "http://example.net/", "http://[1::]/"},
	{"http://%30%78%63%30%2e%30%32%35%30.01", "http://other.com/", "http://192.168.0.1/"},
	{"http://a b/", "", ""},
	{"..", "file:///C:/", "file:///C:/"},
	{"#β", "http://example.org/foo/bar", "http://example.org/foo/bar#%CE%B2"},
}

type whatwgCase struct {
	in, base string // base "" = no base
}

// whatwgAnswer is one line of whatwg.js's output.
type whatwgAnswer struct {
	Href    *string `json:"href"`
	Failure bool    `json:"failure"`
	Node    *string `json:"node"`
	Error   string  `json:"error"`
}

// whatwgDifference is one entry of testdata/whatwg-node-differences.json.
// A null canon, whatwgurl or node is a parse failure; a null base is no
// base. The reason is "class: explanation".
type whatwgDifference struct {
	Input     string  `json:"input"`
	Base      *string `json:"base"`
	Canon     *string `json:"canon"`
	WhatwgURL *string `json:"whatwgurl"`
	Node      *string `json:"node"`
	Reason    string  `json:"reason"`
}

type whatwgDiffFileData struct {
	About       string             `json:"_about"`
	Differences []whatwgDifference `json:"differences"`
}

// TestWHATWGDifferentialNode compares whatwgUnderTest with whatwg-url
// 17.3.0, the URL Standard's reference implementation, run by node
// (testdata/node/whatwg.js), on the corpus (bench/testdata/real.txt and
// messy.txt), the inputs of testdata/hostile.json and references made
// from a sample of the corpus, resolved against whatwgDiffBases. Every
// difference must be listed in testdata/whatwg-node-differences.json, and
// every listed difference must still occur. Node's built-in URL (ada) is
// run on the same inputs as a third opinion and only counted.
//
// Without -long it runs a sample: every whatwgDiffStride-th input, and
// every input of the hostile table and of the differences file: 18,924
// of the 186,585 inputs, in 1.7 s instead of 7.5 s on the development
// machine (the node processes' start is a good part of the short run).
// With -long, as .ci/run runs it, every input.
//
// Without node or the installed module the test skips, saying what to
// install; with CI set (CI=true) it fails instead.
func TestWHATWGDifferentialNode(t *testing.T) {
	start := time.Now()
	node, versions := whatwgOracle(t)
	impl := whatwgUnderTest
	if impl == nil {
		t.Fatal("no implementation registered: whatwgUnderTest is nil (whatwg_test.go sets it)")
	}

	cases, hostile, groups := whatwgDiffCases(t)
	var listed whatwgDiffFileData
	loadJSON(t, whatwgDiffFile, &listed)
	var sampled map[whatwgCase]bool // without -long, the inputs kept
	if !*longTests && os.Getenv(whatwgDiffOutEnv) != "" {
		t.Fatalf("%s writes the whole differences file, which takes every input: run with -long", whatwgDiffOutEnv)
	}
	if !*longTests {
		// Every whatwgDiffStride-th input, and every input of the hostile
		// table and of the differences file: the hand-made edge cases all
		// run, and so every listed difference is checked to still occur.
		always := map[whatwgCase]bool{}
		for _, d := range listed.Differences {
			always[whatwgCase{d.Input, wdnDeref(d.Base)}] = true
		}
		sampled = map[whatwgCase]bool{}
		kept := cases[:0]
		for i, c := range cases {
			if i%whatwgDiffStride == 0 || hostile[c] || always[c] {
				kept = append(kept, c)
				sampled[c] = true
			}
		}
		groups += fmt.Sprintf("; a sample (-long runs all): every %dth of them and every hostile and listed input, %d", whatwgDiffStride, len(kept))
		cases = kept
	}
	probeAt := len(cases)
	for _, p := range whatwgProbes {
		cases = append(cases, whatwgCase{p.in, p.base})
	}
	oracleStart := time.Now()
	answers, procs, nodeCPU := runWHATWGOracle(t, node, cases)
	oracleTime := time.Since(oracleStart)
	for i, p := range whatwgProbes {
		a := answers[probeAt+i]
		var wantPtr *string
		if p.want != "" {
			wantPtr = &p.want
		}
		if !wdnEqual(a.Href, wantPtr) {
			t.Fatalf("oracle self-check: whatwg-url gives %s for new URL(%s%s), where the URL Standard's tests want %s; is testdata/node/node_modules whatwg-url %s? run %q",
				wdnDescribe(a.Href), wdnQuote(p.in), wdnBaseArg(p.base), wdnDescribe(wantPtr), whatwgURLVersion, whatwgInstall)
		}
	}
	cases, answers = cases[:probeAt], answers[:probeAt]

	type key struct{ in, base string }
	byKey := map[key]int{}
	seen := make([]bool, len(listed.Differences)) // entry j matched a difference
	for i, d := range listed.Differences {
		k := key{d.Input, wdnDeref(d.Base)}
		if j, dup := byKey[k]; dup {
			t.Errorf("%s: entries %d and %d are both for new URL(%s%s)", whatwgDiffFile, j, i, wdnQuote(d.Input), wdnBaseArg(k.base))
			seen[i] = true // reported here, not as stale
			continue
		}
		byKey[k] = i
		if d.Base != nil && *d.Base == "" {
			t.Errorf("%s: entry %d: base is \"\"; write null for no base", whatwgDiffFile, i)
		}
		if class, expl, _ := strings.Cut(d.Reason, ":"); strings.TrimSpace(class) == "" || strings.TrimSpace(expl) == "" || class == "TODO" {
			t.Errorf("%s: entry %d (new URL(%s%s)): reason %q (want \"class: explanation\")", whatwgDiffFile, i, wdnQuote(d.Input), wdnBaseArg(k.base), d.Reason)
		}
	}

	implStart := time.Now()
	var (
		equal, nodeAgrees  int
		nodeDiffers        []string
		nodeByBase         = map[string]int{}
		byClass            = map[string]int{}
		unlisted, changed  []whatwgDifference
		kinds              = map[string]int{}
		nodeSidesWithCanon int
		nodeFieldStale     int
		regenerated        []whatwgDifference
	)
	for i, c := range cases {
		a := answers[i]
		if wdnEqual(a.Node, a.Href) {
			nodeAgrees++
		} else {
			base := c.base
			if base == "" {
				base = "no base"
			}
			nodeByBase[base]++
			if len(nodeDiffers) < 5 {
				nodeDiffers = append(nodeDiffers, fmt.Sprintf("new URL(%s%s): whatwg-url %s, node %s", wdnQuote(c.in), wdnBaseArg(c.base), wdnDescribe(a.Href), wdnDescribe(a.Node)))
			}
		}
		got, ok, panicked := wdnCall(impl, c.in, c.base)
		if panicked != "" {
			got, ok = "panic: "+panicked, true
		}
		if ok == !a.Failure && (!ok || got == *a.Href) {
			equal++
			continue
		}
		d := whatwgDifference{Input: c.in, WhatwgURL: a.Href, Node: a.Node}
		if c.base != "" {
			d.Base = wdnPtr(c.base)
		}
		if ok {
			d.Canon = wdnPtr(got)
		}
		if wdnEqual(d.Canon, d.Node) {
			nodeSidesWithCanon++
		}
		j, isListed := byKey[key(c)]
		switch {
		case !isListed:
			d.Reason = "TODO"
			unlisted = append(unlisted, d)
			kinds[whatwgDiffKind(d)]++
		case !wdnEqual(listed.Differences[j].Canon, d.Canon) || !wdnEqual(listed.Differences[j].WhatwgURL, d.WhatwgURL):
			seen[j] = true
			d.Reason = listed.Differences[j].Reason
			changed = append(changed, d)
		default:
			seen[j] = true
			d.Reason = listed.Differences[j].Reason
			byClass[whatwgReasonClass(d.Reason)]++
			if !wdnEqual(listed.Differences[j].Node, d.Node) {
				nodeFieldStale++
			}
		}
		regenerated = append(regenerated, d)
	}
	implTime := time.Since(implStart)

	const show = 40
	for i, d := range unlisted {
		if i == show {
			t.Errorf("... and %d more unlisted differences", len(unlisted)-show)
			break
		}
		t.Errorf("unlisted difference: new URL(%s%s): canon %s, whatwg-url %s (node %s)",
			wdnQuote(d.Input), wdnBaseArg(wdnDeref(d.Base)), wdnDescribe(d.Canon), wdnDescribe(d.WhatwgURL), wdnDescribe(d.Node))
	}
	for _, d := range changed {
		j := byKey[key{d.Input, wdnDeref(d.Base)}]
		l := listed.Differences[j]
		t.Errorf("listed difference changed: new URL(%s%s): canon %s, whatwg-url %s; %s lists canon %s, whatwg-url %s",
			wdnQuote(d.Input), wdnBaseArg(wdnDeref(d.Base)), wdnDescribe(d.Canon), wdnDescribe(d.WhatwgURL), whatwgDiffFile, wdnDescribe(l.Canon), wdnDescribe(l.WhatwgURL))
	}
	stale, notRun := 0, 0
	for j, d := range listed.Differences {
		if !seen[j] && sampled != nil && !sampled[whatwgCase{d.Input, wdnDeref(d.Base)}] {
			notRun++
		} else if !seen[j] {
			stale++
			t.Errorf("stale entry in %s: new URL(%s%s) (listed canon %s, whatwg-url %s) is no longer a difference or no longer an input; remove it",
				whatwgDiffFile, wdnQuote(d.Input), wdnBaseArg(wdnDeref(d.Base)), wdnDescribe(d.Canon), wdnDescribe(d.WhatwgURL))
		}
	}
	if len(unlisted) > 0 {
		t.Errorf("%d unlisted differences, by kind: %v", len(unlisted), wdnCounts(kinds))
	}
	if out := os.Getenv(whatwgDiffOutEnv); out != "" {
		listed.Differences = regenerated
		if listed.About == "" {
			listed.About = whatwgDiffAbout
		}
		b, err := json.MarshalIndent(listed, "", "  ")
		if err == nil {
			err = os.WriteFile(out, append(b, '\n'), 0o644)
		}
		if err != nil {
			t.Errorf("%s: %v", whatwgDiffOutEnv, err)
		} else {
			t.Logf("wrote the differences as they stand (%d, %d new with reason TODO) to %s", len(regenerated), len(unlisted), out)
		}
	} else if len(unlisted)+len(changed)+stale > 0 {
		t.Logf("to get the differences file as it would have to be: %s=/tmp/diffs.json go test -run TestWHATWGDifferentialNode . -long", whatwgDiffOutEnv)
	}

	diffs := len(cases) - equal
	t.Logf("oracle: whatwg-url %s on node %s; node's built-in URL is ada %s", versions.WhatwgURL, versions.Node, versions.Ada)
	t.Logf("inputs compared: %d (%s)", len(cases), groups)
	t.Logf("equal: %d; differences: %d (listed %d by reason class %v; unlisted %d; changed %d; stale entries %d; entries not run in the sample %d)",
		equal, diffs, diffs-len(unlisted)-len(changed), wdnCounts(byClass), len(unlisted), len(changed), stale, notRun)
	t.Logf("node's built-in URL agrees with whatwg-url on %d of %d inputs (%.3f%%); on the %d differences it gives canon's answer %d times",
		nodeAgrees, len(cases), 100*float64(nodeAgrees)/float64(len(cases)), diffs, nodeSidesWithCanon)
	if len(nodeByBase) > 0 {
		t.Logf("  where node differs, by base: %s", wdnCounts(nodeByBase))
	}
	for _, s := range nodeDiffers {
		t.Logf("  node differs: %s", s)
	}
	if nodeFieldStale > 0 {
		t.Logf("%d listed entries record a different node answer than this node's (node's URL varies with its version; informational)", nodeFieldStale)
	}
	t.Logf("time: node %v for %d inputs in %d processes (CPU %v, %.1f µs/input), implementation %v (%.1f µs/input), total %v",
		oracleTime.Round(time.Millisecond), len(cases)+len(whatwgProbes), procs, nodeCPU.Round(time.Millisecond), float64(nodeCPU.Microseconds())/float64(len(cases)+len(whatwgProbes)),
		implTime.Round(time.Millisecond), float64(implTime.Microseconds())/float64(len(cases)), time.Since(start).Round(time.Millisecond))
}

const whatwgDiffAbout = "Every input on which canon's WHATWG profile and whatwg-url 17.3.0 (the URL Standard's reference implementation, run by node) disagree, as TestWHATWGDifferentialNode finds them; the test fails on a difference not listed here and on an entry that no longer occurs. canon/whatwgurl/node: the href each gives for new URL(input, base), null for a failure; node is node's built-in URL (ada), recorded for information only. base null: no base. reason: \"class: explanation\". Licence: BSD-3-Clause, The canon Authors."

type whatwgVersions struct {
	Node      string `json:"node"`
	Ada       string `json:"ada"`
	WhatwgURL string `json:"whatwgurl"`
}

// wdnInCI reports whether the environment variable CI is set (to anything
// but "", "0" or "false"), where the differential test must not skip.
func wdnInCI() bool {
	v := strings.ToLower(os.Getenv("CI"))
	return v != "" && v != "0" && v != "false"
}

// whatwgOracle finds node and the installed whatwg-url and checks their
// versions. What is missing skips the test, or fails it under CI.
func whatwgOracle(t *testing.T) (string, whatwgVersions) {
	t.Helper()
	missing := func(format string, args ...any) {
		t.Helper()
		msg := "the differential test against whatwg-url does not run: " + fmt.Sprintf(format, args...)
		if wdnInCI() {
			t.Fatal(msg + " (CI is set: this test must not skip; .ci/run installs both)")
		}
		t.Skip(msg + " (under CI, with the environment variable CI set, this fails instead of skipping)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not on PATH: install Node.js %d or newer (Debian 12's nodejs 18 is too old; .ci/run shows one way), then run %q", whatwgNodeMinimum, whatwgInstall)
	}
	pkgFile := filepath.Join(whatwgNodeDir, "node_modules", "whatwg-url", "package.json")
	b, err := os.ReadFile(pkgFile)
	if errors.Is(err, os.ErrNotExist) {
		missing("whatwg-url is not installed (no %s): run %q", pkgFile, whatwgInstall)
	} else if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Version string }
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatalf("%s: %v", pkgFile, err)
	}
	if pkg.Version != whatwgURLVersion {
		t.Fatalf("%s is version %q, want %s: run %q", pkgFile, pkg.Version, whatwgURLVersion, whatwgInstall)
	}
	cmd := exec.Command(node, "whatwg.js", "--versions")
	cmd.Dir = whatwgNodeDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s whatwg.js --versions: %v\n%s", node, err, stderr.Bytes())
	}
	var v whatwgVersions
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s whatwg.js --versions: %v: %q", node, err, out)
	}
	major, _, _ := strings.Cut(v.Node, ".")
	if n, err := strconv.Atoi(major); err != nil || n < whatwgNodeMinimum {
		missing("node %s (%s) is too old for whatwg-url %s: install Node.js %d or newer (.ci/run shows one way)", v.Node, node, whatwgURLVersion, whatwgNodeMinimum)
	}
	return node, v
}

// whatwgDiffCases builds the inputs: every line of the corpus, the
// hostile table's inputs (alone and with their base), and against each
// of whatwgDiffBases the references whatwgRelForms makes from every 20th
// line of real.txt and every 20th line of messy.txt as it is. Duplicates
// are dropped, input order is kept.
func whatwgDiffCases(t *testing.T) (cases []whatwgCase, hostile map[whatwgCase]bool, groups string) {
	t.Helper()
	seen := map[whatwgCase]bool{}
	hostile = map[whatwgCase]bool{}
	invalid := 0
	add := func(in, base string) bool {
		if !utf8.ValidString(in) { // JSON cannot carry it to node as it is
			invalid++
			return false
		}
		c := whatwgCase{in, base}
		if seen[c] {
			return false
		}
		seen[c] = true
		cases = append(cases, c)
		return true
	}
	readLines := func(name string) []string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%v (the corpus lives in the bench module's folder of the repository)", err)
		}
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	realLines := readLines(filepath.Join("bench", "testdata", "real.txt"))
	messy := readLines(filepath.Join("bench", "testdata", "messy.txt"))
	var nAbs, nHostile, nRef int
	for _, l := range realLines {
		if add(l, "") {
			nAbs++
		}
	}
	for _, l := range messy {
		if add(l, "") {
			nAbs++
		}
	}
	var h struct{ Cases []hostileCase }
	loadJSON(t, "hostile.json", &h)
	for _, c := range h.Cases {
		hostile[whatwgCase{c.In, ""}] = true
		if add(c.In, "") {
			nHostile++
		}
		if c.Base != "" {
			hostile[whatwgCase{c.In, c.Base}] = true
			if add(c.In, c.Base) {
				nHostile++
			}
		}
	}
	for i := 0; i < len(realLines); i += 20 {
		for _, ref := range whatwgRelForms(realLines[i]) {
			for _, b := range whatwgDiffBases {
				if add(ref, b) {
					nRef++
				}
			}
		}
	}
	for i := 0; i < len(messy); i += 20 {
		for _, b := range whatwgDiffBases {
			if add(messy[i], b) {
				nRef++
			}
		}
	}
	groups = fmt.Sprintf("%d corpus lines, %d hostile, %d references against %d bases", nAbs, nHostile, nRef, len(whatwgDiffBases))
	if invalid > 0 {
		groups += fmt.Sprintf("; %d inputs not valid UTF-8 left out", invalid)
	}
	return cases, hostile, groups
}

// whatwgRelForms makes references of several shapes from an absolute URL
// u: path-relative, ../, query only, fragment only, scheme-relative,
// absolute path, same scheme without authority, backslashes for slashes,
// and dot segments.
func whatwgRelForms(u string) []string {
	rest, scheme := u, ""
	if i := strings.IndexByte(u, ':'); i > 0 && !strings.ContainsAny(u[:i], "/?#") {
		scheme, rest = u[:i], u[i+1:]
	}
	frag := ""
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest, frag = rest[:i], rest[i:]
	}
	query := ""
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest, query = rest[:i], rest[i:]
	}
	hier, path := rest, rest
	if strings.HasPrefix(hier, "//") {
		path = ""
		if j := strings.IndexByte(hier[2:], '/'); j >= 0 {
			path = hier[2+j:]
		}
	}
	rel := strings.TrimLeft(path, "/")
	last := path[strings.LastIndexByte(path, '/')+1:]
	q := query
	if q == "" {
		q = "?q"
	}
	f := frag
	if f == "" {
		f = "#f"
	}
	forms := []string{
		rel + query + frag,         // a/b
		"../" + last + query,       // ../x
		q + frag,                   // ?q
		f,                          // #f
		"/" + rel + query + frag,   // /abs
		scheme + ":" + rel + query, // http:foo (same scheme as some bases)
		"\\" + strings.ReplaceAll(rel, "/", "\\") + query, // \x
		"./" + last + "/../../.." + "/" + last,            // dot segments above the root
	}
	if strings.HasPrefix(hier, "//") {
		forms = append(forms,
			hier+query+frag,                     // //host/p
			strings.ReplaceAll(hier, "/", "\\"), // \\host\p
		)
	}
	return forms
}

// runWHATWGOracle runs whatwg.js over all cases and returns one answer
// per case. whatwg-url takes tens of microseconds a URL, so the cases are
// split into one contiguous share per CPU (at most 4), each streamed
// through one node process.
func runWHATWGOracle(t *testing.T, node string, cases []whatwgCase) (answers []whatwgAnswer, procs int, cpu time.Duration) {
	t.Helper()
	procs = min(runtime.NumCPU(), 4, max(1, len(cases)/1000))
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	answers = make([]whatwgAnswer, len(cases))
	cpus := make([]time.Duration, procs)
	var (
		mu       sync.Mutex
		firstErr error // the first to fail; the others are then cancelled
		wg       sync.WaitGroup
	)
	for p := range procs {
		lo, hi := p*len(cases)/procs, (p+1)*len(cases)/procs
		wg.Go(func() {
			var err error
			cpus[p], err = runWHATWGNode(ctx, node, cases[lo:hi], answers[lo:hi])
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
					cancel()
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
	for _, c := range cpus {
		cpu += c
	}
	return answers, procs, cpu
}

// runWHATWGNode streams cases through one node whatwg.js process and
// fills answers, one per case. It returns the CPU time node took.
func runWHATWGNode(ctx context.Context, node string, cases []whatwgCase, answers []whatwgAnswer) (cpu time.Duration, err error) {
	cmd := exec.CommandContext(ctx, node, "whatwg.js")
	cmd.Dir = whatwgNodeDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			if stderr.Len() > 0 {
				err = fmt.Errorf("%w\nnode's stderr:\n%s", err, stderr.Bytes())
			}
		}
	}()
	wrote := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(stdin, 1<<16)
		enc := json.NewEncoder(w)
		type request struct {
			In   string  `json:"in"`
			Base *string `json:"base"`
		}
		var err error
		for _, c := range cases {
			r := request{In: c.in}
			if c.base != "" {
				r.Base = &c.base
			}
			if err = enc.Encode(r); err != nil {
				break
			}
		}
		if err == nil {
			err = w.Flush()
		}
		if cerr := stdin.Close(); err == nil {
			err = cerr
		}
		wrote <- err
	}()
	n := 0
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for sc.Scan() {
		if n == len(cases) {
			return 0, fmt.Errorf("whatwg.js wrote more answers than the %d inputs: %q", len(cases), sc.Bytes())
		}
		c, a := cases[n], &answers[n]
		n++
		if err := json.Unmarshal(sc.Bytes(), a); err != nil {
			return 0, fmt.Errorf("whatwg.js answer to new URL(%s%s): %v: %q", wdnQuote(c.in), wdnBaseArg(c.base), err, sc.Bytes())
		}
		switch {
		case a.Error != "":
			return 0, fmt.Errorf("whatwg.js on new URL(%s%s): %s", wdnQuote(c.in), wdnBaseArg(c.base), a.Error)
		case (a.Href == nil) != a.Failure:
			return 0, fmt.Errorf("whatwg.js answer to new URL(%s%s) is neither an href nor a failure: %q", wdnQuote(c.in), wdnBaseArg(c.base), sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("reading whatwg.js's answers: %v", err)
	}
	waitErr := cmd.Wait() // also closes stdin, which ends the writer
	if err := <-wrote; waitErr != nil || err != nil {
		return 0, fmt.Errorf("node whatwg.js: %v after %d of %d answers (writing: %v)", waitErr, n, len(cases), err)
	}
	if n != len(cases) {
		return 0, fmt.Errorf("whatwg.js answered %d of %d inputs", n, len(cases))
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

// wdnCall calls the implementation, turning a panic into its message.
func wdnCall(f func(string, string) (string, bool), in, base string) (href string, ok bool, panicked string) {
	defer func() {
		if r := recover(); r != nil {
			panicked = fmt.Sprint(r)
		}
	}()
	href, ok = f(in, base)
	return href, ok, ""
}

// whatwgDiffKind sorts an unlisted difference for the summary.
func whatwgDiffKind(d whatwgDifference) string {
	switch {
	case d.Canon != nil && strings.HasPrefix(*d.Canon, "panic: "):
		return "canon panics"
	case d.Canon == nil:
		return "canon fails, whatwg-url parses"
	case d.WhatwgURL == nil:
		return "canon parses, whatwg-url fails"
	}
	return "different href"
}

// whatwgReasonClass is the part of a reason before its first colon.
func whatwgReasonClass(reason string) string {
	class, _, _ := strings.Cut(reason, ":")
	return strings.TrimSpace(class)
}

func wdnCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %d", k, m[k])
	}
	b.WriteByte('}')
	return b.String()
}

func wdnPtr(s string) *string { return &s }

func wdnDeref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func wdnEqual(a, b *string) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// wdnDescribe writes a result: the quoted href, or "failure" for nil.
func wdnDescribe(p *string) string {
	if p == nil {
		return "failure"
	}
	return wdnQuote(*p)
}

func wdnBaseArg(base string) string {
	if base == "" {
		return ""
	}
	return ", " + wdnQuote(base)
}

// wdnQuote quotes s for a message, eliding the middle of a long string.
func wdnQuote(s string) string {
	const keep = 60
	if len(s) <= 3*keep {
		return strconv.Quote(s)
	}
	i, j := keep, len(s)-keep
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	for j < len(s) && !utf8.RuneStart(s[j]) {
		j++
	}
	return fmt.Sprintf("%q…(%d bytes)…%q", s[:i], len(s), s[j:])
}
