import type { GridPerson } from '../lib/bindings/GridPerson';
import type { PersonClass } from '../lib/bindings/PersonClass';
import type { Role } from '../lib/bindings/Role';
import type { StreamRules } from '../lib/bindings/StreamRules';
import { render, screen } from '@testing-library/svelte';
import { app } from '../lib/stores/app.svelte';
import { encodeGrid, type PlainGrid } from '../lib/memberships/wire';
import MembershipsPage from '../pages/MembershipsPage.svelte';
import { useFakeBackend } from './backend';
import { appStatus, overview } from './fixtures';

const DEACTIVATED = 'Deactivated users cannot be subscribed or unsubscribed.';
const ONLY_ADMINS = 'Only organization administrators can remove other people from channels.';

function person(
  userId: number,
  fullName: string,
  role: Role,
  kind: PersonClass,
  extra: Partial<GridPerson> = {},
): GridPerson {
  return {
    userId,
    email: `${fullName.split(' ')[0]?.toLowerCase() ?? 'x'}@lumen.test`,
    fullName,
    role,
    isBot: false,
    botOwnerId: null,
    isActive: true,
    kind,
    ...extra,
  };
}

/** Rules that let anyone unsubscribe, and subscribe as given per kind of stream. */
function rules(
  publicStream: string | null,
  privateMember: string | null,
  privateOther: string | null,
): StreamRules {
  return {
    public: { subscribe: publicStream, unsubscribe: null },
    private_member: { subscribe: privateMember, unsubscribe: null },
    private_other: { subscribe: privateOther, unsubscribe: null },
  };
}

/**
 * Lumen Labs as the grid sees it. People (indices): 0 Ada (owner, the viewer), 1 Alan, 2
 * Claude, 3 Tim (deactivated), 4 Deploy notices (Ada's bot). Streams: general (public,
 * everyone active), leadership (private, Ada and Alan), random (public, nobody). Groups:
 * 30 research (Alan, Tim, and subgroup 31), 31 theory (Claude).
 */
export function grid(viewerRole: 'owner' | 'member' = 'owner'): PlainGrid {
  const member = viewerRole === 'member';
  return {
    viewer: { userId: 1, role: viewerRole, featureLevel: 362 },
    people: [
      person(1, 'Ada Lovelace', viewerRole, 'me'),
      person(2, 'Alan Turing', 'administrator', 'other'),
      person(4, 'Claude Shannon', 'member', 'other'),
      person(7, 'Tim Berners-Lee', 'member', 'deactivated', { isActive: false }),
      person(101, 'Deploy notices', 'member', 'own_bot', { isBot: true, botOwnerId: 1 }),
    ],
    streams: [
      {
        streamId: 1,
        name: 'general',
        inviteOnly: false,
        kind: 'public',
        subscribers: [0, 1, 2, 4],
      },
      {
        streamId: 3,
        name: 'leadership',
        inviteOnly: true,
        kind: 'private_member',
        subscribers: [0, 1],
      },
      { streamId: 5, name: 'random', inviteOnly: false, kind: 'public', subscribers: [] },
    ],
    permissions: {
      me: rules(null, null, member ? 'no access' : null),
      own_bot: rules(null, null, member ? 'no access' : null),
      other: {
        public: { subscribe: null, unsubscribe: member ? ONLY_ADMINS : null },
        private_member: { subscribe: null, unsubscribe: member ? ONLY_ADMINS : null },
        private_other: {
          subscribe: member ? 'no access' : null,
          unsubscribe: member ? ONLY_ADMINS : null,
        },
      },
      deactivated: {
        public: { subscribe: DEACTIVATED, unsubscribe: DEACTIVATED },
        private_member: { subscribe: DEACTIVATED, unsubscribe: DEACTIVATED },
        private_other: { subscribe: DEACTIVATED, unsubscribe: DEACTIVATED },
      },
    },
    groups: [
      {
        groupId: 30,
        name: 'research',
        description: 'The research team',
        isSystemGroup: false,
        directMembers: [1, 3],
        directSubgroupIds: [31],
        members: [1, 2, 3],
        addDenied: null,
        removeDenied: null,
      },
      {
        groupId: 31,
        name: 'theory',
        description: '',
        isSystemGroup: false,
        directMembers: [2],
        directSubgroupIds: [],
        members: [2],
        addDenied: null,
        removeDenied: null,
      },
    ],
  };
}

/**
 * `grid()` with `extra` more people (members in #general) and `extraStreams` more public
 * channels (nobody in them, named to sort after the others), so both axes virtualize.
 */
export function largeGrid(extra: number, extraStreams = 0): PlainGrid {
  const base = grid();
  const first = base.people.length;
  for (let i = 0; i < extra; i++) {
    const name = `Person ${String(i).padStart(4, '0')}`;
    base.people.push(person(1000 + i, name, 'member', 'other', { email: `p${i}@lumen.test` }));
    base.streams[0]?.subscribers.push(first + i);
  }
  for (let i = 0; i < extraStreams; i++) {
    const name = `zone-${String(i).padStart(4, '0')}`;
    base.streams.push({
      streamId: 1000 + i,
      name,
      inviteOnly: false,
      kind: 'public',
      subscribers: [],
    });
  }
  return base;
}

/** Renders the Memberships page on the demo grid (`handlers` override) and waits for it. */
/** The memberships page rendered on a fake backend, before its grid's cells are built. */
export async function renderMembershipsPage(handlers: Parameters<typeof useFakeBackend>[0] = {}) {
  const backend = useFakeBackend({
    app_status: () => appStatus(),
    organization_overview: () => overview(),
    load_memberships: () => encodeGrid(grid()),
    list_membership_applies: () => [],
    ...handlers,
  });
  await app.load();
  render(MembershipsPage);
  return backend;
}

/** `renderMembershipsPage`, once the grid's cells are built. */
export async function openMembershipsPage(handlers: Parameters<typeof useFakeBackend>[0] = {}) {
  const backend = await renderMembershipsPage(handlers);
  // The cells come after the first frame; on a busy machine that can take a while.
  await screen.findByTestId('cell-1-1', {}, { timeout: 5000 });
  return backend;
}

/** The pending count the bar shows; 0 when the bar is gone (nothing staged). */
export function pendingCount(): string {
  return screen.queryByTestId('pending-count')?.textContent.trim() ?? '0';
}

/** Opens the pending list beside the grid (Review in the pending bar). */
export async function openReview(): Promise<void> {
  const review = screen.getByRole('button', { name: 'Review' });
  if (review.getAttribute('aria-expanded') !== 'true') review.click();
  await Promise.resolve();
}
