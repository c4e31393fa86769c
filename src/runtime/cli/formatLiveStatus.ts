import { shortId } from '../../core/shortId.js';
import type { BotStatus, StreamStatus } from '../operations/control/botStatus.js';
import type { ControlRecord } from '../operations/control/controlFile.js';
import { formatTable } from './formatStatus.js';

/** `perpbot status` while a bot runs: its own view, live, with what the venue reads cannot show. */
export function formatLiveStatus(record: ControlRecord, status: BotStatus): string {
  const out: string[] = [
    `bot      running at ${record.url} (pid ${record.pid}, up ${duration(status.uptimeSeconds)}${status.dryRun ? ', dry run' : ''}): live state from the bot`,
    `account  ${status.account}`,
    `mode     ${status.mode}${status.ready.ready ? ' (ready)' : ` (not ready: ${status.ready.reasons.join('; ')})`}`,
    `kill     ${status.killSwitch.tripped ? `TRIPPED: ${status.killSwitch.reason ?? ''}` : 'armed'}`,
    ...moneyLines(status),
  ];
  // Older bots' status has no `unattributed`: read it only where it is.
  const foreign = (status as Partial<BotStatus>).unattributed;
  if (foreign !== undefined && foreign.fills > 0)
    out.push(
      `foreign  ${foreign.fills} fills of orders this bot did not place: netPnl ${foreign.display?.pnl?.netPnl ?? '-'}`,
    );
  for (const warning of status.ready.warnings) out.push(`warning  ${warning}`);
  out.push(...protectionLines(status));
  out.push('', ...positionLines(status), '', ...openOrderLines(status), '', 'strategies:', strategyTable(status), '');
  out.push(`streams  ${status.streams.map(streamText).join(', ')}`);
  return `${out.join('\n')}\n`;
}

/**
 * The account's money as the bot's status shows it (its `display`: USDC to 6 places, one
 * statement that adds up): balance and what changed it, then equity and the session's PnL.
 * A bot older than the one valuation sends no `display`: its figures show as '-'.
 */
function moneyLines(status: BotStatus): string[] {
  const d: Partial<BotStatus['display']> = (status as Partial<BotStatus>).display ?? {};
  const pnl = d.pnl ?? undefined;
  return [
    `balance  ${d.balance ?? '-'} USDC (cross margin; openingBalance ${d.openingBalance ?? '-'}, balanceChange ${d.balanceChange ?? '-'} = realisedPnl ${pnl?.realisedPnl ?? '-'} - fees ${pnl?.fees ?? '-'} + otherBalanceChange ${d.otherBalanceChange ?? '-'})`,
    `equity   ${d.equity ?? '-'} USDC = balance + unrealisedPnl ${pnl?.unrealisedPnl ?? '-'}   netPnl ${pnl?.netPnl ?? '-'} (realisedPnl + unrealisedPnl - fees, average entry)`,
  ];
}

function positionLines(status: BotStatus): string[] {
  if (status.positions.length === 0) return ['positions: none'];
  return [
    'positions:',
    formatTable(
      ['market', 'side', 'size', 'avgEntryPrice', 'markPrice', 'unrealisedPnl'],
      status.positions.map((p) => [
        String(p.marketId),
        p.side,
        p.signedSize,
        p.display?.avgEntryPrice ?? '-',
        p.display?.markPrice ?? '-',
        p.display?.unrealisedPnl ?? '-',
      ]),
    ),
  ];
}

function openOrderLines(status: BotStatus): string[] {
  if (status.openOrders.length === 0) return ['open orders: none'];
  return [
    'open orders:',
    formatTable(
      ['strategy', 'market', 'side', 'size', 'price', 'filled', 'state', 'order id'],
      status.openOrders.map((o) => [
        o.strategy,
        String(o.marketId),
        o.side,
        o.size,
        o.display?.price ?? o.price,
        o.filledSize,
        o.state,
        o.orderId === null ? '-' : shortId(o.orderId),
      ]),
    ),
  ];
}

function strategyTable(status: BotStatus): string {
  return formatTable(
    ['strategy', 'state', 'position', 'netPnl', 'orders', 'quote uptime', 'feeds', 'kill switch'],
    status.strategies.map((s) => [
      s.name,
      s.status,
      s.positions.map((p) => `${p.marketId}:${p.signedSize}`).join(' ') || '0',
      s.display?.pnl?.netPnl ?? '-',
      String(s.openOrders),
      quoteUptimeText(s.quoteUptime ?? []),
      s.feed.stale ? `REDUCE-ONLY (${s.feed.staleFeeds.map((f) => `${f.channel}:${f.marketId}`).join(', ')})` : 'fresh',
      s.killSwitch.tripped ? 'tripped' : 'armed',
    ]),
  );
}

/**
 * Per market quoted: `1: 98.2% (p50 12 ms, p99 40 ms, 2.4 actions/requote)`; `-` before anything was
 * wanted (an older bot's status has no figure).
 */
function quoteUptimeText(views: BotStatus['strategies'][number]['quoteUptime']): string {
  const shown = views.filter((u) => u.uptime !== null);
  if (shown.length === 0) return '-';
  return shown
    .map((u) => {
      const { p50, p99 } = u.requoteLatencyMs;
      const latency = p50 === null ? '' : ` (p50 ${p50} ms, p99 ${p99 ?? '-'} ms`;
      const actions = u.actionsPerRequote === null ? '' : `, ${u.actionsPerRequote.toFixed(1)} actions/requote`;
      return `${u.marketId}: ${((u.uptime ?? 0) * 100).toFixed(1)}%${latency}${actions}${latency === '' ? '' : ')'}`;
    })
    .join(' ');
}

/** One stream's age: `mark:1 0.4s`, with STALE past its budget. */
function streamText(f: StreamStatus): string {
  const market = f.marketId === undefined ? '' : `:${f.marketId}`;
  return `${f.channel}${market} ${(f.ageMs / 1000).toFixed(1)}s${f.stale ? ' STALE' : ''}`;
}

function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}h ${m}m` : m > 0 ? `${m}m ${s}s` : `${s}s`;
}

/** The strategies' TP/SL orders on the venue (`protection:`), one line each; nothing when none is protected. */
function protectionLines(status: BotStatus): string[] {
  // Older bots' status has no `protection`.
  const protection = (status as Partial<BotStatus>).protection ?? null;
  if (protection === null) return [];
  const lines = protection.positions.map((p) => {
    const legs = protection.orders
      .filter((o) => o.strategy === p.strategy && o.marketId === p.marketId)
      .map((o) => `${o.role} ${o.side} ${o.size} @ ${o.stopPrice} on ${o.trigger} (${o.state})`);
    const state = p.unprotected ? 'UNPROTECTED' : legs.length === 0 ? 'no position' : 'protected';
    return `protect  ${p.strategy} market ${p.marketId}: ${state}${legs.length === 0 ? '' : `: ${legs.join(', ')}`}`;
  });
  if (protection.venueRefusal !== null) lines.push(`protect  EMULATED: ${protection.venueRefusal}`);
  return lines;
}
