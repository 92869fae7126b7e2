#!/bin/bash
# Alternates two builds' bench_program, row by row, and prints each row's
# median replay rate (M block requests/s, a fresh evaluator) over the runs:
#   bench/ab-program.sh OLD_BUILD_DIR NEW_BUILD_DIR [ROWS [RUNS]]
# ROWS: digits 1-6 as bench_program takes them (default 123456); RUNS:
# alternations (default 5).  Each run is itself a median of 5.  Figures
# only: nothing here passes or fails.
set -euo pipefail
old=$1 new=$2 rows=${3:-123456} runs=${4:-5}
for dir in "$old" "$new"; do
    [ -x "$dir/bench_program" ] || { echo "ab-program: no $dir/bench_program" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for row in $(echo "$rows" | fold -w1); do
    for build in old new; do : > "$tmp/$build"; done
    for _ in $(seq "$runs"); do
        for build in old new; do
            dir=$old; [ "$build" = new ] && dir=$new
            "$dir/bench_program" "$row" | grep -o 'replay [0-9.]* M' | head -1 |
                awk '{print $2}' >> "$tmp/$build"
        done
    done
    for build in old new; do
        sort -n "$tmp/$build" |
            awk -v r="$row" -v b="$build" '{v[NR]=$1; all=all" "$1}
                END {printf "row %s %s: median %s M/s (runs:%s)\n", r, b, v[int((NR+1)/2)], all}'
    done
done
