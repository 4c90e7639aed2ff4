#!/usr/bin/env bash
# Regenerates canon's golden keys (docs/keys.md): the golden files under
# Go 1.26 (Unicode 15.0.0 tables), then the delta file of Unicode 17.0.0
# under Go 1.27 (the go command fetches that toolchain through the module
# proxy). Either step refuses to rewrite the keys of a profile that
# changed unless its KeyVersion is new and CHANGELOG.md names it.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO126=${CANON_GO126:-go1.26.8} # the toolchain the golden files are made with
GO127=${CANON_GO127:-go1.27.4} # the newest go1.27.x, as in .ci/run
GOTOOLCHAIN=$GO126 go test -count=1 -run '^(TestGoldenKeys|TestCustomKeyVersions)$' . -golden.update
GOTOOLCHAIN=$GO127 go test -count=1 -run '^(TestGoldenKeys|TestCustomKeyVersions)$' . -golden.update
GOTOOLCHAIN=$GO126 go test -count=1 -run '^(TestGoldenKeys|TestCustomKeyVersions)$' .
GOTOOLCHAIN=$GO127 go test -count=1 -run '^(TestGoldenKeys|TestCustomKeyVersions)$' .
git status --short testdata/golden
