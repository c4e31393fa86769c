export { startSim, type RunningSim, type StartSimConfig } from './startSim.js';
export type { SimEvent } from './simContext.js';
export type { WireDeparture } from './ws/wireDepartures.js';
