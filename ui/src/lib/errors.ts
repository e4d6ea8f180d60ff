import type { IpcError } from './ipc';

/**
 * A sentence a person can act on, for an error from the backend. Codes whose backend
 * message carries the useful detail keep it. The switch covers every `IpcErrorCode` (generated
 * from the Rust enum); ESLint's `switch-exhaustiveness-check` fails on a missing one.
 */
export function readableError(error: IpcError): string {
  const detail = error.message.trim();
  switch (error.code) {
    case 'unauthorized':
      return 'The server rejected this e-mail and API key.';
    case 'keyring_unavailable':
      return detail
        ? `The system keyring is not available, so Weir cannot store the API key. ${detail}`
        : 'The system keyring is not available, so Weir cannot store the API key.';
    case 'network':
      return 'Could not reach the server. Check the URL and your network connection.';
    case 'invalid_site': {
      // Not "could not reach": the address itself is malformed. The backend's message
      // starts with its own "invalid site '…':"; say it once.
      const reason = detail.replace(/^invalid site '.*':\s*/i, '');
      return reason
        ? `This server URL is not valid: ${reason}`
        : 'This server URL is not valid. Enter it like https://chat.example.com.';
    }
    case 'invalid_zuliprc': {
      // The backend's message starts with its own "invalid zuliprc:"; say it once.
      const reason = sentenceEnd(detail.replace(/^invalid zuliprc:\s*/i, ''));
      return reason
        ? `This file is not a usable zuliprc: ${reason}`
        : 'This file is not a usable zuliprc.';
    }
    case 'zuliprc_unreadable': {
      // The file was never read: the path is what to change.
      const reason = sentenceEnd(detail.replace(/^invalid zuliprc:\s*/i, ''));
      const advice = 'Check the path, or use “Choose file…” to pick the file.';
      return reason
        ? `Weir cannot open the file: ${reason} ${advice}`
        : `Weir cannot open the file. ${advice}`;
    }
    case 'invalid_input':
      return detail || 'Some of the values entered are not valid.';
    case 'invalid_seed': {
      // The backend says "the local server failed: invalid seed: …"; keep what is wrong.
      const reason = sentenceEnd(
        detail.replace(/^(the local server failed:\s*)?invalid seed:\s*/i, ''),
      );
      const advice = 'Fix the file and start the local server again.';
      return reason
        ? `The local server’s seed file is not valid: ${reason} ${advice}`
        : `The local server’s seed file is not valid. ${advice}`;
    }
    case 'not_found':
      return detail ? `Not found: ${detail}` : 'It was not found.';
    // For these the backend's message says it all.
    case 'keyring_error':
      return detail || 'The system keyring reported an error.';
    case 'tls_config':
      return detail || 'The TLS settings of this account cannot be used.';
    case 'stream_not_found':
      return detail || 'A channel named in the request does not exist.';
    case 'account_exists':
      return detail || 'This account has been added already.';
    case 'key_missing':
      return detail || 'The keyring has no API key for this account. Add the account again.';
    case 'unsupported_by_server':
      return detail || 'This server is too old for this.';
    case 'bad_response':
      return detail || 'The server sent an answer Weir does not understand.';
    case 'database':
    case 'io':
      return detail || 'Weir could not read or write its own files.';
    case 'rate_limited':
      return 'The server is rate limiting Weir. Wait a moment and try again.';
    case 'server_unavailable':
      return 'The server is not available right now. Try again in a moment.';
    case 'busy':
      return detail
        ? `Weir is busy: ${detail}. Try again when it is done.`
        : 'Weir is busy with this already. Try again when it is done.';
    case 'zulip_error':
      return detail
        ? `The Zulip server refused: ${detail}`
        : 'The Zulip server refused the request.';
    case 'internal':
      return detail
        ? `Something went wrong inside Weir: ${detail}`
        : 'Something went wrong inside Weir.';
  }
}

/** The backend's reasons are clauses; a sentence here ends with a full stop. */
function sentenceEnd(text: string): string {
  return text && !/[.!?]$/.test(text) ? `${text}.` : text;
}
