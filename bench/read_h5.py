#!/usr/bin/python3
"""HDF5 benchmarks for docs/hdf5.md (figures only; nothing passes or fails).

Run with Debian's /usr/bin/python3 (python3-h5py, -pandas, -xarray,
-h5netcdf):

  bench/read_h5.py read FILE.h5 [--reps 3]
      Ways of reading a sweep file into pandas or xarray, each in a fresh
      process: wall and CPU seconds, peak resident memory, and the size of
      the data read.  Separates what the old README snippet paid for: the
      column reads themselves, enum decoding, the chunk cache, and pandas
      copying the columns into one block.

  bench/read_h5.py levels PASCAL SPEC DIR [--reps 3] [--levels 0,1,...]
      `PASCAL run SPEC --compression L` for each deflate level: run time
      (wall and CPU), file size, and the time to read the file back the
      fast way.  Files go to DIR and are removed.

Medians over --reps runs.  CPU seconds are the process's own (and its
threads'); on a shared machine they vary less than wall time.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time


# ---- ways of reading (run in a child process) ------------------------------

def read_sweep(path):
    """The fast way (docs/hdf5.md): enum columns as categoricals, and no
    copy of the columns into one block."""
    import h5py
    import pandas as pd
    cols = {}
    with h5py.File(path, "r") as f:
        for group in ("points", "results"):
            for name, d in f[group].items():
                enum = h5py.check_enum_dtype(d.dtype)
                v = d[:]
                cols[name] = pd.Categorical.from_codes(v, sorted(enum, key=enum.get)) if enum else v
    return pd.DataFrame(cols, copy=False)


def way_snippet(path):
    """The README's snippet before format version 2."""
    import h5py
    import pandas as pd
    with h5py.File(path) as f:
        df = pd.DataFrame({k: f[g][k][:] for g in ("points", "results") for k in f[g]})
    return int(df.memory_usage(index=False).sum())


def way_columns(path, cache_bytes=None):
    """Only the column reads, into numpy arrays."""
    import h5py
    kw = {"rdcc_nbytes": cache_bytes, "rdcc_nslots": 100003} if cache_bytes else {}
    with h5py.File(path, "r", **kw) as f:
        arrays = [f[g][k][:] for g in ("points", "results") for k in f[g]]
    return sum(a.nbytes for a in arrays)


def way_enum(path):
    """Only the enum columns (h5py converts the HDF5 enum to its codes)."""
    import h5py
    n = 0
    with h5py.File(path, "r") as f:
        for name, d in f["points"].items():
            if h5py.check_enum_dtype(d.dtype):
                n += d[:].nbytes
    return n


def way_fast(path):
    df = read_sweep(path)
    return int(df.memory_usage(index=False).sum())


def way_xarray(path):
    import xarray as xr
    ds = xr.open_dataset(path, engine="h5netcdf", group="cube").load()
    return int(ds.nbytes)


WAYS = {
    "snippet": (way_snippet, "old README snippet: pd.DataFrame({k: f[g][k][:] ...})"),
    "columns": (way_columns, "column reads only (h5py d[:], default 1 MiB chunk cache)"),
    "columns-64MiB-cache": (lambda p: way_columns(p, 64 << 20), "column reads, 64 MiB chunk cache"),
    "enum": (way_enum, "enum columns only"),
    "fast": (way_fast, "read_sweep(): categoricals, pd.DataFrame(cols, copy=False)"),
    "xarray": (way_xarray, "xarray.open_dataset(group='cube').load()"),
}


def child(way, path):
    t0, c0 = time.perf_counter(), time.process_time()
    nbytes = WAYS[way][0](path)
    t1, c1 = time.perf_counter(), time.process_time()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"wall": t1 - t0, "cpu": c1 - c0, "rss": rss, "bytes": nbytes}))


def measure(way, path, reps):
    runs = []
    for _ in range(reps):
        out = subprocess.run([sys.executable, __file__, "child", way, path], check=True,
                             capture_output=True, text=True).stdout
        runs.append(json.loads(out))
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


# ---- commands ----------------------------------------------------------------

def cmd_read(args):
    size = os.path.getsize(args.file)
    print(f"{args.file}: {size / 2**20:.0f} MiB on disk; median of {args.reps} runs, "
          f"each in a fresh process")
    print("| way | wall s | CPU s | peak RSS MiB | data MiB | RSS / data |")
    print("| --- | --- | --- | --- | --- | --- |")
    for way in args.ways.split(","):
        m = measure(way, args.file, args.reps)
        print(f"| {WAYS[way][1]} | {m['wall']:.2f} | {m['cpu']:.2f} | {m['rss'] / 2**20:.0f} | "
              f"{m['bytes'] / 2**20:.0f} | {m['rss'] / max(m['bytes'], 1):.2f} |")


def run_pascal(pascal, spec, out, level):
    t0 = time.perf_counter()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([pascal, "run", spec, "-o", out, "--quiet", "--compression", str(level)],
                   check=True, stdout=subprocess.DEVNULL)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return time.perf_counter() - t0, cpu


def cmd_levels(args):
    print(f"{args.spec} with {args.pascal}; median of {args.reps} runs")
    print("| level | run wall s | run CPU s | size MiB | ratio | read wall s | read CPU s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    raw = None
    for level in [int(x) for x in args.levels.split(",")]:
        out = os.path.join(args.dir, f"level{level}.h5")
        walls, cpus, rwall, rcpu = [], [], [], []
        for _ in range(args.reps):
            w, c = run_pascal(args.pascal, args.spec, out, level)
            walls.append(w)
            cpus.append(c)
            m = measure("fast", out, 1)
            rwall.append(m["wall"])
            rcpu.append(m["cpu"])
        size = os.path.getsize(out)
        os.unlink(out)
        raw = raw or (size if level == 0 else None)
        ratio = f"{raw / size:.1f}" if raw else "-"
        print(f"| {level} | {statistics.median(walls):.2f} | {statistics.median(cpus):.2f} | "
              f"{size / 2**20:.0f} | {ratio} | {statistics.median(rwall):.2f} | "
              f"{statistics.median(rcpu):.2f} |", flush=True)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "child":
        return child(sys.argv[2], sys.argv[3])
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("read")
    r.add_argument("file")
    r.add_argument("--reps", type=int, default=3)
    r.add_argument("--ways", default=",".join(WAYS))
    lv = sub.add_parser("levels")
    lv.add_argument("pascal")
    lv.add_argument("spec")
    lv.add_argument("dir")
    lv.add_argument("--reps", type=int, default=3)
    lv.add_argument("--levels", default="0,1,2,3,4,5,6,7,8,9")
    args = p.parse_args()
    return cmd_read(args) if args.cmd == "read" else cmd_levels(args)


if __name__ == "__main__":
    main()
