/**
 * The largest WebSocket frame read from the venue; a larger one is refused by `ws` itself (the
 * connection closes with 1009 and is replaced), before a byte of it is decoded, recorded or
 * logged. The venue's real frames are small: the captured order-book snapshot is 688 bytes for two
 * levels a side (about 80 bytes a level), a trade or oracle frame a few hundred; a snapshot carries
 * the whole book (its checksum covers every level), so even 20,000 levels a side (1.6 MB) fit with
 * room to spare. `ws`'s default is 100 MiB, which one hostile or broken frame could fill, and past
 * which nothing of ours should ever look.
 */
export const MAX_VENUE_FRAME_BYTES = 4 * 1024 * 1024;
