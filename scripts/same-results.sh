#!/usr/bin/env bash
# Checks that two builds of pascal give the same results, bit for bit, on
# every shipped spec and calibration: the data of every file (h5diff with
# no tolerance) and its attributes less the ones that name the moment, the
# command line, the thread count or the version.
#
#   scripts/same-results.sh BASE_PASCAL NEW_PASCAL   two built binaries
#   scripts/same-results.sh --rev REV [NEW_PASCAL]   builds REV (a commit) in
#                                                    a worktree first; NEW
#                                                    defaults to build/pascal
# Exits 0 when everything agrees, 1 naming each file that differs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if [ "${1:-}" = --rev ]; then
  rev=$2
  new=${3:-$root/build/pascal}
  wt=$(mktemp -d /tmp/pascal-base.XXXXXX)
  trap 'git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true' EXIT
  git worktree add --detach "$wt" "$rev" >/dev/null
  cmake -S "$wt" -B "$wt/build" -DCMAKE_BUILD_TYPE=Release -DPASCAL_TESTS=OFF -DPASCAL_BENCH=OFF \
    -DPASCAL_CUDA=OFF -DPASCAL_MPI=OFF >/dev/null
  cmake --build "$wt/build" -j "$(nproc 2>/dev/null || echo 2)" --target pascal >/dev/null
  base=$wt/build/pascal
else
  base=${1:?usage: scripts/same-results.sh BASE_PASCAL NEW_PASCAL | --rev REV [NEW_PASCAL]}
  new=${2:?usage: scripts/same-results.sh BASE_PASCAL NEW_PASCAL | --rev REV [NEW_PASCAL]}
fi
base=$(realpath "$base") new=$(realpath "$new")
command -v h5diff >/dev/null || { echo "same-results: h5diff is missing (Debian: hdf5-tools)" >&2; exit 2; }

work=$(mktemp -d /tmp/pascal-same.XXXXXX)
trap 'rm -rf "$work"; [ -n "${wt:-}" ] && git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true' EXIT

# Attributes that say when, how and by which build a file was written.
volatile='created|command_line|threads|pascal_version|git_commit|report_command|cv_seconds|seconds'

# Each build writes into its own copy of configs/.  Both builds fit the
# calibrations, compared below; both then run the specs on the first
# build's calibrations, so that a spec's calibration input (and its digest)
# is the same file.
calibrate() { # BIN DIR
  local bin=$1 dir=$2
  mkdir -p "$dir"
  cp -r configs "$dir/configs"
  (
    cd "$dir"
    exec 2>>"$dir/stderr.log"
    cal=configs/calibration
    "$bin" calibrate $cal/synthetic-gb10-refs.csv --device configs/devices/gb10.yaml \
      -o $cal/synthetic-gb10.h5 --cv >/dev/null
    "$bin" calibrate $cal/simulated-gb10-refs.csv --device configs/devices/gb10.yaml \
      -o $cal/simulated-gb10.h5 >/dev/null
    "$bin" calibrate $cal/simulated-h200-refs.csv --device configs/devices/h200.yaml \
      -o $cal/simulated-h200.h5 >/dev/null
    mkdir -p fitted && cp $cal/*.h5 fitted/
  )
}
produce() { # BIN DIR
  local bin=$1 dir=$2
  (
    cd "$dir"
    exec 2>>"$dir/stderr.log"
    cal=configs/calibration
    cp "$work"/base/fitted/*.h5 $cal/
    for spec in configs/*.yaml $cal/*.yaml; do
      name=$(basename "$spec" .yaml)
      "$bin" run "$spec" -o "out-$name.h5" --quiet --threads 2 >/dev/null
    done
    "$bin" run configs/paper-static-clusters.yaml -o out-clusters.csv --format csv --quiet >/dev/null
    "$bin" validate -o out-validate.h5 --threads 2 >/dev/null
    "$bin" measure-refs --simulate --device configs/devices/gb10.yaml --occupancy 1,2 \
      --compute 0,8 --N 4096 --W 1,4 -o out-simrefs.csv --threads 2 >/dev/null
  )
}

calibrate "$base" "$work/base"
calibrate "$new" "$work/new"
produce "$base" "$work/base"
produce "$new" "$work/new"

# The attribute tree of a file (h5dump -A) less the volatile attributes and
# the file addresses that object references print (where HDF5 put an
# object, which is not part of the results).
attrs() { h5dump -A "$1" 2>/dev/null | sed -e "1s|\"$1\"|FILE|" -e 's/DATASET [0-9][0-9]* "/DATASET "/g' |
          awk -v v="$volatile" '
            !depth && $0 ~ "ATTRIBUTE \"(" v ")\"" { depth = 1; next }
            depth { depth += gsub(/{/, "{") - gsub(/}/, "}"); next }
            { print }' ; }

status=0 count=0
for a in "$work"/base/out-* "$work"/base/fitted/*.h5; do
  rel=${a#"$work"/base/}
  b=$work/new/$rel
  count=$((count + 1))
  if [ ! -f "$b" ]; then echo "differs: $rel (missing from the new build)"; status=1; continue; fi
  case $a in
    *.h5)
      data_ok=1
      # every dataset, with its own attributes (units, descriptions)
      for obj in $(h5ls -r "$a" | awk '$2 == "Dataset" {print $1}'); do
        h5diff -q "$a" "$b" "$obj" "$obj" >/dev/null 2>&1 || { data_ok=0; echo "differs: $rel $obj"; }
      done
      if [ "$(attrs "$a")" != "$(attrs "$b")" ]; then
        echo "differs: $rel (attributes)"; diff <(attrs "$a") <(attrs "$b") | head -20 || true; data_ok=0
      fi
      [ $data_ok = 1 ] || status=1 ;;
    *)
      cmp -s <(grep -Ev "^# ($volatile)" "$a") <(grep -Ev "^# ($volatile)" "$b") ||
        { echo "differs: $rel"; status=1; } ;;
  esac
done
[ $status = 0 ] && echo "same-results: $count files identical (data and attributes) between $base and $new"
exit $status
