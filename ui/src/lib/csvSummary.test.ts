import { describe, expect, it } from 'vitest';
import { importSummary } from './csvSummary';

describe('importSummary', () => {
  it('says only what was staged when the file had nothing else', () => {
    expect(importSummary(0, { denied: [], unknownPeople: [], unknownColumns: [] }, 'groups')).toBe(
      'Staged 0 changes from the file.',
    );
  });

  it('gives each distinct reason once and lists at most five unknown names', () => {
    const denied = [{ reason: 'No.' }, { reason: 'No.' }, { reason: 'Never.' }, { reason: null }];
    const people = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(
      importSummary(1, { denied, unknownPeople: people, unknownColumns: ['x'] }, 'channels'),
    ).toBe(
      'Staged 1 change from the file. 4 not allowed, skipped: No. Never. Unknown people: a, b, c, d, e. Unknown channels: x.',
    );
  });
});
