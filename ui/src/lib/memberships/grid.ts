/**
 * The memberships grid as the UI holds it: one bitset per stream, read from the answer
 * (`wire.ts`; 10,000 people × 1,000 streams is 1.25 MB), lookups by id, filters and
 * sorting. Pure functions and classes, no Svelte: the store wraps them.
 */
import type { GridGroup } from '../bindings/GridGroup';
import type { GridPerson } from '../bindings/GridPerson';
import type { GridStream } from '../bindings/GridStream';
import type { MembershipGrid } from '../bindings/MembershipGrid';
import { nameCollator } from '../collate';
import { roleLabel } from '../format';
import { bytesPerStream, decodeGrid, encodeGrid, type PlainGrid } from './wire';

/** The directions of a change, as the permission table names them. */
export const SUBSCRIBE = 'subscribe';
export const UNSUBSCRIBE = 'unsubscribe';

export class GridIndex {
  readonly grid: MembershipGrid;
  readonly personAt: Map<number, number>;
  readonly streamAt: Map<number, number>;
  /** Group id → the group (members expanded, as person indices). */
  readonly groupById: Map<number, GridGroup>;
  readonly #memberSets = new Map<number, Set<number>>();
  /** Every stream's bitset, one after the other (`wire.ts`). */
  readonly #bits: Uint8Array;
  readonly #bytesPerStream: number;

  constructor(grid: MembershipGrid, bits: Uint8Array) {
    this.grid = grid;
    this.personAt = new Map(grid.people.map((p, i) => [p.userId, i]));
    this.streamAt = new Map(grid.streams.map((s, i) => [s.streamId, i]));
    this.groupById = new Map(grid.groups.map((g) => [g.groupId, g]));
    this.#bytesPerStream = bytesPerStream(grid.people.length);
    this.#bits = bits;
  }

  /** The index of an answer of `load_memberships`. */
  static decode(answer: ArrayBuffer): GridIndex {
    const { grid, bits } = decodeGrid(answer);
    return new GridIndex(grid, bits);
  }

  /** The index of a grid with its subscribers listed (tests, the browser preview). */
  static of(plain: PlainGrid): GridIndex {
    return GridIndex.decode(encodeGrid(plain));
  }

  get peopleCount(): number {
    return this.grid.people.length;
  }

  get streamCount(): number {
    return this.grid.streams.length;
  }

  person(p: number): GridPerson | undefined {
    return this.grid.people[p];
  }

  stream(s: number): GridStream | undefined {
    return this.grid.streams[s];
  }

  /** Subscribed on the server (person and stream by index). */
  subscribed(p: number, s: number): boolean {
    if (p < 0 || p >= this.peopleCount || s < 0 || s >= this.streamCount) return false;
    return ((this.#bits[s * this.#bytesPerStream + (p >> 3)] ?? 0) & (1 << (p & 7))) !== 0;
  }

  /** Why the account may not flip this cell from its server state, or `null`. */
  denied(p: number, s: number): string | null {
    const person = this.grid.people[p];
    const stream = this.grid.streams[s];
    if (!person || !stream) return 'Unknown cell.';
    const action = this.subscribed(p, s) ? UNSUBSCRIBE : SUBSCRIBE;
    // A channel whose settings name the account carries its own rules.
    const rules = stream.rules?.[person.kind] ?? this.grid.permissions[person.kind][stream.kind];
    return rules[action];
  }

  /** The badges beside a person's name: role (unless member), bot and owner, deactivated. */
  badges(p: number): { text: string; bot: boolean }[] {
    const person = this.person(p);
    if (!person) return [];
    const badges: { text: string; bot: boolean }[] = [];
    if (person.role !== 'member') badges.push({ text: roleLabel(person.role), bot: false });
    if (person.isBot) {
      const owner = person.botOwnerId === null ? undefined : this.personAt.get(person.botOwnerId);
      const name = owner === undefined ? '' : (this.person(owner)?.fullName ?? '');
      badges.push({ text: name ? `Bot of ${name}` : 'Bot', bot: true });
    }
    if (!person.isActive) badges.push({ text: 'Deactivated', bot: false });
    return badges;
  }

  /** The person indices in a group (subgroups included), or `null` for an unknown group. */
  groupMembers(groupId: number): Set<number> | null {
    const cached = this.#memberSets.get(groupId);
    if (cached) return cached;
    const group = this.groupById.get(groupId);
    if (!group) return null;
    const members = new Set(group.members);
    this.#memberSets.set(groupId, members);
    return members;
  }

  /** One number per cell, for maps of staged cells. */
  key(p: number, s: number): number {
    return p * this.streamCount + s;
  }

  cellOf(key: number): [number, number] {
    return [Math.floor(key / this.streamCount), key % this.streamCount];
  }
}

export interface PeopleFilter {
  text: string;
  role: string;
  botsOnly: boolean;
  showDeactivated: boolean;
  /** A group id (as the select's value), or '' for everyone. */
  group: string;
}

export interface StreamFilter {
  text: string;
  access: 'all' | 'public' | 'private';
}

export type PeopleSort = 'name' | 'email' | 'role';
export type StreamSort = 'name' | 'subscribers';

const ROLE_ORDER = ['owner', 'administrator', 'moderator', 'member', 'guest'];

function matches(text: string, ...fields: string[]): boolean {
  const needle = text.trim().toLowerCase();
  return needle === '' || fields.some((field) => field.toLowerCase().includes(needle));
}

/** Person indices to show, in order. */
export function visiblePeople(index: GridIndex, filter: PeopleFilter, sort: PeopleSort): number[] {
  const people = index.grid.people;
  const shown: number[] = [];
  const inGroup =
    filter.group === '' ? null : (index.groupMembers(Number(filter.group)) ?? new Set());
  people.forEach((person, i) => {
    if (inGroup && !inGroup.has(i)) return;
    if (!filter.showDeactivated && !person.isActive) return;
    if (filter.botsOnly && !person.isBot) return;
    if (filter.role !== '' && person.role !== filter.role) return;
    if (!matches(filter.text, person.fullName, person.email)) return;
    shown.push(i);
  });
  const compare = nameCollator().compare;
  const field = (i: number): string => {
    const person = people[i];
    if (!person) return '';
    return sort === 'email' ? person.email : person.fullName;
  };
  shown.sort((a, b) => {
    if (sort === 'role') {
      const ra = ROLE_ORDER.indexOf(people[a]?.role ?? '');
      const rb = ROLE_ORDER.indexOf(people[b]?.role ?? '');
      if (ra !== rb) return ra - rb;
    }
    return compare(field(a), field(b)) || a - b;
  });
  return shown;
}

/** Stream indices to show, in order. */
export function visibleStreams(index: GridIndex, filter: StreamFilter, sort: StreamSort): number[] {
  const streams = index.grid.streams;
  const shown: number[] = [];
  streams.forEach((stream, i) => {
    if (filter.access === 'public' && stream.inviteOnly) return;
    if (filter.access === 'private' && !stream.inviteOnly) return;
    if (!matches(filter.text, stream.name)) return;
    shown.push(i);
  });
  const compare = nameCollator().compare;
  shown.sort((a, b) => {
    const sa = streams[a];
    const sb = streams[b];
    if (!sa || !sb) return a - b;
    if (sort === 'subscribers' && sa.subscriberCount !== sb.subscriberCount) {
      return sb.subscriberCount - sa.subscriberCount;
    }
    return compare(sa.name, sb.name) || a - b;
  });
  return shown;
}
