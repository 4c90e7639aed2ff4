#!/usr/bin/env bash
# Times the canon command against the library on the same lines:
# real.txt repeated REPEAT times (default 72: 4,094,496 lines), RFC3986,
# with 1 and 2 workers, ROUNDS rounds (default 5); peak memory from
# /usr/bin/time. BenchmarkLibraryStream runs the library alone on the
# same lines in between.
#   ./cli.sh
#   REPEAT=18 ROUNDS=3 ./cli.sh
set -euo pipefail
cd "$(dirname "$0")"
rounds=${ROUNDS:-5}
export CANON_REPEAT=${REPEAT:-72}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$CANON_REPEAT"); do cat testdata/real.txt; done > "$tmp/big.txt"
lines=$(wc -l < "$tmp/big.txt")
(cd .. && go build -o "$tmp/canon" ./cmd/canon)
for r in $(seq 1 "$rounds"); do
  for j in 1 2; do
    /usr/bin/time -o "$tmp/time" -f "%e %U %S %M" "$tmp/canon" -j "$j" -f "$tmp/big.txt" > /dev/null 2>&1 || true
    read -r wall user sys rss < <(tail -n 1 "$tmp/time") # after any "exited with non-zero status"
    awk -v j="$j" -v l="$lines" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" \
      'BEGIN { printf "canon -j %d: %.2f s wall, %.2f s CPU, %.2f M lines/s, %.2f M lines per CPU-second, peak RSS %.1f MB\n", j, w, u+s, l/w/1e6, l/(u+s)/1e6, m/1024 }'
  done
  go test -run XXX -bench BenchmarkLibraryStream -benchtime 2x -cpu 1 . | awk '/lines\/s/ { for (i = 1; i <= NF; i++) if ($(i+1) == "lines/s") printf "library alone: %.2f M lines/s\n", $i/1e6 }'
done
