"""Browser test of `pascal report`: headless Chromium (Debian's chromium,
/usr/bin/chromium) driven through chromedriver (Debian's chromium-driver) by
Selenium (Debian's python3-selenium) loads generated reports with every
network request refused, checks that every plot rendered with data (a Vega
view whose dataset has rows and a canvas with drawn pixels), operates the
cache-lab panel (capacity 4, stride 4, Reset, Step: 13 hits; capacity 2:
0 hits), cross-checks the panel against `pascal lab --json`, checks that the
sizing table, its plot and its pivot table follow the metric menu (values
recomputed here from the sweep's CSV), checks the cost-vs-area plot (its
knee per line, its caption's assumed figures) and the sizing table's cost
cells against the CSV and the device profile, and saves a full-page
screenshot.

Everything runs on Debian 12's own packages: no node and no npm package is
needed to test the page (node is only used at build time, by npm, to fetch
the plotting library that the binary embeds).

usage: /usr/bin/python3 report_browser_test.py --pascal PASCAL --source SOURCE_DIR --out OUT_DIR
Exit status: 0 pass, 1 fail, 77 skipped (no chromium, chromedriver or selenium)."""
import base64
import json
import os
import shutil
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77
CHROMIUM = os.environ.get("PASCAL_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("PASCAL_CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT_S = 30  # the longest any page condition may take to hold, seconds

failures = []
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what)
    print(f"{'ok  ' if ok else 'FAIL'} {what}", flush=True)


def skip(why):
    print(f"report_browser: skipped: {why}")
    sys.exit(SKIP)


def parse_args(argv):
    args = {}
    for i in range(1, len(argv) - 1, 2):
        args[argv[i].lstrip("-")] = argv[i + 1]
    for k in ("pascal", "source", "out"):
        if k not in args:
            print(f"usage: missing --{k}")
            sys.exit(1)
    return args


def run(argv):
    return subprocess.run([str(a) for a in argv], check=True, capture_output=True, text=True).stdout


def make_reports(args, out):
    """The default sweep (capacity plot, heatmap, sizing) and a synthetic
    file with dynamic columns (dynamic plot, occupancy x depth)."""
    made = []
    run([args["pascal"], "run", Path(args["source"], "configs/default.yaml"), "-o", out / "default.h5", "--quiet"])
    run([args["pascal"], "report", out / "default.h5", "-o", out / "default.html"])
    # the sizing plot: x occupancy (4 values), one line per pattern (5)
    made.append({"name": "default", "html": out / "default.html", "plots": ["capacity", "heatmap"],
                 "sizing": True, "heat": None, "pivot": (1 + 4, 1 + 5)})
    # A workload: its traffic answer, the estimate beside it, no simulator.
    spec = out / "workload.yaml"
    spec.write_text("name: workload\nmodels: [traffic, lru_replay]\nworkload:\n"
                    "  attention: {batch: 1, q_heads: 16, kv_heads: 2, seq_q: 512, seq_kv: 512, "
                    "head_dim: 8, dtype: bf16, tile_q: 16, tile_kv: 16}\n"
                    "fixed: {M: 24, pattern: equal}\naxes:\n  seq_kv: [512, 1024]\n"
                    "  capacity_bytes: {from: 1KiB, to: 64KiB, num: 13, scale: log}\n")
    run([args["pascal"], "run", spec, "-o", out / "workload.h5", "--quiet"])
    run([args["pascal"], "run", spec, "-o", out / "workload.csv", "--quiet"])
    run([args["pascal"], "report", out / "workload.h5", "-o", out / "workload.html"])
    # one scenario axis, seq_kv (2 values): no lines
    made.append({"name": "workload", "html": out / "workload.html", "plots": ["capacity", "heatmap"],
                 "sizing": True, "heat": None, "workload": True, "pivot": (1 + 2, 1 + 1),
                 "csv": out / "workload.csv"})
    # The simulator answers: the answer's band, its high end sized beside it.
    spec = out / "band.yaml"
    spec.write_text("name: band\ndevice: " + str(Path(args["source"], "configs/devices/gb10.yaml")) +
                    "\nmodels: [workload, traffic, lru_replay, simulate]\nworkload:\n"
                    "  attention: {batch: 2, q_heads: 8, kv_heads: 2, seq_q: 1, seq_kv: 2048, "
                    "head_dim: 128, dtype: bf16, tile_q: 64, tile_kv: 64}\n"
                    "fixed: {occupancy: 1, path: tma, depth: 3, compute: 0, pattern: gaussian, sigma: 2}\n"
                    "axes:\n  seq_kv: [2048, 4096]\n"
                    "  capacity_bytes: {from: 64KiB, to: 2MiB, num: 6, scale: log}\n")
    summary = run([args["pascal"], "run", spec, "-o", out / "band.h5"])
    run([args["pascal"], "run", spec, "-o", out / "band.csv", "--quiet"])
    run([args["pascal"], "report", out / "band.h5", "-o", out / "band.html"])
    made.append({"name": "band", "html": out / "band.html", "plots": ["capacity", "heatmap", "pareto"],
                 "sizing": True, "heat": None, "workload": True, "band": True, "pivot": (1 + 2, 1 + 1),
                 "csv": out / "band.csv", "summary": summary})
    made.extend(make_pareto_reports(args, out))
    try:
        run(["/usr/bin/python3", Path(args["source"], "tests/browser/make_dynamic.py"), out / "dynamic.h5"])
    except (OSError, subprocess.CalledProcessError):
        print("note: /usr/bin/python3 with h5py is missing; the dynamic report is not checked")
        return made
    run([args["pascal"], "report", out / "dynamic.h5", "-o", out / "dynamic.html"])
    made.append({"name": "dynamic", "html": out / "dynamic.html", "plots": ["heatmap", "dynamic"],
                 "sizing": False, "heat": ["depth", "occupancy"]})
    return made


PARETO_SPEC = """name: pareto
device: {device}
models: [workload, traffic, lru_replay]
workload:
  attention: {{batch: 2, q_heads: 8, kv_heads: 2, seq_q: 1, seq_kv: 2048, head_dim: 128, dtype: bf16,
               tile_q: 64, tile_kv: 64}}
fixed: {{{fixed}occupancy: 1, path: tma, depth: 3, compute: 0, pattern: gaussian, sigma: 2}}
axes:
  seq_kv: [4096, 8192]
  capacity_bytes: {{from: 256KiB, to: 8MiB, num: 6, scale: log}}
"""


def make_pareto_reports(args, out):
    """A decode attention on the H200 profile, whose cost figures are all
    marked assumed: energy, time floors and area per point, no simulator
    (so no time_sim_s in the cost menu); and the same with the area figure
    set by the spec.  At 4096 the energy comes within 5% of its lowest at
    2 MiB and reaches it at 8 MiB: a knee taken as the cheapest point fails."""
    device = Path(args["source"], "configs/devices/h200.yaml")
    made = []
    for name, fixed in (("pareto", ""), ("pareto-spec", "l2_mm2_per_mib: 0.5, ")):
        spec = out / f"{name}.yaml"
        spec.write_text(PARETO_SPEC.format(device=device, fixed=fixed))
        run([args["pascal"], "run", spec, "-o", out / f"{name}.h5", "--quiet"])
        run([args["pascal"], "run", spec, "-o", out / f"{name}.csv", "--quiet"])
        run([args["pascal"], "report", out / f"{name}.h5", "-o", out / f"{name}.html"])
        made.append({"name": name, "html": out / f"{name}.html", "plots": ["capacity", "heatmap", "pareto"],
                     "sizing": True, "heat": None, "pivot": (1 + 2, 1 + 1), "csv": out / f"{name}.csv",
                     "pareto": True, "device": device, "area_from_spec": bool(fixed)})
    return made


def wait_for(driver, script, what, *script_args):
    """Polls a JavaScript predicate until it is true (WAIT_S at most)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            if driver.execute_script(script, *script_args):
                return True
        except Exception:  # a predicate that throws is not yet true
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {WAIT_S} s for {what}")
        time.sleep(0.05)


# Drawn pixels of the canvas in #plot-NAME (not white, not transparent).
DRAWN_PIXELS = """
const c = document.querySelector(`#plot-${arguments[0]} canvas`);
if (!c) return 0;
const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
let k = 0;
for (let i = 0; i < d.length; i += 4)
  if (d[i + 3] > 0 && (d[i] < 235 || d[i + 1] < 235 || d[i + 2] < 235)) k++;
return k;
"""


def drawn_pixels(driver, name):
    return driver.execute_script(DRAWN_PIXELS, name)


def check_plots(driver, report):
    state = driver.execute_script("""
      const R = window.pascalReport;
      return { plots: R.plots, errors: R.errors,
               rows: Object.fromEntries(Object.entries(R.views).map(([k, v]) => [k, v.data('table').length])),
               drawn: R.rows, heat: R.data.plots.heatmap };""")
    name, plots = report["name"], state["plots"]
    check(sorted(plots) == sorted(report["plots"]),
          f"{name}: plots {', '.join(plots)} (expected {', '.join(report['plots'])})")
    check(len(state["errors"]) == 0, f"{name}: no plot errors {'; '.join(state['errors'])}")
    for p in plots:
        rows, drawn = state["rows"].get(p, 0), state["drawn"].get(p, 0)
        check(rows > 0 and drawn > 0, f"{name}: plot {p} has data ({rows} rows, {drawn} with values)")
        px = drawn_pixels(driver, p)
        check(px > 2000, f"{name}: plot {p} drew {px} pixels")
    if report["heat"]:
        heat = state["heat"] or {}
        check(heat.get("x") == report["heat"][0] and heat.get("y") == report["heat"][1],
              f"{name}: heatmap defaults to {' x '.join(report['heat'])}")


def pivot_shape(driver):
    """(rows, cells per row) of the pivot table, header included; None when ragged."""
    widths = driver.execute_script("""return Array.from(document.querySelectorAll('#sizing-pivot tr'))
      .map((tr) => tr.children.length);""")
    return (len(widths), widths[0]) if widths and len(set(widths)) == 1 else None


def check_sizing_plot(driver, report):
    """The required capacity against a scenario axis is drawn, with its
    pivot table of the shape the spec's scenario axes give."""
    name = report["name"]
    px = drawn_pixels(driver, "sizing")
    rows = driver.execute_script("return window.pascalReport.rows.sizing;")
    check(px > 2000 and rows > 0, f"{name}: sizing plot drew {px} pixels from {rows} points")
    shape = pivot_shape(driver)
    check(shape == report["pivot"], f"{name}: pivot table is {shape} (expected {report['pivot']})")


def check_sizing(driver, report):
    from selenium.webdriver.common.by import By
    n = len(driver.find_elements(By.CSS_SELECTOR, "#sizing tr"))
    shown = driver.find_element(By.CSS_SELECTOR, "#sec-sizing").is_displayed()
    what = f"has {n - 1} rows" if report["sizing"] else "absent (no capacity axis)"
    check(shown and n > 1 if report["sizing"] else not shown, f"{report['name']}: sizing table {what}")
    plot_shown = driver.find_element(By.CSS_SELECTOR, "#sec-sizing-plot").is_displayed()
    check(plot_shown == report["sizing"], f"{report['name']}: sizing plot {'shown' if plot_shown else 'absent'}")
    if not report["sizing"]:
        return
    check_sizing_plot(driver, report)
    if report.get("workload") or report.get("pareto"):
        return
    # no lines: one column of sizes, the worst over the patterns
    select_option(labelled_select(driver, "#ctl-sizing", "lines by"), "")
    wait_for(driver, "return document.querySelectorAll('#sizing-pivot tr')[0].children.length === 2;",
             "the pivot table without lines")
    worst = driver.execute_script("""return Array.from(document.querySelectorAll('#sizing-pivot tr'))
      .slice(1).map((tr) => tr.children[1].innerText);""")
    check(len(worst) == 4 and all(w == "128 MiB" for w in worst),
          f"{report['name']}: worst over the patterns needs the largest capacity ({', '.join(worst)})")
    select_option(labelled_select(driver, "#ctl-sizing", "lines by"), "pattern")
    # aligned phases: every worker shares each block, so the smallest capacity meets any target
    aligned = driver.execute_script("""
      const r = Array.from(document.querySelectorAll('#sizing tr'))
        .find((tr) => tr.textContent.toLowerCase().includes('aligned'));
      return r ? r.innerText : '';""")
    check("4 MiB" in aligned,
          f"{report['name']}: aligned scenarios size at the smallest capacity ({' '.join(aligned.split())})")


def labelled_select(driver, controls, label_text):
    """The <select> inside the label of `controls` whose text holds label_text."""
    from selenium.webdriver.support.ui import Select
    el = driver.execute_script("""
      const l = Array.from(document.querySelectorAll(`${arguments[0]} label`))
        .find((x) => x.textContent.toLowerCase().includes(arguments[1]));
      return l ? l.querySelector('select') : null;""", controls, label_text)
    if el is None:
        raise LookupError(f"no select labelled '{label_text}' in {controls}")
    return Select(el)


def select_option(sel, value):
    """Selects by value, else by the visible label (as a person would)."""
    from selenium.common.exceptions import NoSuchElementException
    try:
        sel.select_by_value(value)
    except NoSuchElementException:
        sel.select_by_visible_text(value)


def check_workload(driver, report):
    """A workload's plot starts on its answer; its menu offers only columns
    with data; the caption follows the metric chosen."""
    if not report.get("workload"):
        return
    name = report["name"]
    menu = labelled_select(driver, "#ctl-capacity", "miss rate")
    offered = [o.get_attribute("value") for o in menu.options]
    check("answer_traffic" in offered,
          f"{name}: the metric menu offers answer_traffic ({', '.join(offered)})")
    if report.get("band"):
        check_band(driver, report, menu, offered)
        return
    check(all(c not in offered for c in ("traffic_sim", "traffic_dyn")),
          f"{name}: no all-NaN column in the menu ({', '.join(offered)})")
    caption = driver.execute_script("return document.getElementById('cap-capacity').textContent;")
    check(caption.startswith("Solid: answer_traffic"), f"{name}: caption names the answer ({caption[:60]})")
    select_option(menu, "traffic_lru")
    wait_for(driver, """return document.getElementById('cap-capacity').textContent
      .startsWith('Solid: traffic_lru');""", "the caption to follow the metric")
    check(drawn_pixels(driver, "capacity") > 2000, f"{name}: capacity plot redrawn on traffic_lru")
    default = driver.execute_script("return window.pascalReport.data.sizing['default'];")
    check(default == "answer_traffic", f"{name}: the sizing table starts on the answer ({default})")
    check_sizing_follows(driver, report, menu)


def check_band(driver, report, menu, offered):
    """Where the simulator answers, the capacity plot shades the answer's
    band, and the band's high end is a metric the sizing table takes; its
    sizes are those recomputed from the CSV and those the run summary
    printed ("...; the band's high end 1MiB")."""
    name = report["name"]
    check("answer_traffic_hi" in offered and "traffic_sim" in offered,
          f"{name}: the menu offers the band's high end and the simulator ({', '.join(offered)})")
    caption = driver.execute_script("return document.getElementById('cap-capacity').textContent;")
    check(caption.startswith("Solid: answer_traffic") and "Shaded: the answer\u2019s band" in caption,
          f"{name}: caption names the answer and its band ({caption[:120]}...)")
    shaded = driver.execute_script("""return window.pascalReport.views.capacity.data('table')
      .filter((r) => r.hi !== undefined && r.hi !== null).length;""")
    check(shaded > 0, f"{name}: the band is in the capacity plot's data ({shaded} rows)")
    select_option(menu, "answer_traffic_hi")
    wait_for(driver, "return document.getElementById('cap-sizing').textContent.includes('answer_traffic_hi');",
             "the sizing caption to follow the band's high end")
    got = {float(r[0].replace(",", "")): parse_bytes(r[1]) for r in sizing_table(driver)[1:]}
    want = hand_sizing(report["csv"], "seq_kv", "answer_traffic_hi", 1.2)
    check(got == want and all(v is not None for v in want.values()),
          f"{name}: answer_traffic_hi sizes {got} as recomputed from the CSV {want}")
    said = {}
    for line in report["summary"].splitlines():
        m = re.match(r"\s+context length (\d+) needs (\S+) for .*; the band's high end (\d+)(KiB|MiB)$", line)
        if m:
            said[float(m.group(1))] = float(m.group(3)) * (1024 if m.group(4) == "KiB" else 1024 ** 2)
    check(said == want, f"{name}: the run summary's band sizes {said} are the report's {want}")


def parse_bytes(text):
    """'16 KiB' -> 16384.0, as the page writes a size; None for anything else."""
    units = {"B": 1, "KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3}
    parts = text.split()
    if len(parts) != 2 or parts[1] not in units:
        return None
    return float(parts[0].replace(",", "")) * units[parts[1]]


def hand_sizing(csv_path, by, metric, target):
    """Per value of `by`, the smallest capacity_bytes from which the worst row
    of `metric` is at or below target at every larger one (an empty cell
    never is)."""
    import csv
    worst = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            v = float(row[metric]) if row[metric] else float("inf")
            key = (float(row[by]), float(row["capacity_bytes"]))
            worst[key] = max(worst.get(key, -float("inf")), v)
    need = {}
    for (b, cap), w in sorted(worst.items()):
        if b not in need:
            need[b] = None
        if w > target:
            need[b] = None
        elif need[b] is None:
            need[b] = cap
    return need


def sizing_table(driver):
    return driver.execute_script("""return Array.from(document.querySelectorAll('#sizing tr'))
      .map((tr) => Array.from(tr.children).map((c) => c.innerText));""")


def check_sizing_follows(driver, report, menu):
    """The sizing table, its caption, plot and pivot follow the metric menu:
    traffic_bound needs less capacity than the answer, so a table that stays
    on the answer fails here; the exact columns belong to the default metric
    only."""
    name, metric = report["name"], "traffic_bound"
    select_option(menu, metric)
    wait_for(driver, "return document.getElementById('cap-sizing').textContent.includes(arguments[0]);",
             "the sizing caption to follow the metric", metric)
    table = sizing_table(driver)
    head = " | ".join(table[0])
    check(metric in head and "answer_traffic" not in head, f"{name}: sizing header names {metric} ({head})")
    check("exact" not in head, f"{name}: no exact column for {metric} ({head})")
    caption = driver.execute_script("return document.getElementById('cap-sizing').textContent;")
    check(f"at which {metric} is at or below the target 1.2" in caption and
          "the exact column belongs to answer_traffic" in caption,
          f"{name}: sizing caption names {metric} and whose the exact column is ({caption[:90]}...)")
    want = hand_sizing(report["csv"], "seq_kv", metric, 1.2)
    got = {float(r[0].replace(",", "")): parse_bytes(r[1]) for r in table[1:]}
    answer = hand_sizing(report["csv"], "seq_kv", "answer_traffic", 1.2)
    check(got == want and want != answer,
          f"{name}: {metric} sizes {got} as recomputed from the CSV {want} (the answer's: {answer})")
    for where in ("cap-sizing-plot", "cap-sizing-pivot"):
        text = driver.execute_script("return document.getElementById(arguments[0]).textContent;", where)
        check(metric in text, f"{name}: {where} names {metric} ({text[:70]}...)")
    pivot = driver.execute_script("""return Array.from(document.querySelectorAll('#sizing-pivot tr'))
      .slice(1).map((tr) => tr.children[1].innerText);""")
    check([parse_bytes(p) for p in pivot] == [want[k] for k in sorted(want)],
          f"{name}: pivot table on {metric} ({', '.join(pivot)})")
    mirror = labelled_select(driver, "#ctl-sizing", "miss rate").first_selected_option.get_attribute("value")
    check(mirror == metric, f"{name}: the sizing section's menu shows {metric} ({mirror})")
    check(drawn_pixels(driver, "sizing") > 2000, f"{name}: sizing plot redrawn on {metric}")
    # back to the answer from the sizing section's own menu: the exact column returns
    select_option(labelled_select(driver, "#ctl-sizing", "miss rate"), "answer_traffic")
    wait_for(driver, """return document.querySelector('#sizing tr').innerText.includes('exact (answer_traffic)') &&
      document.getElementById('cap-capacity').textContent.startsWith('Solid: answer_traffic');""",
             "the table and the capacity plot back on the answer")
    got = {float(r[0].replace(",", "")): parse_bytes(r[1]) for r in sizing_table(driver)[1:]}
    check(got == answer, f"{name}: answer_traffic sizes {got} as recomputed from the CSV {answer}")


KNEE_WITHIN = 0.05  # docs/report.md: the knee is within 5% of the line's lowest cost
COSTS = ("energy_j", "time_bound_s", "time_sim_s")


def csv_rows(csv_path):
    import csv
    with open(csv_path, newline="") as f:
        return list(csv.DictReader(f))


def csv_lines(rows, by, cost):
    """Per value of `by`: [(capacity_bytes, area_l2_mm2, cost)] in capacity order."""
    lines = {}
    for r in rows:
        if r["area_l2_mm2"] and r[cost]:
            lines.setdefault(float(r[by]), []).append(
                (float(r["capacity_bytes"]), float(r["area_l2_mm2"]), float(r[cost])))
    return {k: sorted(v) for k, v in lines.items()}


def hand_knee(points):
    """The smallest capacity whose cost is within KNEE_WITHIN of the lowest."""
    lowest = min(c for _, _, c in points)
    return next(cap for cap, _, c in points if c <= (1 + KNEE_WITHIN) * lowest)


def hand_front(points):
    """Capacities no other point beats: area and cost both no larger, one smaller."""
    return [cap for cap, a, c in points
            if not any((a2 <= a and c2 <= c) and (a2 < a or c2 < c) for _, a2, c2 in points)]


def assumed_figures(device_path, section):
    """The figures of a profile section whose source says "assumed:", in file order."""
    names, current = [], None
    for line in Path(device_path).read_text().splitlines():
        top = re.match(r"([a-z_]\w*):", line)
        if top:
            current = top.group(1)
            continue
        m = re.match(r"\s+(\w+): \{.*source: \"(.*)\"\}", line)
        if current == section and m and m.group(2).startswith("assumed:"):
            names.append(m.group(1))
    return names


def page_lines(driver):
    """{scenario value: (knee, [Pareto-optimal capacities])} of the cost plot now."""
    lines = driver.execute_script("return window.pascalReport.pareto.lines;")
    return {float(l["series"].replace(",", "")): (l["knee"], [p["cap"] for p in l["points"] if p["front"]])
            for l in lines}


def check_pareto_cost(driver, report, rows, cost):
    """The plot on `cost`: its knees and fronts are those recomputed from the
    CSV, a knee is drawn on every line, and the caption names the figures the
    profile marks assumed (and only those)."""
    name = report["name"]
    want = {k: (hand_knee(v), hand_front(v)) for k, v in csv_lines(rows, "seq_kv", cost).items()}
    got = page_lines(driver)
    check(got == want, f"{name}: {cost} knees and fronts {got} as recomputed from the CSV {want}")
    if cost == "energy_j":
        cheapest = {k: min(v, key=lambda p: (p[2], p[0]))[0] for k, v in csv_lines(rows, "seq_kv", cost).items()}
        check(any(cheapest[k] != want[k][0] for k in want),
              f"{name}: some line's knee is not its cheapest point (knees {want}, cheapest {cheapest})")
    marked = driver.execute_script("""return window.pascalReport.views.pareto.data('table')
      .filter((r) => r.knee).map((r) => r.series + ' ' + r.cap);""")
    check(len(marked) == len(want), f"{name}: one knee drawn per line on {cost} ({', '.join(marked)})")
    check(drawn_pixels(driver, "pareto") > 2000, f"{name}: the {cost} plot drew")
    caption = driver.execute_script("return document.getElementById('cap-pareto').textContent;")
    section = {"energy_j": "costs", "time_bound_s": "rates"}[cost]
    figures = [f for f in assumed_figures(report["device"], section)
               if section != "costs" or f != "l2_mm2_per_mib"]
    area = assumed_figures(report["device"], "costs")
    check("l2_mm2_per_mib" in area and figures, f"{name}: the profile marks {area} and {figures} assumed")
    said = f"{cost}: {', '.join(figures)}"
    check(said in caption and "within 5% of the line\u2019s lowest" in caption,
          f"{name}: the caption names the knee and {said} ({caption[:60]}...)")
    known = [f for s in ("costs", "rates") for f in re.findall(r"^  (\w+):", section_text(report["device"], s), re.M)]
    extra = [f for f in known if f in caption and f not in figures + ["l2_mm2_per_mib"]]
    check(not extra, f"{name}: the caption names no figure the profile does not mark assumed ({extra})")
    if report["area_from_spec"]:
        check("l2_mm2_per_mib: from the spec" in caption and "area_l2_mm2: l2_mm2_per_mib" not in caption,
              f"{name}: the area figure is the spec's, not the profile's ({caption[-160:]})")
    else:
        check("area_l2_mm2: l2_mm2_per_mib" in caption and "from the spec" not in caption,
              f"{name}: the caption says the area figure is assumed")


def section_text(device_path, section):
    text = Path(device_path).read_text()
    m = re.search(rf"^{section}:\n((?:[ #].*\n|\n)*)", text, re.M)
    return m.group(1) if m else ""


def check_pareto(driver, report):
    """The cost-vs-area plot and what the sizing table's answers buy."""
    if not report.get("pareto"):
        return
    name, rows = report["name"], csv_rows(report["csv"])
    menu = labelled_select(driver, "#ctl-pareto", "cost")
    offered = [o.get_attribute("value") for o in menu.options]
    with_data = [c for c in COSTS if any(r[c] for r in rows)]
    check(offered == with_data == ["energy_j", "time_bound_s"],
          f"{name}: the cost menu offers the costs with data ({', '.join(offered)})")
    check_pareto_cost(driver, report, rows, "energy_j")
    knees = {k: v[0] for k, v in page_lines(driver).items()}
    select_option(menu, "time_bound_s")
    wait_for(driver, """return window.pascalReport.pareto.cost === 'time_bound_s' &&
      document.getElementById('cap-pareto').textContent.includes('y = time_bound_s');""",
             "the cost plot on time_bound_s")
    check_pareto_cost(driver, report, rows, "time_bound_s")
    check({k: v[0] for k, v in page_lines(driver).items()} != knees,
          f"{name}: time_bound_s has other knees than energy_j ({knees})")
    check_buys(driver, report, rows)


def check_buys(driver, report, rows):
    """Beside each answer_traffic answer, the area, energy_j and time_bound_s
    at that capacity are the CSV's (shown to 4 digits, held to 17)."""
    name = report["name"]
    need = hand_sizing(report["csv"], "seq_kv", "answer_traffic", 1.2)
    at = {(float(r["seq_kv"]), float(r["capacity_bytes"])): r for r in rows}
    table = sizing_table(driver)
    cols = {c: next((i for i, h in enumerate(table[0]) if h.startswith(c + " (") and h.endswith(" there")), None)
            for c in ("area_l2_mm2", "energy_j", "time_bound_s")}
    check(all(i is not None for i in cols.values()), f"{name}: sizing header has what each answer buys ({table[0]})")
    T = driver.execute_script("return window.pascalReport.data.sizing.by_metric.answer_traffic;")
    shown = held = 0
    for i, r in enumerate(table[1:]):
        seq = float(r[0].replace(",", ""))
        want = at[(seq, need[seq])]
        for j, (c, k) in enumerate(cols.items()):
            v = float(want[c])
            shown += float(r[k].replace(",", "")) == float(f"{v:.4g}")
            held += abs(T["costs_at"][i][T["costs"].index(c)] - v) <= 1e-12 * abs(v)
    n = 3 * (len(table) - 1)
    check(n == 6 and shown == n and held == n,
          f"{name}: {shown}/{n} cost cells shown and {held}/{n} held as the CSV's at the required capacity")
    caption = driver.execute_script("return document.getElementById('cap-sizing').textContent;")
    check("what it buys" in caption and "Marked assumed" in caption,
          f"{name}: the sizing caption says what the answers buy and what is assumed")


def check_selectors(driver, report):
    """Changing a selector redraws with data."""
    if "capacity" not in report["plots"] or report.get("workload") or report.get("pareto"):
        return
    lines = labelled_select(driver, "#ctl-capacity", "lines by")
    select_option(lines, "occupancy")
    wait_for(driver, """return window.pascalReport.views.capacity &&
      window.pascalReport.views.capacity.data('table').some((r) => r.series === '8');""",
             "capacity lines by occupancy")
    unit = labelled_select(driver, "#ctl-capacity", "capacity in")
    select_option(unit, "blocks")
    wait_for(driver, """return window.pascalReport.views.capacity.data('table')
      .every((r) => r.x <= 8192);""", "capacity in blocks")
    check(drawn_pixels(driver, "capacity") > 2000,
          f"{report['name']}: capacity plot redrawn by occupancy, in blocks")
    select_option(labelled_select(driver, "#ctl-capacity", "lines by"), "pattern")
    select_option(labelled_select(driver, "#ctl-capacity", "capacity in"), "bytes")


def lab_values(driver):
    return driver.execute_script("""return ['requests', 'hits', 'misses'].map(
      (k) => Number(document.getElementById(`lab-${k}`).textContent));""")


def set_input(driver, css, value):
    """Replaces the field's text as typed, then Tab commits it: the panel
    acts on change."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    el = driver.find_element(By.CSS_SELECTOR, css)
    el.send_keys(Keys.CONTROL, "a")
    el.send_keys(str(value))
    el.send_keys(Keys.TAB)


def click(driver, css):
    from selenium.webdriver.common.by import By
    driver.find_element(By.CSS_SELECTOR, css).click()


def inner_text(driver, css):
    return driver.execute_script("return document.querySelector(arguments[0]).innerText;", css)


def check_lab(driver, report):
    name = report["name"]
    warning = inner_text(driver, "#lab-warning")
    check("not a gpu cache" in warning.lower() and all(w in warning for w in
          ("sectors", "associativity", "cache operators", "replacement policy")),
          f"{name}: lab says plainly it is not a GPU cache")
    v = lab_values(driver)
    check(v[0] == 16 and v[1] + v[2] == 16, f"{name}: lab starts with 16 requests counted ({v})")
    set_input(driver, "#lab-capacity", 4)
    set_input(driver, "#lab-stride", 4)
    click(driver, "#lab-reset")
    v = lab_values(driver)
    check(v[0] == 16 and v[1] == 12, f"{name}: capacity 4, stride 4, Reset: 16 requests, 12 hits ({v})")
    click(driver, "#lab-step")
    v = lab_values(driver)
    check(v[0] == 17 and v[1] == 13 and v[2] == 4, f"{name}: Step: 17 requests, 13 hits ({v})")
    set_input(driver, "#lab-capacity", 2)
    v = lab_values(driver)
    check(v[0] == 17 and v[1] == 0 and v[2] == 17, f"{name}: capacity 2: 17 requests replayed, 0 hits ({v})")
    cache = driver.execute_script(
        "return Array.from(document.querySelectorAll('#lab-cache div')).map((d) => d.innerText);")
    check(" ".join(cache) == "0 3", f"{name}: capacity 2 holds [0 3], most recent first ({' '.join(cache)})")
    set_input(driver, "#lab-capacity", 0)
    err = inner_text(driver, "#lab-error")
    v = lab_values(driver)
    check("expected an integer 1..64" in err and v[0] == 17 and v[1] == 0,
          f"{name}: capacity 0 is refused and changes nothing ({err})")


def check_lab_against_cli(driver, pascal):
    """The panel and `pascal lab --json` agree on seeded random settings."""
    seed = 2385

    def rand(n):
        nonlocal seed
        seed = (seed * 1103515245 + 12345) % 2147483648
        return 1 + seed % n

    agree = 0
    for _ in range(12):
        c, s, k = rand(9), rand(12), rand(40) - 1
        cli = json.loads(run([pascal, "lab", "--capacity", c, "--stride", s, "--steps", k, "--json"]))
        web = driver.execute_script("""
          const [c, s, k] = arguments;
          const L = window.pascalReport.data.lab;
          const lab = new PascalLab.Lab(Object.assign({}, L, { capacity: c, stride: s }));
          lab.step(k);
          return { requests: lab.requests, hits: lab.hits, misses: lab.misses, cache: lab.lines };""", c, s, k)
        if all(cli[key] == web[key] for key in ("requests", "hits", "misses", "cache")):
            agree += 1
        else:
            print(f"  differs at capacity {c} stride {s} steps {k}: {json.dumps(cli)} vs {json.dumps(web)}")
    check(agree == 12, f"lab panel agrees with pascal lab --json on {agree}/12 random settings")


def full_page_screenshot(driver, path):
    """The whole page, not only the viewport (Chromium's DevTools capture)."""
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
    Path(path).write_bytes(base64.b64decode(shot["data"]))


# Every request a page may make without the network; the rest are refused.
LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:", "chrome:", "devtools:")
BLOCKED = ["http://*", "https://*", "ws://*", "wss://*", "ftp://*"]


def page_requests(driver):
    """URLs the page asked for since the last call (DevTools network log)."""
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    return [u for u in urls if not u.startswith(LOCAL_SCHEMES)]


def page_errors(driver):
    """Uncaught exceptions and console errors since the last call."""
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def loopback_service():
    """chromedriver reached at 127.0.0.1 rather than at "localhost", which a
    bare root without /etc/hosts (debootstrap's minbase) cannot resolve."""
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common import utils

    class LoopbackService(Service):
        @property
        def service_url(self):
            return f"http://127.0.0.1:{self.port}"

        def is_connectable(self):
            return utils.is_connectable(self.port, "127.0.0.1")

    return LoopbackService(executable_path=CHROMEDRIVER)


def start_browser(profile):
    from selenium import webdriver
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    # DevTools over a pipe, not a TCP port that chromedriver would reach at
    # "localhost" (unresolvable without /etc/hosts).
    for a in ("--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--window-size=1280,900", f"--user-data-dir={profile}"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=loopback_service(), options=opts)
    driver.set_script_timeout(WAIT_S)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": BLOCKED})
    driver.get("about:blank")
    page_requests(driver)  # the browser's own start page is not a report's doing
    page_errors(driver)
    return driver


def check_report(driver, report, args, out, network):
    driver.get(report["html"].resolve().as_uri())
    wait_for(driver, "return !!(window.pascalReport && window.pascalReport.ready);", "the report to start")
    ready = driver.execute_async_script("""const done = arguments[arguments.length - 1];
      window.pascalReport.ready.then(() => done(true), (e) => done(String(e)));""")
    if ready is not True:
        raise RuntimeError(f"{report['name']}: the page's plots failed: {ready}")
    check_plots(driver, report)
    check_sizing(driver, report)
    check_selectors(driver, report)
    check_workload(driver, report)
    check_pareto(driver, report)
    check_lab(driver, report)
    if report["name"] == "default":
        check_lab_against_cli(driver, args["pascal"])
        set_input(driver, "#lab-capacity", 4)
        click(driver, "#lab-reset")
        click(driver, "#lab-step")
        driver.execute_script("window.scrollTo(0, 0);")
        shot = out / "report-screenshot.png"
        full_page_screenshot(driver, shot)
        check(shot.stat().st_size > 10000, f"screenshot saved to {shot}")
    errors = page_errors(driver)
    check(len(errors) == 0, f"{report['name']}: no page errors {'; '.join(errors)}")
    network.extend(page_requests(driver))


def main(argv):
    args = parse_args(argv)
    if not os.path.exists(CHROMIUM):
        skip(f"{CHROMIUM} not found (apt-get install chromium)")
    if not os.path.exists(CHROMEDRIVER):
        skip(f"{CHROMEDRIVER} not found (apt-get install chromium-driver)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        skip(f"{sys.executable} has no selenium (apt-get install python3-selenium)")
    out = Path(args["out"])
    out.mkdir(parents=True, exist_ok=True)
    reports = make_reports(args, out)
    profile = tempfile.mkdtemp(prefix="pascal-chromium-")
    network = []
    driver = None
    try:
        driver = start_browser(profile)
        for report in reports:
            check_report(driver, report, args, out, network)
    finally:
        if driver is not None:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    check(len(network) == 0, f"no network requests ({', '.join(network)})")
    print(f"report_browser: {checks - len(failures)}/{checks} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as e:  # any error is a failure with its reason, not a skip
        import traceback
        traceback.print_exc(file=sys.stdout)
        print(f"report_browser: error: {e}")
        sys.exit(1)
