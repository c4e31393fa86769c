import { randomBytes } from 'node:crypto';
import { idBasesFrom, type SimIdBases } from './exchange/simIdBases.js';

/** A simulator run's id bases from the operating system's randomness: unique across runs and processes. */
export function randomIdBases(): SimIdBases {
  return idBasesFrom(randomBytes(24));
}
