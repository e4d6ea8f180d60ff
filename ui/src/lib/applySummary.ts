/**
 * The words of the pending-changes panels (the memberships grid's and the groups page's):
 * the request count promised before Apply, and what an apply did.
 */

/** "1 request", "2 requests". */
export function requests(n: number): string {
  return `${String(n)} request${n === 1 ? '' : 's'}`;
}

/** "Applied 3 changes in 2 requests." and, when some failed, how many stay staged. */
export function appliedSummary(done: number, requestsSent: number, failed: number): string {
  let text = `Applied ${String(done)} change${done === 1 ? '' : 's'} in ${requests(requestsSent)}.`;
  if (failed > 0) text += ` ${String(failed)} not applied: still staged.`;
  return text;
}
