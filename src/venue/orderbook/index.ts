export { OrderBookFeed } from './orderBookFeed.js';
