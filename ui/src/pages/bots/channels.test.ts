import { describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../../lib/bindings/ChannelSummary';
import { checkStream, closestChannel, missingChannelText } from './channels';

const channels: ChannelSummary[] = [
  { streamId: 4, name: 'general', inviteOnly: false },
  { streamId: 7, name: 'Design team', inviteOnly: false },
  { streamId: 9, name: 'Secret Plans', inviteOnly: true },
];

describe('checkStream', () => {
  it('finds a channel by name in any case, or by id as the server reads digits', () => {
    expect(checkStream(channels, ' GENERAL ')).toEqual({ kind: 'channel', channel: channels[0] });
    expect(checkStream(channels, '9')).toEqual({ kind: 'channel', channel: channels[2] });
    expect(checkStream(channels, '')).toEqual({ kind: 'empty' });
  });

  it('flags a misspelled name with the channel it most likely meant', () => {
    expect(checkStream(channels, 'genral')).toEqual({
      kind: 'missing',
      name: 'genral',
      closest: channels[0],
    });
    expect(checkStream(channels, '12')).toEqual({ kind: 'missing', name: '12', closest: null });
  });

  it('flags nothing while the channels are not known', () => {
    expect(checkStream(null, 'genral')).toBeNull();
  });
});

describe('closestChannel', () => {
  it('takes swaps and small slips, not unrelated names', () => {
    expect(closestChannel(channels, 'gneeral')?.name).toBe('general');
    expect(closestChannel(channels, 'design teem')?.name).toBe('Design team');
    expect(closestChannel(channels, 'random')).toBeNull();
  });
});

describe('missingChannelText', () => {
  it('says what the server does instead of posting', () => {
    expect(missingChannelText('genral')).toBe(
      'No such channel: “genral” is not a channel of this organization. The server answers ' +
        '200 and posts nothing; Notification Bot tells the bot’s owner instead, at most once ' +
        'per five minutes.',
    );
  });
});
