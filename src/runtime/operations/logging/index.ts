export { createLogger } from './createLogger.js';
