export { PerpbotError } from './perpbotError.js';
export { InvalidValueError } from './invalidValueError.js';
export {
  addDecimals,
  compareDecimals,
  negateDecimal,
  countUnits,
  decimalToFixed,
  fixedToDecimal,
  multiplyDecimals,
  normalizeDecimal,
  weiToDecimal,
  type Rounding,
} from './decimal.js';
export { ManualClock, systemClock, type Clock } from './clock.js';
export { exponentialBackoff, withRetry } from './withRetry.js';
