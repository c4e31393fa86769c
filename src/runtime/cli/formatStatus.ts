import { shortId } from '../../core/shortId.js';
import type { AccountStatus } from './accountStatus.js';

/** Left-aligned columns separated by two spaces; the header row first. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/**
 * `perpbot status` as text: account and balance, then positions, then open orders, each money
 * figure as the status's `display` gives it (USDC to 6 places, prices to the market's tick).
 */
export function formatStatusText(status: AccountStatus): string {
  const out: string[] = [`account  ${status.account}`];
  out.push(
    status.balance === null
      ? 'balance  (not registered: no deposit indexed yet)'
      : `balance  ${status.display.balance} USDC (cross margin)`,
  );
  out.push('');
  const positions = status.markets.filter((m) => m.position !== null);
  if (positions.length === 0) out.push('positions: none');
  else {
    out.push('positions:');
    out.push(
      formatTable(
        ['market', 'side', 'size', 'avgEntryPrice', 'markPrice', 'unrealisedPnl', 'leverage', 'liq. price'],
        positions.map((m) => {
          const p = m.position?.display;
          return [
            `${m.marketId} ${m.name}`,
            m.position?.side ?? '',
            m.position?.size ?? '',
            p?.avgEntryPrice ?? '-',
            p?.markPrice ?? m.display.markPrice,
            p?.unrealisedPnl ?? '-',
            m.position?.leverage ?? '-',
            p?.liquidationPrice ?? '-',
          ];
        }),
      ),
    );
  }
  out.push('');
  const orders = status.markets.flatMap((m) => m.openOrders.map((o) => ({ market: m, order: o })));
  if (orders.length === 0)
    out.push(`open orders: none (markets ${status.markets.map((m) => m.marketId).join(', ') || '-'})`);
  else {
    out.push('open orders:');
    out.push(
      formatTable(
        ['market', 'order id', 'side', 'type', 'size', 'price', 'tif', 'flags'],
        orders.map(({ market, order }) => [
          `${market.marketId} ${market.name}`,
          shortId(order.orderId),
          order.side,
          order.type,
          order.size,
          order.display.price,
          order.timeInForce,
          [order.postOnly ? 'post-only' : '', order.reduceOnly ? 'reduce-only' : '']
            .filter((f) => f !== '')
            .join(',') || '-',
        ]),
      ),
    );
  }
  return `${out.join('\n')}\n`;
}
