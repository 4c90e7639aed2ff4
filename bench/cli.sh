#!/usr/bin/env bash
# Times the canon command against the library on the same lines:
# real.txt repeated REPEAT times (default 72: 4,094,496 lines), RFC3986.
# Each round runs `canon -j 1 -f FILE`, `canon -j 2 -f FILE`, `canon -j 1`
# reading a pipe and BenchmarkLibraryStream (the library alone, one core)
# in turn; ROUNDS rounds (default 9). It
# prints every round, then the medians: lines/s, lines per CPU-second
# (user+sys, from /usr/bin/time) and peak RSS, and the ratio of the
# command's lines per CPU-second to the library's lines/s in the same
# round, which is what the shared machine's drift leaves comparable.
#   ./cli.sh
#   REPEAT=18 ROUNDS=3 ./cli.sh
set -euo pipefail
cd "$(dirname "$0")"
rounds=${ROUNDS:-9}
export CANON_REPEAT=${REPEAT:-72}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$CANON_REPEAT"); do cat testdata/real.txt; done > "$tmp/big.txt"
lines=$(wc -l < "$tmp/big.txt")
(cd .. && go build -o "$tmp/canon" ./cmd/canon)
go test -c -o "$tmp/bench.test" .
for r in $(seq 1 "$rounds"); do
  for j in 1 2 p1; do
    # -f FILE (mapped on Linux) with 1 and 2 workers, and p1: 1 worker
    # reading a pipe, as in "zcat links.gz | canon". The file is read
    # once first, so that it is in the page cache and the command is not
    # charged for the disk: the library's lines are in memory too (and
    # some machines page out memory that has been idle for a while).
    cat "$tmp/big.txt" > /dev/null
    if [ "$j" = p1 ]; then
      cat "$tmp/big.txt" | /usr/bin/time -o "$tmp/time" -f "%e %U %S %M" "$tmp/canon" -j 1 > /dev/null 2>&1 || true
    else
      /usr/bin/time -o "$tmp/time" -f "%e %U %S %M" "$tmp/canon" -j "$j" -f "$tmp/big.txt" > /dev/null 2>&1 || true
    fi
    read -r wall user sys rss < <(tail -n 1 "$tmp/time") # after any "exited with non-zero status"
    echo "$r j$j $wall $user $sys $rss"
  done
  "$tmp/bench.test" -test.run XXX -test.bench BenchmarkLibraryStream -test.benchtime 2x -test.cpu 1 |
    awk -v r="$r" '/lines\/s/ { for (i = 1; i <= NF; i++) if ($(i+1) == "lines/s") print r, "lib", $i }'
done | awk -v l="$lines" '
  function name(j) { return j == "p1" ? "canon -j 1 < pipe" : "canon -j " j " -f FILE" }
  function median(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
  }
  $2 == "lib" { lib[$1] = $3; printf "round %d library alone: %.2f M lines/s\n", $1, $3/1e6; next }
  {
    j = substr($2, 2); cpu = $4 + $5
    rate[j, $1] = l / $3; percpu[j, $1] = l / cpu; rss[j, $1] = $6 / 1024
    printf "round %d %s: %.2f s wall, %.2f s CPU, %.2f M lines/s, %.2f M lines per CPU-second, peak RSS %.1f MB\n", $1, name(j), $3, cpu, l/$3/1e6, l/cpu/1e6, $6/1024
  }
  END {
    n = length(lib)
    for (r = 1; r <= n; r++) m[r] = lib[r]
    printf "\nmedians of %d rounds (%d lines):\nlibrary alone: %.2f M lines/s\n", n, l, median(m, n) / 1e6
    split("1 2 p1", js, " ")
    for (x = 1; x <= 3; x++) {
      j = js[x]
      for (r = 1; r <= n; r++) { a[r] = rate[j, r]; b[r] = percpu[j, r]; c[r] = rss[j, r]; d[r] = percpu[j, r] / lib[r] }
      printf "%s: %.2f M lines/s, %.2f M lines per CPU-second, peak RSS %.1f MB, per CPU-second / library %.2f\n", name(j), median(a, n)/1e6, median(b, n)/1e6, median(c, n), median(d, n)
    }
  }'
