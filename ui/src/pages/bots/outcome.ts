import type { NoMessage } from '../../lib/bindings/NoMessage';
import type { RenderComparison } from '../../lib/bindings/RenderComparison';
import type { ResultMessage } from '../../lib/bindings/ResultMessage';
import type { IpcError } from '../../lib/ipc';

/** What a send or a dry run produced, as the result panel shows it. */
export interface Outcome {
  kind: 'send' | 'dry-run';
  status: number;
  response: string;
  messages: ResultMessage[];
  /** Dry runs against a real server: the server's own rendering of each message. */
  comparisons: RenderComparison[];
  /** Why the bot posted (or would post) nothing though the server accepted the request. */
  noMessage: NoMessage | null;
}

/** Why an accepted request produced no message, in words: a green 200 alone would read
 *  as a success that lost its message. */
export function noMessageText(kind: Outcome['kind'], reason: NoMessage | null): string {
  const dry = kind === 'dry-run';
  switch (reason?.kind) {
    case 'noSuchChannel': {
      const head = `No message: no such channel, “${reason.stream}” is not a channel of this organization.`;
      if (dry) {
        return (
          `${head} A send answers 200 and posts nothing; Notification Bot tells the bot’s ` +
          'owner instead (shown below), at most once per five minutes.'
        );
      }
      return reason.notified
        ? `${head} The server answered 200 and posted nothing; Notification Bot told the bot’s owner instead (below).`
        : `${head} The server answered 200 and posted nothing. Its notice to the bot’s owner was ` +
            'suppressed: an owner is told at most once per five minutes, and one went out less ' +
            'than five minutes ago.';
    }
    case 'filtered':
      return (
        `No message: the URL’s event filters (Only / Exclude) leave out the event ` +
        `“${reason.event}”; the server answers 200 and sends nothing.`
      );
    case 'ignored':
      return (
        'No message: the integration ignores this payload (as Zulip does, e.g. an empty push ' +
        'or a branch the URL leaves out); the server answers 200 and sends nothing.'
      );
    case 'unsupported':
      return (
        `No message: the integration does not handle the event “${reason.event}”; the server ` +
        'answers 200 so that the service keeps the webhook on.'
      );
    case 'unknown':
    case undefined:
      return 'No message resulted from this request, and Weir cannot tell why.';
  }
}

/** One request of "Send all fixtures": pending (`outcome` and `error` null), or done. */
export interface FixtureRow {
  label: string;
  outcome: Outcome | null;
  error: IpcError | null;
}
