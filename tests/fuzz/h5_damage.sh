#!/usr/bin/env bash
# Damaged HDF5 inputs (.ci/run): single-byte flips of a sweep file, a shard
# and a calibration file, each given to the commands that read such files
# (info, report, merge, predict, and a run whose spec names the damaged
# calibration).  Every command must end on its own with exit 0 (the flip
# hit nothing it reads) or 2 (the file refused as damaged, named in the
# message): never 1 as if the trouble were not the input's, never a signal,
# never a hang, and never a lock or temporary file left behind.
#   tests/fuzz/h5_damage.sh PASCAL [FLIPS]   (default 120 flips per file)
set -euo pipefail
pascal=$(realpath "${1:?usage: h5_damage.sh PASCAL [FLIPS]}")
flips=${2:-120}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/pascal-h5-damage.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

cat >s.yaml <<'EOF'
name: damage
models: [ttl, lru]
fixed: {N: 64, M: 4, pattern: uniform}
axes:
  seed: [1, 2, 3]
  C: {from: 8, to: 40, step: 8}
EOF
"$pascal" run s.yaml -o sweep.h5 --quiet >/dev/null
"$pascal" run s.yaml -o a.h5 --shard 1/2 --quiet >/dev/null
"$pascal" run s.yaml -o b.h5 --shard 2/2 --quiet >/dev/null
"$pascal" calibrate "$src/configs/calibration/synthetic-gb10-refs.csv" --device gb10 -o cal.h5 >/dev/null
cat >dyn.yaml <<EOF
name: damage-dynamic
device: gb10
calibration: bad.h5
models: [dynamic]
fixed: {block_bytes: 16KiB, N: 4096, path: tma, depth: 3, compute: 8}
axes:
  occupancy: [1, 2]
  W: [4, 16]
EOF

failures=0 runs=0
# flip FILE OFFSET VALUE: copies FILE to bad.h5 with the byte at OFFSET xor VALUE
flip() {
  cp "$1" bad.h5
  local old
  old=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "$(printf '\\%03o' $((old ^ $3)))" | dd of=bad.h5 bs=1 seek="$2" count=1 conv=notrunc status=none
}
check() { # WHAT COMMAND...
  local what=$1 rc=0
  shift
  runs=$((runs + 1))
  timeout -s KILL 120 "$@" >out.txt 2>err.txt || rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
    failures=$((failures + 1))
    echo "h5_damage: $what: exit $rc: $*" >&2
    head -3 err.txt >&2
  elif [ "$rc" -eq 2 ] && ! grep -q 'bad.h5' err.txt; then
    failures=$((failures + 1))
    echo "h5_damage: $what: a refusal that does not name the file: $(head -c 200 err.txt)" >&2
    [ -n "${H5_DAMAGE_KEEP:-}" ] && cp bad.h5 "$H5_DAMAGE_KEEP/h5_damage-$runs.h5"
  fi
  for left in *.lock *.tmp.*; do
    [ -e "$left" ] || continue
    failures=$((failures + 1))
    echo "h5_damage: $what: left $left: $*" >&2
    rm -f "$left"
  done
  rm -f r.html m.h5
}

# Offsets: the metadata at the start (superblock, root group, attributes,
# the global heap) more often than the rest.  RANDOM is seeded: the same
# flips every time.
RANDOM=2385
for target in sweep.h5 a.h5 cal.h5; do
  size=$(stat -c %s "$target")
  for ((i = 0; i < flips; i++)); do
    if [ $((i % 4)) -lt 3 ]; then
      off=$(( (RANDOM * 32768 + RANDOM) % (size < 8192 ? size : 8192) ))
    else
      off=$(( (RANDOM * 32768 + RANDOM) % size ))
    fi
    flip "$target" "$off" $(( RANDOM % 255 + 1 ))
    case $target in
      sweep.h5)
        check info "$pascal" info bad.h5
        check report "$pascal" report bad.h5 -o r.html ;;
      a.h5)
        check merge "$pascal" merge -o m.h5 bad.h5 b.h5 ;;
      cal.h5)
        check predict "$pascal" predict --model bad.h5 --o 2 --path tma --d 3 --m 8 --N 4096 --W 16
        check run "$pascal" run dyn.yaml --dry-run ;;
    esac
  done
done
echo "h5_damage: $runs runs on $((3 * flips)) damaged files, $failures failures"
[ "$failures" -eq 0 ]
