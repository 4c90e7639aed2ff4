package main

import "flag"

// longTests is the -long flag, which the library's package defines too,
// so that go test ./... -long runs the exhaustive form of every test of
// the module (.ci/run does). Here it makes TestFileMatchesPipe run every
// argument set on the inputs of a MiB and more, which it otherwise runs
// with two.
var longTests = flag.Bool("long", false,
	"run the exhaustive tests: every argument set of TestFileMatchesPipe on the large inputs too")
