#!/usr/bin/env bash
# MPI runs against one process (docs/scale.md).  Prints, as medians of REPS
# runs with the spread (min..max) beside them:
#   1. a static sweep (1.5 M points, 5 models), uncompressed and deflated:
#      wall time of `pascal run` (one process, 2 threads) against
#      `mpirun -n 1` (2 threads) and `mpirun -n 2` (1 thread each), the ratio
#      to one process, and from the MPI runs' summaries the evaluation rate
#      per rank and the collective write rate (row bytes / time in writes);
#   2. uneven work (Belady replay, whose cost grows with N, the outermost
#      axis): one process (2 threads), `mpirun -n 2` (pieces taken from a
#      counter), and the static split it replaces (`--shard 1/2` and
#      `--shard 2/2` side by side, 1 thread each), with the rows each rank
#      evaluated.
# Wall times include starting the processes (mpirun: about 0.3 s here).
# Figures only: nothing here passes or fails.
#
# usage: bench/bench_mpi.sh [BUILD_DIR] [REPS]      (default: build 5)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${2:-5}
pascal=$build/pascal
pascal_mpi=$build/pascal-mpi
mpirun="mpirun --allow-run-as-root --oversubscribe"
[ -x "$pascal_mpi" ] || { echo "bench_mpi: $pascal_mpi is not built (PASCAL_MPI)" >&2; exit 2; }
work=$(mktemp -d /tmp/pascal-bench-mpi-XXXXXX)
trap 'rm -rf "$work"' EXIT

cat >"$work/static.yaml" <<'EOF'
name: bench-mpi-static
models: [ttl, lru_band, lru, residency, che]
fixed: {N: 8192}
axes:
  M: [96, 192, 384]
  pattern: [uniform, gaussian]
  sigma: [256]
  seed: {from: 1, to: 60, step: 1}
  C: {from: 1, to: 8192, num: 4096}
EOF
cat >"$work/uneven.yaml" <<'EOF'
name: bench-mpi-uneven
models: [lru, belady]
axes:
  N: [64, 128, 256, 512, 1024, 2048, 4096]
  M: [32]
  pattern: [uniform]
  seed: {from: 1, to: 8, step: 1}
  C: {from: 1, to: 64, num: 16}
output: {chunk_rows: 64}
EOF

now() { date +%s.%N; }
# median and spread of the numbers on stdin: "median (min..max)"
stats() { sort -g | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2;
                                       printf "%.3f (%.3f..%.3f)", m, v[1], v[NR]}'; }
median() { sort -g | awk '{v[NR]=$1} END {print NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# run LABEL COMMAND...: REPS wall times into $work/LABEL.t, summaries into LABEL.out
run() {
  local label=$1; shift
  : >"$work/$label.t"; : >"$work/$label.out"
  for _ in $(seq "$reps"); do
    rm -f "$work"/out*.h5*
    local t0; t0=$(now)
    "$@" >>"$work/$label.out" 2>&1
    awk -v a="$(now)" -v b="$t0" 'BEGIN {print a - b}' >>"$work/$label.t"
  done
}
wall() { stats <"$work/$1.t"; }
ratio() { awk -v a="$(median <"$work/$1.t")" -v b="$(median <"$work/$2.t")" \
              'BEGIN {printf "%.2f", a / b}'; }
# From the MPI summaries: rows per second per rank while evaluating, and the
# collective write rate.
per_rank() {
  awk -v p="$2" '/^pascal: / {rows=$2; t=$7}
       /collective writes/ {print rows / (t - $(NF-3)) / p}' "$work/$1.out" | stats
}
write_rate() {
  grep -o 'collective writes [0-9.]* s ([0-9.e+]* MiB/s)' "$work/$1.out" |
    awk '{print $5}' | tr -d '(' | stats
}

echo "bench_mpi: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start;" \
     "medians of $reps runs (min..max)"
rows=$("$pascal" run "$work/static.yaml" --dry-run | awk '/^pascal:/ {print $2}')
for level in 0 1; do
  echo
  echo "static sweep, $rows points, compression $level (wall seconds):"
  run one$level env OMP_NUM_THREADS=2 "$pascal" run "$work/static.yaml" -o "$work/out.h5" \
      --compression $level
  run p1_$level $mpirun -np 1 -x OMP_NUM_THREADS=2 "$pascal_mpi" run "$work/static.yaml" \
      -o "$work/out.h5" --compression $level
  run p2_$level $mpirun -np 2 -x OMP_NUM_THREADS=1 "$pascal_mpi" run "$work/static.yaml" \
      -o "$work/out.h5" --compression $level
  printf '  one process, 2 threads      %s\n' "$(wall one$level)"
  printf '  mpirun -n 1, 2 threads      %s   x%s of one process\n' "$(wall p1_$level)" \
         "$(ratio p1_$level one$level)"
  printf '  mpirun -n 2, 1 thread each  %s   x%s of one process\n' "$(wall p2_$level)" \
         "$(ratio p2_$level one$level)"
  for p in 1 2; do
    printf '  P = %d: %s rows/s per rank evaluating; collective writes %s MiB/s\n' "$p" \
           "$(per_rank p${p}_$level $p)" "$(write_rate p${p}_$level)"
  done
done

echo
echo "uneven work (Belady, cost grows with N), $("$pascal" run "$work/uneven.yaml" --dry-run |
      awk '/^pascal:/ {print $2}') points (wall seconds):"
run uone env OMP_NUM_THREADS=2 "$pascal" run "$work/uneven.yaml" -o "$work/out.h5"
run up2 $mpirun -np 2 -x OMP_NUM_THREADS=1 "$pascal_mpi" run "$work/uneven.yaml" \
    -o "$work/out.h5"
shards() {
  OMP_NUM_THREADS=1 "$pascal" run "$work/uneven.yaml" -o "$work/out1.h5" --shard 1/2 & a=$!
  OMP_NUM_THREADS=1 "$pascal" run "$work/uneven.yaml" -o "$work/out2.h5" --shard 2/2 & b=$!
  wait $a; wait $b
}
run ushard shards
printf '  one process, 2 threads              %s\n' "$(wall uone)"
printf '  mpirun -n 2, pieces from a counter  %s   x%s of one process\n' "$(wall up2)" \
       "$(ratio up2 uone)"
printf '  2 static shards side by side        %s   x%s of one process\n' "$(wall ushard)" \
       "$(ratio ushard uone)"
printf '  rows per rank under mpirun (last run): %s\n' \
       "$(grep 'MPI ranks' "$work/up2.out" | tail -1 | sed 's/.*threads: //; s/;.*//')"
