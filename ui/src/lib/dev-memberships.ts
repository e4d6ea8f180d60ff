/**
 * The memberships commands of the browser preview (`dev-backend.ts`): the demo's people
 * and channels in memory, with a planner of the same shape as the real one (streams that
 * change for the same people go in one call), so that the grid, the pending changes, apply
 * with progress and undo can be looked at without Tauri. The owner may change every cell.
 */
import type { ApplyOutcome } from './bindings/ApplyOutcome';
import type { ApplyProgress } from './bindings/ApplyProgress';
import type { ApplySummary } from './bindings/ApplySummary';
import type { GridPerson } from './bindings/GridPerson';
import type { MembershipChange } from './bindings/MembershipChange';
import type { PlanPreview } from './bindings/PlanPreview';
import type { UserSummary } from './bindings/UserSummary';
import type { FakeHandlers } from './ipc';
import { encodeGrid, type PlainGrid } from './memberships/wire';

export interface DevStream {
  streamId: number;
  name: string;
  inviteOnly: boolean;
  subscribers: number[];
}

interface Call {
  subscribe: boolean;
  streamIds: number[];
  userIds: number[];
}

/** Streams whose changes concern the same people share one call, per action. */
export function planCalls(changes: MembershipChange[]): Call[] {
  const perStream = new Map<string, { subscribe: boolean; streamId: number; users: number[] }>();
  for (const change of changes) {
    const key = `${change.subscribe ? '+' : '-'}${change.streamId}`;
    const entry = perStream.get(key) ?? {
      subscribe: change.subscribe,
      streamId: change.streamId,
      users: [],
    };
    entry.users.push(change.userId);
    perStream.set(key, entry);
  }
  const calls = new Map<string, Call>();
  for (const { subscribe, streamId, users } of perStream.values()) {
    const userIds = [...new Set(users)].sort((a, b) => a - b);
    const key = `${subscribe ? '+' : '-'}${userIds.join(',')}`;
    const call = calls.get(key) ?? { subscribe, streamIds: [], userIds };
    call.streamIds.push(streamId);
    calls.set(key, call);
  }
  return [...calls.values()];
}

/** Read through a call, so that the loop sees a cancel made while it awaited. */
const stopRequested = (run: { cancelled: boolean }) => run.cancelled;

export function devMemberships(
  people: () => UserSummary[],
  streams: DevStream[],
  delay: (ms: number) => Promise<void>,
): FakeHandlers {
  const members = new Map(streams.map((s) => [s.streamId, new Set(s.subscribers)]));
  const journal: { summary: ApplySummary; changes: MembershipChange[] }[] = [];
  /** Set by `cancel_membership_apply`; read between two calls. */
  const run = { cancelled: false };

  const isChange = (c: MembershipChange) => members.get(c.streamId)?.has(c.userId) !== c.subscribe;

  function grid(): PlainGrid {
    const all = people();
    const position = new Map(all.map((person, index) => [person.userId, index]));
    const gridPeople: GridPerson[] = all.map((person, index) => ({
      userId: person.userId,
      email: person.email,
      fullName: person.fullName,
      role: person.role,
      isBot: person.isBot,
      botOwnerId: person.isBot ? 1 : null,
      isActive: person.isActive,
      kind:
        index === 0 ? 'me' : !person.isActive ? 'deactivated' : person.isBot ? 'own_bot' : 'other',
    }));
    const inactive = 'Deactivated users cannot be subscribed or unsubscribed.';
    const allowed = { subscribe: null, unsubscribe: null };
    const denied = { subscribe: inactive, unsubscribe: inactive };
    const everywhere = <T>(rules: T) => ({
      public: rules,
      private_member: rules,
      private_other: rules,
    });
    return {
      viewer: { userId: gridPeople[0]?.userId ?? 0, role: 'owner', featureLevel: 362 },
      people: gridPeople,
      streams: streams.map((stream) => ({
        streamId: stream.streamId,
        name: stream.name,
        inviteOnly: stream.inviteOnly,
        kind: stream.inviteOnly ? 'private_member' : 'public',
        subscribers: [...(members.get(stream.streamId) ?? [])]
          .map((id) => position.get(id))
          .filter((index) => index !== undefined),
      })),
      permissions: {
        me: everywhere(allowed),
        own_bot: everywhere(allowed),
        other: everywhere(allowed),
        deactivated: everywhere(denied),
      },
      groups: [],
    };
  }

  return {
    load_memberships: async () => {
      await delay(300);
      return encodeGrid(grid());
    },
    plan_membership_changes: ({ request }): PlanPreview => {
      const wanted = request.changes.filter(isChange);
      return {
        requests: planCalls(wanted).map((call) => ({
          subscribe: call.subscribe,
          streams: call.streamIds.length,
          people: call.userIds.length,
        })),
        cellCount: wanted.length,
        skipped: request.changes
          .filter((c) => !isChange(c))
          .map((change) => ({ change, reason: null })),
      };
    },
    apply_membership_changes: async ({ request, onProgress }): Promise<ApplyOutcome> => {
      const send = (progress: ApplyProgress) => {
        onProgress.onmessage(progress);
      };
      const calls = planCalls(request.changes.filter(isChange));
      run.cancelled = false;
      let sent = 0;
      for (const call of calls) {
        if (stopRequested(run)) break;
        send({ done: sent, total: calls.length, waitingSeconds: null });
        await delay(250);
        for (const streamId of call.streamIds) {
          const set = members.get(streamId);
          for (const userId of call.userIds) {
            if (call.subscribe) set?.add(userId);
            else set?.delete(userId);
          }
        }
        sent++;
      }
      send({ done: sent, total: calls.length, waitingSeconds: null });
      const results = request.changes.map((change) => ({
        ...change,
        ok: !isChange(change),
        status: isChange(change) ? 'not_attempted' : change.subscribe ? 'subscribed' : 'removed',
        message: isChange(change) ? 'Cancelled before this request.' : null,
      }));
      const id = journal.length + 1;
      journal.unshift({
        summary: {
          id,
          appliedAt: Math.floor(Date.now() / 1000),
          requestsTotal: calls.length,
          requestsSent: sent,
          cancelled: sent < calls.length,
          changed: results.filter((r) => r.ok).length,
          failed: results.filter((r) => !r.ok).length,
        },
        changes: request.changes.filter((_, i) => results[i]?.ok),
      });
      return {
        journalId: id,
        requestsTotal: calls.length,
        requestsSent: sent,
        cancelled: sent < calls.length,
        results,
      };
    },
    cancel_membership_apply: () => {
      run.cancelled = true;
      return true;
    },
    list_membership_applies: () => journal.map((entry) => entry.summary),
    undo_membership_apply: ({ request }) => {
      const entry = journal.find((e) => request.id === null || e.summary.id === request.id);
      return (entry?.changes ?? []).map((c) => ({ ...c, subscribe: !c.subscribe }));
    },
  };
}
