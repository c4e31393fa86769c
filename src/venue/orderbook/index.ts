export { LocalOrderBook, type ApplyResult, type OrderbookChecksumFn } from './localOrderBook.js';
export { OrderBookFeed, type OrderBookFeedOptions, type OrderBookView, type OrderbookSource } from './orderBookFeed.js';
