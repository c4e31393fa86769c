import { describe, expect, it } from 'vitest';
import { renderReplayHtml, shownTotals } from '../../../src/runtime/replay/replayHtml.js';
import type { ReplayReport, ReplayStop, ReplayStops } from '../../../src/runtime/replay/replayReport.js';
import { replayReportFixture } from './replayReportFixture.js';

const HOSTILE = `</script><script>alert("x")</script><!-- <img src=x onerror=alert(1)> & 'q' \u2028`;

/** The report as the page's script reads it: the JSON block up to the first `</script`, as the HTML parser cuts it. */
function embeddedReport(html: string): unknown {
  const open = '<script type="application/json" id="replay-report">';
  const start = html.indexOf(open) + open.length;
  return JSON.parse(html.slice(start, html.indexOf('</script', start)));
}

/** Each total's cell text, by the data-total attribute the page puts on it. */
function totalsShown(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/data-total="(\w+)">([^<]*)</g)].map((m) => [m[1], m[2]]));
}

/** Each total's cell title (the exact figure). */
function totalsExact(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/title="([^"]*)" data-total="(\w+)"/g)].map((m) => [m[2], m[1]]));
}

describe('renderReplayHtml', () => {
  it('shows every total as the bot shows money (USDC to 6 places), the exact figure in its title, PnL coloured by its sign', () => {
    const report = replayReportFixture({ steps: 50 });
    const html = renderReplayHtml(report);
    expect(totalsShown(html)).toEqual(shownTotals(report.totals));
    expect(totalsExact(html)).toEqual(
      Object.fromEntries(Object.entries(report.totals).map(([key, value]) => [key, String(value)])),
    );
    const negative: ReplayReport = {
      ...report,
      totals: {
        ...report.totals,
        realisedPnl: '2',
        unrealisedPnl: '-3.4999995',
        fees: '0.0000005',
        netPnl: '-1.5',
        volume: '1234.5678905',
      },
    };
    const shown = renderReplayHtml(negative);
    // The PnL lines add up on screen: 2.000000 − 0.000000 − 3.500000 = −1.500000, though 0.0000005 rounds to even.
    expect(shown).toContain('<td class="num neg" title="-1.5" data-total="netPnl">-1.500000</td>');
    expect(shown).toContain('<td class="num pos" title="2" data-total="realisedPnl">2.000000</td>');
    expect(shown).toContain('<td class="num neg" title="-3.4999995" data-total="unrealisedPnl">-3.500000</td>');
    expect(shown).toContain('<td class="num" title="0.0000005" data-total="fees">0.000000</td>');
    expect(shown).toContain('<td class="num" title="1234.5678905" data-total="volume">1234.567890</td>');
  });

  it('escapes user text in the HTML and keeps it whole in the embedded report, whatever it contains', () => {
    const report = replayReportFixture({ steps: 20, strategyName: HOSTILE });
    const html = renderReplayHtml({ ...report, recording: { ...report.recording, run: HOSTILE } });
    // Three script elements (the data, uPlot, the page's), each closed once: the name closes none.
    expect(html.match(/<\/script/gi)).toHaveLength(3);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<!-- ');
    expect(html).toContain(
      '<td>&#60;/script&#62;&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#60;!-- &#60;img src=x onerror=alert(1)&#62; &#38; &#39;q&#39; \u2028</td>',
    );
    const embedded = embeddedReport(html) as ReplayReport;
    expect(embedded.strategies[0]?.name).toBe(HOSTILE);
    expect(embedded.recording.run).toBe(HOSTILE);
  });

  it('embeds the report itself, so the page plots exactly what report.json holds', () => {
    const report = replayReportFixture({ steps: 30 });
    expect(embeddedReport(renderReplayHtml(report))).toEqual(report);
  });

  it('gives the same bytes for the same report, also once it has been through report.json', () => {
    const report = replayReportFixture();
    const html = renderReplayHtml(report);
    expect(renderReplayHtml(replayReportFixture())).toBe(html);
    expect(renderReplayHtml(JSON.parse(JSON.stringify(report)) as ReplayReport)).toBe(html);
  });

  it('needs nothing from outside: no script, style or image loaded by address, uPlot inlined', () => {
    const html = renderReplayHtml(replayReportFixture({ steps: 10 }));
    expect(html).not.toMatch(/<script\b[^>]*\bsrc=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/\b(src|href)=|url\(/i);
    expect(html).toContain('var uPlot=function');
    expect(html).toMatch(/<style>\.uplot/);
  });

  it("draws a protected strategy's stops: what fired, at which price, its fill and realised PnL; none without protection", () => {
    const report = replayReportFixture({ steps: 10 });
    expect(renderReplayHtml(report)).not.toContain('data-testid="stops"');
    const base: ReplayStop = {
      id: 'tpsl-a-0',
      venueId: 'tpsl-1',
      marketId: 1,
      role: 'stop_loss',
      side: 'sell',
      size: '0.001',
      stopPrice: '64792.1',
      trigger: 'mark',
      state: 'executed',
      placedT: Date.UTC(2026, 5, 1, 0, 0, 2),
      endT: Date.UTC(2026, 5, 1, 0, 0, 14, 100),
      triggeredPrice: '64792',
      filledSize: '0.001',
      realisedPnl: '-0.2475',
      fees: '0.03236975',
      fills: [
        {
          t: Date.UTC(2026, 5, 1, 0, 0, 14, 100),
          price: '64739.5',
          size: '0.001',
          fee: '0.03236975',
          realisedPnl: '-0.2475',
        },
      ],
      reason: null,
    };
    const resized: ReplayStop = {
      ...base,
      id: 'tpsl-a-1',
      state: 'cancelled',
      triggeredPrice: null,
      filledSize: '0',
      realisedPnl: '0',
      fees: '0',
      fills: [],
    };
    const held: ReplayStop = { ...resized, id: 'tpsl-a-2', state: 'accepted', endT: null, reason: '<b>' };
    const stops: ReplayStops = {
      placed: 3,
      triggered: 1,
      executed: 1,
      cancelled: 1,
      refused: 0,
      executedSize: '0.001',
      realisedPnl: '-0.2475',
      fees: '0.03236975',
      orders: [base, resized, held],
    };
    const [first] = report.strategies;
    const html = renderReplayHtml({ ...report, strategies: [{ ...first!, stops }] });
    const panel = html.slice(
      html.indexOf('data-testid="stops"'),
      html.indexOf('</section>', html.indexOf('data-testid="stops"')),
    );
    expect(panel).toContain(`data-strategy="${first!.name}"`);
    expect(panel).toContain('3 placed · 1 fired · 1 executed (0.001) · 1 cancelled (1 not listed');
    // The executed one and the one held at the end; the resize's cancel is counted, not listed.
    expect([...panel.matchAll(/data-stop="([^"]+)"/g)].map((m) => m[1])).toEqual(['tpsl-a-0', 'tpsl-a-2']);
    expect(panel).toContain('<td class="num" data-field="triggeredPrice">64792</td>');
    expect(panel).toContain('<td>00:00:14.100</td>');
    expect(panel).toContain('<td class="num neg" title="-0.2475" data-field="realisedPnl">-0.247500</td>');
    expect(panel).toContain('<td class="num" title="0.03236975" data-field="fees">0.032370</td>');
    expect(panel).toContain('<td data-field="state" title="&#60;b&#62;">accepted</td>');
    expect(embeddedReport(html)).toMatchObject({ strategies: [{ stops }] });
  });

  it('plots equity, then every market the report names: its mark and fills, and its position if it held one', () => {
    const report = replayReportFixture({ steps: 10 });
    const fill = { ...report.series.fills[0]!, marketId: 7 };
    const html = renderReplayHtml({
      ...report,
      recording: { ...report.recording, markets: [2, 1] },
      series: { ...report.series, fills: [...report.series.fills, fill] },
    });
    const plots = [...html.matchAll(/data-plot="(\w+)"(?: data-market="(\d+)")?/g)].map((m) =>
      m[2] === undefined ? m[1] : `${m[1]}:${m[2]}`,
    );
    expect(plots).toEqual(['equity', 'price:1', 'position:1', 'price:2', 'position:2', 'price:7']);
  });
});
