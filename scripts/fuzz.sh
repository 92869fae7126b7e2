#!/usr/bin/env bash
# Fuzzes an input parser with libFuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer.  Usage: scripts/fuzz.sh [spec|refs] [seconds]
#   spec: sweep specs (sweeps/), seeded with configs/ and tests/data/specs/
#   refs: calibration reference CSV (calibrate/refs.c), seeded with
#         configs/calibration/
set -euo pipefail
cd "$(dirname "$0")/.."
target=spec
if [ "${1:-}" = spec ] || [ "${1:-}" = refs ]; then target=$1; shift; fi
secs=${1:-60}
out=build-fuzz

# The C sources of the folders named, less the MPI-only *_mpi.c (pascal-mpi's,
# engine/mpi/mpi.cmake).
sources() { for d in "$@"; do for f in "$d"/*.c; do case $f in *_mpi.c) ;; *) echo "$f" ;; esac; done; done; }

mkdir -p "$out/corpus-$target" "$out/include/pascal"
# pascal/version.h, as CMake makes it from the project's version.
version=$(sed -n 's/^project(pascal VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
IFS=. read -r major minor patch <<<"$version"
sed -e "s/@PROJECT_VERSION_MAJOR@/$major/; s/@PROJECT_VERSION_MINOR@/$minor/" \
    -e "s/@PROJECT_VERSION_PATCH@/$patch/; s/@PROJECT_VERSION@/$version/" \
    include/pascal/version.h.in >"$out/include/pascal/version.h"
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
       -I. -Iinclude -I"$out/include" $(pkg-config --cflags yaml-0.1))
if [ "$target" = spec ]; then
  cp configs/*.yaml tests/data/specs/*.yaml "$out/corpus-$target/" 2>/dev/null || true
  clang "${flags[@]}" tests/fuzz/spec_fuzz.c $(sources common model vocab devices sweeps) \
    $(pkg-config --libs yaml-0.1) $(pkg-config --libs gsl) -lpthread -lm -o "$out/spec_fuzz"
else
  head -c 4000 configs/calibration/synthetic-gb10-refs.csv > "$out/corpus-$target/seed.csv"
  clang "${flags[@]}" -fopenmp -I/usr/include/hdf5/serial tests/fuzz/refs_fuzz.c \
    $(sources common model vocab devices sweeps output output/fs calibrate) \
    -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5_hl -lhdf5 -lz $(pkg-config --libs yaml-0.1) \
    $(pkg-config --libs gsl) $(pkg-config --libs libisal) $(pkg-config --libs nettle) -lm \
    -o "$out/refs_fuzz"
fi
"$out/${target}_fuzz" -max_total_time="$secs" -max_len=4096 "$out/corpus-$target"
