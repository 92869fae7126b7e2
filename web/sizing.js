/* The sizing part of the pascal report page: the sizing table, and the
 * required capacity against the scenario axes as a plot and as a pivot
 * table, all for the metric chosen in the page's metric menu.
 *
 * `pascal report` sizes every metric of that menu from every row of the
 * file (report/sizing.c): D.sizing.by_metric[name].rows holds, per
 * scenario, [[scenario values], smallest swept capacity meeting the target
 * (null: none swept does), C there, the metric at the largest capacity,
 * Theorem 5 capacity] and, for the default metric only, the exact search's
 * [C, its bytes, the metric there]; .costs names what a capacity costs
 * (area_l2_mm2, energy_j, time_bound_s, time_sim_s, those the file has)
 * and .costs_at[i] gives each at row i's answer, the worst over its draws:
 * what the answer buys.  The plot and the pivot table reduce
 * the scenarios to two axes: each other axis is fixed by a selector or, by
 * default, takes the worst case (the largest required capacity; a scenario
 * that no swept capacity satisfies is worse than any). */
var PascalSizing = (function () {
  'use strict';

  /* The x axis a first look wants: a workload's length or batch, else the
   * occupancy or depth, else the first axis that varies. */
  var PREFERRED_X = ['seq_kv', 'batch', 'occupancy', 'depth'];
  var MAX_SERIES = 12;   /* most lines (and pivot columns) chosen by default */

  /* Distinct values of scenario axis j over the rows, in axis order:
   * numbers ascending, labels as the file lists them. */
  function axisValues(T, j, axis) {
    var seen = new Map();
    T.rows.forEach(function (r) { seen.set(r[0][j], true); });
    var vs = Array.from(seen.keys());
    if (vs.every(function (v) { return typeof v === 'number'; }))
      return vs.sort(function (a, b) { return a - b; });
    if (axis && axis.labels)
      return vs.sort(function (a, b) { return axis.labels.indexOf(a) - axis.labels.indexOf(b); });
    return vs;
  }

  /* Powers of two from lo to hi, at most about eight of them. */
  function powerTicks(lo, hi) {
    var ks = [];
    for (var k = Math.floor(Math.log2(lo) + 1e-9); k <= Math.ceil(Math.log2(hi) - 1e-9); k++) ks.push(k);
    var step = Math.ceil(ks.length / 8);
    return ks.filter(function (_, i) { return i % step === 0; }).map(function (k) { return Math.pow(2, k); });
  }

  /* The section's state: the file's scenario axes with their values, and
   * the choices (metric, x, lines-by, each other axis fixed or worst). */
  function Sizing(kit, S) {
    var first = S.by_metric[S['default']];
    var self = this;
    this.kit = kit;
    this.S = S;
    this.names = first.axes;
    this.words = first.axis_words || first.axes;
    this.capAxis = first.cap_axis;
    this.cap = kit.axes[first.cap_axis];
    this.capBytes = this.cap.units === 'bytes';
    this.values = this.names.map(function (n, j) { return axisValues(first, j, kit.axes[n]); });
    this.varying = this.names.filter(function (_, j) { return self.values[j].length > 1; });
    var st = this.state = { metric: S['default'], x: null, series: '', fixed: {} };
    st.x = PREFERRED_X.filter(function (n) { return self.varying.indexOf(n) >= 0; })[0] ||
           this.varying[0] || null;
    st.series = this.varying.filter(function (n) {
      return n !== st.x && self.values[self.j(n)].length <= MAX_SERIES;
    })[0] || '';
    this.names.forEach(function (n) { st.fixed[n] = 'worst'; });
  }

  Sizing.prototype.j = function (n) { return this.names.indexOf(n); };

  Sizing.prototype.capText = function (v) {
    return this.capBytes ? this.kit.bytes(v) : this.kit.num(v, 6);
  };

  Sizing.prototype.valueText = function (n, v) {
    var a = this.kit.axes[n];
    return typeof v === 'string' ? v : (a && a.units === 'bytes' ? this.kit.bytes(v) : this.kit.num(v, 6));
  };

  /* An axis as an architect says it, with its name: "context length (seq_kv)". */
  Sizing.prototype.word = function (n) {
    var w = this.words[this.j(n)];
    return w && w !== n ? w + ' (' + n + ')' : n;
  };

  Sizing.prototype.targetText = function (T) {
    return T.traffic ? '\u2264 ' + T.target + '\u00d7 ideal traffic (' + T.metric + ')'
                     : T.metric + ' \u2264 ' + T.target;
  };

  Sizing.prototype.unsizedWhy = function (m) {
    var S = this.S;
    if (S.unsized.indexOf(m) >= 0)
      return m + ' is not sized: the report keeps at most ' + this.kit.num(S.max_cells) +
             ' scenario \u00d7 capacity values over all metrics, and ' + S.metrics.join(', ') +
             ' filled them.';
    return m + ' has no value in any row of the file: nothing to size.';
  };

  /* ---- the table, every scenario ------------------------------------------ */

  Sizing.prototype.tableHead = function (T) {
    var kit = this.kit, el = kit.el, self = this;
    var head = el('tr');
    T.axes.forEach(function (n) { head.appendChild(el('th', {}, self.word(n))); });
    head.appendChild(el('th', {}, T.traffic
      ? 'smallest ' + T.cap_axis + ' for ' + this.targetText(T)
      : 'smallest ' + T.cap_axis + ' with ' + this.targetText(T)));
    if (this.capBytes) head.appendChild(el('th', {}, 'C there (blocks)'));
    (T.costs || []).forEach(function (c) { head.appendChild(el('th', {}, kit.colLabel(c) + ' there')); });
    head.appendChild(el('th', {}, T.metric + ' at the largest ' + T.cap_axis));
    if (T.has_cshare) head.appendChild(el('th', {}, 'Theorem 5: 2\u03c3 \u2212 1 (blocks)'));
    if (T.exact) {
      head.appendChild(el('th', {}, 'exact (' + T.metric + '): smallest C (blocks)'));
      head.appendChild(el('th', {}, 'exact (' + T.metric + '): C \u00d7 block_bytes'));
    }
    return head;
  };

  Sizing.prototype.table = function (T) {
    var t = document.getElementById('sizing');
    var kit = this.kit, el = kit.el, self = this;
    t.innerHTML = '';
    if (!T) {
      document.getElementById('cap-sizing').textContent = this.unsizedWhy(this.state.metric);
      return;
    }
    t.appendChild(this.tableHead(T));
    T.rows.forEach(function (r, i) {
      var tr = el('tr');
      var td = function (cls, text) { tr.appendChild(el('td', cls ? { 'class': cls } : {}, text)); };
      r[0].forEach(function (v, j) { td(null, self.valueText(T.axes[j], v)); });
      td(r[1] === null ? 'none' : 'num', r[1] === null ? 'none swept' : self.capText(r[1]));
      if (self.capBytes) td('num', kit.num(r[2]));
      (T.costs || []).forEach(function (_, j) { td('num', kit.num(T.costs_at[i][j], 4)); });
      td('num', typeof r[3] === 'string' ? r[3] : kit.num(r[3], 4));
      if (T.has_cshare) td('num', kit.num(r[4]));
      if (T.exact) {
        td(r[5] === null ? 'none' : 'num', r[5] === null ? 'none' : kit.num(r[5]));
        td('num', r[6] === null ? '' : kit.bytes(r[6]));
      }
      t.appendChild(tr);
    });
    document.getElementById('cap-sizing').textContent = this.tableCaption(T);
  };

  /* Exact sizing is searched for the default metric only; another metric
   * says so rather than show that metric's numbers as its own. */
  Sizing.prototype.exactText = function (T) {
    var def = this.S['default'], D0 = this.S.by_metric[def];
    if (T.exact)
      return 'Exact (' + T.metric + ' only, the report\u2019s default metric): the smallest C in whole ' +
             'blocks meeting the target, found by bisection on the model re-evaluated from the file\u2019s ' +
             'spec (pascal size), for the draw that needs the most; the swept column brackets it from above.';
    if (T.metric !== def && D0.exact)
      return 'Only swept capacities for ' + T.metric + ': the exact column belongs to ' + def +
             ' (the report\u2019s default metric; choose it to see the exact search).';
    return 'Only swept capacities: no exact search (' + D0.exact_note + ').';
  };

  Sizing.prototype.tableCaption = function (T) {
    return 'For each scenario, the smallest swept ' + T.cap_axis + ' at which ' + T.metric +
      ' is at or below the target ' + T.target +
      (T.metric === this.S['default'] ? ' (pascal report --target)' : '') +
      (T.traffic ? ': the kernel\'s DRAM fills are at most ' + T.target + ' times its ideal traffic. '
                 : '. ') +
      (T.averaged.length ? T.metric + ' is the worst case over ' + T.averaged.join(', ') + '. ' : '') +
      'Computed from every row of the file. ' +
      (T.has_cshare ? 'Theorem 5: if no worker leads another by more than \u03c3 requests, ' +
                      'C \u2265 2\u03c3 \u2212 1 blocks keeps all sharing. '
                    : 'Theorem 5 needs \u03c3 (the lead parameter with the sharing model); this sweep does not give it. ') +
      (T.more ? 'Only the first ' + T.rows.length + ' scenarios in row order are listed. ' : '') +
      this.costsText(T) + this.exactText(T);
  };

  /* What the answer buys, and which figures behind it are assumed. */
  Sizing.prototype.costsText = function (T) {
    if (!T.costs || !T.costs.length)
      return T.costs_note ? 'Not shown: ' + T.costs_note + '. ' : '';
    return 'Beside each answer, what it buys: ' + T.costs.join(', ') + ' at that ' + T.cap_axis +
      (T.averaged.length ? ', the worst over ' + T.averaged.join(', ') : '') + '. ' +
      this.kit.assumedText(T.costs);
  };

  /* ---- reduced to two axes -------------------------------------------------- */

  /* cells.get(xi + '|' + si) = the largest required capacity (Infinity:
   * none swept) over the scenarios at those positions that the fixed
   * selectors keep. */
  Sizing.prototype.reduce = function (T) {
    var st = this.state, names = this.names, values = this.values;
    var xj = this.j(st.x), sj = st.series ? this.j(st.series) : -1;
    var cells = new Map();
    T.rows.forEach(function (r) {
      for (var j = 0; j < names.length; j++) {
        var f = st.fixed[names[j]];
        if (j !== xj && j !== sj && f !== 'worst' && r[0][j] !== values[j][f]) return;
      }
      var key = values[xj].indexOf(r[0][xj]) + '|' + (sj >= 0 ? values[sj].indexOf(r[0][sj]) : 0);
      var need = r[1] === null ? Infinity : r[1];
      cells.set(key, Math.max(cells.has(key) ? cells.get(key) : -Infinity, need));
    });
    return cells;
  };

  Sizing.prototype.others = function () {
    var st = this.state;
    return this.names.filter(function (n) { return n !== st.x && n !== st.series; });
  };

  Sizing.prototype.otherText = function () {
    var worst = [], fixed = [], self = this;
    this.others().forEach(function (n) {
      var f = self.state.fixed[n];
      if (f === 'worst') worst.push(n);
      else fixed.push(n + ' = ' + self.valueText(n, self.values[self.j(n)][f]));
    });
    return (worst.length ? 'Each point is the worst case (the largest required capacity) over ' +
                           worst.join(', ') + '. ' : '') +
           (fixed.length ? 'Fixed: ' + fixed.join(', ') + '. ' : '');
  };

  Sizing.prototype.controls = function () {
    var ctl = document.getElementById('ctl-sizing');
    var kit = this.kit, st = this.state, self = this;
    var again = function () { self.controls(); return self.redraw(); };
    ctl.innerHTML = '';
    kit.metricMenu(ctl);
    var choices = this.varying.map(function (n) { return { value: n, text: n }; });
    kit.select(ctl, 'x', choices, st.x, function (v) {
      if (v === st.series) st.series = '';
      st.x = v;
      again();
    });
    kit.select(ctl, 'lines by', [{ value: '', text: '(none)' }].concat(
      choices.filter(function (c) { return c.value !== st.x; })), st.series, function (v) {
      st.series = v;
      again();
    });
    this.others().forEach(function (n) {
      var vs = self.values[self.j(n)];
      if (vs.length < 2) return;
      var opts = [{ value: 'worst', text: 'worst case' }].concat(vs.map(function (v, i) {
        return { value: i, text: self.valueText(n, v) };
      }));
      kit.select(ctl, n, opts, st.fixed[n], function (v) {
        st.fixed[n] = v === 'worst' ? 'worst' : Number(v);
        self.redraw();
      });
    });
  };

  /* Plot rows {x, series, kind, y, need}: a point no swept capacity
   * satisfies is drawn at y = top (above the largest swept). */
  Sizing.prototype.plotRows = function (T, numeric, top) {
    var st = this.state, self = this;
    var xj = this.j(st.x), sj = st.series ? this.j(st.series) : -1;
    var rows = [];
    this.reduce(T).forEach(function (need, key) {
      var k = key.split('|').map(Number);
      var xv = self.values[xj][k[0]];
      var met = isFinite(need);
      rows.push({ x: numeric ? xv : self.valueText(st.x, xv),
                  series: sj >= 0 ? self.valueText(st.series, self.values[sj][k[1]]) : 'every scenario',
                  kind: met ? 'met' : 'none swept', y: met ? need : top,
                  need: met ? self.capText(need) : 'none swept (above ' + self.capText(self.maxCap()) + ')' });
    });
    if (numeric) rows.sort(function (a, b) { return a.x - b.x; });
    return rows;
  };

  Sizing.prototype.maxCap = function () { return Math.max.apply(null, this.cap.values); };

  Sizing.prototype.xEncoding = function (numeric) {
    var st = this.state, self = this, vs = this.values[this.j(st.x)], a = this.kit.axes[st.x];
    if (!numeric)
      return { field: 'x', type: 'ordinal', title: this.word(st.x),
               sort: vs.map(function (v) { return self.valueText(st.x, v); }) };
    var lo = Math.min.apply(null, vs), hi = Math.max.apply(null, vs);
    /* Ticks at the swept values when they are few, as the table lists them. */
    return { field: 'x', type: 'quantitative', title: this.word(st.x),
             scale: { type: lo > 0 && hi / lo >= 8 ? 'log' : 'linear', zero: false, nice: false, padding: 14 },
             axis: { values: vs.length <= 16 ? vs : undefined,
                     labelExpr: a && a.units === 'bytes' ? this.kit.bytesExpr : undefined } };
  };

  Sizing.prototype.plot = function (T) {
    var st = this.state, self = this;
    var numeric = this.values[this.j(st.x)].every(function (v) { return typeof v === 'number'; });
    var maxCap = this.maxCap(), top = maxCap * 1.6;
    var rows = this.plotRows(T, numeric, top);
    var none = rows.filter(function (r) { return r.kind !== 'met'; }).length;
    var ymin = Math.min.apply(null, rows.map(function (r) { return r.y; }).concat([maxCap]));
    var x = this.xEncoding(numeric);
    var y = { field: 'y', type: 'quantitative', title: 'required ' + this.capAxis,
              scale: { type: 'log', domain: [ymin / 1.5, top * 1.6], nice: false },
              axis: { values: powerTicks(ymin / 1.5, top * 1.6),
                      labelExpr: this.capBytes ? this.kit.bytesExpr : undefined } };
    var sOrder = st.series ? this.values[this.j(st.series)].map(function (v) {
      return self.valueText(st.series, v);
    }) : null;
    var color = { field: 'series', type: 'nominal', title: st.series || 'lines', sort: sOrder };
    var tip = [{ field: 'series', title: st.series || 'lines' }, { field: 'x', title: st.x },
               { field: 'need', title: 'required ' + this.capAxis }];
    var spec = {
      width: 'container', height: 320, autosize: { type: 'fit', contains: 'padding' },
      data: { name: 'table', values: rows },
      layer: [
        { transform: [{ filter: "datum.kind === 'met'" }], mark: { type: 'line', strokeWidth: 2 },
          encoding: { x: x, y: y, color: color } },
        { mark: { type: 'point', filled: true, size: 70 },
          encoding: { x: x, y: y, color: color, tooltip: tip,
                      shape: { field: 'kind', type: 'nominal', title: 'answer',
                               scale: { domain: ['met', 'none swept'], range: ['circle', 'triangle-up'] } } } },
        { data: { values: [{}] }, mark: { type: 'rule', color: '#8a8f99', strokeDash: [3, 3] },
          encoding: { y: { datum: maxCap } } }
      ],
      config: { legend: { orient: 'right', labelLimit: 260 } }
    };
    document.getElementById('cap-sizing-plot').textContent =
      'Required ' + this.capAxis + ': for each ' + this.word(st.x) + ', the smallest swept ' +
      this.capAxis + ' with ' + this.targetText(T) + ', from the sizing table below' +
      (st.series ? '; one line per ' + this.word(st.series) : '') + '. ' + this.otherText() +
      'Dashed: the largest swept ' + this.capAxis + ' (' + this.capText(maxCap) + '); a triangle above it ' +
      '(legend \u201cnone swept\u201d) marks a point that no swept capacity satisfies' +
      (none ? ' (' + none + ' here)' : ' (none here)') + '.' +
      (T.more ? ' Only the first ' + T.rows.length + ' scenarios in row order are sized.' : '');
    return this.kit.draw('sizing', spec, rows.length);
  };

  Sizing.prototype.pivot = function (T) {
    var t = document.getElementById('sizing-pivot');
    var st = this.state, el = this.kit.el, self = this;
    var cols = st.series ? this.values[this.j(st.series)] : [null];
    var cells = this.reduce(T);
    t.innerHTML = '';
    var head = el('tr');
    head.appendChild(el('th', {}, st.series ? st.x + ' \\ ' + st.series : st.x));
    cols.forEach(function (v) {
      head.appendChild(el('th', {}, v === null ? 'required ' + self.capAxis : self.valueText(st.series, v)));
    });
    t.appendChild(head);
    this.values[this.j(st.x)].forEach(function (xv, xi) {
      var tr = el('tr');
      tr.appendChild(el('td', {}, self.valueText(st.x, xv)));
      cols.forEach(function (_, si) {
        var need = cells.get(xi + '|' + si);
        tr.appendChild(el('td', { 'class': need === Infinity ? 'none' : 'num' },
                          need === undefined ? '\u2014' : need === Infinity ? 'none' : self.capText(need)));
      });
      t.appendChild(tr);
    });
    document.getElementById('cap-sizing-pivot').textContent =
      'Required ' + this.capAxis + ' for ' + this.targetText(T) + ', ' + this.word(st.x) + ' down' +
      (st.series ? ', ' + this.word(st.series) + ' across' : '') + '. ' + this.otherText() +
      '\u201cnone\u201d: no swept ' + this.capAxis + ' meets the target; \u2014: no scenario ' +
      '(dropped by the sweep\u2019s where clause).';
  };

  /* The plot and the pivot table for the current choices. */
  Sizing.prototype.redraw = function () {
    var T = this.S.by_metric[this.state.metric];
    if (!T) {
      var why = this.unsizedWhy(this.state.metric);
      document.getElementById('sizing-pivot').innerHTML = '';
      document.getElementById('cap-sizing-plot').textContent = why;
      document.getElementById('cap-sizing-pivot').textContent = '';
      return this.kit.draw('sizing', null, 0, why);
    }
    this.pivot(T);
    return this.plot(T);
  };

  /* Everything for metric m (the page's metric menu calls this). */
  Sizing.prototype.show = function (m) {
    this.state.metric = m;
    this.table(this.S.by_metric[m]);
    document.getElementById('sec-sizing-plot').hidden = !this.state.x;
    if (!this.state.x) return Promise.resolve(null);
    this.controls();
    return this.redraw();
  };

  /* kit: the page's helpers (axes, el, bytes, num, select, draw, bytesExpr,
   * metricMenu); S: D.sizing. */
  function create(kit, S) {
    var s = new Sizing(kit, S);
    return { show: function (m) { return s.show(m); }, state: s.state };
  }

  return { create: create };
})();
