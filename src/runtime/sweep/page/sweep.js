// The sweep page's plots: reads the figures the page carries (a JSON block, never run as script)
// and draws, with the uPlot inlined beside it, the objective against each param (feasible variants
// filled, the others hollow), the top variants' equity, and with walk-forward each variant's
// in-sample figure against its out-of-sample one. Amounts are exact decimal strings in the study;
// only the plots turn them into floats.
(function () {
  'use strict';

  const data = JSON.parse(document.getElementById('sweep-data').textContent);
  const HEIGHT = 240;
  const GOOD = '#3fb950';
  const MUTED = '#7d8a9c';
  const BACKGROUND = '#161c24';
  const COLOURS = ['#58a6ff', '#3fb950', '#d29922', '#f85149', '#bc8cff', '#39c5cf', '#ff7b72', '#e3b341'];
  const AXIS = { stroke: MUTED, grid: { stroke: '#263040' }, ticks: { stroke: '#263040' } };
  const num = (value) => (value === null || value === undefined ? null : Number(value));
  let drawn = 0;

  function draw(el, options, rows) {
    if (rows[0].length === 0) {
      el.textContent = 'nothing to plot';
      el.className = 'plot empty';
      return;
    }
    const chart = new uPlot({ width: Math.max(300, el.clientWidth), height: HEIGHT, ...options }, rows, el);
    window.addEventListener('resize', () => chart.setSize({ width: Math.max(300, el.clientWidth), height: HEIGHT }));
    drawn += 1;
  }

  /** Points only, one row per point (uPlot wants one x per row): sorted by x. */
  function scatter(el, xLabel, points, series) {
    const rows = points.filter((p) => p.x !== null && Number.isFinite(p.x)).sort((a, b) => a.x - b.x);
    const marks = (label, colour, fill) => ({
      label,
      stroke: colour,
      paths: () => null,
      points: { show: true, size: 9, width: 2, stroke: colour, fill },
    });
    draw(
      el,
      {
        // A little room each side, so the points at the ends are not cut by the frame.
        scales: {
          x: { time: false, range: (_u, min, max) => [min - (max - min || 1) * 0.05, max + (max - min || 1) * 0.05] },
        },
        series: [{ label: xLabel }, ...series.map((s) => marks(s.label, s.colour, s.fill))],
        axes: [
          { ...AXIS, label: xLabel },
          { ...AXIS, size: 80, label: data.label },
        ],
      },
      [rows.map((r) => r.x), ...series.map((_s, i) => rows.map((r) => (r.series === i ? r.y : null)))],
    );
  }

  function param(el) {
    const name = el.dataset.param;
    const points = data.ranking.map((v) => ({ x: num(v.params[name]), y: num(v.value), series: v.feasible ? 0 : 1 }));
    scatter(el, name, points, [
      { label: 'feasible', colour: GOOD, fill: GOOD },
      { label: 'ruled out', colour: MUTED, fill: BACKGROUND },
    ]);
  }

  function isOos(el) {
    const points = data.windows.flatMap((w, i) =>
      w.map((v) => ({ x: num(v.inSample), y: num(v.outOfSample), series: i % COLOURS.length })),
    );
    const series = data.windows.map((_w, i) => ({
      label: `window ${i + 1}`,
      colour: COLOURS[i % COLOURS.length],
      fill: COLOURS[i % COLOURS.length],
    }));
    scatter(el, `${data.label} in sample`, points, series);
  }

  function equity(el) {
    const times = [...new Set(data.equity.flatMap((e) => e.points.map((p) => p.t)))].sort((a, b) => a - b);
    const at = new Map(times.map((t, i) => [t, i]));
    const columns = data.equity.map((e) => {
      const column = times.map(() => null);
      for (const p of e.points) column[at.get(p.t)] = num(p.value);
      return column;
    });
    draw(
      el,
      {
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true } },
        series: [
          { label: 'time (UTC)' },
          ...data.equity.map((e, i) => ({
            label: e.variant,
            stroke: COLOURS[i % COLOURS.length],
            width: 1.5,
            spanGaps: true,
          })),
        ],
        axes: [AXIS, { ...AXIS, size: 80 }],
      },
      [times.map((t) => t / 1000), ...columns],
    );
  }

  // The heatmap's pair of params: every pair is in the page, one shown.
  for (const select of document.querySelectorAll('[data-heatmap-pairs]')) {
    const tables = select.closest('section').querySelectorAll('table.heatmap');
    select.addEventListener('change', () => tables.forEach((t, i) => (t.hidden = String(i) !== select.value)));
  }

  const DRAW = { param, equity, 'is-oos': isOos };
  for (const el of document.querySelectorAll('[data-plot]')) DRAW[el.dataset.plot](el);
  document.body.dataset.plots = String(drawn);
})();
