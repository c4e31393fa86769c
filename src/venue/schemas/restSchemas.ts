/** Every REST body schema in one import, for the simulator and the client. */
export * from './restPrimitives.js';
export * from './restEnvelope.js';
export * from './restPermit.js';
export * from './restSystem.js';
export * from './restAuth.js';
export * from './restMarkets.js';
export * from './restOrders.js';
export * from './restActionReceipt.js';
export * from './restAccount.js';
export * from './restQueries.js';
export * from './restHistory.js';
export * from './restMarketData.js';
export * from './restPortfolio.js';
