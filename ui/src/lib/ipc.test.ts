import { afterEach, describe, expect, it } from 'vitest';
import { appStatus, demoAccount, ipcError } from '../test/fixtures';
import { fakeBackend, ipc, resetBackend, setBackend, toIpcError } from './ipc';

afterEach(() => {
  resetBackend();
});

describe('toIpcError', () => {
  it('keeps an IpcError as it is', () => {
    expect(toIpcError({ code: 'unauthorized', message: 'Invalid API key' })).toEqual({
      code: 'unauthorized',
      message: 'Invalid API key',
    });
  });

  it('drops extra fields of an IpcError', () => {
    expect(toIpcError({ code: 'network', message: 'down', extra: 1 })).toEqual({
      code: 'network',
      message: 'down',
    });
  });

  it('turns an Error into an internal error with its message', () => {
    expect(toIpcError(new Error('boom'))).toEqual({ code: 'internal', message: 'boom' });
  });

  it('turns a bare string into an internal error', () => {
    expect(toIpcError('command app_status not found')).toEqual({
      code: 'internal',
      message: 'command app_status not found',
    });
  });

  it('turns other values into an internal error with their text', () => {
    expect(toIpcError({ code: 42 })).toEqual({ code: 'internal', message: '[object Object]' });
    expect(toIpcError(undefined)).toEqual({ code: 'internal', message: 'undefined' });
  });
});

describe('ipc wrappers', () => {
  it('call commands by name and pass request DTOs as { request }', async () => {
    const backend = fakeBackend({
      app_status: () => appStatus(),
      add_account: () => demoAccount,
      switch_account: () => demoAccount,
      open_external: () => null,
    });
    setBackend(backend);

    await ipc.appStatus();
    await ipc.addAccount({ site: 'https://a.example', email: 'me@a.example', apiKey: 'k' });
    await ipc.switchAccount({ id: 1 });
    await ipc.openExternal('https://zulip.com');

    expect(backend.calls).toEqual([
      ['app_status', undefined],
      [
        'add_account',
        { request: { site: 'https://a.example', email: 'me@a.example', apiKey: 'k' } },
      ],
      ['switch_account', { request: { id: 1 } }],
      ['open_external', { url: 'https://zulip.com' }],
    ]);
  });

  it('reject with the backend IpcError', async () => {
    setBackend(
      fakeBackend({
        list_bots: () => {
          throw ipcError('rate_limited', 'API usage exceeded rate limit');
        },
      }),
    );
    await expect(ipc.listBots()).rejects.toEqual({
      code: 'rate_limited',
      message: 'API usage exceeded rate limit',
    });
  });

  it('normalise a non-IpcError rejection into an internal IpcError', async () => {
    setBackend({
      invoke: () => Promise.reject(new Error('IPC channel closed')),
    });
    await expect(ipc.localServerStatus()).rejects.toEqual({
      code: 'internal',
      message: 'IPC channel closed',
    });

    setBackend({
      // A string rejection, as Tauri gives for an unknown command.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      invoke: () => Promise.reject('command reset_demo_data not found'),
    });
    await expect(ipc.resetDemoData()).rejects.toEqual({
      code: 'internal',
      message: 'command reset_demo_data not found',
    });
  });

  it('reject a command the fake does not answer as internal', async () => {
    setBackend(fakeBackend({}));
    await expect(ipc.listAccounts()).rejects.toMatchObject({ code: 'internal' });
  });
});
