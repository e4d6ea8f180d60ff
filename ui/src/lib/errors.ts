import type { IpcError } from './ipc';

/**
 * A sentence a person can act on, for an error from the backend. Codes whose backend
 * message carries the useful detail keep it; unknown codes show the message as it is.
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
    case 'invalid_zuliprc': {
      // The backend's message starts with its own "invalid zuliprc:"; say it once.
      const reason = detail.replace(/^invalid zuliprc:\s*/i, '');
      return reason
        ? `This file is not a usable zuliprc: ${reason}`
        : 'This file is not a usable zuliprc.';
    }
    case 'invalid_input':
      return detail || 'Some of the values entered are not valid.';
    case 'not_found':
      return detail ? `Not found: ${detail}` : 'It was not found.';
    case 'rate_limited':
      return 'The server is rate limiting Weir. Wait a moment and try again.';
    case 'server_unavailable':
      return 'The server is not available right now. Try again in a moment.';
    case 'zulip_error':
      return detail
        ? `The Zulip server refused: ${detail}`
        : 'The Zulip server refused the request.';
    case 'internal':
      return detail
        ? `Something went wrong inside Weir: ${detail}`
        : 'Something went wrong inside Weir.';
    default:
      return detail || `Unexpected error (${error.code}).`;
  }
}
