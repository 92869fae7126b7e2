#!/usr/bin/env bash
# The GPU check of the spot-check kernels (docs/kernels.md), at most 8
# minutes on one H200 (the budgets below add up to 465 s):
#   1. build pascal with CUDA (or use a prebuilt one, see below);
#   2. capacity scan (paper Figure 2): the effective L2;
#   3. a 10-point static spot-check, clusters 1..48 (Algorithm 1, section 5.2);
#   4. a small dynamic reference set (Algorithm 2) in the dynamic model's CSV;
#   5. the program player on named kernels' request programs (pascal play):
#      FlashAttention-2 decode (split-KV) and two-token decode,
#      FlashAttention-3's causal prefill (persistent CTAs), CUTLASS's GEMM
#      with its default and its widest swizzle, measured fills beside
#      pascal's exact replay;
# every result file goes into OUT_DIR (at most 12 files):
#   capacity.h5  spotcheck.h5  spotcheck-spec.yaml  refs.csv
#   refs.csv.provenance.txt  markers.csv  play-attention.yaml  play-attention.csv
#   play-prefill.yaml  play-prefill.csv  play-gemm.yaml  play-gemm.csv
#   device-check.log
#
# usage: scripts/device-check.sh OUT_DIR
#        scripts/device-check.sh --dry-run [OUT_DIR]
#        scripts/device-check.sh --bundle DIR
#
# --dry-run needs no GPU: it prints every step with its time budget and the
# total, writes the specs, and shows the player's programs and pascal's
# replay of them (pascal play --dry-run) with build/pascal when it exists.
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
dry=0
if [ "${1:-}" = "--dry-run" ]; then
  dry=1
  shift
  set -- "${1:-$(mktemp -d)}"
fi
[ -n "${1:-}" ] || die "usage: scripts/device-check.sh OUT_DIR"
mkdir -p "$1"
out=$(cd "$1" && pwd)
logf="$out/device-check.log"
: >"$logf"
log() { echo "[device-check $(date -u +%H:%M:%S)] $*" | tee -a "$logf" >&2; }
fails=0
fail() { log "$1 failed"; fails=$((fails + 1)); }
budget=0
step() {  # step SECONDS CMD... : run with a time limit, output to the log
  local limit=$1; shift
  budget=$((budget + limit))
  if [ "$dry" = 1 ]; then
    log "[budget ${limit} s, ${budget} s so far] $*"
    return 0
  fi
  log "$*"
  timeout "$limit" "$@" 2>&1 | tee -a "$logf"
}

# -- the executable -----------------------------------------------------------
cudalib=""
if [ "$dry" = 1 ]; then
  p=$root/build/pascal   # only for the player's dry runs, when it exists
else
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
fi

# -- provenance -----------------------------------------------------------------
[ "$dry" = 1 ] || {
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
step 110 "$p" capacity-scan --device auto --repeat 4 --quiet -o "$out/capacity.h5" || fail "capacity scan"

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
step 120 "$p" spotcheck "$out/spotcheck-spec.yaml" --select 0-9 --repeat 3 --quiet \
  -o "$out/spotcheck.h5" || fail "spot-check"

# -- 3. dynamic references: o 1,2; sync and TMA (d = 2); m 0, 8; N 4096; W 1, 4 --
step 100 "$p" measure-refs --occupancy 1,2 --path sync,tma --depth 2 --compute 0,8 --N 4096 \
  --W 1,4 --repeat 2 --quiet --markers "$out/markers.csv" -o "$out/refs.csv" ||
  fail "reference runs"

# -- 5. the program player: named kernels' request programs --------------------
# Llama 3.1 70B attention (64 query heads, 8 KV heads, d 128, bf16) at 32k:
# decode at batch 1 (the GQA fold and the library's split-KV choice) and two
# query tokens at batch 16 (no fold: the heads-outermost grid); the MLP's
# up projection as CUTLASS launches it, swizzle 1 (the default) and 8.
cat >"$out/play-attention.yaml" <<EOF
name: device-check-play-attention
description: FlashAttention-2 decode programs for the program player (docs/kernels.md)
device: $root/configs/devices/$profile.yaml
models: [workload, traffic, lru_replay]
workload:
  attention: {batch: 1, q_heads: 64, kv_heads: 8, seq_q: 1, seq_kv: 32768, head_dim: 128,
              dtype: bf16, tile_q: 64, tile_kv: 128, kernel: flash-attn-2}
fixed: {occupancy: 2}
axes:
  seq_q: [1, 2]
  batch: [1, 16]
EOF
cat >"$out/play-prefill.yaml" <<EOF
name: device-check-play-prefill
description: FlashAttention-3 causal prefill programs for the program player (docs/kernels.md)
device: $root/configs/devices/$profile.yaml
models: [workload, traffic, lru_replay]
workload:
  attention: {batch: 1, q_heads: 64, kv_heads: 8, seq_q: 8192, seq_kv: 8192, head_dim: 128,
              dtype: bf16, tile_q: 128, tile_kv: 128, causal: true, kernel: flash-attn-3,
              num_splits: 1}
fixed: {occupancy: 1}
axes:
  capacity_bytes: [8MiB]
EOF
cat >"$out/play-gemm.yaml" <<EOF
name: device-check-play-gemm
description: CUTLASS GEMM programs for the program player (docs/kernels.md)
device: $root/configs/devices/$profile.yaml
models: [workload, traffic, lru_replay]
workload:
  gemm: {gemm_m: 8192, gemm_n: 28672, gemm_k: 8192, dtype: bf16, tile_m: 128, tile_n: 256,
         tile_k: 64, kernel: cutlass}
fixed: {occupancy: 1}
axes:
  swizzle: [1, 8]
EOF
if [ "$dry" = 1 ] && [ -x "$p" ]; then
  "$p" play "$out/play-attention.yaml" --select 0,3 --dry-run | tee -a "$logf"
  "$p" play "$out/play-prefill.yaml" --select 0 --dry-run | tee -a "$logf"
  "$p" play "$out/play-gemm.yaml" --select 0-1 --dry-run | tee -a "$logf"
fi
step 45 "$p" play "$out/play-attention.yaml" --select 0,3 --repeat 2 --quiet \
  -o "$out/play-attention.csv" || fail "player (attention)"
step 45 "$p" play "$out/play-prefill.yaml" --select 0 --repeat 2 --quiet \
  -o "$out/play-prefill.csv" || fail "player (prefill)"
step 45 "$p" play "$out/play-gemm.yaml" --select 0-1 --repeat 2 --quiet \
  -o "$out/play-gemm.csv" || fail "player (gemm)"

if [ "$dry" = 1 ]; then
  log "dry run: ${budget} s of budgets in all (at most 480), specs in $out"
  [ "$budget" -le 480 ]
  exit
fi
log "done, $fails step(s) failed: $(ls "$out" | tr '\n' ' ')"
[ "$fails" -eq 0 ]
