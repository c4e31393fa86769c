export { PerpbotError, isPerpbotError, type PerpbotErrorOptions } from './perpbotError.js';
export { InvalidValueError } from './invalidValueError.js';
export { checkInt, checkRange, checkUint, toBigInt, uintMax } from './integerRange.js';
export { parseAddress, sameAddress, type Address } from './address.js';
export {
  addDecimals,
  compareDecimals,
  negateDecimal,
  countUnits,
  decimalToFixed,
  decimalToWei,
  divideRounded,
  fixedToDecimal,
  isDecimalString,
  multiplyDecimals,
  multiplyUnits,
  normalizeDecimal,
  parseDecimal,
  pow10,
  rescale,
  weiTextToDecimal,
  weiToDecimal,
  WEI_DECIMALS,
  type FixedPoint,
  type Rounding,
} from './decimal.js';
export { ManualClock, systemClock, unixSeconds, type Clock } from './clock.js';
export { exponentialBackoff, withRetry, type RetryOptions } from './withRetry.js';
