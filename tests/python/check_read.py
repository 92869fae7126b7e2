"""Reads sweep files the ways docs/hdf5.md shows, with Debian's pandas,
xarray and h5netcdf, and checks them against the flat columns read with
plain h5py.  Usage: check_read.py CARTESIAN.h5 ZIP.h5 WHERE.h5 (the specs
are in tests/output_cube_test.cc).  Exits non-zero on the first mismatch."""
import sys

import h5py
import numpy as np
import pandas as pd
import xarray as xr


def read_sweep(path):
    """docs/hdf5.md: the flat table, enum columns as categoricals."""
    cols = {}
    with h5py.File(path, "r") as f:
        for group in ("points", "results"):
            for name, d in f[group].items():
                enum = h5py.check_enum_dtype(d.dtype)
                v = d[:]
                cols[name] = pd.Categorical.from_codes(v, sorted(enum, key=enum.get)) if enum else v
    return pd.DataFrame(cols, copy=False)


def flat(path):
    """Plain h5py: name -> array; enum columns as lists of labels."""
    out = {}
    with h5py.File(path, "r") as f:
        for group in ("points", "results"):
            for name, d in f[group].items():
                v = d[:]
                enum = h5py.check_enum_dtype(d.dtype)
                if enum:
                    label = {code: key for key, code in enum.items()}
                    v = [label[int(c)] for c in v]
                out[name] = v
    return out


def same(a, b):
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


def check_pandas(path):
    df, ref = read_sweep(path), flat(path)
    assert list(df.columns) == list(ref), (list(df.columns), list(ref))
    assert isinstance(df["pattern"].dtype, pd.CategoricalDtype), df["pattern"].dtype
    assert list(df["pattern"].astype(str)) == ref["pattern"]
    for name, v in ref.items():
        if name != "pattern":
            assert same(df[name].to_numpy(), v), name
    return df


def check_cartesian(path):
    df = check_pandas(path)
    ref = flat(path)
    ds = xr.open_dataset(path, engine="h5netcdf", group="cube")
    assert dict(ds.sizes) == {"pattern": 3, "seed": 2, "C": 4}, dict(ds.sizes)
    assert ds.rho_ttl.dims == ("pattern", "seed", "C"), ds.rho_ttl.dims
    assert list(ds.pattern.values) == ["aligned", "uniform", "clusters"], ds.pattern.values
    assert list(ds.seed.values) == [3, 1] and list(ds.C.values) == [256, 512, 1024, 2048]
    assert ds.C.attrs["units"] == "blocks", ds.C.attrs
    assert ds.rho_ttl.attrs["units"] == "misses/request", ds.rho_ttl.attrs
    assert ds.theta.attrs["units"] == "rounds"
    assert {"M", "N"} <= set(ds.coords), list(ds.coords)
    for name in ("rho_ttl", "K_ttl", "theta", "rho_che"):
        assert same(ds[name].values.ravel(), ref[name]), name
    assert same(ds.M.values.ravel(), ref["M"])
    # A labelled selection finds the row pandas finds by value.
    row = df[(df.pattern == "uniform") & (df.seed == 1) & (df.C == 512)]
    assert len(row) == 1
    got = ds.rho_ttl.sel(pattern="uniform", seed=1, C=512).item()
    assert got == row.rho_ttl.iloc[0], (got, row.rho_ttl.iloc[0])


def check_zip(path):
    check_pandas(path)
    ref = flat(path)
    ds = xr.open_dataset(path, engine="h5netcdf", group="cube")
    assert ds.rho_ttl.dims == ("pattern", "block_bytes", "seed"), ds.rho_ttl.dims
    assert ds.capacity_bytes.dims == ("block_bytes",)
    assert list(ds.capacity_bytes.values) == [4 << 20, 4 << 20, 8 << 20]
    assert ds.capacity_bytes.attrs["units"] == "bytes", ds.capacity_bytes.attrs
    assert same(ds.rho_ttl.values.ravel(), ref["rho_ttl"])
    assert same(ds.C.values.ravel(), ref["C"])


def check_where(path):
    df = check_pandas(path)
    ref = flat(path)
    ds = xr.open_dataset(path, engine="h5netcdf", group="cube")
    assert dict(ds.sizes) == {"point": 7}, dict(ds.sizes)
    assert {"pattern", "C", "M", "N"} <= set(ds.coords), list(ds.coords)
    # Labels along `point` are codes with CF flag_meanings (docs/hdf5.md).
    names = np.array(ds.pattern.attrs["flag_meanings"].split())
    assert list(names[ds.pattern.values]) == ref["pattern"], ds.pattern.values
    assert same(ds.C.values, ref["C"]) and same(ds.rho_ttl.values, ref["rho_ttl"])
    assert ds.rho_ttl.attrs["units"] == "misses/request"
    # The point layout converts to the flat table.
    back = ds.to_dataframe().reset_index(drop=True)
    assert same(back["rho_ttl"].to_numpy(), df["rho_ttl"].to_numpy())
    assert list(names[back["pattern"]]) == list(df["pattern"].astype(str))


check_cartesian(sys.argv[1])
check_zip(sys.argv[2])
check_where(sys.argv[3])
print("ok")
