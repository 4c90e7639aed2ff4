package canon

import "flag"

// longTests is the -long flag: run the exhaustive form of the tests that
// otherwise run a sample, as golang.org/x/text's tests do with their own
// -long. Without it go test ./... takes seconds, not minutes; .ci/run
// passes it. The tests it widens:
//
//   - TestCodePointScan: every Unicode scalar value from U+00A0 on
//     (1,111,904) instead of the sample of scanRunes;
//   - TestWHATWGDifferentialNode: every input (186,585) instead of every
//     10th corpus line and reference, plus every hostile and listed input;
//   - TestSafeBrowsingCorpus: every corpus line (76,868) instead of every
//     10th;
//   - TestRedactionClass: a tab or newline before every byte of every
//     userinfo, instead of the plain userinfo's inputs only;
//   - TestEncodingEveryCodePoint: every scalar value in every page
//     encoding, instead of a sample;
//   - TestEncodingBrowserDifferential: only with -long (it needs
//     Chromium).
//
// go test ./... -long needs every package of the module to define the
// flag (an undefined flag fails the package): cmd/canon's tests define
// it too.
var longTests = flag.Bool("long", false,
	"run the exhaustive tests: every code point in TestCodePointScan, every input of TestWHATWGDifferentialNode (without it: a sample of each)")
