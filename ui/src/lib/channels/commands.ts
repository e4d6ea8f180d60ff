/**
 * The channel commands the Channels page calls. Until the app's commands exist every call
 * rejects with `internal`; tests and the dev backend answer them through `ipc`'s backend.
 */
import type { ChannelCommands } from './types';

const missing = () =>
  Promise.reject(new Error('The channel commands are not in this build of the app.'));

export const channelCommands: ChannelCommands = {
  loadChannelSettings: missing,
  planChannelSettingChanges: missing,
  applyChannelSettingChanges: missing,
  listChannelSettingApplies: missing,
  undoChannelSettingApply: missing,
};
