import { describe, expect, it } from 'vitest';
import { readableError } from './errors';
import { ERROR_CODES } from './ipc';

describe('readableError', () => {
  it('explains a rejected e-mail and API key', () => {
    expect(readableError({ code: 'unauthorized', message: 'Invalid API key' })).toBe(
      'The server rejected this e-mail and API key.',
    );
  });

  it('keeps the backend detail where it says what to fix', () => {
    expect(readableError({ code: 'invalid_zuliprc', message: 'no [api] section' })).toBe(
      'This file is not a usable zuliprc: no [api] section',
    );
    expect(
      readableError({ code: 'keyring_unavailable', message: 'Start gnome-keyring.' }),
    ).toContain('Start gnome-keyring.');
  });

  it('does not repeat the backend prefix of zuliprc errors', () => {
    const error = { code: 'invalid_zuliprc', message: 'invalid zuliprc: cannot read /x' };
    expect(readableError(error)).toBe('This file is not a usable zuliprc: cannot read /x');
  });

  it('has a sentence for every known code', () => {
    for (const code of ERROR_CODES) {
      const text = readableError({ code, message: '' });
      // A sentence, not the code echoed back.
      expect(text, code).toMatch(/^[A-Z][^_]{10,}\.$/);
    }
  });

  it('shows the message of an unknown code', () => {
    expect(readableError({ code: 'teapot', message: 'I am a teapot' })).toBe('I am a teapot');
  });
});
