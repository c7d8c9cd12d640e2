import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from 'antd';
import { StrictMode, useState } from 'react';
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

  it('gives it back too when the dialog is taken off the page while open, under strict mode as well', async () => {
    function Unmounted() {
      const [open, setOpen] = useState(false);
      return (
        <main>
          <button type="button" onClick={() => setOpen(true)}>
            Revoke
          </button>
          {open ? <Opened onClose={() => setOpen(false)} /> : null}
        </main>
      );
    }
    function Opened({ onClose }: { onClose: () => void }) {
      const focusReturn = useFocusReturn(true);
      return (
        <Modal open title="Revoke this code?" onCancel={onClose} footer={null} {...focusReturn}>
          <button type="button" autoFocus onClick={onClose}>
            Keep it
          </button>
        </Modal>
      );
    }
    const user = userEvent.setup();
    render(
      <StrictMode>
        <Unmounted />
      </StrictMode>,
    );
    const opener = screen.getByRole('button', { name: 'Revoke' });
    opener.focus();
    await user.keyboard('{Enter}');
    const keep = await screen.findByRole('button', { name: 'Keep it' });
    // Strict mode's unmount and mount again at once do not take the focus out of the open dialog.
    await waitFor(() => expect(opener).not.toHaveFocus());
    await new Promise((r) => setTimeout(r, 20));
    expect(opener).not.toHaveFocus();
    await user.click(keep);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Keep it' })).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });
});
