#!/usr/bin/env bash
# Runs the corpus benchmarks interleaved: every contender once per round,
# ROUNDS rounds (default 6), then summarizes with benchstat.
#   ./run.sh            # all contenders, both corpora
#   ROUNDS=10 ./run.sh  # more rounds
set -euo pipefail
cd "$(dirname "$0")"
rounds=${ROUNDS:-6}
out=${OUT:-results.txt}
: > "$out"
go test -c -o bench.test .
for r in $(seq 1 "$rounds"); do
  echo "round $r/$rounds" >&2
  ./bench.test -test.run=XXX -test.bench=BenchmarkCorpus -test.benchtime=${BENCHTIME:-200000x} -test.count=1 -test.cpu=1 >> "$out"
done
rm -f bench.test
go run golang.org/x/perf/cmd/benchstat@latest "$out"
