/**
 * The grid as it crosses IPC (`load_memberships`, `src-tauri/src/memberships/wire.rs`),
 * sized for the largest organizations: carrying bytes from the app to the page is the slow
 * part, so the people cross as columns and every set of people (a stream's subscribers, a
 * group's members) in whichever of two forms is smaller. Layout, little-endian:
 *
 *   "WGR2" | u32 header length H | H bytes of UTF-8 JSON (`GridHeader`) | sets
 *
 * The sets: each stream's subscribers in `streams` order, then each group's direct members
 * and members in `groups` order. A set is a u8 form, a u32 length L and L bytes: form 0 is
 * a bitset of `ceil(people / 8)` bytes (bit `p & 7` of byte `p >> 3` is person `p`), form
 * 1 the ascending person indices as LEB128 gaps (the first index, then each index minus
 * the previous one, minus one). The UI keeps who is subscribed as one bitset per stream.
 */
import type { GridHeader } from '../bindings/GridHeader';
import type { GridPerson } from '../bindings/GridPerson';
import type { GridStream } from '../bindings/GridStream';
import type { MembershipGrid } from '../bindings/MembershipGrid';
import type { PeopleColumns } from '../bindings/PeopleColumns';

const MAGIC = [0x57, 0x47, 0x52, 0x32]; // "WGR2"
const PREAMBLE = 8;
const BITSET = 0;
const GAPS = 1;

/** The grid and its streams' bitsets, one after the other. */
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

function cutShort(): Error {
  return new Error('The grid arrived cut short.');
}

/** Reads the sets, in order, after the header. */
class SetReader {
  #bytes: Uint8Array;
  #view: DataView;
  #at: number;
  readonly #people: number;
  readonly #width: number;
  #scratch = new Uint32Array(0);

  constructor(bytes: Uint8Array, at: number, people: number) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#at = at;
    this.#people = people;
    this.#width = bytesPerStream(people);
  }

  get done(): boolean {
    return this.#at === this.#bytes.length;
  }

  /** The next set's form and its bytes. */
  #next(): [number, Uint8Array] {
    if (this.#at + 5 > this.#bytes.length) throw cutShort();
    const form = this.#bytes[this.#at] ?? -1;
    const length = this.#view.getUint32(this.#at + 1, true);
    const start = this.#at + 5;
    if (start + length > this.#bytes.length) throw cutShort();
    this.#at = start + length;
    if (form === BITSET ? length !== this.#width : form !== GAPS) {
      throw new Error('The grid arrived damaged.');
    }
    return [form, this.#bytes.subarray(start, start + length)];
  }

  /** A gaps set's indices, in order, in a scratch buffer (valid until the next call). The
   *  loop runs once per subscription, so it is kept plain for the engine: no calls. */
  #gaps(bytes: Uint8Array): Uint32Array {
    if (this.#scratch.length < bytes.length) this.#scratch = new Uint32Array(bytes.length);
    const indices = this.#scratch;
    const people = this.#people;
    let count = 0;
    let next = 0;
    let value = 0;
    let scale = 1;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] ?? 0;
      if (byte < 0x80) {
        const index = next + value + byte * scale;
        if (index >= people) throw new Error('The grid arrived damaged.');
        indices[count++] = index;
        next = index + 1;
        value = 0;
        scale = 1;
      } else {
        value += (byte - 0x80) * scale;
        scale *= 0x80;
      }
    }
    if (scale !== 1) throw new Error('The grid arrived damaged.'); // a gap cut off
    return indices.subarray(0, count);
  }

  /** The next set, into `bits` at `offset` (a stream's bitset). */
  intoBits(bits: Uint8Array, offset: number): void {
    const [form, bytes] = this.#next();
    if (form === BITSET) {
      bits.set(bytes, offset);
      return;
    }
    const indices = this.#gaps(bytes);
    for (let i = 0; i < indices.length; i++) {
      const p = indices[i] ?? 0;
      const at = offset + (p >> 3);
      bits[at] = (bits[at] ?? 0) | (1 << (p & 7));
    }
  }

  /** The next set as ascending person indices (a group's members). */
  list(): number[] {
    const [form, bytes] = this.#next();
    if (form === GAPS) return Array.from(this.#gaps(bytes));
    const list: number[] = [];
    for (let p = 0; p < this.#people; p++) {
      if (((bytes[p >> 3] ?? 0) >> (p & 7)) & 1) list.push(p);
    }
    return list;
  }
}

function peopleOf(columns: PeopleColumns): GridPerson[] {
  const count = columns.userId.length;
  const lengths = [
    columns.email,
    columns.fullName,
    columns.role,
    columns.isBot,
    columns.botOwnerId,
    columns.isActive,
    columns.kind,
  ].map((column) => column.length);
  if (lengths.some((length) => length !== count)) throw new Error('The grid arrived damaged.');
  const people = new Array<GridPerson>(count);
  for (let p = 0; p < count; p++) {
    people[p] = {
      userId: columns.userId[p],
      email: columns.email[p],
      fullName: columns.fullName[p],
      role: columns.role[p],
      isBot: columns.isBot[p],
      botOwnerId: columns.botOwnerId[p],
      isActive: columns.isActive[p],
      kind: columns.kind[p],
    } as GridPerson;
  }
  return people;
}

/** Reads an answer of `load_memberships`; throws on one that is not a grid. */
export function decodeGrid(answer: ArrayBuffer): DecodedGrid {
  const bytes = new Uint8Array(answer);
  if (bytes.length < PREAMBLE || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new Error('The grid arrived in an unknown format.');
  }
  const headerLength = new DataView(answer).getUint32(4, true);
  const setsAt = PREAMBLE + headerLength;
  if (setsAt > bytes.length) throw cutShort();
  const header = JSON.parse(
    new TextDecoder().decode(bytes.subarray(PREAMBLE, setsAt)),
  ) as GridHeader;
  const grid: MembershipGrid = { ...header.grid, people: peopleOf(header.people) };
  const width = bytesPerStream(grid.people.length);
  const bits = new Uint8Array(grid.streams.length * width);
  const sets = new SetReader(bytes, setsAt, grid.people.length);
  grid.streams.forEach((_, s) => {
    sets.intoBits(bits, s * width);
  });
  for (const group of grid.groups) {
    group.directMembers = sets.list();
    group.members = sets.list();
  }
  if (!sets.done) throw new Error('The grid arrived damaged.');
  return { grid, bits };
}

/** Appends `set` (ascending, distinct) in its smaller form, as the app does. */
function writeSet(out: number[], set: number[], width: number): void {
  const gaps: number[] = [];
  let next = 0;
  for (const index of set) {
    let value = index - next;
    while (value >= 0x80) {
      gaps.push((value & 0x7f) | 0x80);
      value = Math.floor(value / 0x80);
    }
    gaps.push(value);
    next = index + 1;
  }
  const bitset = gaps.length >= width;
  const length = bitset ? width : gaps.length;
  out.push(bitset ? BITSET : GAPS);
  for (let shift = 0; shift < 32; shift += 8) out.push((length >>> shift) & 0xff);
  const bytes = bitset ? new Array<number>(width).fill(0) : gaps;
  if (bitset) for (const p of set) bytes[p >> 3] = (bytes[p >> 3] ?? 0) | (1 << (p & 7));
  // One by one: spreading a large array into `push` passes the engine's argument limit.
  for (const byte of bytes) out.push(byte);
}

function columnsOf(people: GridPerson[]): PeopleColumns {
  return {
    userId: people.map((p) => p.userId),
    email: people.map((p) => p.email),
    fullName: people.map((p) => p.fullName),
    role: people.map((p) => p.role),
    isBot: people.map((p) => p.isBot),
    botOwnerId: people.map((p) => p.botOwnerId),
    isActive: people.map((p) => p.isActive),
    kind: people.map((p) => p.kind),
  };
}

/** The answer `load_memberships` gives for `plain` (tests and the browser preview). */
export function encodeGrid(plain: PlainGrid): ArrayBuffer {
  const distinct = (set: number[]) =>
    [...new Set(set)].filter((p) => p >= 0 && p < plain.people.length).sort((a, b) => a - b);
  const subscribers = plain.streams.map((stream) => distinct(stream.subscribers));
  const header: GridHeader = {
    grid: {
      ...plain,
      people: [],
      streams: plain.streams.map((stream, s) => ({
        streamId: stream.streamId,
        name: stream.name,
        inviteOnly: stream.inviteOnly,
        kind: stream.kind,
        subscriberCount: subscribers[s]?.length ?? 0,
        ...(stream.rules ? { rules: stream.rules } : {}),
      })),
      groups: plain.groups.map((group) => ({ ...group, directMembers: [], members: [] })),
    },
    people: columnsOf(plain.people),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const width = bytesPerStream(plain.people.length);
  const sets: number[] = [];
  for (const set of subscribers) writeSet(sets, set, width);
  for (const group of plain.groups) {
    writeSet(sets, distinct(group.directMembers), width);
    writeSet(sets, distinct(group.members), width);
  }
  const bytes = new Uint8Array(PREAMBLE + json.length + sets.length);
  bytes.set(MAGIC, 0);
  new DataView(bytes.buffer).setUint32(4, json.length, true);
  bytes.set(json, PREAMBLE);
  bytes.set(sets, PREAMBLE + json.length);
  return bytes.buffer;
}
