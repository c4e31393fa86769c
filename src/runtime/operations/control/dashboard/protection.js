// The dashboard's protection panel (`protection:` in the config): each protected position with
// the engine's TP/SL orders for it, from /api/status's `protection` as it is (sizes and stop
// prices as the engine holds them, which are what the venue holds). A venue that refuses TP/SL
// (the stops are emulated by this process and die with it), an unprotected position and a budget
// that runs low are shown loudly. Hidden while no strategy is protected.
(function () {
  'use strict';

  const { byTestId, setText, time, cell, fill } = window.perpbotDom;
  /** Columns of the table after strategy, market and position: what a position's row spans. */
  const ORDER_COLUMNS = 7;

  /** A notice shown (with `text`) or hidden (null). */
  function notice(id, text) {
    setText(id, text === null ? '' : text);
    byTestId(id).classList.toggle('hidden', text === null);
  }

  function positionState(p) {
    const emulated = p.emulated ? ': its stops are emulated by this process only' : '';
    if (p.unprotected) return `UNPROTECTED since ${time(p.unprotectedSinceMs)}${emulated}`;
    return p.emulated ? `emulated${emulated}` : 'protected';
  }

  function positionCells(p, position) {
    return [
      cell(p.strategy, { field: 'strategy' }),
      cell(p.marketId, { field: 'marketId' }),
      cell(position === undefined ? 'flat' : position.signedSize, { num: true, field: 'position' }),
      cell(positionState(p), {
        field: 'protection',
        span: ORDER_COLUMNS,
        cls: p.unprotected ? 'alarm-text' : p.emulated ? 'stale' : 'pos',
      }),
    ];
  }

  function orderCells(o) {
    return [
      cell('', {}),
      cell('', {}),
      cell('', {}),
      cell(o.role.replace('_', ' '), { field: 'role' }),
      cell(o.side, { field: 'side', cls: o.side === 'BUY' ? 'pos' : 'neg' }),
      cell(o.size, { num: true, field: 'size' }),
      cell(o.stopPrice, { num: true, field: 'stopPrice' }),
      cell(o.trigger, { field: 'trigger' }),
      cell(o.state, { field: 'state', cls: o.state === 'emulated' ? 'alarm-text' : '' }),
      cell(o.venueId, {
        field: 'venueId',
        title: o.venueId === null ? 'not on the venue: placing, or emulated by this process' : o.venueId,
      }),
    ];
  }

  /** Each protected position's row, then a row per TP/SL order it has. */
  function rows(status, protection) {
    const out = [];
    for (const p of protection.positions) {
      const key = `${p.strategy}:${p.marketId}`;
      const position = status.positions.find((q) => q.marketId === p.marketId);
      out.push({ key: ['protected', key], value: { kind: 'position', p, position }, cls: 'group' });
      for (const o of protection.orders.filter((o) => o.strategy === p.strategy && o.marketId === p.marketId))
        out.push({ key: ['tpsl', o.id], data: { position: key }, value: { kind: 'order', o } });
    }
    return out;
  }

  function render(status) {
    // An older bot's status has no `protection`.
    const protection = status.protection || null;
    byTestId('protection').classList.toggle('hidden', protection === null);
    if (protection === null) return;
    const bare = protection.positions.some((p) => p.unprotected);
    const state = setText('protection-state', bare ? 'unprotected' : 'protected');
    state.className = `badge ${bare ? 'bad' : 'good'}`;
    notice(
      'protection-refusal',
      protection.venueRefusal === null
        ? null
        : `TP/SL EMULATED: ${protection.venueRefusal}. The venue holds no stop: this process fires them itself, and they die with it.`,
    );
    notice('protection-budget', protection.budgetWarning === null ? null : `TP/SL budget: ${protection.budgetWarning}`);
    fill(
      'protection-rows',
      rows(status, protection),
      (row) => (row.kind === 'position' ? positionCells(row.p, row.position) : orderCells(row.o)),
      'no protected strategy',
    );
  }

  window.perpbotProtection = { render };
})();
