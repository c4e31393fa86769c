import type { ProtectionSpec } from './protectionLegs.js';

/** One strategy's protection of one market. */
export interface ProtectedMarket {
  readonly strategy: string;
  readonly marketId: number;
  readonly spec: ProtectionSpec;
}
