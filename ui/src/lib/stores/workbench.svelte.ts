import type { WebhookSendRequest } from '../bindings/WebhookSendRequest';
import { resettable } from './registry';

/** Most requests kept in the session's history. */
export const MAX_HISTORY = 50;

/** A request sent from the workbench in this session, for replaying or editing. */
export interface HistoryEntry {
  id: number;
  /** Unix milliseconds. */
  at: number;
  accountId: number;
  fixture: string | null;
  request: WebhookSendRequest;
  /** The HTTP status, or `null` when the request did not get an answer. */
  status: number | null;
}

/**
 * The workbench's session state: which real organizations the user agreed to post to
 * (asked once per session: sending to a real server posts real messages) and the
 * history of sent requests. Nothing of it is saved.
 */
class Workbench {
  history = $state<HistoryEntry[]>([]);
  #confirmed = new Set<number>();
  #nextId = 1;

  /** Whether sending as this account still needs the user's confirmation. */
  needsConfirmation(account: { id: number; isDemo: boolean }): boolean {
    return !account.isDemo && !this.#confirmed.has(account.id);
  }

  confirmRealTarget(accountId: number): void {
    this.#confirmed.add(accountId);
  }

  record(entry: Omit<HistoryEntry, 'id' | 'at'>): HistoryEntry {
    const full = { ...entry, id: this.#nextId++, at: Date.now() };
    this.history = [full, ...this.history].slice(0, MAX_HISTORY);
    return full;
  }

  reset(): void {
    this.history = [];
    this.#confirmed.clear();
    this.#nextId = 1;
  }
}

export const workbench = resettable(new Workbench(), (state) => {
  state.reset();
});
