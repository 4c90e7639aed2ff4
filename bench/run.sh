#!/usr/bin/env bash
# Runs the corpus benchmarks interleaved: every contender once per round,
# ROUNDS rounds (default 6), then summarizes with benchstat. Then the
# speed targets as paired ratios (BenchmarkPaired: two contenders in
# alternation, PAIRS pairs of passes a round, default 60), ROUNDS rounds,
# summarized the same way.
#   ./run.sh            # all contenders, both corpora, then the ratios
#   ROUNDS=10 ./run.sh  # more rounds
set -euo pipefail
cd "$(dirname "$0")"
rounds=${ROUNDS:-6}
out=${OUT:-results.txt}
paired=${PAIRED_OUT:-paired.txt}
: > "$out"
: > "$paired"
go test -c -o bench.test .
for r in $(seq 1 "$rounds"); do
  echo "round $r/$rounds" >&2
  ./bench.test -test.run=XXX -test.bench=BenchmarkCorpus -test.benchtime=${BENCHTIME:-200000x} -test.count=1 -test.cpu=1 >> "$out"
done
for r in $(seq 1 "$rounds"); do
  echo "paired round $r/$rounds" >&2
  # gcstoptheworld: see BenchmarkPaired.
  GODEBUG=gcstoptheworld=1 ./bench.test -test.run=XXX -test.bench=BenchmarkPaired -test.benchtime=${PAIRS:-60}x -test.count=1 -test.cpu=1 >> "$paired"
done
rm -f bench.test
go run golang.org/x/perf/cmd/benchstat@latest "$out"
go run golang.org/x/perf/cmd/benchstat@latest "$paired"
