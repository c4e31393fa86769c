export { startSim, type RunningSim, type StartSimConfig } from './startSim.js';
export { resolveSimOptions, DEFAULT_SIM_OPTIONS, type StartSimOptions } from './simOptions.js';
export type {
  SimContext,
  SimControls,
  SimEvent,
  SimFaults,
  SimOptions,
  SimStateView,
  SimChain,
  SignerStatus,
  BlockStamp,
  SimWebSocketHandle,
  ChainCheck,
} from './simContext.js';
export { DEFAULT_MARKETS, type MarketDefinition } from './exchange/markets.js';
export type { SubscribeFault } from './ws/subscribeFault.js';
