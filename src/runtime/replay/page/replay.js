// The replay page's plots: reads the report the page carries (a JSON block, never run as script)
// and draws equity, and for each market its mark with its fills and its position, with the uPlot
// inlined beside it. Amounts are exact decimal strings in the report; only the plots turn them
// into floats. Every plot spans the whole recording on one UTC time axis, as in the page's header,
// so reading down the page is reading the same moment.
(function () {
  'use strict';

  const report = JSON.parse(document.getElementById('replay-report').textContent);
  const HEIGHT = 260;
  const POSITION_HEIGHT = 200;
  const LINE = '#58a6ff';
  const POSITION = '#d29922';
  const BUY = '#3fb950';
  const SELL = '#f85149';
  const BACKGROUND = '#161c24';
  const AXIS = { stroke: '#7d8a9c', grid: { stroke: '#263040' }, ticks: { stroke: '#263040' } };
  const seconds = (ms) => ms / 1000;
  const num = (text) => (text === null || text === undefined ? null : Number(text));
  const byTime = (a, b) => a.t - b.t;
  const inMarket = (marketId) => (p) => p.marketId === marketId;
  const span = [seconds(report.recording.startMs), seconds(report.recording.endMs)];
  let drawn = 0;

  function plot(el, series, data, height = HEIGHT) {
    if (data[0].length === 0) {
      el.textContent = 'nothing to plot';
      el.className = 'plot empty';
      return;
    }
    const options = {
      width: Math.max(300, el.clientWidth),
      height,
      // Hovering one plot shows the same moment on all of them.
      cursor: { sync: { key: 'replay' } },
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true, range: (_u, min, max) => [Math.min(span[0], min), Math.max(span[1], max)] } },
      series: [{ label: 'time (UTC)' }, ...series],
      // Ticks closer than the default 30 px: a short position plot of a small size still gets labels.
      axes: [AXIS, { ...AXIS, size: 80, space: 20 }],
    };
    const chart = new uPlot(options, data, el);
    window.addEventListener('resize', () => chart.setSize({ width: Math.max(300, el.clientWidth), height }));
    el.dataset.drawn = String(data[0].length);
    drawn += 1;
  }

  function equity(el) {
    const points = [...report.series.equity].sort(byTime);
    plot(
      el,
      [{ label: 'equity', stroke: LINE, width: 2 }],
      [points.map((p) => seconds(p.t)), points.map((p) => num(p.value))],
    );
  }

  /** A market's position as a step line: a size holds until the next change, or the recording's end. */
  function position(el) {
    const points = report.series.position.filter(inMarket(Number(el.dataset.market))).sort(byTime);
    const last = points[points.length - 1];
    const times = points.map((p) => seconds(p.t));
    const sizes = points.map((p) => num(p.size));
    if (last !== undefined && seconds(last.t) < span[1]) {
      times.push(span[1]);
      sizes.push(num(last.size));
    }
    const step = { label: 'size', stroke: POSITION, width: 2, paths: uPlot.paths.stepped({ align: 1 }) };
    plot(el, [{ ...step, points: { show: false } }], [times, sizes], POSITION_HEIGHT);
  }

  /**
   * The mark as a line, each fill as a point at its price: buys filled green, sells hollow red.
   * Fills have their own rows (uPlot wants one x per row), so two at one time both show.
   */
  function price(el) {
    const marketId = Number(el.dataset.market);
    const fills = report.series.fills.filter(inMarket(marketId));
    const rows = [
      ...report.series.price.filter(inMarket(marketId)).map((p) => ({ t: p.t, mark: num(p.mark) })),
      ...fills.map((f) => ({ t: f.t, [f.side]: num(f.price) })),
    ].sort(byTime);
    // Smaller marks when fills crowd the plot, so the mark's line still shows between them.
    const size = fills.length > el.clientWidth / 10 ? 5 : 9;
    const marks = (label, colour, fill) => ({
      label,
      stroke: colour,
      paths: () => null,
      points: { show: true, size, width: size > 5 ? 2 : 1, stroke: colour, fill },
    });
    plot(
      el,
      [
        { label: 'mark', stroke: LINE, width: 1.5, spanGaps: true, points: { show: false } },
        marks('buy fills', BUY, BUY),
        marks('sell fills', SELL, BACKGROUND),
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
