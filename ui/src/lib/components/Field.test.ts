import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import FieldExample from '../../test/FieldExample.svelte';

describe('Field', () => {
  it('labels its control, and describes it with its hint', () => {
    render(FieldExample);
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(name).toBe(screen.getByTestId('name'));
    expect(name).toHaveAttribute('id', 'f-name');
    expect(name).toHaveAccessibleDescription('What people call it.');
    expect(name).toHaveAttribute('aria-describedby', 'f-name-hint');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(screen.getByText('What people call it.')).toHaveAttribute('id', 'f-name-hint');
  });

  it('takes a select or a textarea, a snippet hint and its own hint id', () => {
    render(FieldExample);
    const kind = screen.getByRole('combobox', { name: 'Kind' });
    expect(kind).not.toHaveAttribute('aria-describedby');
    const path = screen.getByRole('textbox', { name: 'Path' });
    expect(path).toHaveAttribute('aria-describedby', 'f-hint');
    expect(document.getElementById('f-hint')).toHaveTextContent('A file, like ~/zuliprc.');
    expect(document.getElementById('f-hint')?.querySelector('code')).toHaveTextContent('~/zuliprc');
  });

  it('marks the control invalid and describes it with the error too', () => {
    render(FieldExample, { error: 'Too short.' });
    const name = screen.getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAttribute('aria-describedby', 'f-name-hint f-name-error');
    expect(name).toHaveAccessibleDescription('What people call it. Too short.');
  });

  it('keeps the control bound to its value', async () => {
    const user = userEvent.setup();
    render(FieldExample);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada');
    // (happy-dom does not match `option:checked`, which a bound select reads.)
    expect(screen.getByTestId('echo')).toHaveTextContent('Ada/a');
  });
});
