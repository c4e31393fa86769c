/** Hex digits kept whole: a 7-byte id (or less, once its leading zeros are gone) fits a table column. */
const WHOLE_HEX_DIGITS = 14;
const HEAD_HEX_DIGITS = 4;
const TAIL_HEX_DIGITS = 8;
/** Other ids (client order ids, intent ids) are kept whole up to this length. */
const WHOLE_TEXT = 20;

/**
 * An id as the tables show it (dashboard, `perpbot status`, `perpbot history`): short enough for a
 * column, and not just the part that ids share. A venue order id is 24 bytes whose first 8 are the
 * wide id, a sequence: mostly leading zeros on the venue, so its first characters (`0x00000000…`)
 * read the same for every order, and in the simulator a run's random base, which consecutive
 * orders share but for their last digits. A hex id therefore loses its leading zero bytes, then
 * keeps its first 4 and its last 8 digits: `0x0000000000000002ab91…5f3e07c1` shows
 * `0x02ab…5f3e07c1`. The tail, from the 16 bytes that look random, is what tells orders apart;
 * the head reads an address as wallets show it. Where there is room, show the whole id too (a title).
 */
export function shortId(id: string): string {
  const hex = /^0x([0-9a-fA-F]+)$/.exec(id)?.[1];
  if (hex === undefined) return id.length > WHOLE_TEXT ? `${id.slice(0, 10)}…${id.slice(-6)}` : id;
  const significant = withoutLeadingZeroBytes(hex);
  if (significant.length <= WHOLE_HEX_DIGITS) return `0x${significant}`;
  return `0x${significant.slice(0, HEAD_HEX_DIGITS)}…${significant.slice(-TAIL_HEX_DIGITS)}`;
}

/** Whole bytes only (the digits still read as the id's bytes), and at least one: `0x0000` is `0x00`. */
function withoutLeadingZeroBytes(hex: string): string {
  const even = hex.length % 2 === 0 ? hex : `0${hex}`;
  let start = 0;
  while (start < even.length - 2 && even.startsWith('00', start)) start += 2;
  return even.slice(start);
}
