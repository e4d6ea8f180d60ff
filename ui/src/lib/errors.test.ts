import { describe, expect, it } from 'vitest';
import { readableError } from './errors';
import type { IpcErrorCode } from './ipc';

/** Every code: the type makes this list complete (a missing or unknown key fails `check`). */
const EVERY_CODE: Record<IpcErrorCode, true> = {
  unauthorized: true,
  keyring_unavailable: true,
  keyring_error: true,
  network: true,
  rate_limited: true,
  invalid_zuliprc: true,
  zuliprc_unreadable: true,
  invalid_site: true,
  invalid_input: true,
  invalid_seed: true,
  tls_config: true,
  not_found: true,
  stream_not_found: true,
  account_exists: true,
  key_missing: true,
  unsupported_by_server: true,
  zulip_error: true,
  bad_response: true,
  database: true,
  io: true,
  server_unavailable: true,
  busy: true,
  internal: true,
};

describe('readableError', () => {
  it('explains a rejected e-mail and API key', () => {
    expect(readableError({ code: 'unauthorized', message: 'Invalid API key' })).toBe(
      'The server rejected this e-mail and API key.',
    );
  });

  it('keeps the backend detail where it says what to fix', () => {
    expect(readableError({ code: 'invalid_zuliprc', message: 'no [api] section' })).toBe(
      'This file is not a usable zuliprc: no [api] section.',
    );
    expect(
      readableError({ code: 'keyring_unavailable', message: 'Start gnome-keyring.' }),
    ).toContain('Start gnome-keyring.');
  });

  it('says what is busy', () => {
    expect(readableError({ code: 'busy', message: 'another apply is running' })).toBe(
      'Weir is busy: another apply is running. Try again when it is done.',
    );
  });

  it('says a local server’s seed file is wrong and what to do about it', () => {
    const error = {
      code: 'invalid_seed' as const,
      message: 'the local server failed: invalid seed: people[3]: no email',
    };
    expect(readableError(error)).toBe(
      'The local server’s seed file is not valid: people[3]: no email. Fix the file and start the local server again.',
    );
    expect(readableError({ code: 'invalid_seed', message: '' })).toMatch(
      /^The local server’s seed/,
    );
  });

  it('does not repeat the backend prefix of zuliprc errors', () => {
    const error = { code: 'invalid_zuliprc' as const, message: 'invalid zuliprc: cannot read /x' };
    expect(readableError(error)).toBe('This file is not a usable zuliprc: cannot read /x.');
  });

  it('tells a file that cannot be opened from one that is not a zuliprc', () => {
    expect(
      readableError({
        code: 'zuliprc_unreadable',
        message: 'invalid zuliprc: there is no file at /home/ada/zuliprc',
      }),
    ).toBe(
      'Weir cannot open the file: there is no file at /home/ada/zuliprc. Check the path, or use “Choose file…” to pick the file.',
    );
    expect(
      readableError({
        code: 'invalid_zuliprc',
        message: 'invalid zuliprc: it has no [api] section, so it is not a zuliprc',
      }),
    ).toBe('This file is not a usable zuliprc: it has no [api] section, so it is not a zuliprc.');
  });

  it('has a sentence for every known code', () => {
    for (const code of Object.keys(EVERY_CODE) as IpcErrorCode[]) {
      const text = readableError({ code, message: '' });
      // A sentence, not the code echoed back.
      expect(text, code).toMatch(/^[A-Z][^_]{10,}\.$/);
    }
  });

  it('says a malformed server URL is not valid, not unreachable', () => {
    const text = readableError({
      code: 'invalid_site',
      message: 'invalid site \'https:/chat.example.com\': the scheme must be followed by "://"',
    });
    expect(text).toBe('This server URL is not valid: the scheme must be followed by "://"');
    expect(text).not.toMatch(/reach/);
  });
});
