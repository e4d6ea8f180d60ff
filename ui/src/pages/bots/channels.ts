import type { ChannelSummary } from '../../lib/bindings/ChannelSummary';

/** What the stream field's text names: a channel, nothing (empty: a direct message to the
 *  bot's owner), or a name the organization does not have. */
export type StreamCheck =
  | { kind: 'empty' }
  | { kind: 'channel'; channel: ChannelSummary }
  | { kind: 'missing'; name: string; closest: ChannelSummary | null };

/** Lower case, as Zulip compares channel names. */
function folded(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * The channel `typed` names, as the server reads a webhook's `stream`: digits are an id,
 * anything else a name in any case. `null` while the list is not known (nothing flagged).
 */
export function checkStream(channels: ChannelSummary[] | null, typed: string): StreamCheck | null {
  const name = typed.trim();
  if (name === '') return { kind: 'empty' };
  if (channels === null) return null;
  const found = /^[0-9]+$/.test(name)
    ? channels.find((channel) => channel.streamId === Number(name))
    : channels.find((channel) => folded(channel.name) === folded(name));
  if (found) return { kind: 'channel', channel: found };
  return { kind: 'missing', name, closest: closestChannel(channels, name) };
}

/** The channel a misspelling most likely meant: within two edits (three for long names). */
export function closestChannel(channels: ChannelSummary[], typed: string): ChannelSummary | null {
  const wanted = folded(typed);
  let best: { channel: ChannelSummary; distance: number } | null = null;
  for (const channel of channels) {
    const distance = editDistance(wanted, folded(channel.name));
    const limit = wanted.length > 8 ? 3 : 2;
    if (distance <= limit && (best === null || distance < best.distance)) {
      best = { channel, distance };
    }
  }
  return best?.channel ?? null;
}

/** Levenshtein distance, with adjacent swaps counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.MAX_SAFE_INTEGER;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      const row = rows[i];
      if (row) row[j] = value;
    }
  }
  return at(a.length, b.length);
}

/** What Zulip (and weir-server) do with a webhook to a channel that does not exist. */
export const MISSING_CHANNEL_EFFECT =
  'The server answers 200 and posts nothing; Notification Bot tells the bot’s owner ' +
  'instead, at most once per five minutes.';

/** The flag under the stream field for a name the organization does not have. */
export function missingChannelText(name: string): string {
  return `No such channel: “${name}” is not a channel of this organization. ${MISSING_CHANNEL_EFFECT}`;
}
