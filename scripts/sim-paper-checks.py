#!/usr/bin/env python3
"""The GB10 profile's simulator against the PASCAL paper's facts (section
3.6, Figure 4, Theorem 6): prints the markdown tables of docs/simulate.md.
Python standard library only; runs build/pascal (a few minutes on 2 cores).

usage: scripts/sim-paper-checks.py [--pascal build/pascal] [--threads 2]"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

PROFILE = "configs/devices/gb10.yaml"
SEEDS = [1, 2, 3, 4, 5]
BIG = "1e12"  # a bandwidth that never queues: Theorem 6's fixed latencies


def sim(a, args):
    cmd = [a.pascal, "simulate", "--device", PROFILE, "--N", "4096", "--json"] + args
    if "--C" not in args:
        cmd += ["--C", "1280"]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def mean(xs):
    return sum(xs) / len(xs)


def section_36(a):
    print("### Section 3.6: time per round and K (N 4096, M 48, C 1280, m 0, tma)\n")
    print("| fact | paper | simulated (mean of seeds 1-5) | ratio | role |")
    print("|---|---|---|---|---|")
    rows = []
    for d, paper, role in [(2, 841, "fitted (hit_ns + dram_ns)"), (3, 465, "held out"),
                           (4, 424, "fitted (sm_bytes_per_ns)")]:
        v = mean([sim(a, ["--o", "1", "--path", "tma", "--d", str(d), "--m", "0", "--W", "1",
                          "--seed", str(s)])["first_wave_ns_per_round"] for s in SEEDS])
        rows.append(("first wave, d = %d: ns per round" % d, paper, v, role))
    runs = [sim(a, ["--o", "1", "--path", "tma", "--d", "4", "--m", "0", "--W", "32", "--seed",
                    str(s)]) for s in SEEDS]
    k1 = mean([r["K_wave"][0] for r in runs])
    rows.append(("d = 4, first wave: K", 1.00, k1, "held out"))
    rows.append(("d = 4, 32 waves: K", 5.58, mean([r["K_H"] for r in runs]), "fitted (sm_spread)"))
    rows.append(("d = 4, 32 waves: ns per round", 425, mean([r["ns_per_round"] for r in runs]),
                 "held out"))
    for name, paper, v, role in rows:
        print("| %s | %g | %.4g | %.3f | %s |" % (name, paper, v, v / paper, role))
    print()


def groups(r):
    """Phase groups at a quarter, half and three quarters of the work, and
    the most at any sample (the last wave's tail thins out to few CTAs)."""
    g = r.get("phase_groups", [])
    n = len(g)
    return "%d, %d, %d (max %d)" % (g[n // 4], g[n // 2], g[3 * n // 4], max(g)) if g else "-"


def section_4a(a):
    print("### Figure 4a: phase groups (gap 32) over the run, occupancy alone does not decide\n")
    print("| trace | paper | simulated K_H | phase groups at 1/4, 1/2, 3/4 of the work |")
    print("|---|---|---|---|")
    for name, args, paper in [
        ("sync, occupancy 1, no compute, W 64", ["--o", "1", "--path", "sync", "--m", "0", "--W", "64"],
         "stays aligned (1 group)"),
        ("tma, occupancy 1, d 4, W 32", ["--o", "1", "--path", "tma", "--d", "4", "--m", "0", "--W", "32"],
         "fragments (about 10-20 groups)"),
        ("sync, occupancy 4, no compute, W 64", ["--o", "4", "--path", "sync", "--m", "0", "--W", "64"],
         "fragments broadly (to about 40)"),
        ("sync, occupancy 4, high compute (m 48), W 64",
         ["--o", "4", "--path", "sync", "--m", "48", "--W", "64"], "separates into slots (a few groups)"),
    ]:
        r = sim(a, args + ["--samples", "32"])
        print("| %s | %s | %.3f | %s |" % (name, paper, r["K_H"], groups(r)))
    print()


def sweep(a, spec_text):
    with tempfile.TemporaryDirectory() as d:
        spec, out = os.path.join(d, "s.yaml"), os.path.join(d, "o.csv")
        with open(spec, "w") as f:
            f.write(spec_text.replace("PROFILE", os.path.abspath(PROFILE)))
        subprocess.run([a.pascal, "run", spec, "-o", out, "--format", "csv", "--threads",
                        str(a.threads), "--quiet"], check=True, capture_output=True)
        with open(out) as f:
            return list(csv.DictReader(f))


def section_4b(a):
    """Figure 4b: initially aligned cases (K_1 <= 1.05) against q1 (eq. 17);
    diverged means K_H at W = 32 above 1.5."""
    spec = """name: fig4b
device: PROFILE
models: [simulate]
fixed: {N: 4096, block_bytes: 16KiB}
axes:
  occupancy: [1, 2, 4]
  path: [sync, tma]
  depth: [2, 3, 4, 5, 6]
  compute: [0, 8, 16, 32, 48]
  W: [1, 32]
where: 'path == "tma" || depth == 2'
"""
    rows = sweep(a, spec)
    by = {}
    for r in rows:
        key = (r["occupancy"], r["path"], r["depth"] if r["path"] == "tma" else "-", r["compute"])
        by.setdefault(key, {})[float(r["W"])] = r
    cases = []
    for key, w in sorted(by.items()):
        M = 48 * int(key[0])
        tau1 = float(w[1.0]["ns_per_round_sim"])
        q1 = M * 16384 / tau1 / 2100  # eq. 17, B_ref = 2.10 TB/s
        K1, K32 = float(w[1.0]["K_sim"]), float(w[32.0]["K_sim"])
        cases.append((q1, K1, K32, key))
    aligned = [c for c in cases if c[1] <= 1.05]
    div = [c for c in aligned if c[2] > 1.5]
    calm = [c for c in aligned if c[2] <= 1.5]
    best = max(((sum(1 for c in aligned if (c[0] >= t) == (c[2] > 1.5)), t)
                for t in sorted({c[0] for c in aligned} | {0.0, 10.0})))
    print("### Figure 4b: divergence against first-revolution pressure q1 (eq. 17)\n")
    print("%d configurations (occupancy 1, 2, 4 x sync or tma d 2-6 x m 0, 8, 16, 32, 48), "
          "%d initially aligned (K_1 <= 1.05); %d of those diverge by W = 32 (K_H > 1.5).  "
          "Largest q1 that stays aligned: %.3f; smallest q1 that diverges: %.3f.  The best single "
          "cutoff (q1 >= %.3f) classifies %d of %d (paper: 53 of 56).\n"
          % (len(cases), len(aligned), len(div), max([c[0] for c in calm] or [float("nan")]),
             min([c[0] for c in div] or [float("nan")]), best[1], best[0], len(aligned)))
    print("| occupancy | path | d | m | q1 | K_1 | K_H at W 32 |")
    print("|---|---|---|---|---|---|---|")
    for q1, K1, K32, key in sorted(aligned):
        print("| %s | %s | %s | %s | %.3f | %.3f | %.3f |" % (key + (q1, K1, K32)))
    print()


def section_thm6(a):
    """Fixed latencies (bandwidths that never queue, no spread): the
    aligned flock's leader misses every block (P_d(lambda_miss)); a second
    wave with everything resident hits every block (P_d(lambda_hit))."""
    tm = {}
    with open(PROFILE) as f:
        for line in f:
            s = line.strip()
            if s.split(":")[0] in ("hit_ns", "dram_ns", "consume_ns", "loop_ns", "launch_ns"):
                tm[s.split(":")[0]] = float(s.split("value:")[1].split(",")[0])
    lam_h = tm["hit_ns"]
    lam_m = tm["hit_ns"] + tm["dram_ns"]
    beta, alpha = tm["consume_ns"], tm["loop_ns"]
    fixed = "l2_bytes_per_ns=%s,sm_bytes_per_ns=%s,dram_bytes_per_ns=%s,sm_spread=0" % (BIG, BIG, BIG)
    print("### Theorem 6 / eq. 13: catch-up gain G_d, simulator against the `catchup` model\n")
    print("alpha = loop_ns = %g, beta = consume_ns = %g, lambda_hit = hit_ns = %g, lambda_miss = "
          "hit_ns + dram_ns = %g (ns); bandwidths set to never queue.\n" % (alpha, beta, lam_h, lam_m))
    spec = """name: thm6
models: [catchup]
fixed: {N: 2, M: 1, C: 1, alpha: %g, beta: %g, lambda_hit: %g, lambda_miss: %g}
axes:
  depth: [2, 3, 4, 6]
""" % (alpha, beta, lam_h, lam_m)
    model = {int(r["depth"]): r for r in sweep(a, spec)}
    print("| d | P_hit model | P_hit sim | P_miss model | P_miss sim | G model | G sim |")
    print("|---|---|---|---|---|---|---|")
    for d in (2, 3, 4, 6):
        miss = sim(a, ["--o", "1", "--path", "tma", "--d", str(d), "--m", "0", "--W", "1",
                       "--timing", fixed])
        both = sim(a, ["--o", "1", "--path", "tma", "--d", str(d), "--m", "0", "--W", "2",
                       "--C", "4096", "--timing", fixed])
        p_miss = miss["first_wave_ns_per_round"]
        first_end = both["first_wave_ns_per_round"] * 4096
        p_hit = (both["makespan_ns"] - first_end - tm["launch_ns"]) / 4096
        m = model[d]
        print("| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            d, float(m["P_hit"]), p_hit, float(m["P_miss"]), p_miss, float(m["G"]), p_miss - p_hit))
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pascal", default="build/pascal")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default="36,4a,4b,thm6")
    a = ap.parse_args()
    for name, fn in [("36", section_36), ("4a", section_4a), ("4b", section_4b),
                     ("thm6", section_thm6)]:
        if name in a.only.split(","):
            fn(a)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
