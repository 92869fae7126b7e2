#!/usr/bin/env bash
# The GPU check of the spot-check kernels (docs/kernels.md), at most 8
# minutes on one H200:
#   1. build pascal with CUDA (or use a prebuilt one, see below);
#   2. capacity scan (paper Figure 2): the effective L2;
#   3. a 10-point static spot-check, clusters 1..48 (Algorithm 1, section 5.2);
#   4. a small dynamic reference set (Algorithm 2) in the dynamic model's CSV;
# every result file goes into OUT_DIR (at most 8 files):
#   capacity.h5  spotcheck.h5  spotcheck-spec.yaml  refs.csv
#   refs.csv.provenance.txt  markers.csv  device-check.log
#
# usage: scripts/device-check.sh OUT_DIR
#        scripts/device-check.sh --bundle DIR
#
# pascal needs HDF5 and libyaml, which a bare GPU machine may not have.
# `--bundle DIR`, run on a machine that builds pascal with CUDA, puts the
# executable and the libraries it loads (all but the C library's own) into
# DIR; a later `scripts/device-check.sh OUT_DIR` finds DIR=.device in the
# checkout and uses it.  $PASCAL_BIN names any other prebuilt executable.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

die() { echo "device-check: $*" >&2; exit 2; }

bundle() {
  local dir=$1 build=${PASCAL_BUILD:-build-device}
  cmake -S . -B "$build" -DPASCAL_CUDA=ON -DPASCAL_TESTS=OFF -DPASCAL_BENCH=OFF >/dev/null
  cmake --build "$build" -j "$(nproc)" --target pascal >&2
  rm -rf "$dir" && mkdir -p "$dir/bin" "$dir/lib"
  cp "$build/pascal" "$build/pascal-core" "$dir/bin/" # the launcher and the program
  ldd "$build/pascal-core" | awk '$3 ~ /^\// {print $3}' |
    grep -Ev '/(libc|libm|libdl|libpthread|librt|libutil|libresolv|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$dir/lib/"; done
  du -sh "$dir" >&2
}

if [ "${1:-}" = "--bundle" ]; then
  [ -n "${2:-}" ] || die "usage: scripts/device-check.sh --bundle DIR"
  bundle "$2"
  exit 0
fi
[ -n "${1:-}" ] || die "usage: scripts/device-check.sh OUT_DIR"
mkdir -p "$1"
out=$(cd "$1" && pwd)
logf="$out/device-check.log"
: >"$logf"
log() { echo "[device-check $(date -u +%H:%M:%S)] $*" | tee -a "$logf" >&2; }
fails=0
fail() { log "$1 failed"; fails=$((fails + 1)); }
step() {  # step SECONDS CMD... : run with a time limit, output to the log
  local limit=$1; shift
  log "$*"
  timeout "$limit" "$@" 2>&1 | tee -a "$logf"
}

# -- the executable -----------------------------------------------------------
cudalib=""
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/extras/CUPTI/lib64; do
  [ -d "$d" ] && cudalib="$cudalib:$d"
done
if [ -n "${PASCAL_BIN:-}" ]; then
  p=$PASCAL_BIN
elif [ -x .device/bin/pascal ]; then
  p=$root/.device/bin/pascal
  export LD_LIBRARY_PATH="$root/.device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}$cudalib"
else
  log "building (PASCAL_CUDA=ON)"
  cmake -S . -B build-device -DPASCAL_CUDA=ON -DPASCAL_TESTS=OFF -DPASCAL_BENCH=OFF \
    >>"$logf" 2>&1 || die "cmake failed (see $logf); carry a bundle: --bundle .device"
  cmake --build build-device -j "$(nproc)" --target pascal >>"$logf" 2>&1 ||
    die "build failed (see $logf)"
  p=$root/build-device/pascal
fi
"$p" --version | tee -a "$logf" || die "$p does not run (see $logf)"

# -- provenance -----------------------------------------------------------------
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem \
    --format=csv 2>/dev/null || echo "nvidia-smi: unavailable"
  if command -v ncu >/dev/null; then echo "ncu: $(ncu --version | tail -1)"; else echo "ncu: not found"; fi
} | tee -a "$logf"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
case "$gpu" in
  *GB10*) profile=gb10 ;;
  *H100*) profile=h100 ;;
  *) profile=h200 ;;
esac

# -- 1. capacity scan: 24 footprints from L2/8 to 1.5 L2, 4 repetitions ---------
step 150 "$p" capacity-scan --device auto --repeat 4 --quiet -o "$out/capacity.h5" || fail "capacity scan"

# -- 2. static spot-check: M = 48 CTAs, N = 8192 blocks of 16 KiB, clusters ----
cat >"$out/spotcheck-spec.yaml" <<EOF
name: device-check-static
description: 10-point static spot-check, clusters 1..48 (paper section 5.2 cluster sweep, 16 KiB blocks)
device: $root/configs/devices/$profile.yaml
models: [ttl, lru_band, lru, residency, che]
fixed:
  N: 8192
  M: 48
  block_bytes: 16KiB
  pattern: clusters
axes:
  clusters: [1, 2, 3, 4, 6, 8, 12, 16, 24, 48]
EOF
step 150 "$p" spotcheck "$out/spotcheck-spec.yaml" --select 0-9 --repeat 3 --quiet \
  -o "$out/spotcheck.h5" || fail "spot-check"

# -- 3. dynamic references: o 1,2; sync and TMA (d = 2); m 0, 8; N 4096; W 1, 4 --
step 120 "$p" measure-refs --occupancy 1,2 --path sync,tma --depth 2 --compute 0,8 --N 4096 \
  --W 1,4 --repeat 2 --quiet --markers "$out/markers.csv" -o "$out/refs.csv" ||
  fail "reference runs"

log "done, $fails step(s) failed: $(ls "$out" | tr '\n' ' ')"
[ "$fails" -eq 0 ]
