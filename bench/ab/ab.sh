#!/usr/bin/env bash
# A/B of two commits of canon (bench/README.md, "A/B of two commits").
# Builds the same timing program twice, once against each commit's copy
# of the library, and runs the two binaries in alternation (old, new,
# new, old, ...) on one core, ROUNDS times each; each run times PASSES
# passes over the corpus per profile and reports the fastest pass's
# ns/URL. Binaries of their own, not two copies in one binary: in one
# binary the second copy's code lands elsewhere and an A/A of HEAD
# against itself came out 5-15 % apart. Prints, per profile and corpus,
# new/old as the median of the rounds' ratios, with their range.
#
#   bench/ab/ab.sh OLD NEW                 # e.g. ab.sh 26825d6 HEAD; NEW may be . (the working tree)
#   PROFILES=RFC3986,Crawler ROUNDS=10 PASSES=5 bench/ab/ab.sh OLD NEW
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
old=${1:?usage: ab.sh OLD NEW}
new=${2:?usage: ab.sh OLD NEW}
rounds=${ROUNDS:-8}
passes=${PASSES:-5}
profiles=${PROFILES:-RFC3986,IRI,WebCapture,POWDER,WHATWG,Crawler,Archive,Aggressive,WHATWG-ref}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build() { # commit name
  local d="$tmp/$2"
  mkdir -p "$d/canon" "$d/cmd"
  if [ "$1" = . ]; then
    (cd "$root" && cp $(git ls-files --cached --others --exclude-standard -- '*.go' | grep -v / | grep -v '_test\.go$') "$d/canon/")
  else
    (cd "$root" && git archive "$1" -- $(git ls-tree --name-only "$1" | grep '\.go$' | grep -v '_test\.go$')) | tar -x -C "$d/canon"
  fi
  cp "$root/go.mod" "$root/go.sum" "$d/"
  sed -i 's#^module .*#module abtest#' "$d/go.mod"
  cp "$here/main.go.txt" "$d/cmd/main.go"
  (cd "$d" && go build -o "$tmp/$2.bin" ./cmd)
}
build "$old" old
build "$new" new
echo "old: $old  new: $new  rounds: $rounds  passes: $passes" >&2
run() { GOMAXPROCS=1 GODEBUG=gcstoptheworld=1 "$tmp/$1.bin" -corpus "$root/bench/testdata" -profiles "$profiles" -passes "$passes" | sed "s/^/$1 $2 /"; }
for r in $(seq 1 "$rounds"); do
  echo "round $r/$rounds" >&2
  if [ $((r % 2)) = 1 ]; then run old "$r"; run new "$r"; else run new "$r"; run old "$r"; fi
done > "$tmp/times.txt"
# times.txt: "old|new ROUND CORPUS PROFILE NS"; the summary is the
# timing program's too.
"$tmp/new.bin" -summarize "$tmp/times.txt"
