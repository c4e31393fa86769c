// The replay page's plots: reads the report the page carries (a JSON block, never run as script)
// and draws equity, position per market and each market's mark with its fills, with the uPlot
// inlined beside it. Amounts are exact decimal strings in the report; only the plots turn them
// into floats. Times on the axes are UTC, as in the page's header.
(function () {
  'use strict';

  const report = JSON.parse(document.getElementById('replay-report').textContent);
  const HEIGHT = 260;
  const COLOURS = ['#58a6ff', '#d29922', '#a371f7', '#39c5cf', '#db61a2', '#7ee787'];
  const BUY = '#3fb950';
  const SELL = '#f85149';
  const BACKGROUND = '#161c24';
  const AXIS = { stroke: '#7d8a9c', grid: { stroke: '#263040' }, ticks: { stroke: '#263040' } };
  const seconds = (ms) => ms / 1000;
  const num = (text) => (text === null || text === undefined ? null : Number(text));
  const byTime = (a, b) => a.t - b.t;
  let drawn = 0;

  function plot(el, series, data) {
    if (data[0].length === 0) {
      el.textContent = 'nothing to plot';
      el.className = 'plot empty';
      return;
    }
    const options = {
      width: Math.max(300, el.clientWidth),
      height: HEIGHT,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true } },
      series: [{ label: 'time (UTC)' }, ...series],
      axes: [AXIS, { ...AXIS, size: 80 }],
    };
    const chart = new uPlot(options, data, el);
    window.addEventListener('resize', () => chart.setSize({ width: Math.max(300, el.clientWidth), height: HEIGHT }));
    el.dataset.drawn = String(data[0].length);
    drawn += 1;
  }

  function equity(el) {
    const points = [...report.series.equity].sort(byTime);
    plot(
      el,
      [{ label: 'equity', stroke: COLOURS[0], width: 2 }],
      [points.map((p) => seconds(p.t)), points.map((p) => num(p.value))],
    );
  }

  /**
   * One step line per market on one time axis: uPlot wants every series on the same x values, so
   * each market's size is carried forward to the times at which another market's changed.
   */
  function position(el) {
    const points = [...report.series.position].sort(byTime);
    const markets = [...new Set(points.map((p) => p.marketId))].sort((a, b) => a - b);
    const times = [...new Set(points.map((p) => p.t))];
    const row = new Map(times.map((t, i) => [t, i]));
    const columns = markets.map(() => new Array(times.length).fill(null));
    for (const p of points) columns[markets.indexOf(p.marketId)][row.get(p.t)] = num(p.size);
    for (const column of columns)
      for (let i = 1; i < column.length; i++) if (column[i] === null) column[i] = column[i - 1];
    plot(
      el,
      markets.map((id, i) => ({
        label: `market ${id}`,
        stroke: COLOURS[i % COLOURS.length],
        width: 2,
        paths: uPlot.paths.stepped({ align: 1 }),
        points: { show: false },
      })),
      [times.map(seconds), ...columns],
    );
  }

  /** The mark as a line, each fill as a point at its price: buys filled green, sells hollow red. */
  function price(el) {
    const marketId = Number(el.dataset.market);
    const rows = [
      ...report.series.price.filter((p) => p.marketId === marketId).map((p) => ({ t: p.t, mark: num(p.mark) })),
      ...report.series.fills.filter((f) => f.marketId === marketId).map((f) => ({ t: f.t, [f.side]: num(f.price) })),
    ].sort(byTime);
    const fills = (label, colour, fill) => ({
      label,
      stroke: colour,
      paths: () => null,
      points: { show: true, size: 9, width: 2, stroke: colour, fill },
    });
    plot(
      el,
      [
        { label: 'mark', stroke: COLOURS[0], width: 1.5, spanGaps: true, points: { show: false } },
        fills('buy fills', BUY, BUY),
        fills('sell fills', SELL, BACKGROUND),
      ],
      [
        rows.map((r) => seconds(r.t)),
        rows.map((r) => r.mark ?? null),
        rows.map((r) => r.buy ?? null),
        rows.map((r) => r.sell ?? null),
      ],
    );
  }

  const DRAW = { equity, position, price };
  for (const el of document.querySelectorAll('[data-plot]')) DRAW[el.dataset.plot](el);
  document.body.dataset.plots = String(drawn);
})();
