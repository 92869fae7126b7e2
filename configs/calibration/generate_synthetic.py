#!/usr/bin/env python3
"""Writes synthetic-gb10-refs.csv: SYNTHETIC reference runs for `pascal
calibrate`, in the format o,path,d,m,N,W,K.  No GPU measured these numbers.

They follow a made-up response law shaped like the paper's saturation
example (section 4.2, eq. 18 with nu = 1): the instantaneous fill count at
work coordinate u is k(u) = 1 + beta (1 - exp(-u / ell)), so the whole-run
average over x = W N / 4096 is

    K(x) = 1 + beta * (1 - (ell / x) * (1 - exp(-x / ell)))

with beta and ell depending on occupancy o, path, depth d, compute m and
the execution class s(m) = min(m mod 4, 2).  Each run gets multiplicative
log-normal noise (sd 0.03) from a fixed-seed splitmix64 generator, three
repetitions per (key, N, W).  Some keys are deliberately sparse so that the
calibration's completion rules are exercised: m = 41 keys lack the short
horizons (initial anchor) and o = 2, m = 22 keys have only the two end
horizons (shape template).

Deterministic: the same script writes the same bytes.  Usage:
    python3 configs/calibration/generate_synthetic.py > configs/calibration/synthetic-gb10-refs.csv
"""
import math
import sys

SMS = 48                      # GB10
COMPUTES = [0, 2, 5, 8, 13, 16, 22, 24, 32, 41]
CLASS_FACTOR = [1.0, 0.55, 0.8]
NS = [4096, 8192]
WS = [1, 2, 4, 8, 16, 32, 64]
REPS = 3
NOISE_SD = 0.03
SEED = 0x5EED_CA11B


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self):            # (0, 1)
        return ((self.next() >> 11) + 0.5) / float(1 << 53)

    def normal(self):             # Box-Muller, one value per call
        u1, u2 = self.uniform(), self.uniform()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def law(o, path, d, m, x):
    """The synthetic whole-run fill count K at work coordinate x."""
    s = min(m % 4, 2)
    depth = 1.0 if path == "sync" else 1.4 / math.sqrt(d)
    beta = 1.2 * o ** 0.8 * depth * (1.0 + 0.02 * m) * CLASS_FACTOR[s]
    ell = 20.0 * (1.0 + m / 16.0) / math.sqrt(o) * (1.0 if path == "sync" else 1.0 + 0.3 * d)
    k = 1.0 + beta * (1.0 - (ell / x) * (1.0 - math.exp(-x / ell)))
    return min(k, SMS * o)


def horizons(o, m):
    if m == 41:                   # no short runs: needs the initial anchor
        return [(n, w) for n in NS for w in WS if w >= 8]
    if o == 2 and m == 22:        # only the end horizons: needs a shape template
        return [(4096, 1), (8192, 64)]
    return [(n, w) for n in NS for w in WS]


def keys():
    for o in (1, 2, 4):
        for m in COMPUTES:
            yield o, "sync", 0, m
    for o in (1, 2):
        for d in (2, 3, 5, 6):
            for m in COMPUTES:
                yield o, "tma", d, m


def main(out):
    rng = SplitMix64(SEED)
    out.write("# SYNTHETIC reference runs (not GPU measurements), written by\n")
    out.write("# configs/calibration/generate_synthetic.py; see README.md there.\n")
    out.write("# device: GB10 profile (48 SMs, C = 1280 blocks of 16 KiB)\n")
    out.write("o,path,d,m,N,W,K\n")
    for o, path, d, m in keys():
        for n, w in horizons(o, m):
            true_k = law(o, path, d, m, w * n / 4096.0)
            for _ in range(REPS):
                k = max(true_k * math.exp(NOISE_SD * rng.normal()), 1e-6)
                out.write("%d,%s,%d,%d,%d,%d,%.6g\n" % (o, path, d, m, n, w, k))


if __name__ == "__main__":
    main(sys.stdout)
