#!/usr/bin/env bash
# Times the canon command against the library on the same lines
# (real.txt repeated REPEAT times, default 72: 4,094,496 lines; RFC3986):
# BenchmarkCommand runs ROUNDS rounds (default 9) of the library and the
# command with 1 and 2 workers and from a pipe, in turn, and reports lines
# per CPU-second and their ratios (see its comment). Then each command
# mode runs once under /usr/bin/time for its peak RSS.
#   ./cli.sh
#   REPEAT=18 ROUNDS=3 ./cli.sh
set -euo pipefail
cd "$(dirname "$0")"
export CANON_REPEAT=${REPEAT:-72}
go test -run XXX -bench BenchmarkCommand -benchtime "${ROUNDS:-9}x" . |
  awk '/^BenchmarkCommand/ { for (i = 3; i < NF; i += 2) printf "%-24s %s\n", $(i+1), $i }'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$CANON_REPEAT"); do cat testdata/real.txt; done > "$tmp/big.txt"
(cd .. && go build -o "$tmp/canon" ./cmd/canon)
for mode in "-j 1 -f" "-j 2 -f" "pipe"; do
  if [ "$mode" = pipe ]; then
    cat "$tmp/big.txt" | /usr/bin/time -o "$tmp/time" -f %M "$tmp/canon" -j 1 > /dev/null 2>&1 || true
  else
    /usr/bin/time -o "$tmp/time" -f %M "$tmp/canon" $mode "$tmp/big.txt" > /dev/null 2>&1 || true
  fi
  echo "peak RSS, canon $mode: $(( $(tail -n 1 "$tmp/time") / 1024 )) MB"
done
