import type { AccountMessage, AccountRecord } from '../schemas/wsFramesPrivate.js';
import { decodeChannelEnvelope, decodeDecimal, isJsonObject, withEnvelope } from './fastDecodeFields.js';
import { copyUndeclaredKeys, setOptional } from './fastDecodeLooseRecord.js';
import { decodeAddress } from './fastDecodePrivateFields.js';

/**
 * Hand-checked decoder for account frames: the same message as `accountFrameSchema`, key order
 * included, and undefined for every frame it refuses.
 */
export function fastDecodeAccount(frame: unknown): AccountMessage | undefined {
  const envelope = decodeChannelEnvelope(frame, 'account');
  if (envelope === undefined) return undefined;
  const account = decodeAccount(envelope.data);
  if (account === undefined) return undefined;
  return withEnvelope<AccountMessage>(envelope.meta, { channel: 'account', type: envelope.type, account });
}

/** accountRecordWireSchema's keys, in its order. */
const DECLARED: ReadonlySet<string> = new Set(['balance', 'account']);

function decodeAccount(raw: unknown): AccountRecord | undefined {
  if (!isJsonObject(raw)) return undefined;
  const balance = decodeDecimal(raw.balance);
  if (balance === undefined) return undefined;
  const account: AccountRecord = { balance };
  if (!setOptional(account, raw, 'account', decodeAddress)) return undefined;
  copyUndeclaredKeys(account, raw, DECLARED);
  return account;
}
