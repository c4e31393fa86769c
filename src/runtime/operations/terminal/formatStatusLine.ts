import type { BotStatus } from '../control/botStatus.js';

/**
 * The terminal's periodic summary, one line: the mode, then per strategy its net position, netPnl (USDC to 6 places)
 * and open orders, then the age of the market streams, then what is wrong if anything.
 */
export function formatStatusLine(status: BotStatus): string {
  const time = new Date(status.generatedAtMs).toISOString().slice(11, 19);
  const parts: string[] = [`${time} ${status.mode.toUpperCase()}`];
  for (const s of status.strategies) {
    const position =
      s.positions.length === 0
        ? '0'
        : s.positions.map((p) => (s.markets.length > 1 ? `${p.marketId}:${p.signedSize}` : p.signedSize)).join(',');
    const flags = [
      s.status === 'running' ? '' : s.status,
      s.feed.stale ? 'REDUCE-ONLY' : '',
      s.killSwitch.tripped && s.status !== 'halted' ? 'KILLED' : '',
    ]
      .filter((f) => f !== '')
      .join(' ');
    parts.push(
      `${s.name}: pos ${position} netPnl ${s.display.pnl?.netPnl ?? '?'} orders ${s.openOrders}${flags === '' ? '' : ` ${flags}`}`,
    );
  }
  const feeds = status.streams
    .filter((f) => f.marketId !== undefined)
    .map((f) => `${f.channel}:${f.marketId} ${(f.ageMs / 1000).toFixed(1)}s${f.stale ? '!' : ''}`)
    .join(' ');
  if (feeds !== '') parts.push(`feeds ${feeds}`);
  if (status.degraded.active) parts.push(`degraded: ${status.degraded.reasons.join('; ')}`);
  if (status.killSwitch.tripped) parts.push(`KILL SWITCH: ${status.killSwitch.reason ?? ''}`);
  return `── ${parts.join(' | ')}`;
}
