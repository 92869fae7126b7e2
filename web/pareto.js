/* The trade-off part of the pascal report page: what a capacity costs
 * against the silicon it takes, and which of the cost figures behind it
 * the device profile only assumes.
 *
 * D.plots.pareto (report/data.c) names the capacity axis, the area column
 * (area_l2_mm2) and the costs with data (energy_j, time_bound_s,
 * time_sim_s: docs/workloads.md sections 10 and 10.1).  Each line is one
 * scenario: the other plotted axes fixed by selectors, or one line per
 * value of a "lines by" axis; its points are the swept capacities, joined
 * in capacity order, at x = area and y = the chosen cost (cube means, so
 * the mean over random draws).
 *
 * On a line, a point is Pareto-optimal when no other point has area and
 * cost both no larger and one of them smaller.  The knee is the smallest
 * capacity whose cost is within KNEE_WITHIN of the line's lowest cost
 * (cost <= (1 + KNEE_WITHIN) x minimum): the smallest L2 that buys nearly
 * all the line can buy.  It is always Pareto-optimal (every smaller area
 * costs more), and needs no scale: a flat line's knee is its smallest
 * capacity.  docs/report.md states the same. */
var PascalPareto = (function () {
  'use strict';

  var KNEE_WITHIN = 0.05;

  var COST_WORDS = {
    energy_j: 'memory reads\u2019 energy',
    time_bound_s: 'time floor',
    time_sim_s: 'simulated time'
  };

  /* ---- the front and the knee (pure: exposed for tests) --------------- */

  /* Per point of one line ({area, cost}), whether it is Pareto-optimal. */
  function front(points) {
    return points.map(function (p, i) {
      return !points.some(function (q, j) {
        return j !== i && q.area <= p.area && q.cost <= p.cost && (q.area < p.area || q.cost < p.cost);
      });
    });
  }

  /* Index of the knee among points sorted by capacity, or -1 (no point). */
  function knee(points) {
    var lo = Math.min.apply(null, points.map(function (p) { return p.cost; }));
    for (var i = 0; i < points.length; i++)
      if (points[i].cost <= (1 + KNEE_WITHIN) * lo) return i;
    return -1;
  }

  /* ---- which figures are assumed --------------------------------------- */

  /* The profiles in a device attribute: one, or several after
   * "# device k: PATH" lines (a device axis). */
  function splitProfiles(text) {
    var parts = text.split(/^# device \d+: .*$/m);
    return parts.length > 1 ? parts.slice(1) : parts;
  }

  /* {section: {figure: assumed?}} of one profile's text: each top-level
   * section's entries at its first indent, an entry assumed when its
   * source (on its line or below it) starts "assumed:". */
  function sections(text) {
    var out = {}, sec = null, indent = -1, entry = null;
    text.split('\n').forEach(function (line) {
      if (/^\s*(#|$)/.test(line)) return;
      var top = /^([A-Za-z_]\w*)\s*:/.exec(line);
      if (top) { sec = out[top[1]] = {}; indent = -1; entry = null; return; }
      var m = /^(\s+)([A-Za-z_]\w*)\s*:/.exec(line);
      if (sec && m && (indent < 0 || m[1].length === indent)) {
        indent = m[1].length;
        entry = m[2];
        sec[entry] = false;
      }
      if (sec && entry && /source\s*:\s*["']?assumed:/.test(line)) sec[entry] = true;
    });
    return out;
  }

  /* The profile figures a column is made from, as [section, figure]
   * (null: every figure of the section), and the spec parameter that
   * overrides each. */
  var FEEDS = {
    area_l2_mm2: [['costs', 'l2_mm2_per_mib']],
    energy_j: [['costs', 'dram_pj_per_byte'], ['costs', 'l2_pj_per_byte']],
    time_bound_s: [['rates', null]],
    time_sim_s: [['sim', null]]
  };

  function parameterOf(section, figure) {
    if (section === 'sim') return null;  /* the simulator's timing is the profile's */
    return /^flops_/.test(figure) ? 'flops_per_s' : figure;
  }

  /* The spec sets a parameter itself: a key of that name, or an axis. */
  function specSets(D, name) {
    if (D.axes.some(function (a) { return a.name === name; })) return true;
    return new RegExp('(^|[\\s{,])' + name + '\\s*:', 'm').test(D.spec || '');
  }

  /* One column's assumed figures: {names: [...], fromSpec: [...],
   * counted: 'k of n'} (sections read whole are counted, not listed). */
  function columnFigures(D, profiles, col) {
    var names = [], fromSpec = [], counted = null;
    (FEEDS[col] || []).forEach(function (feed) {
      var figs = {}, assumedIn = {};
      profiles.forEach(function (p) {
        var sec = p[feed[0]] || {};
        Object.keys(sec).forEach(function (f) {
          if (feed[1] !== null && f !== feed[1]) return;
          figs[f] = true;
          if (sec[f]) assumedIn[f] = (assumedIn[f] || 0) + 1;
        });
      });
      var assumed = Object.keys(assumedIn).filter(function (f) {
        var prm = parameterOf(feed[0], f);
        if (prm && specSets(D, prm)) {
          if (fromSpec.indexOf(prm) < 0) fromSpec.push(prm);
          return false;
        }
        return true;
      }).map(function (f) {
        var k = assumedIn[f];
        return k < profiles.length ? f + ' (' + k + ' of ' + profiles.length + ' profiles)' : f;
      });
      if (feed[0] === 'sim' && Object.keys(figs).length)
        counted = assumed.length + ' of the ' + Object.keys(figs).length + ' simulator timing figures';
      else
        names = names.concat(assumed);
    });
    return { names: names, fromSpec: fromSpec, counted: counted };
  }

  /* One short sentence: which figures behind the columns the profile marks
   * assumed, and which the spec sets. */
  function assumedText(D, columns) {
    var profiles = D.device ? splitProfiles(D.device).map(sections) : [];
    var said = [], spec = [];
    columns.forEach(function (col) {
      var c = columnFigures(D, profiles, col);
      var what = c.counted || c.names.join(', ');
      if (what && !/^0 of/.test(what)) said.push(col + ': ' + what);
      c.fromSpec.forEach(function (p) { if (spec.indexOf(p) < 0) spec.push(p); });
    });
    if (!profiles.length)
      return 'No device profile: the figures behind ' + columns.join(', ') + ' are the spec\u2019s. ';
    return (said.length ? 'Marked assumed: in the device profile' + (profiles.length > 1 ? 's' : '') +
                          ': ' + said.join('; ') + '. '
                        : 'No figure behind ' + columns.join(', ') + ' is marked assumed. ') +
           (spec.length ? spec.join(', ') + ': from the spec. ' : '');
  }

  /* ---- the plot ---------------------------------------------------------- */

  function Pareto(kit, P) {
    this.kit = kit;
    this.P = P;
    this.state = { cost: P.costs[0], series: P.series || '',
                   fixed: kit.liveliest(P.costs[0], [P.x, P.series]) };
  }

  /* The current lines: [{series, points: [{cap, area, cost, front}], knee}]
   * in the lines-by axis's order, each sorted by capacity. */
  Pareto.prototype.lines = function () {
    var kit = this.kit, P = this.P, st = this.state;
    var xAxis = kit.axes[P.x], sAxis = st.series ? kit.axes[st.series] : null;
    var byName = new Map();
    kit.slice(st.series ? [P.x, st.series] : [P.x], st.fixed, function (pos, i) {
      var area = kit.value(P.area, i), cost = kit.value(st.cost, i);
      if (area === null || cost === null) return;
      var s = sAxis ? kit.axisText(sAxis, pos[st.series]) : 'all points';
      if (!byName.has(s)) byName.set(s, []);
      byName.get(s).push({ cap: xAxis.values[pos[P.x]], area: area, cost: cost });
    });
    var order = sAxis ? sAxis.values.map(function (_, j) { return kit.axisText(sAxis, j); }) : ['all points'];
    return order.filter(function (s) { return byName.has(s); }).map(function (s) {
      var pts = byName.get(s).sort(function (a, b) { return a.cap - b.cap; });
      var opt = front(pts);
      pts.forEach(function (p, j) { p.front = opt[j]; });
      var k = knee(pts);
      return { series: s, points: pts, knee: k >= 0 ? pts[k].cap : null };
    });
  };

  Pareto.prototype.capText = function (v) {
    var a = this.kit.axes[this.P.x];
    return a.units === 'bytes' ? this.kit.bytes(v) : this.kit.num(v, 6);
  };

  function scale(vs, logAt) {
    var lo = Math.min.apply(null, vs), hi = Math.max.apply(null, vs);
    return { type: lo > 0 && hi / lo >= logAt ? 'log' : 'linear', zero: false, nice: false, padding: 12 };
  }

  Pareto.prototype.spec = function (rows) {
    var st = this.state, kit = this.kit;
    var color = { field: 'series', type: 'nominal', title: st.series || 'lines',
                  sort: Array.from(new Set(rows.map(function (r) { return r.series; }))) };
    var x = { field: 'area', type: 'quantitative', title: 'L2 area (mm\u00b2, ' + this.P.area + ')',
              scale: scale(rows.map(function (r) { return r.area; }), 8) };
    var y = { field: 'cost', type: 'quantitative', title: kit.colLabel(st.cost),
              scale: scale(rows.map(function (r) { return r.cost; }), 16) };
    var tip = [{ field: 'series', title: st.series || 'line' }, { field: 'capText', title: this.P.x },
               { field: 'area', title: 'area (mm\u00b2)', format: '.4~g' },
               { field: 'cost', title: st.cost, format: '.4~g' }, { field: 'status' }];
    var points = function (filter, mark) {
      return { transform: [{ filter: filter }], mark: mark,
               encoding: { x: x, y: y, color: color, tooltip: tip } };
    };
    return {
      width: 'container', height: 340, autosize: { type: 'fit', contains: 'padding' },
      data: { name: 'table', values: rows },
      layer: [
        { mark: { type: 'line', strokeWidth: 1.5, opacity: 0.7 },
          encoding: { x: x, y: y, color: color, order: { field: 'cap', type: 'quantitative' } } },
        points('!datum.front', { type: 'point', filled: false, size: 55, strokeWidth: 1.5 }),
        points('datum.front', { type: 'point', filled: true, size: 75 }),
        points('datum.knee', { type: 'point', shape: 'diamond', filled: false, size: 420, strokeWidth: 2.5 }),
        { transform: [{ filter: 'datum.knee' }],
          mark: { type: 'text', align: 'left', dx: 11, dy: -11, fontWeight: 'bold' },
          encoding: { x: x, y: y, color: color, text: { value: 'knee' } } }
      ],
      config: { legend: { orient: 'right', labelLimit: 260 } }
    };
  };

  Pareto.prototype.caption = function (lines) {
    var st = this.state, self = this;
    var knees = lines.filter(function (l) { return l.knee !== null; }).map(function (l) {
      return (lines.length > 1 || st.series ? l.series + ': ' : '') + self.capText(l.knee);
    });
    document.getElementById('cap-pareto').textContent =
      'Each line is one scenario' + (st.series ? ' (one per ' + st.series + ')' : '') +
      ', its points the swept ' + this.P.x + ' in order: x = ' + this.P.area +
      ' (C \u00d7 block_bytes / MiB \u00d7 l2_mm2_per_mib), y = ' + st.cost +
      (COST_WORDS[st.cost] ? ' (' + COST_WORDS[st.cost] + ')' : '') + '. ' +
      'Filled: Pareto-optimal on its line (no other point has area and cost both no larger, one ' +
      'smaller); hollow: dominated. Diamond: the knee, the smallest ' + this.P.x + ' whose ' + st.cost +
      ' is within ' + Math.round(KNEE_WITHIN * 100) + '% of the line\u2019s lowest (\u2264 ' +
      (1 + KNEE_WITHIN) + ' \u00d7 minimum)' + (knees.length ? ': ' + knees.join(', ') : '') + '. ' +
      this.kit.averagedText() + assumedText(this.kit.data, [this.P.area, st.cost]) +
      'Other axes are fixed by the selectors above.';
  };

  Pareto.prototype.controls = function () {
    var kit = this.kit, P = this.P, st = this.state, self = this;
    var ctl = document.getElementById('ctl-pareto');
    ctl.innerHTML = '';
    kit.select(ctl, 'cost', P.costs.map(function (c) { return { value: c, text: c }; }), st.cost,
               function (v) { st.cost = v; self.redraw(); });
    kit.select(ctl, 'lines by', [{ value: '', text: '(one line)' }].concat(
      kit.plotAxes([P.x]).filter(function (n) { return kit.axes[n].values.length <= 24; })
        .map(function (n) { return { value: n, text: n }; })),
    st.series, function (v) { st.series = v; self.controls(); self.redraw(); });
    kit.fixedSelectors(ctl, st, [P.x, st.series], function () { self.redraw(); });
  };

  Pareto.prototype.redraw = function () {
    var self = this, lines = this.lines(), rows = [];
    lines.forEach(function (l) {
      l.points.forEach(function (p) {
        var isKnee = p.cap === l.knee;
        rows.push({ series: l.series, cap: p.cap, capText: self.capText(p.cap), area: p.area,
                    cost: p.cost, front: p.front, knee: isKnee,
                    status: (p.front ? 'Pareto-optimal' : 'dominated') + (isKnee ? ', the knee' : '') });
      });
    });
    this.kit.R.pareto = { cost: this.state.cost, series: this.state.series, lines: lines };
    this.caption(lines);
    return this.kit.draw('pareto', this.spec(rows), rows.length);
  };

  /* kit: the page's helpers (axes, slice, value, axisText, liveliest,
   * plotAxes, fixedSelectors, select, draw, bytes, num, colLabel,
   * averagedText, data, R); P: D.plots.pareto. */
  function create(kit, P) {
    var p = new Pareto(kit, P);
    p.controls();
    return p.redraw();
  }

  return { create: create, front: front, knee: knee, assumedText: assumedText, KNEE_WITHIN: KNEE_WITHIN };
})();
