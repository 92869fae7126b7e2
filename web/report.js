/* The pascal report page: reads the data block written by `pascal report`
 * (report/data.c), draws the plots with Vega-Lite through vega-embed, fills
 * the sizing, provenance and column tables, and runs the cache lab panel.
 *
 * The data are a sparse cube: `cube.dims` are the plotted axes, `cube.shape`
 * their plotted value counts, `cube.cells` the flat indices (last dimension
 * fastest) of the cells that have rows, and `cube.columns[name][i]` the mean
 * of that column over the rows of cell i (null where undefined).  Every plot
 * is a slice: its x axis (and lines-by axis) free, the other axes fixed by
 * selectors.  One metric menu drives the page: the capacity plot and the
 * sizing section (web/sizing.js) follow it, and each copy of the menu shows
 * the choice.  The cost-vs-area plot is web/pareto.js's.  window.pascalReport
 * exposes the views for tests. */
(function () {
  'use strict';

  var D = JSON.parse(document.getElementById('pascal-data').textContent);
  var R = window.pascalReport = { data: D, views: {}, rows: {}, errors: [] };
  var cube = D.cube;
  var axes = {};
  var cols = {};
  var strides = [];
  var position = new Map();

  D.axes.forEach(function (a) { axes[a.name] = a; });
  D.columns.forEach(function (c) { cols[c.name] = c; });
  (function () {
    var s = 1;
    for (var d = cube.dims.length - 1; d >= 0; d--) {
      strides[d] = s;
      s *= cube.shape[d];
    }
    cube.cells.forEach(function (c, i) { position.set(c, i); });
  })();

  /* ---- small helpers ---------------------------------------------------- */

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function bytes(v) {
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    var u = 0;
    while (Math.abs(v) >= 1024 && u < units.length - 1) { v /= 1024; u++; }
    return (Math.round(v * 1000) / 1000) + ' ' + units[u];
  }

  function num(v, digits) {
    if (v === null || v === undefined || typeof v !== 'number' || !isFinite(v)) return '\u2014';
    if (Number.isInteger(v) && Math.abs(v) < 1e15) return v.toLocaleString('en-US');
    return Number(v.toPrecision(digits || 4)).toString();
  }

  function axisText(a, j) {
    if (a.labels) return a.labels[j];
    var v = a.values[j];
    return a.units === 'bytes' ? bytes(v) : num(v, 6);
  }

  function colLabel(name) {
    var c = cols[name];
    return c && c.units ? name + ' (' + c.units + ')' : name;
  }

  function dimIndex(name) { return cube.dims.indexOf(name); }

  /* Cells along `free` dimensions with the rest fixed: calls fn(pos, cellIndex)
   * where pos maps a free dimension name to its plotted position. */
  function slice(free, fixed, fn) {
    var fd = free.map(dimIndex);
    var base = 0;
    cube.dims.forEach(function (name, d) {
      if (fd.indexOf(d) < 0) base += (fixed[name] || 0) * strides[d];
    });
    (function walk(k, flat, pos) {
      if (k === fd.length) {
        var i = position.get(flat);
        if (i !== undefined) fn(pos, i);
        return;
      }
      for (var j = 0; j < cube.shape[fd[k]]; j++) {
        pos[free[k]] = j;
        walk(k + 1, flat + j * strides[fd[k]], pos);
      }
    })(0, base, {});
  }

  function value(name, i) {
    var c = cube.columns[name];
    var v = c ? c[i] : null;
    return v === null || v === undefined ? null : v;
  }

  /* A column with at least one value in the cube (menus offer no others). */
  function hasData(name) {
    var c = cube.columns[name];
    return !!c && c.some(function (v) { return v !== null && v !== undefined; });
  }

  /* A workload's traffic ratio (DRAM fills over the ideal): its answer or
   * one model's. */
  function isTraffic(name) {
    return /^traffic_/.test(name) || /^answer_traffic/.test(name);
  }

  /* ---- controls ---------------------------------------------------------- */

  function select(parent, label, options, chosen, onChange) {
    var l = el('label', {}, label + ' ');
    var s = el('select');
    options.forEach(function (o) {
      var opt = el('option', { value: String(o.value) }, o.text);
      if (String(o.value) === String(chosen)) opt.selected = true;
      s.appendChild(opt);
    });
    s.addEventListener('change', function () { onChange(s.value); });
    l.appendChild(s);
    parent.appendChild(l);
    return s;
  }

  /* The page's one metric menu (a copy in each section that follows it):
   * the miss rates and traffic ratios with data, and the default even
   * without; listeners redraw what depends on the choice. */
  var metric = { name: null, choices: [], listeners: [] };

  function metricMenu(parent) {
    var s = select(parent, 'miss rate', metric.choices.map(function (n) {
      return { value: n, text: n };
    }), metric.name, setMetric);
    s.setAttribute('data-metric', '');
    return s;
  }

  function setMetric(v) {
    metric.name = v;
    document.querySelectorAll('select[data-metric]').forEach(function (s) { s.value = v; });
    return Promise.all(metric.listeners.map(function (fn) { return fn(v); }));
  }

  /* Selectors for every plotted axis with more than one value that is not
   * free in this plot; state.fixed holds their positions. */
  function fixedSelectors(parent, state, free, redraw) {
    cube.dims.forEach(function (name, d) {
      if (free.indexOf(name) >= 0 || cube.shape[d] < 2) return;
      var a = axes[name];
      var opts = a.values.map(function (_, j) { return { value: j, text: axisText(a, j) }; });
      select(parent, name, opts, state.fixed[name] || 0, function (v) {
        state.fixed[name] = Number(v);
        redraw();
      });
    });
  }

  /* Default positions of the fixed axes: for each, the value with the most
   * defined cells (a `where` filter can leave some values nearly empty), and
   * among those the one over which the metric varies most, so a first look
   * shows contrast. */
  function liveliest(metric, free) {
    var fixed = {};
    var col = cube.columns[metric] || [];
    cube.dims.forEach(function (name, d) {
      if (free.indexOf(name) >= 0 || cube.shape[d] < 2) return;
      var n = [], s = [], q = [];
      cube.cells.forEach(function (flat, i) {
        var v = col[i];
        if (v === null || v === undefined) return;
        var j = Math.floor(flat / strides[d]) % cube.shape[d];
        n[j] = (n[j] || 0) + 1;
        s[j] = (s[j] || 0) + v;
        q[j] = (q[j] || 0) + v * v;
      });
      var best = 0, most = -1, cells = 0;
      for (var j = 0; j < cube.shape[d]; j++) {
        var vr = n[j] ? q[j] / n[j] - (s[j] / n[j]) * (s[j] / n[j]) : -1;
        if ((n[j] || 0) > cells || ((n[j] || 0) === cells && vr > most + 1e-12)) {
          most = vr; best = j; cells = n[j] || 0;
        }
      }
      fixed[name] = best;
    });
    return fixed;
  }

  function plotAxes(exclude) {
    return cube.dims.filter(function (n, d) {
      return cube.shape[d] > 1 && exclude.indexOf(n) < 0;
    });
  }

  /* ---- drawing ----------------------------------------------------------- */

  var embedOptions = {
    mode: 'vega-lite',
    actions: { export: true, source: false, compiled: false, editor: false },
    renderer: 'canvas'
  };

  function draw(name, spec, count, emptyText) {
    var target = document.getElementById('plot-' + name);
    R.rows[name] = count;
    if (!count) {
      if (R.views[name]) R.views[name].finalize();
      delete R.views[name];
      target.innerHTML = '';
      target.appendChild(el('div', { 'class': 'empty' }, emptyText ||
        'No points at this selection (dropped by the sweep\u2019s where clause).'));
      return Promise.resolve(null);
    }
    return vegaEmbed(target, spec, embedOptions).then(function (res) {
      if (R.views[name]) R.views[name].finalize();
      R.views[name] = res.view;
      return res.view;
    }).catch(function (e) {
      R.errors.push(name + ': ' + e);
      target.textContent = 'Plot failed: ' + e;
    });
  }

  /* Powers of two between the smallest and largest x (at most ~10). */
  function powerTicks(rows) {
    var lo = Infinity, hi = -Infinity;
    rows.forEach(function (r) {
      if (r.x > 0) { lo = Math.min(lo, r.x); hi = Math.max(hi, r.x); }
    });
    if (!(hi > lo)) return undefined;
    var ks = [];
    for (var k = Math.ceil(Math.log2(lo) - 1e-9); k <= Math.floor(Math.log2(hi) + 1e-9); k++) ks.push(k);
    var step = Math.ceil(ks.length / 10);
    return ks.filter(function (_, i) { return i % step === 0; }).map(function (k) { return Math.pow(2, k); });
  }

  /* An axis label in bytes as KiB, MiB or GiB (a Vega expression). */
  var bytesExpr = "datum.value >= 1073741824 ? format(datum.value / 1073741824, '~g') + ' GiB' : " +
                  "datum.value >= 1048576 ? format(datum.value / 1048576, '~g') + ' MiB' : " +
                  "datum.value >= 1024 ? format(datum.value / 1024, '~g') + ' KiB' : datum.value + ' B'";

  function xEncoding(rows, field, title, log, isBytes) {
    var enc = { field: field, type: 'quantitative', title: title,
                scale: { type: log ? 'log' : 'linear', nice: false, zero: false },
                axis: { values: log ? powerTicks(rows) : undefined } };
    if (isBytes) enc.axis.labelExpr = bytesExpr;
    return enc;
  }

  var dashes = { domain: [], range: [] };
  function dash(kind, pattern) {
    dashes.domain.push(kind);
    dashes.range.push(pattern);
  }

  /* Line chart with an optional band: rows are {x, series, kind, y} for
   * lines and {x, series, lo, hi} for the band. */
  function lineSpec(rows, opt) {
    return {
      width: 'container', height: 340,
      autosize: { type: 'fit', contains: 'padding' },
      data: { name: 'table', values: rows },
      layer: [
        { transform: [{ filter: 'isValid(datum.lo) && isValid(datum.hi)' }],
          mark: { type: 'area', opacity: 0.2 },
          encoding: {
            x: opt.x, y: { field: 'lo', type: 'quantitative', title: opt.yTitle },
            y2: { field: 'hi' },
            color: { field: 'series', type: 'nominal', title: opt.seriesTitle, sort: opt.seriesOrder },
            tooltip: [{ field: 'series' }, { field: 'x', title: opt.xName },
                      { field: 'lo', title: 'band low' }, { field: 'hi', title: 'band high' }]
          } },
        { transform: [{ filter: 'isValid(datum.y)' }],
          mark: { type: 'line', point: opt.points, strokeWidth: 2 },
          encoding: {
            x: opt.x, y: { field: 'y', type: 'quantitative', title: opt.yTitle },
            color: { field: 'series', type: 'nominal', title: opt.seriesTitle, sort: opt.seriesOrder },
            strokeDash: { field: 'kind', type: 'nominal', title: 'curve',
                          scale: { domain: opt.dashes.domain, range: opt.dashes.range } },
            tooltip: [{ field: 'series' }, { field: 'kind' }, { field: 'x', title: opt.xName },
                      { field: 'y', title: opt.yName, format: '.4~g' }]
          } }
      ].concat(opt.target === undefined ? [] : [
        { data: { values: [{}] }, mark: { type: 'rule', color: '#8a8f99', strokeDash: [3, 3] },
          encoding: { y: { datum: opt.target } } },
        { data: { values: [{}] },
          mark: { type: 'text', align: 'left', baseline: 'bottom', dx: 4, dy: -2, color: '#5b6475' },
          encoding: { y: { datum: opt.target }, x: { value: 0 },
                      text: { value: 'target ' + opt.target } } }
      ]),
      config: { legend: { orient: 'right', labelLimit: 260 } }
    };
  }

  /* ---- miss rate vs capacity -------------------------------------------- */

  /* The sizing target of a metric (a traffic ratio and a miss rate have
   * their own when the page shows both), else --target. */
  function targetOf(name) {
    var T = D.sizing && D.sizing.by_metric[name];
    return T ? T.target : D.target;
  }

  function capacityPlot(P) {
    var st = { fixed: liveliest(P.metric, [P.x, P.series]), metric: P.metric,
               series: P.series || '', unit: P.blocks_only ? 'blocks' : 'bytes' };
    var xAxis = axes[P.x];
    var ctl = document.getElementById('ctl-capacity');
    metric.name = P.metric;
    metric.choices = D.columns.filter(function (c) {
      /* Not a Theorem 3 band's edges (drawn around their rate); the
       * answer's band edges are sized like the answer. */
      return (/^(rho|traffic)_/.test(c.name) || /^answer_traffic/.test(c.name)) &&
             (!/_(lo|hi)$/.test(c.name) || /^answer_traffic/.test(c.name)) &&
             (hasData(c.name) || c.name === P.metric);
    }).map(function (c) { return c.name; });
    metric.listeners.push(function (v) { st.metric = v; return redraw(); });
    var hasTrafficBound = hasData('traffic_bound');
    function controls() {
      ctl.innerHTML = '';
      metricMenu(ctl);
      select(ctl, 'lines by', [{ value: '', text: '(one line)' }].concat(
        plotAxes([P.x]).filter(function (n) { return axes[n].values.length <= 24; })
          .map(function (n) { return { value: n, text: n }; })),
      st.series, function (v) { st.series = v; controls(); redraw(); });
      if (P.blocks && xAxis.units === 'bytes' && !P.blocks_only)
        select(ctl, 'capacity in', [{ value: 'bytes', text: 'bytes' }, { value: 'blocks', text: 'blocks (C)' }],
               st.unit, function (v) { st.unit = v; redraw(); });
      fixedSelectors(ctl, st, [P.x, st.series], redraw);
    }
    function redraw() {
      var rows = [];
      var free = st.series ? [P.x, st.series] : [P.x];
      var sAxis = st.series ? axes[st.series] : null;
      var blocks = st.unit === 'blocks' || xAxis.units !== 'bytes';
      /* A workload's traffic ratio gets its own Theorem 4 floor and no
       * miss-rate overlays (another unit). */
      var traffic = isTraffic(st.metric);
      var bound = traffic ? (hasTrafficBound ? 'traffic_bound' : null) : P.bound;
      var che = traffic ? null : P.che;
      /* The answer's band (docs/workloads.md section 3.1), where the
       * simulator gave it: shaded around the answer. */
      var band = st.metric === 'answer_traffic' && hasData('answer_traffic_hi');
      var kinds = { metric: st.metric + (st.metric === 'rho_lru' ? ' (exact LRU)' : ''),
                    bound: traffic ? 'traffic_bound (floor)' : 'rho_bound (Theorem 4 bound)',
                    che: 'rho_che (Che/IRM)' };
      var n = 0;
      slice(free, st.fixed, function (pos, i) {
        var x = blocks && P.blocks ? value(P.blocks, i) : xAxis.values[pos[P.x]];
        var s = sAxis ? axisText(sAxis, pos[st.series]) : 'all points';
        var y = value(st.metric, i);
        if (x === null) return;
        if (y !== null) n++;
        rows.push({ x: x, series: s, kind: kinds.metric, y: y });
        if (bound && st.metric !== bound)
          rows.push({ x: x, series: s, kind: kinds.bound, y: value(bound, i) });
        if (che && st.metric !== che)
          rows.push({ x: x, series: s, kind: kinds.che, y: value(che, i) });
        if (P.band_lo && P.band_hi && st.metric !== 'rho_dyn' && !traffic)
          rows.push({ x: x, series: s, lo: value(P.band_lo, i), hi: value(P.band_hi, i) });
        if (band)
          rows.push({ x: x, series: s, lo: value('answer_traffic_lo', i), hi: value('answer_traffic_hi', i) });
      });
      var title = blocks ? 'capacity C (blocks)' + (P.blocks_only ? ', by ' + P.x : '')
                         : 'capacity (' + P.x + ')';
      caption(traffic, bound, che, band);
      return draw('capacity', lineSpec(rows, {
        x: xEncoding(rows, 'x', title, xAxis.log, !blocks),
        xName: title,
        yTitle: traffic ? 'DRAM traffic / ideal traffic' : 'miss rate (misses per request)',
        yName: st.metric,
        seriesTitle: st.series || 'lines', points: xAxis.values.length <= 40,
        target: /^rho_/.test(st.metric) || traffic ? targetOf(st.metric) : undefined,
        seriesOrder: sAxis ? sAxis.values.map(function (_, j) { return axisText(sAxis, j); }) : null,
        dashes: { domain: [kinds.metric, kinds.bound, kinds.che], range: [[1, 0], [7, 4], [2, 3]] }
      }), n);
    }
    /* The caption names what the plot shows now: it follows the menu. */
    function caption(traffic, bound, che, band) {
      document.getElementById('cap-capacity').textContent =
        'Solid: ' + st.metric + (st.metric === 'answer_traffic'
          ? ', the answer: the most faithful model present at each point (answer_source), its ' +
            'DRAM fills over the ideal traffic (every block once)'
          : traffic ? ', the DRAM fills of the whole kernel over its ideal traffic (every block once)'
          : ', the miss rate per request') +
        (st.metric === 'rho_lru' ? ' of an exact fully associative LRU cache' : '') + '. ' +
        (P.band_lo && !traffic && st.metric !== 'rho_dyn'
          ? 'Shaded: the Theorem 3 LRU band K(T*+1)/M .. K(T*-1)/M (defined where D <= C). ' : '') +
        (band ? 'Shaded: the answer\u2019s band, answer_traffic_lo (the lock-step kernel) .. ' +
                'answer_traffic_hi (the 90th percentile of band_seeds free-running simulations). ' : '') +
        (bound && bound !== st.metric
          ? 'Dashed: ' + bound + ', a floor; no demand-paging policy, Belady included, does ' +
            'better. ' : '') +
        (che && che !== st.metric ? 'Dotted: the phase-blind Che/IRM baseline 1 - C/N. ' : '') +
        'Other axes are fixed by the selectors above.';
    }
    controls();
    return redraw();
  }

  /* ---- cost vs area (web/pareto.js) ---------------------------------------- */

  /* What the plot's means stand for, when random draws are averaged. */
  function averagedText() {
    var avg = D.axes.filter(function (a) { return a.role === 'averaged'; });
    return avg.length ? 'Means over ' + avg.map(function (a) {
      return a.name + ' (' + a.count + ' draws)';
    }).join(', ') + '. ' : '';
  }

  function paretoPlot(P) {
    return PascalPareto.create({ axes: axes, slice: slice, value: value, axisText: axisText,
                                 liveliest: liveliest, plotAxes: plotAxes, fixedSelectors: fixedSelectors,
                                 select: select, draw: draw, bytes: bytes, num: num, colLabel: colLabel,
                                 averagedText: averagedText, data: D, R: R }, P);
  }

  /* ---- heatmap ------------------------------------------------------------ */

  function heatmapPlot(P) {
    var st = { fixed: liveliest(P.metric, [P.x, P.y]), x: P.x, y: P.y, metric: P.metric };
    var ctl = document.getElementById('ctl-heatmap');
    function controls() {
      var choices = plotAxes([]).map(function (n) { return { value: n, text: n }; });
      ctl.innerHTML = '';
      select(ctl, 'color', D.columns.map(function (c) { return { value: c.name, text: c.name }; }),
             st.metric, function (v) { st.metric = v; redraw(); });
      select(ctl, 'x', choices, st.x, function (v) {
        if (v === st.y) st.y = st.x;
        st.x = v; controls(); redraw();
      });
      select(ctl, 'y', choices, st.y, function (v) {
        if (v === st.x) st.x = st.y;
        st.y = v; controls(); redraw();
      });
      fixedSelectors(ctl, st, [st.x, st.y], redraw);
    }
    function redraw() {
      var xa = axes[st.x], ya = axes[st.y];
      var rows = [];
      var n = 0;
      slice([st.x, st.y], st.fixed, function (pos, i) {
        var v = value(st.metric, i);
        if (v === null) return;
        n++;
        rows.push({ x: axisText(xa, pos[st.x]), y: axisText(ya, pos[st.y]), v: v });
      });
      var order = function (a) { return a.values.map(function (_, j) { return axisText(a, j); }); };
      var xs = order(xa), ys = order(ya).reverse();
      var spec = {
          width: 'container', height: Math.max(160, Math.min(520, 26 * ys.length)),
        autosize: { type: 'fit', contains: 'padding' },
        data: { name: 'table', values: rows },
        mark: { type: 'rect' },
        encoding: {
          x: { field: 'x', type: 'ordinal', sort: xs, title: st.x,
               axis: { labelOverlap: 'parity', labelAngle: xs.length > 12 ? -45 : 0 } },
          y: { field: 'y', type: 'ordinal', sort: ys, title: st.y },
          color: { field: 'v', type: 'quantitative', title: colLabel(st.metric),
                   scale: { scheme: 'viridis' } },
          tooltip: [{ field: 'x', title: st.x }, { field: 'y', title: st.y },
                    { field: 'v', title: st.metric, format: '.4~g' }]
        }
      };
      return draw('heatmap', spec, n);
    }
    controls();
    document.getElementById('cap-heatmap').textContent =
      'Color: the chosen column over two swept axes; the other axes are fixed by the ' +
      'selectors. Blank cells have no point (dropped by the spec) or an undefined value.';
    return redraw();
  }

  /* ---- dynamic ------------------------------------------------------------ */

  function dynamicPlot(P) {
    var st = { fixed: liveliest(P.metric, [P.x, P.series]), series: P.series || '' };
    var xAxis = axes[P.x];
    var ctl = document.getElementById('ctl-dynamic');
    function controls() {
      ctl.innerHTML = '';
      select(ctl, 'lines by', [{ value: '', text: '(one line)' }].concat(
        plotAxes([P.x]).filter(function (n) { return axes[n].values.length <= 24; })
          .map(function (n) { return { value: n, text: n }; })),
      st.series, function (v) { st.series = v; controls(); redraw(); });
      fixedSelectors(ctl, st, [P.x, st.series], redraw);
    }
    function redraw() {
      var rows = [];
      var free = st.series ? [P.x, st.series] : [P.x];
      var sAxis = st.series ? axes[st.series] : null;
      var n = 0;
      slice(free, st.fixed, function (pos, i) {
        var s = sAxis ? axisText(sAxis, pos[st.series]) : 'all points';
        var x = xAxis.values[pos[P.x]];
        var y = value(P.metric, i);
        if (y !== null) n++;
        rows.push({ x: x, series: s, kind: P.metric, y: y });
        if (P.sim)  /* the simulator's K beside the prediction */
          rows.push({ x: x, series: s, kind: P.sim, y: value(P.sim, i) });
        if (P.band_lo && P.band_hi)
          rows.push({ x: x, series: s, lo: value(P.band_lo, i), hi: value(P.band_hi, i) });
      });
      return draw('dynamic', lineSpec(rows, {
        x: xEncoding(rows, 'x', 'horizon ' + P.x + (xAxis.units ? ' (' + xAxis.units + ')' : ''),
                     xAxis.log, false),
        xName: P.x, yTitle: colLabel(P.metric), yName: P.metric,
        seriesTitle: st.series || 'lines', points: true,
        seriesOrder: sAxis ? sAxis.values.map(function (_, j) { return axisText(sAxis, j); }) : null,
        dashes: { domain: P.sim ? [P.metric, P.sim] : [P.metric], range: [[1, 0], [5, 3]] }
      }), n);
    }
    controls();
    var simulated = /_sim$/.test(P.metric);
    document.getElementById('cap-dynamic').textContent =
      (simulated ? 'Line: the simulated ' + P.metric + ' (progress simulator, docs/simulate.md)'
                 : 'Line: the calibrated dynamic prediction ' + P.metric) +
      ' against the horizon ' + P.x +
      (P.band_lo ? '; shaded: its empirical band ' + P.band_lo + ' .. ' + P.band_hi : '') +
      (P.sim ? '; dashed: the simulated ' + P.sim + ' at the same points' : '') +
      '. Other axes are fixed by the selectors above.';
    return redraw();
  }

  /* ---- summary, provenance ------------------------------------------------ */

  function summary() {
    var c = document.getElementById('summary');
    var card = function (big, small) {
      var d = el('div', { 'class': 'card' });
      d.appendChild(el('b', {}, big));
      d.appendChild(el('span', {}, small));
      c.appendChild(d);
    };
    document.getElementById('title').textContent = D.title;
    card(num(D.points), 'points');
    card(String(D.axes.length), 'swept axes');
    card(String(D.columns.length), 'plotted columns');
    if (D.sizing) card(String(D.sizing.by_metric[D.sizing['default']].rows.length), 'sizing scenarios');
    document.getElementById('lede').textContent = D.axes.length
      ? 'Sweep over ' + D.axes.map(function (a) { return a.name + ' (' + a.count + ')'; }).join(' \u00d7 ') +
        ', file ' + D.file + '.'
      : 'A single point, file ' + D.file + '.';
    var notes = document.getElementById('notes');
    D.notes.forEach(function (n) { notes.appendChild(el('li', {}, n)); });
    Object.keys(D.why_not).forEach(function (k) {
      if (D.why_not[k]) notes.appendChild(el('li', {}, 'No ' + k + ' plot: ' + D.why_not[k] + '.'));
    });
  }

  function provenance() {
    document.getElementById('spec').textContent = D.spec || '(no spec recorded)';
    if (D.device) document.getElementById('device').textContent = D.device;
    else document.getElementById('device-wrap').hidden = true;
    var t = document.getElementById('attrs');
    var kv = function (k, v) {
      var tr = el('tr');
      tr.appendChild(el('td', {}, k));
      tr.appendChild(el('td', {}, v));
      t.appendChild(tr);
    };
    kv('file', D.file);
    if (!D.attrs.some(function (a) { return a[0] === 'points'; })) kv('points', num(D.points));
    D.attrs.forEach(function (a) { kv(a[0], a[1]); });
    if (D.report_command) kv('report made by', D.report_command);
    var ct = document.getElementById('columns');
    var head = el('tr');
    ['column', 'units', 'description'].forEach(function (h) { head.appendChild(el('th', {}, h)); });
    ct.appendChild(head);
    D.columns.forEach(function (c) {
      var tr = el('tr');
      tr.appendChild(el('td', {}, c.name));
      tr.appendChild(el('td', {}, c.units));
      tr.appendChild(el('td', {}, c.description));
      ct.appendChild(tr);
    });
    document.getElementById('footer').textContent =
      'Made by pascal report ' + D.report_version + '. Self-contained: opens offline. Plots drawn with Vega-Lite.';
  }

  /* ---- cache lab ------------------------------------------------------------ */

  function labPanel() {
    var lab = new PascalLab.Lab(D.lab);
    var $ = function (id) { return document.getElementById(id); };
    var cap = $('lab-capacity'), stride = $('lab-stride'), err = $('lab-error');
    cap.max = D.lab.max_capacity;
    stride.max = D.lab.max_stride;
    function show() {
      cap.value = lab.capacity;
      stride.value = lab.stride;
      $('lab-requests').textContent = lab.requests;
      $('lab-hits').textContent = lab.hits;
      $('lab-misses').textContent = lab.misses;
      $('lab-rate').textContent = lab.requests ? (100 * lab.hits / lab.requests).toFixed(1) + '%' : '\u2014';
      var box = $('lab-cache');
      box.innerHTML = '';
      for (var i = 0; i < lab.capacity; i++) {
        var used = i < lab.lines.length;
        var cls = !used ? 'free' : (i === 0 && lab.last !== 'none' ? lab.last : '');
        box.appendChild(el('div', { 'class': cls, title: used ? 'address ' + lab.lines[i] : 'free line' },
                           used ? lab.lines[i] : '\u00b7'));
      }
      $('lab-last').textContent = lab.last === 'none' ? 'No request counted yet.'
        : 'Last request #' + lab.requests + ': address ' + lab.lastAddress + ', ' + lab.last +
          '. Next: address ' + lab.address(lab.requests) + '.';
    }
    function apply(msg) {
      err.textContent = msg || '';
      show();
    }
    cap.addEventListener('change', function () { apply(lab.setCapacity(cap.value)); });
    stride.addEventListener('change', function () { apply(lab.setStride(stride.value)); });
    $('lab-reset').addEventListener('click', function () { lab.reset(); apply(null); });
    $('lab-step').addEventListener('click', function () { apply(lab.step(1)); });
    R.lab = lab;
    show();
  }

  function toc() {
    var nav = document.getElementById('toc');
    document.querySelectorAll('section[id^="sec-"]').forEach(function (s) {
      var h = s.querySelector('h2');
      if (!h || s.hidden) return;
      nav.appendChild(el('a', { href: '#' + s.id }, h.textContent));
    });
  }

  /* ---- main ------------------------------------------------------------------ */

  var pending = [];
  summary();
  provenance();
  labPanel();
  [['capacity', capacityPlot], ['pareto', paretoPlot], ['heatmap', heatmapPlot],
   ['dynamic', dynamicPlot]].forEach(function (p) {
    var P = D.plots[p[0]];
    if (!P) return;
    document.getElementById('sec-' + p[0]).hidden = false;
    try {
      pending.push(p[1](P));
    } catch (e) {
      R.errors.push(p[0] + ': ' + e);
    }
  });
  if (D.sizing) {
    document.getElementById('sec-sizing').hidden = false;
    try {
      var sizing = PascalSizing.create({ axes: axes, el: el, bytes: bytes, num: num, select: select,
                                         draw: draw, bytesExpr: bytesExpr, metricMenu: metricMenu,
                                         colLabel: colLabel, assumedText: function (names) {
                                           return PascalPareto.assumedText(D, names);
                                         } }, D.sizing);
      metric.listeners.push(sizing.show);
      pending.push(sizing.show(metric.name || D.sizing['default']));
      R.sizing = sizing.state;
    } catch (e) {
      R.errors.push('sizing: ' + e);
    }
  }
  toc();
  R.plots = Object.keys(D.plots).filter(function (k) { return D.plots[k]; });
  R.ready = Promise.all(pending).then(function () { return R; });
})();
