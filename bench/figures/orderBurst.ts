import { orderBurstBench } from '../lib/orderBurstRun.js';

/**
 * order_burst: 200 orders from intents to acknowledgement against the simulator on loopback with
 * no added latency, beside the naive one-at-a-time client. No target: on loopback both clients
 * wait on the same simulator, whose cost per order bounds the ratio (README, "Benchmarks");
 * sim_throughput measures that cost instead.
 */
export const orderBurst = orderBurstBench({ name: 'order_burst', latencyMs: 0 });
