export { startSim, type RunningSim, type StartSimConfig } from './startSim.js';
export type { SimEvent } from './simContext.js';
export { WIRE_DEPARTURES, type WireDeparture } from './ws/wireDepartures.js';
