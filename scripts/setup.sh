#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), then configures and builds
# pascal into build/.  Safe to run again: installed packages are skipped and
# the build is incremental.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake make gcc g++ pkg-config libyaml-dev libhdf5-dev zlib1g-dev libgtest-dev
          python3-h5py python3-pandas python3-numpy chromium)
# libc.a: build/pascal, the launcher (programs/launch.c), is linked statically
packages+=(libc6-dev)
# The report's browser test: Selenium drives headless Chromium through chromedriver.
packages+=(chromium-driver python3-selenium)
# the man page (cmake/install.cmake) is generated from --help by help2man
packages+=(help2man)
# Reading sweep files as docs/hdf5.md shows (xarray over the /cube view), and
# netCDF's ncdump, which the tests run on a sweep file.
packages+=(python3-xarray python3-h5netcdf netcdf-bin)
# h5diff and h5dump, which scripts/same-results.sh compares two builds with.
packages+=(hdf5-tools)
# build/pascal-mpi (docs/scale.md): Open MPI and the parallel HDF5 beside the
# serial one; procps for the MPI tests' pgrep.
packages+=(openmpi-bin libopenmpi-dev libhdf5-openmpi-dev procps)
packages+=(libgsl-dev)   # Sobol sequences for sampled specs
packages+=(libisal-dev)  # fast deflate for HDF5 chunks (output/zchunk.c)
packages+=(nettle-dev)   # SHA-256 of a run's inputs (output/digest.c)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# node and npm install and test the report's plotting library; a node or npm
# already on PATH (installed outside dpkg) is used as it is.
command -v node >/dev/null 2>&1 || dpkg -s nodejs >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || dpkg -s npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

jobs=$(nproc 2>/dev/null || echo 2)
# PASCAL_WERROR=ON (CI's release build, .ci/run) makes C warnings errors.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPASCAL_WERROR="${PASCAL_WERROR:-OFF}" >/dev/null
cmake --build build -j "$jobs" >&2
