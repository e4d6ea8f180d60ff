import type { HistoryEntry } from '../../lib/stores/workbench.svelte';

/** How a value reads in a change: quoted, or a word for "none". */
function shown(value: string | null, none: string): string {
  return value === null || value === '' ? none : `“${value}”`;
}

function listChange(name: string, before: string[], after: string[]): string | null {
  const added = after.filter((item) => !before.includes(item));
  const removed = before.filter((item) => !after.includes(item));
  if (added.length === 0 && removed.length === 0) return null;
  const parts = [...added.map((item) => `+${item}`), ...removed.map((item) => `−${item}`)];
  return `${name} ${parts.join(' ')}`;
}

/**
 * What a request changed from the one sent before it, in words ("stream “general” →
 * “genral”", "body edited"): the history says what each replay tried. `previous` null:
 * the first request of the session.
 */
export function describeChanges(entry: HistoryEntry, previous: HistoryEntry | null): string[] {
  if (previous === null) return ['first request'];
  const [a, b] = [previous.request, entry.request];
  const changes: string[] = [];
  if (a.botUserId !== b.botUserId) changes.push('another bot');
  if (a.spec.integration !== b.spec.integration) {
    changes.push(`integration ${a.spec.integration} → ${b.spec.integration}`);
  }
  if ((previous.fixture ?? '') !== (entry.fixture ?? '')) {
    changes.push(
      `sample ${shown(previous.fixture, 'custom body')} → ${shown(entry.fixture, 'custom body')}`,
    );
  }
  if ((a.spec.stream ?? '') !== (b.spec.stream ?? '')) {
    changes.push(
      `stream ${shown(a.spec.stream, 'none (direct message)')} → ${shown(b.spec.stream, 'none (direct message)')}`,
    );
  }
  if ((a.spec.topic ?? '') !== (b.spec.topic ?? '')) {
    changes.push(`topic ${shown(a.spec.topic, 'default')} → ${shown(b.spec.topic, 'default')}`);
  }
  const only = listChange('only', a.spec.onlyEvents, b.spec.onlyEvents);
  if (only) changes.push(only);
  const exclude = listChange('exclude', a.spec.excludeEvents, b.spec.excludeEvents);
  if (exclude) changes.push(exclude);
  const options = (pairs: [string, string][]) => pairs.map(([key, value]) => `${key}=${value}`);
  const optionChange = listChange('options', options(a.spec.options), options(b.spec.options));
  if (optionChange) changes.push(optionChange);
  if (JSON.stringify(a.headers) !== JSON.stringify(b.headers)) changes.push('headers edited');
  // A new sample brings its own body: only an edit of the same sample is news.
  if (a.body !== b.body && (previous.fixture ?? '') === (entry.fixture ?? '')) {
    changes.push('body edited');
  }
  return changes.length > 0 ? changes : ['same request again'];
}
