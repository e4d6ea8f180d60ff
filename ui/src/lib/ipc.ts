/**
 * The only door to the backend. Every Tauri command has a typed wrapper here; components
 * and stores call these, never `invoke` directly. Tests swap the backend with `setBackend`.
 */
import { Channel, invoke as tauriInvoke } from '@tauri-apps/api/core';
import type { AccountIdRequest } from './bindings/AccountIdRequest';
import type { AccountSummary } from './bindings/AccountSummary';
import type { AddAccountRequest } from './bindings/AddAccountRequest';
import type { AppStatus } from './bindings/AppStatus';
import type { BotIdRequest } from './bindings/BotIdRequest';
import type { ApplyOutcome } from './bindings/ApplyOutcome';
import type { ApplyProgress } from './bindings/ApplyProgress';
import type { ApplySummary } from './bindings/ApplySummary';
import type { ChangesRequest } from './bindings/ChangesRequest';
import type { CsvExportRequest } from './bindings/CsvExportRequest';
import type { CsvImportResult } from './bindings/CsvImportResult';
import type { MembershipChange } from './bindings/MembershipChange';
import type { MembershipGrid } from './bindings/MembershipGrid';
import type { PlanPreview } from './bindings/PlanPreview';
import type { UndoRequest } from './bindings/UndoRequest';
import type { BotSummary } from './bindings/BotSummary';
import type { CommandName } from './bindings/CommandName';
import type { CreateBotRequest } from './bindings/CreateBotRequest';
import type { DryRunResult } from './bindings/DryRunResult';
import type { IpcErrorCode } from './bindings/IpcErrorCode';
import type { ImportZuliprcRequest } from './bindings/ImportZuliprcRequest';
import type { ImportZuliprcResponse } from './bindings/ImportZuliprcResponse';
import type { IntegrationSummary } from './bindings/IntegrationSummary';
import type { IpcError } from './bindings/IpcError';
import type { LocalServerStatus } from './bindings/LocalServerStatus';
import type { OrganizationOverview } from './bindings/OrganizationOverview';
import type { PathRequest } from './bindings/PathRequest';
import type { RequestLogSinceRequest } from './bindings/RequestLogSinceRequest';
import type { PreviewUrlRequest } from './bindings/PreviewUrlRequest';
import type { RememberedIdRequest } from './bindings/RememberedIdRequest';
import type { RememberedWebhookUrl } from './bindings/RememberedWebhookUrl';
import type { WebhookSendRequest } from './bindings/WebhookSendRequest';
import type { WebhookSendResult } from './bindings/WebhookSendResult';
import type { WebhookUrlRequest } from './bindings/WebhookUrlRequest';

export type { IpcErrorCode, IpcError };

interface Command<Args, Result> {
  args: Args;
  result: Result;
}

/** Every command: its arguments (as passed to `invoke`) and what it resolves to. */
export interface Commands {
  app_status: Command<undefined, AppStatus>;
  list_accounts: Command<undefined, AccountSummary[]>;
  add_account: Command<{ request: AddAccountRequest }, AccountSummary>;
  import_zuliprc: Command<{ request: ImportZuliprcRequest }, ImportZuliprcResponse>;
  delete_zuliprc: Command<{ request: PathRequest }, null>;
  switch_account: Command<{ request: AccountIdRequest }, AccountSummary>;
  remove_account: Command<{ request: AccountIdRequest }, null>;
  organization_overview: Command<undefined, OrganizationOverview>;
  list_bots: Command<undefined, BotSummary[]>;
  create_bot: Command<{ request: CreateBotRequest }, BotSummary>;
  reveal_bot_key: Command<{ request: BotIdRequest }, string>;
  /** Resolve to the seconds until the backend clears the clipboard, if it will. */
  copy_bot_key: Command<{ request: BotIdRequest }, number | null>;
  copy_bot_zuliprc: Command<{ request: BotIdRequest }, number | null>;
  /** The path saved to, or `null` when the user cancelled the dialog. */
  save_bot_zuliprc: Command<{ request: BotIdRequest }, string | null>;
  regenerate_bot_key: Command<{ request: BotIdRequest }, RememberedWebhookUrl[]>;
  deactivate_bot: Command<{ request: BotIdRequest }, null>;
  reactivate_bot: Command<{ request: BotIdRequest }, null>;
  list_integrations: Command<undefined, IntegrationSummary[]>;
  preview_webhook_url: Command<{ request: PreviewUrlRequest }, string>;
  copy_webhook_url: Command<{ request: WebhookUrlRequest }, RememberedWebhookUrl>;
  copy_remembered_url: Command<{ request: RememberedIdRequest }, number | null>;
  webhook_urls: Command<{ request: BotIdRequest }, RememberedWebhookUrl[]>;
  send_webhook: Command<{ request: WebhookSendRequest }, WebhookSendResult>;
  dry_run_webhook: Command<{ request: WebhookSendRequest }, DryRunResult>;
  local_server_status: Command<undefined, LocalServerStatus>;
  local_server_updates: Command<{ request: RequestLogSinceRequest }, LocalServerStatus>;
  reset_demo_data: Command<undefined, LocalServerStatus>;
  start_local_server: Command<undefined, LocalServerStatus>;
  open_external: Command<{ url: string }, null>;
  load_memberships: Command<undefined, MembershipGrid>;
  plan_membership_changes: Command<{ request: ChangesRequest }, PlanPreview>;
  apply_membership_changes: Command<
    { request: ChangesRequest; onProgress: ProgressChannel<ApplyProgress> },
    ApplyOutcome
  >;
  cancel_membership_apply: Command<undefined, boolean>;
  list_membership_applies: Command<undefined, ApplySummary[]>;
  undo_membership_apply: Command<{ request: UndoRequest }, MembershipChange[]>;
  export_memberships_csv: Command<{ request: CsvExportRequest }, null>;
  import_memberships_csv: Command<{ request: PathRequest }, CsvImportResult>;
}

/** Where a command streams values while it runs (a Tauri `Channel` in the app). */
export interface ProgressChannel<T> {
  onmessage: (message: T) => void;
}
export type { CommandName };

/** `true` when `A` and `B` are the same set of names. */
type SameNames<A extends string, B extends string> = [A] extends [B]
  ? [B] extends [A]
    ? true
    : false
  : false;
type Expect<T extends true> = T;
/**
 * Fails to type-check when `Commands` and the backend's list (`CommandName`, generated from
 * `src-tauri/src/commands/list.rs`) differ: a command added on one side only.
 */
export type CommandsMatchBackend = Expect<SameNames<keyof Commands, CommandName>>;

/** `add_account` → `addAccount`. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** One wrapper per command, named in camelCase: none missing, none extra. */
type Wrappers = {
  [K in CommandName as CamelCase<K>]: (...args: never[]) => Promise<Commands[K]['result']>;
};

/** What carries a command to the backend: Tauri in the app, a fake in tests and dev. */
export interface Backend {
  invoke(command: string, args?: Record<string, unknown>): Promise<unknown>;
  /** A channel for a command to stream values to `onmessage` (fakes may leave it out). */
  channel?<T>(onmessage: (message: T) => void): ProgressChannel<T>;
}

const tauriBackend: Backend = {
  invoke: (command, args) => tauriInvoke(command, args),
  channel: (onmessage) => new Channel(onmessage),
};

let backend: Backend = tauriBackend;

/** Replace the backend (unit tests, the dev-mode fake). */
export function setBackend(next: Backend): void {
  backend = next;
}

/** Go back to the real Tauri backend. */
export function resetBackend(): void {
  backend = tauriBackend;
}

export function isIpcError(value: unknown): value is IpcError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['code'] === 'string' && typeof v['message'] === 'string';
}

/** Turn anything a command rejected with into an `IpcError`. */
export function toIpcError(error: unknown): IpcError {
  if (isIpcError(error)) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: 'internal', message: error.message };
  return { code: 'internal', message: String(error) };
}

async function call<K extends CommandName>(
  command: K,
  ...args: Commands[K]['args'] extends undefined ? [] : [Commands[K]['args']]
): Promise<Commands[K]['result']> {
  try {
    // The backend's answer is typed by the generated bindings; trust the contract here,
    // in one place, rather than casting at every call site.
    return (await backend.invoke(command, args[0])) as Commands[K]['result'];
  } catch (error) {
    // Rejections are always IpcError-shaped for callers.
    throw toIpcError(error);
  }
}

export const ipc = {
  appStatus: () => call('app_status'),
  listAccounts: () => call('list_accounts'),
  addAccount: (request: AddAccountRequest) => call('add_account', { request }),
  importZuliprc: (request: ImportZuliprcRequest) => call('import_zuliprc', { request }),
  deleteZuliprc: (request: PathRequest) => call('delete_zuliprc', { request }),
  switchAccount: (request: AccountIdRequest) => call('switch_account', { request }),
  removeAccount: (request: AccountIdRequest) => call('remove_account', { request }),
  organizationOverview: () => call('organization_overview'),
  listBots: () => call('list_bots'),
  createBot: (request: CreateBotRequest) => call('create_bot', { request }),
  revealBotKey: (request: BotIdRequest) => call('reveal_bot_key', { request }),
  copyBotKey: (request: BotIdRequest) => call('copy_bot_key', { request }),
  copyBotZuliprc: (request: BotIdRequest) => call('copy_bot_zuliprc', { request }),
  saveBotZuliprc: (request: BotIdRequest) => call('save_bot_zuliprc', { request }),
  regenerateBotKey: (request: BotIdRequest) => call('regenerate_bot_key', { request }),
  deactivateBot: (request: BotIdRequest) => call('deactivate_bot', { request }),
  reactivateBot: (request: BotIdRequest) => call('reactivate_bot', { request }),
  listIntegrations: () => call('list_integrations'),
  previewWebhookUrl: (request: PreviewUrlRequest) => call('preview_webhook_url', { request }),
  copyWebhookUrl: (request: WebhookUrlRequest) => call('copy_webhook_url', { request }),
  copyRememberedUrl: (request: RememberedIdRequest) => call('copy_remembered_url', { request }),
  webhookUrls: (request: BotIdRequest) => call('webhook_urls', { request }),
  sendWebhook: (request: WebhookSendRequest) => call('send_webhook', { request }),
  dryRunWebhook: (request: WebhookSendRequest) => call('dry_run_webhook', { request }),
  localServerStatus: () => call('local_server_status'),
  localServerUpdates: (request: RequestLogSinceRequest) =>
    call('local_server_updates', { request }),
  resetDemoData: () => call('reset_demo_data'),
  startLocalServer: () => call('start_local_server'),
  openExternal: (url: string) => call('open_external', { url }),
  loadMemberships: () => call('load_memberships'),
  planMembershipChanges: (changes: MembershipChange[]) =>
    call('plan_membership_changes', { request: { changes } }),
  applyMembershipChanges: (
    changes: MembershipChange[],
    onProgress: (progress: ApplyProgress) => void,
  ) =>
    call('apply_membership_changes', {
      request: { changes },
      onProgress: backend.channel?.(onProgress) ?? { onmessage: onProgress },
    }),
  cancelMembershipApply: () => call('cancel_membership_apply'),
  listMembershipApplies: () => call('list_membership_applies'),
  undoMembershipApply: (id: number | null) => call('undo_membership_apply', { request: { id } }),
  exportMembershipsCsv: (request: CsvExportRequest) => call('export_memberships_csv', { request }),
  importMembershipsCsv: (request: PathRequest) => call('import_memberships_csv', { request }),
} satisfies Wrappers;

/** Handlers of a fake backend: any subset of the commands, sync or async. */
export type FakeHandlers = {
  [K in CommandName]?: (
    args: Commands[K]['args'],
  ) => Commands[K]['result'] | Promise<Commands[K]['result']>;
};

/**
 * A backend answering from plain functions. A handler that throws makes the command reject
 * with what it threw; a command without a handler rejects with an `Error`, which callers
 * see as an `internal` IpcError.
 */
export function fakeBackend(handlers: FakeHandlers): Backend & { calls: [string, unknown][] } {
  const calls: [string, unknown][] = [];
  const table = handlers as Record<string, ((args: unknown) => unknown) | undefined>;
  return {
    calls,
    channel: (onmessage) => ({ onmessage }),
    // eslint-disable-next-line @typescript-eslint/require-await -- handlers may be sync
    async invoke(command, args) {
      calls.push([command, args]);
      const handler = table[command];
      if (!handler) throw new Error(`fake backend has no handler for ${command}`);
      return handler(args);
    },
  };
}
