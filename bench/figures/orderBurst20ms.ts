import { orderBurstBench } from '../lib/orderBurstRun.js';

/** order_burst_20ms: the same burst with 20 ms added by the simulator to every request; >= 10x the naive client. */
export const orderBurst20ms = orderBurstBench({ name: 'order_burst_20ms', latencyMs: 20, targetRatio: 10 });
