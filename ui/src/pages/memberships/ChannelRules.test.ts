import { fireEvent, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { CellRules } from '../../lib/bindings/CellRules';
import type { PersonRules } from '../../lib/bindings/PersonRules';
import { encodeGrid } from '../../lib/memberships/wire';
import { grid, openMembershipsPage as open, pendingCount } from '../../test/memberships';

const NOT_IN_GROUP =
  "Only organization administrators and the people this channel's settings allow can remove other people from it.";
const ORG_RULE =
  "This organization lets only some people add others to channels; neither it nor this channel's settings include you.";
const DEACTIVATED = 'Deactivated users cannot be subscribed or unsubscribed.';

function own(other: CellRules): PersonRules {
  return {
    me: { subscribe: null, unsubscribe: null },
    own_bot: { subscribe: null, unsubscribe: null },
    other,
    deactivated: { subscribe: DEACTIVATED, unsubscribe: DEACTIVATED },
  };
}

/**
 * A member's grid where #general's settings let them remove people (its own rules), and
 * #random's keep them from adding anyone; #leadership follows the table.
 */
function memberInRemoveGroup() {
  const plain = grid('member');
  const [general, leadership, random] = plain.streams;
  if (!general || !leadership || !random) throw new Error('the fixture changed');
  general.rules = own({ subscribe: null, unsubscribe: null });
  random.rules = own({ subscribe: ORG_RULE, unsubscribe: NOT_IN_GROUP });
  return plain;
}

const cell = (userId: number, streamId: number) => screen.getByTestId(`cell-${userId}-${streamId}`);

describe('cells of channels with their own rules', () => {
  it('lets a member of can_remove_subscribers_group uncheck someone there, and only there', async () => {
    await open({ load_memberships: () => encodeGrid(memberInRemoveGroup()) });
    const alanInGeneral = cell(2, 1);
    expect(alanInGeneral).not.toHaveAttribute('aria-disabled');
    await fireEvent.click(alanInGeneral);
    expect(alanInGeneral).toHaveAttribute('aria-checked', 'false');
    expect(pendingCount()).toBe('1');
    // #leadership has no rules of its own: the table's, which refuse.
    const alanInLeadership = cell(2, 3);
    expect(alanInLeadership).toHaveAttribute('aria-disabled', 'true');
    expect(alanInLeadership).toHaveAttribute(
      'title',
      expect.stringMatching(/Only organization administrators/),
    );
  });

  it('shows the reason a channel’s own rules give on its disabled cells', async () => {
    await open({ load_memberships: () => encodeGrid(memberInRemoveGroup()) });
    const claudeInRandom = cell(4, 5);
    expect(claudeInRandom).toHaveAttribute('aria-disabled', 'true');
    expect(claudeInRandom).toHaveAttribute('title', ORG_RULE);
    expect(claudeInRandom.getAttribute('aria-label')).toContain(ORG_RULE);
    await fireEvent.click(claudeInRandom);
    expect(claudeInRandom).toHaveAttribute('aria-checked', 'false');
    expect(pendingCount()).toBe('0');
    // Ada (the viewer) may still join it.
    expect(cell(1, 5)).not.toHaveAttribute('aria-disabled');
  });
});
