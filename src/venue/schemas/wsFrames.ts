import { z } from 'zod';
import type { ChannelName } from './wsFramesFields.js';
import {
  appPongSchema,
  authReplySchema,
  errorFrameSchema,
  subscribedAckSchema,
  unsubscribedAckSchema,
} from './wsFramesControl.js';
import { fundingFrameSchema, type FundingMessage } from './wsFramesFunding.js';
import { oracleFrameSchema, type OracleMessage } from './wsFramesOracle.js';
import { orderbookFrameSchema, type OrderbookMessage } from './wsFramesOrderbook.js';
import { tradesFrameSchema, type TradesMessage } from './wsFramesTrades.js';
import {
  accountFrameSchema,
  fillsFrameSchema,
  ordersFrameSchema,
  positionsFrameSchema,
  type AccountMessage,
  type FillsMessage,
  type OrdersMessage,
  type PositionsMessage,
} from './wsFramesPrivate.js';

/** Every channel's decoding schema, keyed by channel name. */
export const channelFrameSchemas = {
  oracle: oracleFrameSchema,
  orderbook: orderbookFrameSchema,
  trades: tradesFrameSchema,
  funding: fundingFrameSchema,
  orders: ordersFrameSchema,
  positions: positionsFrameSchema,
  fills: fillsFrameSchema,
  account: accountFrameSchema,
} as const satisfies Record<ChannelName, z.ZodType>;

export interface ChannelMessages {
  oracle: OracleMessage;
  orderbook: OrderbookMessage;
  trades: TradesMessage;
  funding: FundingMessage;
  orders: OrdersMessage;
  positions: PositionsMessage;
  fills: FillsMessage;
  account: AccountMessage;
}
export type ChannelMessage = ChannelMessages[ChannelName];

/** Server frames that are not channel data, tried in this order. */
export const controlFrameSchema = z.union([
  subscribedAckSchema,
  unsubscribedAckSchema,
  errorFrameSchema,
  authReplySchema,
  appPongSchema,
]);
export type ControlFrame = z.infer<typeof controlFrameSchema>;

export * from './wsFramesFields.js';
export * from './wsFramesEnvelope.js';
export * from './wsFramesClient.js';
export * from './wsFramesControl.js';
export * from './wsFramesOracle.js';
export * from './wsFramesOrderbook.js';
export * from './wsFramesTrades.js';
export * from './wsFramesFunding.js';
export * from './wsFramesPrivate.js';
