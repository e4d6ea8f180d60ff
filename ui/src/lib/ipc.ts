/**
 * The only door to the backend. Every Tauri command has a typed wrapper here; components
 * and stores call these, never `invoke` directly. Tests swap the backend with `setBackend`.
 */
import { Channel, invoke as tauriInvoke } from '@tauri-apps/api/core';
import type { ApplyProgress } from './bindings/ApplyProgress';
import type { Channel as CommandChannel, CommandName, Commands } from './bindings/Commands';
import type { IpcError } from './bindings/IpcError';
import type { IpcErrorCode } from './bindings/IpcErrorCode';

/**
 * Every command's arguments and result, generated from the Rust commands themselves
 * (`src-tauri/src/bindings.rs`): a changed Rust signature fails `npm run check` here or at
 * the wrappers' callers until the UI follows.
 */
export type { CommandName, Commands, IpcError, IpcErrorCode };

/** Where a command streams values while it runs (a Tauri `Channel` in the app). */
export type ProgressChannel<T> = CommandChannel<T>;

/** The arguments `K` takes, by name. */
type Args<K extends CommandName> = Exclude<Commands[K]['args'], undefined>;
/** The request object of the commands that take one. */
type RequestOf<K extends CommandName> = Args<K> extends { request: infer R } ? R : never;

/** `add_account` → `addAccount`. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/**
 * The wrappers, named in camelCase after their command and resolving to its result: none
 * for a command that does not exist. A new command needs one only once the UI calls it.
 */
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
  addAccount: (request: RequestOf<'add_account'>) => call('add_account', { request }),
  importZuliprc: (request: RequestOf<'import_zuliprc'>) => call('import_zuliprc', { request }),
  deleteZuliprc: (request: RequestOf<'delete_zuliprc'>) => call('delete_zuliprc', { request }),
  switchAccount: (request: RequestOf<'switch_account'>) => call('switch_account', { request }),
  removeAccount: (request: RequestOf<'remove_account'>) => call('remove_account', { request }),
  organizationOverview: () => call('organization_overview'),
  listBots: () => call('list_bots'),
  createBot: (request: RequestOf<'create_bot'>) => call('create_bot', { request }),
  revealBotKey: (request: RequestOf<'reveal_bot_key'>) => call('reveal_bot_key', { request }),
  copyBotKey: (request: RequestOf<'copy_bot_key'>) => call('copy_bot_key', { request }),
  copyBotZuliprc: (request: RequestOf<'copy_bot_zuliprc'>) => call('copy_bot_zuliprc', { request }),
  saveBotZuliprc: (request: RequestOf<'save_bot_zuliprc'>) => call('save_bot_zuliprc', { request }),
  regenerateBotKey: (request: RequestOf<'regenerate_bot_key'>) =>
    call('regenerate_bot_key', { request }),
  deactivateBot: (request: RequestOf<'deactivate_bot'>) => call('deactivate_bot', { request }),
  reactivateBot: (request: RequestOf<'reactivate_bot'>) => call('reactivate_bot', { request }),
  listIntegrations: () => call('list_integrations'),
  webhookCatalog: () => call('webhook_catalog'),
  previewWebhookUrl: (request: RequestOf<'preview_webhook_url'>) =>
    call('preview_webhook_url', { request }),
  copyWebhookUrl: (request: RequestOf<'copy_webhook_url'>) => call('copy_webhook_url', { request }),
  copyRememberedUrl: (request: RequestOf<'copy_remembered_url'>) =>
    call('copy_remembered_url', { request }),
  webhookUrls: (request: RequestOf<'webhook_urls'>) => call('webhook_urls', { request }),
  sendWebhook: (request: RequestOf<'send_webhook'>) => call('send_webhook', { request }),
  dryRunWebhook: (request: RequestOf<'dry_run_webhook'>) => call('dry_run_webhook', { request }),
  listWebhookChannels: () => call('list_webhook_channels'),
  renderMarkdown: (request: RequestOf<'render_markdown'>) => call('render_markdown', { request }),
  localServerStatus: () => call('local_server_status'),
  localServerUpdates: (request: RequestOf<'local_server_updates'>) =>
    call('local_server_updates', { request }),
  resetDemoData: () => call('reset_demo_data'),
  startLocalServer: () => call('start_local_server'),
  openExternal: (url: Args<'open_external'>['url']) => call('open_external', { url }),
  reportStartup: (request: RequestOf<'report_startup'>) => call('report_startup', { request }),
  loadMemberships: () => call('load_memberships'),
  planMembershipChanges: (changes: RequestOf<'plan_membership_changes'>['changes']) =>
    call('plan_membership_changes', { request: { changes } }),
  applyMembershipChanges: (
    changes: RequestOf<'apply_membership_changes'>['changes'],
    onProgress: ProgressChannel<ApplyProgress>['onmessage'],
  ) =>
    call('apply_membership_changes', {
      request: { changes },
      onProgress: backend.channel?.(onProgress) ?? { onmessage: onProgress },
    }),
  cancelMembershipApply: () => call('cancel_membership_apply'),
  listMembershipApplies: () => call('list_membership_applies'),
  undoMembershipApply: (id: RequestOf<'undo_membership_apply'>['id']) =>
    call('undo_membership_apply', { request: { id } }),
  exportMembershipsCsv: (request: RequestOf<'export_memberships_csv'>) =>
    call('export_memberships_csv', { request }),
  importMembershipsCsv: (request: RequestOf<'import_memberships_csv'>) =>
    call('import_memberships_csv', { request }),
  planGroupSync: (request: RequestOf<'plan_group_sync'>) => call('plan_group_sync', { request }),
  copyMemberships: (request: RequestOf<'copy_memberships'>) =>
    call('copy_memberships', { request }),
  planGroupMemberChanges: (changes: RequestOf<'plan_group_member_changes'>['changes']) =>
    call('plan_group_member_changes', { request: { changes } }),
  applyGroupMemberChanges: (
    changes: RequestOf<'apply_group_member_changes'>['changes'],
    onProgress: ProgressChannel<ApplyProgress>['onmessage'],
  ) =>
    call('apply_group_member_changes', {
      request: { changes },
      onProgress: backend.channel?.(onProgress) ?? { onmessage: onProgress },
    }),
  loadChannelSettings: () => call('load_channel_settings'),
  planChannelSettingChanges: (changes: RequestOf<'plan_channel_setting_changes'>['changes']) =>
    call('plan_channel_setting_changes', { request: { changes } }),
  applyChannelSettingChanges: (
    changes: RequestOf<'apply_channel_setting_changes'>['changes'],
    onProgress: ProgressChannel<ApplyProgress>['onmessage'],
  ) =>
    call('apply_channel_setting_changes', {
      request: { changes },
      onProgress: backend.channel?.(onProgress) ?? { onmessage: onProgress },
    }),
  listChannelSettingApplies: () => call('list_channel_setting_applies'),
  undoChannelSettingApply: (id: RequestOf<'undo_channel_setting_apply'>['id']) =>
    call('undo_channel_setting_apply', { request: { id } }),
  listGroupMemberApplies: () => call('list_group_member_applies'),
  undoGroupMemberApply: (id: RequestOf<'undo_group_member_apply'>['id']) =>
    call('undo_group_member_apply', { request: { id } }),
  createUserGroup: (request: RequestOf<'create_user_group'>) =>
    call('create_user_group', { request }),
  exportGroupsCsv: (request: RequestOf<'export_groups_csv'>) =>
    call('export_groups_csv', { request }),
  importGroupsCsv: (request: RequestOf<'import_groups_csv'>) =>
    call('import_groups_csv', { request }),
} satisfies Partial<Wrappers>;

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
