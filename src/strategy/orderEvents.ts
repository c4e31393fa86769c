/** The engine's order events, as strategies read them (`ctx.orderEvents`): one model, defined by the engine. */
export {
  isTerminalOrderEvent,
  type OrderCancelledEvent,
  type OrderEvent,
  type OrderEventType,
  type OrderExpiredEvent,
  type OrderFilledEvent,
  type OrderPartiallyFilledEvent,
  type OrderPlacedEvent,
  type OrderQueuedEvent,
  type OrderRefusedEvent,
  type OrderSubmittedEvent,
  type OrderUnknownEvent,
  type TerminalOrderEvent,
} from '../engine/orders/orderEvent.js';
