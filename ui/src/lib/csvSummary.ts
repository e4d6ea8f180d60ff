/**
 * The status line after a CSV import, shared by the memberships grid and the groups page:
 * what was staged, what the account may not change (with the reasons), and which people
 * and columns the file names that the organization does not have.
 */

/** How many names of a kind the line lists before it stops. */
const SHOWN = 5;

export interface CsvImportOutcome {
  /** Differences the account may not make, each with the reason. */
  denied: readonly { reason: string | null }[];
  unknownPeople: readonly string[];
  /** Header columns that name no channel (or group). */
  unknownColumns: readonly string[];
}

export function importSummary(staged: number, outcome: CsvImportOutcome, columns: string): string {
  const notes = [`Staged ${String(staged)} change${staged === 1 ? '' : 's'} from the file.`];
  const { denied, unknownPeople, unknownColumns } = outcome;
  if (denied.length > 0) {
    const reasons = [...new Set(denied.map((d) => d.reason).filter((r) => r !== null))];
    notes.push(
      `${String(denied.length)} not allowed, skipped${reasons.length > 0 ? `: ${reasons.join(' ')}` : '.'}`,
    );
  }
  if (unknownPeople.length > 0) {
    notes.push(`Unknown people: ${unknownPeople.slice(0, SHOWN).join(', ')}.`);
  }
  if (unknownColumns.length > 0) {
    notes.push(`Unknown ${columns}: ${unknownColumns.slice(0, SHOWN).join(', ')}.`);
  }
  return notes.join(' ');
}
