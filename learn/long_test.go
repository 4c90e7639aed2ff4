package learn

import "flag"

// longTests is the -long flag, which the library's package and the
// command define too, so that go test ./... -long runs the exhaustive
// form of every test of the module (.ci/run does). Here it makes
// TestSyntheticSites score twenty more seeds never used for tuning.
var longTests = flag.Bool("long", false,
	"run the exhaustive tests: TestSyntheticSites on twenty more held-out seeds")
