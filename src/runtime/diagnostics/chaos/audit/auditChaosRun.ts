import type { BotEvent, BotRun } from '../botTimeline.js';
import type { JournalTruth } from '../journalTruth.js';
import type { VenueTruth } from '../venueTruth.js';
import { balanceMatch } from './balanceMatch.js';
import { degradedPeriods } from './degradedPeriods.js';
import { duplicateExecutions } from './duplicateExecutions.js';
import { fillsJournaled } from './fillsJournaled.js';
import type { InvariantResult } from './invariant.js';
import { killSwitchTrips } from './killSwitchTrips.js';
import { malformedRequests } from './malformedRequests.js';
import { nonceErrors } from './nonceErrors.js';
import { positionsMatch } from './positionsMatch.js';
import { processExits } from './processExits.js';
import { reconnectTime } from './reconnectTime.js';

export interface AuditInputs {
  readonly venue: VenueTruth;
  readonly journal: JournalTruth;
  readonly runs: readonly BotRun[];
  readonly events: readonly BotEvent[];
  /** The config's degraded.max_outage_ms: the engine's own limit on an outage. */
  readonly maxOutageMs: number;
  /** The longest a reconnect may take, disconnect to trading again. */
  readonly maxReconnectMs: number;
  readonly nowMs: number;
}

/** Every invariant, in the order of the report's table. */
export function auditChaosRun(inputs: AuditInputs): InvariantResult[] {
  const { venue, journal, runs, events } = inputs;
  return [
    duplicateExecutions(venue.orders),
    fillsJournaled(venue.fills, journal.fills),
    nonceErrors(journal.failedIntents, journal.intents),
    malformedRequests(venue.refused),
    processExits(runs),
    killSwitchTrips(events),
    degradedPeriods(events, runs, inputs.maxOutageMs, inputs.nowMs),
    reconnectTime(
      events,
      runs,
      { maxReconnectMs: inputs.maxReconnectMs, maxOutageMs: inputs.maxOutageMs },
      inputs.nowMs,
    ),
    positionsMatch(venue.positions, journal.positions),
    balanceMatch(journal.balance, venue.balance, venue.fills, events),
  ];
}
