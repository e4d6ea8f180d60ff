/**
 * The grid as it crosses IPC (`load_memberships`, `src-tauri/src/memberships/wire.rs`):
 * one binary answer instead of JSON arrays of subscriber indices, which at 100,000 people
 * × 2,000 channels were 5 million numbers to encode, send and parse. Layout, little-endian:
 *
 *   "WGR1" | u32 header length H | H bytes of UTF-8 JSON (`MembershipGrid`) | bitsets
 *
 * The bitsets are one per stream, in `streams` order, each `ceil(people / 8)` bytes: bit
 * `p & 7` of byte `p >> 3` is person `p`. The UI keeps them as they arrive (a view on the
 * answer, no copy), so the answer is also the grid's index of who is subscribed.
 */
import type { GridStream } from '../bindings/GridStream';
import type { MembershipGrid } from '../bindings/MembershipGrid';

const MAGIC = [0x57, 0x47, 0x52, 0x31]; // "WGR1"
const PREAMBLE = 8;

/** The grid's JSON part and its bitsets. */
export interface DecodedGrid {
  grid: MembershipGrid;
  bits: Uint8Array;
}

/** A stream with its subscribers listed (as tests and the browser preview build grids). */
export type PlainStream = Omit<GridStream, 'subscriberCount'> & { subscribers: number[] };
export type PlainGrid = Omit<MembershipGrid, 'streams'> & { streams: PlainStream[] };

export function bytesPerStream(people: number): number {
  return Math.ceil(people / 8);
}

/** Reads an answer of `load_memberships`; throws on one that is not a grid. */
export function decodeGrid(answer: ArrayBuffer): DecodedGrid {
  const bytes = new Uint8Array(answer);
  if (bytes.length < PREAMBLE || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new Error('The grid arrived in an unknown format.');
  }
  const headerLength = new DataView(answer).getUint32(4, true);
  const bitsAt = PREAMBLE + headerLength;
  if (bitsAt > bytes.length) throw new Error('The grid arrived cut short.');
  const grid = JSON.parse(
    new TextDecoder().decode(bytes.subarray(PREAMBLE, bitsAt)),
  ) as MembershipGrid;
  const size = grid.streams.length * bytesPerStream(grid.people.length);
  if (bytes.length - bitsAt !== size) throw new Error('The grid arrived cut short.');
  return { grid, bits: bytes.subarray(bitsAt) };
}

/** The answer `load_memberships` gives for `plain` (tests and the browser preview). */
export function encodeGrid(plain: PlainGrid): ArrayBuffer {
  const grid: MembershipGrid = {
    ...plain,
    streams: plain.streams.map(({ subscribers, ...stream }) => ({
      ...stream,
      subscriberCount: new Set(subscribers).size,
    })),
  };
  const header = new TextEncoder().encode(JSON.stringify(grid));
  const width = bytesPerStream(plain.people.length);
  const bytes = new Uint8Array(PREAMBLE + header.length + plain.streams.length * width);
  bytes.set(MAGIC, 0);
  new DataView(bytes.buffer).setUint32(4, header.length, true);
  bytes.set(header, PREAMBLE);
  plain.streams.forEach((stream, s) => {
    const base = PREAMBLE + header.length + s * width;
    for (const p of stream.subscribers) {
      if (p < 0 || p >= plain.people.length) continue;
      const at = base + (p >> 3);
      bytes[at] = (bytes[at] ?? 0) | (1 << (p & 7));
    }
  });
  return bytes.buffer;
}
