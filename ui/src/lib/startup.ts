/**
 * The page's account of a cold start, reported once to the backend's log (beside the
 * shell's own lines; `weir-bench app` keeps the logs): when the document arrived, when
 * the app's script ran and mounted, the first paints, the User Timing marks the stores
 * set as their data arrives (`status received`, `overview received`, `grid received`,
 * ...), and when the first page's content was painted. Milliseconds since the page began
 * loading. Reporting never fails the app.
 */
import { ipc } from './ipc';
import { resettable } from './stores/registry';

/** The backend takes at most this many marks. */
const MAX_MARKS = 32;

/** Whether this page has reported (tests start over). */
const once = resettable({ reported: false }, (state) => {
  state.reported = false;
});

/** The marks so far, `name` lowercased to what the backend accepts, in time order. */
export function startupMarks(now: number): { name: string; ms: number }[] {
  const marks: { name: string; ms: number }[] = [];
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  if (navigation) {
    marks.push({ name: 'document received', ms: navigation.responseEnd });
    marks.push({ name: 'document parsed', ms: navigation.domInteractive });
  }
  for (const entry of [
    ...performance.getEntriesByType('paint'),
    ...performance.getEntriesByType('mark'),
  ]) {
    marks.push({ name: entry.name, ms: entry.startTime });
  }
  marks.push({ name: 'content painted', ms: now });
  return marks
    .map(({ name, ms }) => ({
      name: name
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, '-')
        .slice(0, 64),
      ms: Math.max(0, ms),
    }))
    .filter(({ name, ms }) => name !== '' && Number.isFinite(ms))
    .sort((a, b) => a.ms - b.ms)
    .slice(-MAX_MARKS);
}

/** After the next paint, reports the start-up marks (the first call only). */
export function reportStartupAfterPaint(): void {
  if (once.reported) return;
  once.reported = true;
  requestAnimationFrame(() => {
    // The frame callback runs before that frame paints; a task queued from it runs after.
    setTimeout(() => {
      ipc.reportStartup({ marks: startupMarks(performance.now()) }).catch(() => {
        // Only a log line is lost.
      });
    }, 0);
  });
}
