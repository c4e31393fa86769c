// The perpbot dashboard: renders the bot's status as it streams in (server-sent events from
// /api/events) and draws equity and net PnL with uPlot, served by the bot from node_modules.
// Every money figure is shown as the bot's `display` gives it (USDC to 6 places, prices to the
// market's tick, one statement that adds up): the page rounds nothing and computes nothing; only
// the chart turns the exact figures into floats. Text from the bot goes in with textContent, never as HTML.
(function () {
  'use strict';

  const MAX_POINTS = 3600;
  const { byTestId, setText, show, time, cell, fill } = window.perpbotDom;
  const signClass = (value) =>
    value === null || value === undefined ? '' : value.startsWith('-') ? 'neg' : /^0*(\.0*)?$/.test(value) ? '' : 'pos';
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

  function badge(id, text, tone) {
    const el = setText(id, text);
    el.className = `badge ${tone}`;
  }

  // ---- chart ----------------------------------------------------------------------------
  const series = { t: [], equity: [], netPnl: [] };
  let chart = null;
  let lastPointMs = 0;

  function makeChart() {
    const el = document.getElementById('chart');
    const width = Math.max(300, el.clientWidth);
    chart = new uPlot(
      {
        width,
        height: 260,
        scales: { x: { time: true }, eq: {}, pnl: {} },
        series: [
          {},
          { label: 'equity (USDC)', scale: 'eq', stroke: '#58a6ff', width: 2 },
          { label: 'net PnL (USDC)', scale: 'pnl', stroke: '#3fb950', width: 1.5 },
        ],
        axes: [
          { stroke: '#7d8a9c', grid: { stroke: '#263040' } },
          { scale: 'eq', stroke: '#7d8a9c', grid: { stroke: '#263040' }, size: 80 },
          { scale: 'pnl', side: 1, stroke: '#7d8a9c', grid: { show: false }, size: 70 },
        ],
        legend: { live: true },
      },
      [series.t, series.equity, series.netPnl],
      el,
    );
    window.addEventListener('resize', () => chart.setSize({ width: Math.max(300, el.clientWidth), height: 260 }));
  }

  function addPoint(tMs, equity, netPnl) {
    series.t.push(tMs / 1000);
    series.equity.push(equity === null ? null : Number(equity));
    series.netPnl.push(netPnl === null ? null : Number(netPnl));
    if (series.t.length > MAX_POINTS) for (const k of ['t', 'equity', 'netPnl']) series[k].shift();
    lastPointMs = tMs;
  }

  function redraw() {
    if (chart === null) makeChart();
    else chart.setData([series.t, series.equity, series.netPnl]);
    document.body.dataset.chartPoints = String(series.t.length);
  }

  /** "97.8 % · 12 ms" per market quoted (the market's id first when several), "–" before anything was wanted. */
  function quoteUptimeText(views) {
    const shown = (views || []).filter((u) => u.uptime !== null);
    if (shown.length === 0) return null;
    return shown
      .map((u) => {
        const pct = `${(u.uptime * 100).toFixed(1)} %`;
        const latency = u.requoteLatencyMs.p50 === null ? '' : ` · ${u.requoteLatencyMs.p50} ms`;
        return `${shown.length > 1 ? `${u.marketId}: ` : ''}${pct}${latency}`;
      })
      .join(', ');
  }

  // ---- status ---------------------------------------------------------------------------
  function render(status) {
    if (status.phase === 'starting') {
      badge('mode', 'starting', 'warn');
      setText('updated', status.step);
      return;
    }
    setText('account', status.account);
    badge('mode', status.mode, status.mode === 'trading' ? 'good' : status.mode === 'degraded' ? 'warn' : 'bad');
    badge('ready', status.ready.ready ? 'ready' : 'not ready', status.ready.ready ? 'good' : 'bad');
    badge(
      'kill-switch',
      status.killSwitch.tripped ? 'kill switch tripped' : 'kill switch armed',
      status.killSwitch.tripped ? 'bad' : 'good',
    );
    byTestId('dry-run').classList.toggle('hidden', !status.dryRun);
    setText('updated', time(status.generatedAtMs));
    setText('seq', String(status.seq));
    const money = status.display;
    const pnl = money.pnl;
    setText('balance', show(money.balance));
    setText('opening-balance', show(money.openingBalance));
    setText('balance-change', show(money.balanceChange));
    setText('other-balance-change', show(money.otherBalanceChange));
    setText('equity', show(money.equity));
    const net = setText('net-pnl', show(pnl && pnl.netPnl));
    net.className = `value ${signClass(pnl && pnl.netPnl)}`;
    setText('realised-pnl', show(pnl && pnl.realisedPnl));
    setText('unrealised-pnl', show(pnl && pnl.unrealisedPnl));
    setText('fees', show(pnl && pnl.fees));
    setText('connection', status.connection.status);
    setText('reconnects', String(status.connection.reconnects));
    setText('degraded-total', seconds(status.degraded.totalMs));

    const problems = [...status.ready.reasons, ...status.ready.warnings];
    byTestId('problems').classList.toggle('hidden', problems.length === 0);
    byTestId('problem-list').replaceChildren(
      ...problems.map((p) => {
        const li = document.createElement('li');
        li.textContent = p;
        return li;
      }),
    );

    fill(
      'positions',
      status.positions.map((p) => ({ key: ['position', String(p.marketId)], value: p })),
      (p) => [
        cell(p.marketId, { field: 'marketId' }),
        cell(p.side, { field: 'side', cls: p.side === 'buy' ? 'pos' : 'neg' }),
        cell(p.signedSize, { num: true, field: 'signedSize' }),
        cell(p.display.avgEntryPrice, { num: true, field: 'avgEntryPrice' }),
        cell(p.display.markPrice, { num: true, field: 'markPrice' }),
        cell(p.display.unrealisedPnl, {
          num: true,
          field: 'unrealisedPnl',
          cls: signClass(p.display.unrealisedPnl),
        }),
      ],
      'flat',
    );
    fill(
      'strategies',
      status.strategies.map((s) => ({ key: ['strategy', s.name], value: s })),
      (s) => [
        cell(s.name, { field: 'name' }),
        cell(s.status, { field: 'status', cls: s.status === 'failed' ? 'neg' : '' }),
        cell(
          s.positions.length === 0
            ? '0'
            : s.positions
                .map((p) => (s.markets.length > 1 ? `${p.marketId}: ${p.signedSize}` : p.signedSize))
                .join(', '),
          { num: true, field: 'position' },
        ),
        cell(s.display.pnl && s.display.pnl.netPnl, {
          num: true,
          field: 'netPnl',
          cls: signClass(s.display.pnl && s.display.pnl.netPnl),
        }),
        cell(s.openOrders, { num: true, field: 'openOrders' }),
        cell(quoteUptimeText(s.quoteUptime), { num: true, field: 'quoteUptime' }),
        cell(
          s.feed.stale
            ? `reduce-only: ${s.feed.staleFeeds.map((f) => `${f.channel}:${f.marketId}`).join(', ')}`
            : 'fresh',
          { field: 'feed', cls: s.feed.stale ? 'stale' : '' },
        ),
        cell(s.killSwitch.tripped ? 'tripped' : 'armed', {
          field: 'killSwitch',
          cls: s.killSwitch.tripped ? 'neg' : '',
        }),
      ],
      'no strategies',
    );
    fill(
      'orders',
      status.openOrders.map((o) => ({ key: ['order', o.intentId], value: o })),
      (o) => [
        cell(o.strategy, { field: 'strategy' }),
        cell(o.marketId, { field: 'marketId' }),
        cell(o.side, { field: 'side', cls: o.side === 'buy' ? 'pos' : 'neg' }),
        cell(o.size, { num: true, field: 'size' }),
        cell(o.display.price, { num: true, field: 'price' }),
        cell(o.filledSize, { num: true, field: 'filledSize' }),
        cell(o.state, { field: 'state' }),
        // The bot's short form (the part that tells orders apart), the whole id on hover.
        cell(o.orderIdShort, {
          field: 'orderId',
          title: o.orderId ?? 'no venue id yet: the venue has not acknowledged this order',
        }),
      ],
      'none',
    );
    fill(
      'fills',
      status.recentFills.slice(0, 20).map((f) => ({ key: ['fill', f.id], value: f })),
      (f) => [
        cell(time(f.atMs), { field: 'time' }),
        cell(f.strategy, { field: 'strategy' }),
        cell(f.marketId, { field: 'marketId' }),
        cell(f.side, { field: 'side', cls: f.side === 'buy' ? 'pos' : 'neg' }),
        cell(f.size, { num: true, field: 'size' }),
        cell(f.display.price, { num: true, field: 'price' }),
        cell(f.display.fee, { num: true, field: 'fee' }),
        cell(f.liquidity.toLowerCase(), { field: 'liquidity' }),
      ],
      'no fills yet',
    );
    fill(
      'streams',
      status.streams.map((s) => ({
        key: ['stream', s.marketId === undefined ? s.channel : `${s.channel}:${s.marketId}`],
        value: s,
      })),
      (s) => [
        cell(s.channel, { field: 'channel' }),
        cell(s.marketId === undefined ? 'account' : s.marketId, { field: 'marketId' }),
        cell(seconds(s.ageMs), { num: true, field: 'age' }),
        cell(s.budgetMs === undefined ? '–' : seconds(s.budgetMs), { num: true, field: 'budget' }),
        cell(s.stale ? 'stale' : s.lastAtMs === null ? 'no message yet' : 'fresh', {
          field: 'state',
          cls: s.stale ? 'stale' : '',
        }),
      ],
      'none',
    );

    window.perpbotProtection.render(status);

    if (status.generatedAtMs - lastPointMs >= 1000) {
      addPoint(status.generatedAtMs, status.equity, status.pnl && status.pnl.netPnl);
      redraw();
    }
    document.body.dataset.seq = String(status.seq);
  }

  // ---- live updates ---------------------------------------------------------------------
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    document.body.dataset.connected = 'true';
    setText('link', 'live');
  });
  events.addEventListener('error', () => {
    document.body.dataset.connected = 'false';
    setText('link', 'reconnecting');
  });
  events.addEventListener('history', (e) => {
    for (const k of ['t', 'equity', 'netPnl']) series[k].length = 0;
    for (const p of JSON.parse(e.data).points) addPoint(p.t, p.equity, p.netPnl);
    redraw();
  });
  events.addEventListener('status', (e) => render(JSON.parse(e.data)));
})();
