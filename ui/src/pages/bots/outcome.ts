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
}

/** One request of "Send all fixtures": pending (`outcome` and `error` null), or done. */
export interface FixtureRow {
  label: string;
  outcome: Outcome | null;
  error: IpcError | null;
}
