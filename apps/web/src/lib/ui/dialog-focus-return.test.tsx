import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from 'antd';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useFocusReturn } from './dialog-focus';

/**
 * A dialog opened from a button, closed with Escape. The hook turns antd's own focus return off (in a
 * browser it fails when the dialog does not animate, for a person who asked for reduced motion: the
 * journeys with reduced motion show it), so the focus is back on the button only if the hook puts it there.
 */
function Opener() {
  const [open, setOpen] = useState(false);
  const focusReturn = useFocusReturn(open);
  return (
    <main>
      <h1 tabIndex={-1}>Your devices</h1>
      <button type="button" onClick={() => setOpen(true)}>
        Check it works
      </button>
      <Modal open={open} title="Check that it works" onCancel={() => setOpen(false)} footer={null} {...focusReturn}>
        <input aria-label="Code from the device" autoFocus />
      </Modal>
    </main>
  );
}

describe('useFocusReturn', () => {
  it('gives the focus back to the button that opened the dialog once it has closed', async () => {
    const user = userEvent.setup();
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Check it works' });
    opener.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Check that it works' })).toBeInTheDocument();
    await waitFor(() => expect(opener).not.toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(opener).toHaveFocus());
  });
});
