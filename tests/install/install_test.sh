#!/usr/bin/env bash
# The installed tree (ctest: install_consumer).  Installs the build into a
# fresh prefix, then checks what a user of the library and of the command
# gets there:
#   - the tree: bin/pascal runs; the public headers and only those; the
#     shipped configs; the CMake package and pkg-config file; completion;
#     the man page (when help2man was found);
#   - every public header compiles on its own, as C and as C++;
#   - the libraries export exactly the PASCAL_API names of the installed
#     headers, the static and the shared ones alike;
#   - tests/install/consumer builds with find_package (static, and shared
#     when built) and with pkg-config (shared, and static with --static),
#     runs from outside the source tree and prints the values worked out
#     by hand in consumer.c;
#   - tests/install/model builds against libpascal_model alone (find_package
#     pascal::model and pkg-config pascal-model), needs no library but libc
#     and libm, and prints the values worked out by hand in model.c;
#   - docs/library.md shows those very programs, and its Python (ctypes)
#     example prints the values worked out by hand against libpascal.so;
#   - the completion, sourced in bash, completes commands, flags and their
#     choices from the installed binary.
set -euo pipefail

while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2 ;; --source) src=$2 ;; --work) work=$2 ;; --version) version=$2 ;;
    --cmake) cmake=$2 ;; --cc) cc=$2 ;; --cxx) cxx=$2 ;; --shared) shared=$2 ;; --man) man=$2 ;;
    --cflags) cflags=${2#x} ;; --ldflags) ldflags=${2#x} ;;
    *) echo "install_test: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done

fail() { echo "install_test: FAIL: $*" >&2; exit 1; }
# The library's compile and link flags, for every consumer build (CMake
# reads CFLAGS, CXXFLAGS and LDFLAGS when it configures a new tree).
cflags=${cflags:-} ldflags=${ldflags:-}
export CFLAGS=$cflags CXXFLAGS=$cflags LDFLAGS=$ldflags
# A library built with AddressSanitizer needs its runtime loaded first in a
# program that was not (python3 for the ctypes example).
preload=
case $ldflags in
  *sanitize=address*) preload="$("$cc" -print-file-name=libasan.so) $("$cc" -print-file-name=libubsan.so)" ;;
esac
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || fail "cmake --install (see $work/install.log)"
cd "$work" # nothing below may lean on the source or build tree

# ---- the tree ---------------------------------------------------------------
[ "$("$prefix/bin/pascal" --version)" = "pascal $version" ] || fail "bin/pascal --version"
# the launcher runs the program proper from libexec/pascal/, not the build tree
[ -x "$prefix/libexec/pascal/pascal-core" ] || fail "no libexec/pascal/pascal-core"
[ "$(env -i "$prefix/bin/pascal" --version)" = "pascal $version" ] || fail "bin/pascal without PATH"
pc=$(find "$prefix" -name pascal.pc)
[ -n "$pc" ] || fail "no pascal.pc"
libdir=$(dirname "$(dirname "$pc")")
[ -f "$libdir/libpascal.a" ] || fail "no libpascal.a in $libdir"
[ -f "$libdir/cmake/pascal/pascalConfig.cmake" ] || fail "no CMake package"
# The public headers, exactly: include/pascal/ and the generated version.h.
want=$( (cd "$src/include/pascal" && ls ./*.h; echo version.h) | sed 's|^\./||' | sort)
have=$(cd "$prefix/include/pascal" && find . -type f | sed 's|^\./||' | sort)
[ "$want" = "$have" ] || fail "installed headers differ from include/pascal/:
$(diff <(echo "$want") <(echo "$have"))"
for lib in libpascal_model.a libpascal.a; do
  [ -f "$libdir/$lib" ] || fail "no $lib in $libdir"
done

# ---- what the libraries export ------------------------------------------------
# The names the headers mark PASCAL_API (the word before the parameter list).
declared=$(grep -hv '#define PASCAL_API' "$prefix"/include/pascal/*.h | tr '\n' ' ' | grep -o 'PASCAL_API [^;(]*(' |
           sed 's/($//; s/.*[ *]//' | sort -u)
echo "$declared" | grep -qv '^pascal_' && fail "a PASCAL_API name without the pascal_ prefix"
model_declared=$(tr '\n' ' ' <"$prefix/include/pascal/model.h" | grep -o 'PASCAL_API [^;(]*(' |
                 sed 's/($//; s/.*[ *]//'; echo pascal_version pascal_version_number)
model_declared=$(echo "$model_declared" | tr ' ' '\n' | grep . | sort -u)
exported() { # FILE: its global defined symbols
  case $1 in
    *.a) nm -g --defined-only "$1" | awk 'NF == 3 {print $3}' | sort -u ;;
    *) nm -D --defined-only "$1" | awk 'NF == 3 && $2 ~ /[TDBRVW]/ {print $3}' | sort -u ;;
  esac
}
check_exports() { # LIB WANT
  local got
  got=$(exported "$1")
  [ "$got" = "$2" ] || fail "$(basename "$1") exports other names than its headers declare:
$(diff <(echo "$2") <(echo "$got"))"
}
check_exports "$libdir/libpascal.a" "$declared"
check_exports "$libdir/libpascal_model.a" "$model_declared"
if [ "$shared" = 1 ]; then
  for lib in pascal pascal_model; do
    so=$(readlink -f "$libdir/lib$lib.so")
    soname=$(objdump -p "$so" | awk '$1 == "SONAME" {print $2}')
    [ "$soname" = "lib$lib.so.${version%.*}" ] || fail "SONAME $soname, expected lib$lib.so.${version%.*}"
    [ -e "$libdir/$soname" ] || fail "no $soname link"
  done
  check_exports "$(readlink -f "$libdir/libpascal.so")" "$declared"
  check_exports "$(readlink -f "$libdir/libpascal_model.so")" "$model_declared"
  soname=libpascal.so.${version%.*}
fi
echo "install_test: exports: ok ($(echo "$declared" | wc -l) names in libpascal," \
     "$(echo "$model_declared" | wc -l) in libpascal_model)"
for internal in model/static_ws.h output/sink_internal.h sweeps/spec_internal.h report/report.h \
                kernels/gpu.h programs/cli.h engine/parallel.h engine/run.h model/static.h; do
  [ ! -e "$prefix/include/pascal/$internal" ] || fail "internal header $internal installed"
done
share=$prefix/share/pascal
for f in devices/gb10.yaml devices/h100.yaml devices/h200.yaml default.yaml \
         calibration/synthetic-gb10-refs.csv; do
  cmp -s "$src/configs/$f" "$share/$f" || fail "share/pascal/$f differs from configs/$f"
done
comp=$prefix/share/bash-completion/completions/pascal
[ -f "$comp" ] || fail "no bash completion"
if [ "$man" = 1 ]; then
  page=$prefix/share/man/man1/pascal.1
  [ -f "$page" ] || fail "no man page"
  grep -q '^\.SS "pascal run"' "$page" || fail "the man page lacks the run command's options"
  grep -q 'dry\\-run' "$page" || fail "the man page lacks --dry-run"
fi

# ---- every public header on its own -------------------------------------------
for h in $want; do
  printf '#include <pascal/%s>\nint main(void) { return 0; }\n' "$h" >one.c
  "$cc" -std=c11 -Wall -Wextra -Werror -I"$prefix/include" -c one.c -o one.o ||
    fail "<pascal/$h> does not compile on its own as C"
  cp one.c one.cc
  "$cxx" -std=c++17 -Wall -Wextra -Werror -I"$prefix/include" -c one.cc -o one.o ||
    fail "<pascal/$h> does not compile on its own as C++"
done

# ---- the consumer ---------------------------------------------------------------
expected="pascal $version (headers $version)
static: theta 2.5, K_ttl 2, K_lru 2, band [1, 3], rho_che 0.3
device NVIDIA GB10: 48 SMs, effective L2 20971520 bytes
spec gb10-l2-sizing-default: 1280 points; point 0: N 8192, M 48, C 256
sweep worked-example: 10 rows, 10 read back, rho_lru at C = 7: 0.666667; smallest C with rho_lru <= 0.34: 9"
check() { # NAME COMMAND...: runs it and compares its output
  local name=$1 out
  shift
  rm -rf "$work/run" && mkdir -p "$work/run"
  out=$("$@" "$share" "$work/run") || fail "$name exited with $?"
  [ "$out" = "$expected" ] || fail "$name printed
$out
expected
$expected"
  echo "install_test: $name: ok"
}
cp "$src/tests/install/consumer/consumer.c" "$src/tests/install/consumer/CMakeLists.txt" "$work/"
"$cmake" -S "$work" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_BUILD_TYPE=Release >"$work/cmake.log" 2>&1 || fail "find_package configure (see $work/cmake.log)"
"$cmake" --build "$work/cmake" >>"$work/cmake.log" 2>&1 || fail "find_package build (see $work/cmake.log)"
objdump -p "$work/cmake/consumer" | grep -q 'NEEDED.*libpascal' && fail "pascal::pascal linked libpascal.so"
check "find_package pascal::pascal (static)" "$work/cmake/consumer"
# The same program as C++, in a project that enables only C++.
mkdir -p "$work/cxx"
cp "$work/consumer.c" "$work/cxx/consumer.cc"
cat >"$work/cxx/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(pascal_consumer_cxx CXX)
find_package(pascal REQUIRED)
add_executable(consumer consumer.cc)
target_link_libraries(consumer PRIVATE pascal::pascal)
CMAKE
"$cmake" -S "$work/cxx" -B "$work/cxx/b" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  >"$work/cxx.log" 2>&1 && "$cmake" --build "$work/cxx/b" >>"$work/cxx.log" 2>&1 ||
  fail "find_package from a C++-only project (see $work/cxx.log)"
check "find_package pascal::pascal (C++ project)" "$work/cxx/b/consumer"
if [ "$shared" = 1 ]; then
  objdump -p "$work/cmake/consumer_shared" | grep -q "NEEDED.*$soname" ||
    fail "pascal::pascal_shared did not link $soname"
  check "find_package pascal::pascal_shared" "$work/cmake/consumer_shared"
fi

export PKG_CONFIG_PATH=$libdir/pkgconfig
[ "$(pkg-config --modversion pascal)" = "$version" ] || fail "pkg-config --modversion"
# shellcheck disable=SC2046
"$cc" -o consumer_pc_static consumer.c $cflags $ldflags $(pkg-config --cflags pascal) \
  $(pkg-config --static --libs pascal | sed 's/-lpascal\b/-l:libpascal.a/') || fail "pkg-config --static build"
objdump -p consumer_pc_static | grep -q 'NEEDED.*libpascal' && fail "the --static build linked libpascal.so"
check "pkg-config --static" ./consumer_pc_static
if [ "$shared" = 1 ]; then
  # shellcheck disable=SC2046
  "$cc" -o consumer_pc consumer.c $cflags $ldflags $(pkg-config --cflags --libs pascal) || fail "pkg-config build"
  LD_LIBRARY_PATH=$libdir check "pkg-config (shared)" ./consumer_pc
fi

# ---- the model alone --------------------------------------------------------------
model_expected="model $version: K_lru 2, replayed 2, K_bound 0.643, equal phases 0 4 8"
check_model() { # NAME PROGRAM: runs it, compares its output, and checks what it needs
  local out needs
  out=$("$2") || fail "$1 exited with $?"
  [ "$out" = "$model_expected" ] || fail "$1 printed
$out
expected
$model_expected"
  # (a sanitized build's consumers need the sanitizers' runtimes, nothing more)
  needs=$(objdump -p "$2" | awk '$1 == "NEEDED" {print $2}' |
          grep -Ev '^(libc|libm|libpascal_model|libasan|libubsan)\.so' || true)
  [ -z "$needs" ] || fail "$1 needs more than libc, libm and libpascal_model: $needs"
  echo "install_test: $1: ok"
}
mkdir -p "$work/model"
cp "$src/tests/install/model/model.c" "$src/tests/install/model/CMakeLists.txt" "$work/model/"
"$cmake" -S "$work/model" -B "$work/model/b" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  >"$work/model.log" 2>&1 && "$cmake" --build "$work/model/b" >>"$work/model.log" 2>&1 ||
  fail "find_package pascal::model (see $work/model.log)"
check_model "find_package pascal::model" "$work/model/b/model"
# shellcheck disable=SC2046
"$cc" -o model_pc "$work/model/model.c" $cflags $ldflags $(pkg-config --cflags pascal-model) \
  $(pkg-config --static --libs pascal-model | sed 's/-lpascal_model\b/-l:libpascal_model.a/') ||
  fail "pkg-config pascal-model build"
check_model "pkg-config pascal-model (static)" ./model_pc
if [ "$shared" = 1 ]; then
  LD_LIBRARY_PATH=$libdir check_model "find_package pascal::model_shared" "$work/model/b/model_shared"
fi

# ---- the documentation's examples --------------------------------------------------
doc=$src/docs/library.md
block() { # LANG N: the N-th fenced block of that language in docs/library.md
  awk -v lang="$1" -v n="$2" '$0 == "```" lang {k++; on = (k == n); next}
                               on && $0 == "```" {exit} on' "$doc"
}
block c 1 | cmp -s - "$src/tests/install/consumer/consumer.c" ||
  fail "docs/library.md's first C example differs from tests/install/consumer/consumer.c"
block c 2 | cmp -s - "$src/tests/install/model/model.c" ||
  fail "docs/library.md's second C example differs from tests/install/model/model.c"
if [ "$shared" = 1 ] && command -v python3 >/dev/null; then
  block python 1 >notebook.py
  # Theorem 2 and eq. 15 at C = 1..10 for gaps 2, 5, 3 and reuse distances
  # 4, 9, 8 (consumer.c works them out).
  want_py="1 3 3.0
2 3 3.0
3 3 3.0
4 3 3.0
5 3 2.0
6 2 2.0
7 2 2.0
8 1 2.0
9 1 1.0
10 0 0.0"
  out=$(LD_LIBRARY_PATH=$libdir LD_PRELOAD=$preload ASAN_OPTIONS=detect_leaks=0 python3 notebook.py) ||
    fail "the docs' Python example failed"
  [ "$out" = "$want_py" ] || fail "the docs' Python example printed
$out"
  echo "install_test: ctypes: ok"
fi

# ---- completion -------------------------------------------------------------------
complete_words() { # WORDS...: what the completion offers for the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
           _pascal "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
           printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$comp" "$@"
}
[ "$(complete_words "$prefix/bin/pascal" ru)" = "run " ] || fail "completing a command"
[ "$(complete_words "$prefix/bin/pascal" run --dr)" = "--dry-run " ] || fail "completing a flag"
[ "$(complete_words "$prefix/bin/pascal" run --format "")" = "csv hdf5 " ] || fail "completing a flag's choices"
[ "$(complete_words "$prefix/bin/pascal" run "$share/devices/gb")" = "$share/devices/gb10.yaml " ] ||
  fail "completing a file name"
echo "install_test: completion: ok"
