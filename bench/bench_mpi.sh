#!/usr/bin/env bash
# MPI runs against one process (docs/scale.md).  Prints, as medians of REPS
# rounds with the spread (min..max) beside them:
#   1. a static sweep (1.5 M points, 5 models), uncompressed and deflated
#      (level 1): wall seconds of `pascal run` (one process, 2 threads),
#      `mpirun -n 1` (2 threads) and `mpirun -n 2` (1 thread each), and the
#      ratio of each MPI run to the one-process run of the same round;
#      from the MPI runs' summaries, the rows a rank evaluates per second of
#      evaluating, and the collective write rate (row bytes over rank 0's
#      seconds in writes, waits for the other ranks included);
#   2. uneven work (Belady replay, whose cost grows with N, the outermost
#      axis): one process (2 threads), `mpirun -n 2` (pieces taken from a
#      counter), and the static split it replaces (`--shard 1/2` and
#      `--shard 2/2` side by side, 1 thread each), with the rows each rank
#      evaluated.
# The variants of a round run back to back, so that each ratio compares runs
# made under the same load (this machine is shared).  Wall times include
# starting the processes.  Figures only: nothing here passes or fails.
#
# usage: bench/bench_mpi.sh [BUILD_DIR] [REPS]      (default: build 5)
#        BENCH_KEEP=1 keeps the work folder (specs, summaries, timings).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
reps=${2:-5}
pascal=$build/pascal
pascal_mpi=$build/pascal-mpi
# Waiting ranks yield their core (on a shared machine a rank spinning in a
# collective takes the core from one that computes).
mpirun="mpirun --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1"
[ -x "$pascal_mpi" ] || { echo "bench_mpi: $pascal_mpi is not built (PASCAL_MPI)" >&2; exit 2; }
work=$(mktemp -d /tmp/pascal-bench-mpi-XXXXXX)
[ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

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
# "median (min..max)" of the numbers on stdin
stats() { sort -g | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2;
                                       printf "%.3g (%.3g..%.3g)", m, v[1], v[NR]}'; }

# once LABEL COMMAND...: one run; its wall seconds appended to LABEL.t, the
# CPU seconds of its processes (user + system, children included) to
# LABEL.cpu, its summary to LABEL.out; a failed run stops the bench.
once() {
  local label=$1; shift
  rm -f "$work"/out*.h5*
  local t0; t0=$(now)
  if ! /usr/bin/time -f "%U %S" -o "$work/time" "$@" >>"$work/$label.out" 2>&1; then
    echo "bench_mpi: $label failed:" >&2; tail -5 "$work/$label.out" >&2; exit 1
  fi
  awk -v a="$(now)" -v b="$t0" 'BEGIN {print a - b}' >>"$work/$label.t"
  awk '{print $1 + $2}' "$work/time" >>"$work/$label.cpu"
}
wall() { stats <"$work/$1.t"; }
# rows per CPU second: what a core gives, whatever else the machine runs
per_cpu() { awk -v n="$2" '{print n / $1}' "$work/$1.cpu" | stats; }
# per-round ratio of LABEL's wall time to BASE's
ratio() { paste "$work/$1.t" "$work/$2.t" | awk '{print $1 / $2}' | stats; }
rate() { awk '/rows\/s each while evaluating/ {print $(NF-10)}' "$work/$1.out" | stats; }
# rows per CPU second of evaluating (the ranks' threads), from the CPU
# seconds of the least and most busy ranks: what one core evaluates
eval_per_cpu() {
  awk '/CPU s each/ {print ($7 + $9) / ($(NF-5) + $(NF-3))}' "$work/$1.out" | stats
}
write_rate() { awk '/collective writes:/ {print substr($(NF-3), 2)}' "$work/$1.out" | stats; }

echo "bench_mpi: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start;" \
     "medians of $reps rounds (min..max)"
# The fixed cost of a run under mpirun: start the ranks, MPI, plan 1 point.
printf 'name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4}\naxes: {C: [8]}\n' >"$work/tiny.yaml"
for _ in $(seq "$reps"); do
  once tone "$pascal" run "$work/tiny.yaml" --dry-run
  once tp2 $mpirun -np 2 "$pascal_mpi" run "$work/tiny.yaml" --dry-run
done
printf 'starting: one process %s s, mpirun -n 2 %s s\n' "$(wall tone)" "$(wall tp2)"
rows=$("$pascal" run "$work/static.yaml" --dry-run 2>/dev/null | awk '/^pascal:/ {print $2}')
for level in 0 1; do
  for _ in $(seq "$reps"); do
    once one$level env OMP_NUM_THREADS=2 "$pascal" run "$work/static.yaml" \
        -o "$work/out.h5" --compression $level
    once p1_$level $mpirun -np 1 -x OMP_NUM_THREADS=2 "$pascal_mpi" run \
        "$work/static.yaml" -o "$work/out.h5" --compression $level
    once p2_$level $mpirun -np 2 -x OMP_NUM_THREADS=1 "$pascal_mpi" run \
        "$work/static.yaml" -o "$work/out.h5" --compression $level
  done
  echo
  echo "static sweep, $rows points, compression $level (wall seconds; ratio to one process):"
  printf '  one process, 2 threads      %s\n' "$(wall one$level)"
  printf '  mpirun -n 1, 2 threads      %s   x %s\n' "$(wall p1_$level)" \
         "$(ratio p1_$level one$level)"
  printf '  mpirun -n 2, 1 thread each  %s   x %s\n' "$(wall p2_$level)" \
         "$(ratio p2_$level one$level)"
  for p in 1 2; do
    printf '  P = %d: %s rows/s per rank evaluating (%s per CPU second); collective writes' \
           "$p" "$(rate p${p}_$level)" "$(eval_per_cpu p${p}_$level)"
    printf ' %s MiB/s\n' "$(write_rate p${p}_$level)"
  done
  printf '  rows per CPU second: one process %s, P = 1 %s, P = 2 %s\n' \
         "$(per_cpu one$level "$rows")" "$(per_cpu p1_$level "$rows")" \
         "$(per_cpu p2_$level "$rows")"
done

# Each shard's CPU seconds go to shard1.cpu and shard2.cpu: the balance.
cat >"$work/shards.sh" <<EOF
for k in 1 2; do
  OMP_NUM_THREADS=1 /usr/bin/time -f "%U %S" -a -o "$work/shard\$k.time" "$pascal" run \\
      "$work/uneven.yaml" -o "$work/out\$k.h5" --shard \$k/2 & pid[\$k]=\$!
done
wait \${pid[1]} && wait \${pid[2]}
EOF
for _ in $(seq "$reps"); do
  once uone env OMP_NUM_THREADS=2 "$pascal" run "$work/uneven.yaml" -o "$work/out.h5"
  once up2 $mpirun -np 2 -x OMP_NUM_THREADS=1 "$pascal_mpi" run "$work/uneven.yaml" \
      -o "$work/out.h5"
  once ushard bash "$work/shards.sh"
done
echo
echo "uneven work (Belady, cost grows with N), $("$pascal" run "$work/uneven.yaml" --dry-run 2>/dev/null |
      awk '/^pascal:/ {print $2}') points (wall seconds; ratio to one process):"
printf '  one process, 2 threads              %s\n' "$(wall uone)"
printf '  mpirun -n 2, pieces from a counter  %s   x %s\n' "$(wall up2)" "$(ratio up2 uone)"
printf '  2 static shards side by side        %s   x %s\n' "$(wall ushard)" \
       "$(ratio ushard uone)"
printf '  CPU seconds: one process %s, mpirun -n 2 %s, 2 shards %s\n' \
       "$(stats <"$work/uone.cpu")" "$(stats <"$work/up2.cpu")" "$(stats <"$work/ushard.cpu")"
printf '  rows per rank under mpirun (each round): %s\n' \
       "$(awk '/MPI ranks/ {printf "%s-%s ", $7, $9}' "$work/up2.out")"
# The balance, in CPU seconds, which other load on the machine does not
# inflate: the busiest worker against the least busy.
printf '  CPU s evaluating per rank under mpirun (least..most busy): %s\n' \
       "$(awk '/CPU s each/ {printf "%s..%s ", $(NF-5), $(NF-3)}' "$work/up2.out")"
printf '  CPU s per static shard (1/2, 2/2): %s\n' \
       "$(paste "$work/shard1.time" "$work/shard2.time" |
          awk '{printf "%.2f,%.2f ", $1 + $2, $3 + $4}')"
echo
echo "bench_mpi: load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
