import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { systemClock } from '../../../../src/core/clock.js';
import { CONTROL_ROW } from '../../../../src/runtime/diagnostics/probe/frameJudge.js';
import { probeWs } from '../../../../src/runtime/diagnostics/probe/probeWs.js';
import { WS_PROBES } from '../../../../src/runtime/diagnostics/probe/wsProbes.js';
import { OVERSIZED_FRAME_REASON } from '../../../../src/venue/ws/wsSession.js';

describe('probeWs', () => {
  let server: WebSocketServer | undefined;
  afterEach(async () => {
    for (const client of server?.clients ?? []) client.terminate();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('refuses a 10 MB frame unread and says so on the control row, without a crash', async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(server, 'listening');
    server.on('connection', (socket) => socket.send('Zq7'.repeat((10 * 1024 * 1024) / 3)));
    const saved: unknown[] = [];
    const rows = await probeWs({
      wsUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
      channels: WS_PROBES,
      markets: [1],
      listenMs: 300,
      clock: systemClock,
      saveSample: (_, raw) => {
        saved.push(raw);
        return Promise.resolve(undefined);
      },
      noAuthReason: 'no keys in this test',
    });
    const control = rows.find((row) => row.name === CONTROL_ROW);
    expect(control, JSON.stringify(rows)).toMatchObject({ status: 'failed', detail: OVERSIZED_FRAME_REASON });
    expect(saved).toEqual([]);
  });
});
