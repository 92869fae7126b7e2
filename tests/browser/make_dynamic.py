"""Writes a small synthetic sweep file with dynamic-model columns (K_dyn,
rho_dyn, band_lo, band_hi over a horizon axis W) in the pascal-sweep layout,
for the browser test of `pascal report`'s dynamic plot.  The numbers are made
up (a smooth decay in W); only the layout matters.

usage: /usr/bin/python3 make_dynamic.py OUT.h5"""
import sys

import h5py
import numpy as np

SPEC = """name: synthetic-dynamic
description: synthetic dynamic-model columns for the report's browser test
models: [dynamic]
axes:
  occupancy: [1, 2, 4, 8]
  path: [sync, tma]
  depth: [2, 3, 4]
  W: [1, 2, 4, 8, 16, 32, 64]
"""


def main(path):
    occ, paths, depth, W = [1, 2, 4, 8], [0, 1], [2, 3, 4], [1, 2, 4, 8, 16, 32, 64]
    grid = np.array(np.meshgrid(occ, paths, depth, W, indexing="ij")).reshape(4, -1)
    o, p, d, w = grid
    M = 48 * o
    rho = np.clip((0.08 + 0.6 / np.sqrt(w)) * (1 + 0.15 * (d - 2)) * (1 + 0.1 * p) / np.sqrt(o), 0, 1)
    rho = np.where((p == 1) & (d == 4) & (o == 8), np.nan, rho)  # an unsupported family
    cols = {
        "K_dyn": (M * rho, "misses/round", "whole-run fills per round (synthetic)"),
        "rho_dyn": (rho, "misses/request", "K_dyn / M (synthetic)"),
        "band_lo": (rho * 0.8, "misses/request", "band low (synthetic)"),
        "band_hi": (np.minimum(rho * 1.25, 1), "misses/request", "band high (synthetic)"),
    }
    path_t = h5py.enum_dtype({"sync": 0, "tma": 1}, basetype="i1")
    with h5py.File(path, "w") as f:
        for k, v in {"format": "pascal-sweep", "spec": SPEC, "spec_name": "synthetic-dynamic",
                     "pascal_version": "test", "command_line": "make_dynamic.py"}.items():
            f.attrs[k] = v
        f.attrs["format_version"] = np.int64(1)
        f.attrs["complete"] = np.int64(1)
        f.attrs["points"] = np.int64(o.size)
        ax = f.create_group("axes")
        ax.create_dataset("occupancy", data=np.array(occ, dtype=np.int64)).attrs["units"] = "CTAs/SM"
        ax.create_dataset("path", data=np.array(paths, dtype=np.int8), dtype=path_t).attrs["units"] = ""
        ax.create_dataset("depth", data=np.array(depth, dtype=np.int64)).attrs["units"] = "buffers"
        ax.create_dataset("W", data=np.array(W, dtype=np.float64)).attrs["units"] = "scans"
        pts = f.create_group("points")
        pts["occupancy"] = o.astype(np.int64)
        pts.create_dataset("path", data=p.astype(np.int8), dtype=path_t)
        pts["depth"] = d.astype(np.int64)
        pts["W"] = w.astype(np.float64)
        pts["M"] = M.astype(np.int64)
        res = f.create_group("results")
        for name, (v, units, desc) in cols.items():
            res[name] = v.astype(np.float64)
            res[name].attrs["units"] = units
            res[name].attrs["description"] = desc


if __name__ == "__main__":
    main(sys.argv[1])
