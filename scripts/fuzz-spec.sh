#!/usr/bin/env bash
# Fuzzes the spec parser (sweeps/ + the pattern names it uses) with libFuzzer
# under AddressSanitizer and UndefinedBehaviorSanitizer, starting from the
# specs in configs/ and tests/data/specs/.  Usage: scripts/fuzz-spec.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
out=build-fuzz
mkdir -p "$out/corpus"
cp configs/*.yaml tests/data/specs/*.yaml "$out/corpus/" 2>/dev/null || true
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I. $(pkg-config --cflags yaml-0.1) \
  tests/fuzz/spec_fuzz.c sweeps/*.c common/*.c model/phases.c \
  $(pkg-config --libs yaml-0.1) -lm -o "$out/spec_fuzz"
"$out/spec_fuzz" -max_total_time="$secs" -max_len=4096 "$out/corpus"
