import { screen, waitFor, within } from '@testing-library/react';

/**
 * The open dialog with this title. (Under NODE_ENV=test antd gives every dialog title the same id,
 * so `getByRole('dialog', { name })` cannot tell dialogs apart; the title text can.)
 */
export function findDialog(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = screen.queryAllByRole('dialog').find((d) =>
      within(d)
        .queryAllByText(title)
        .some((el) => el.classList.contains('ant-modal-title')),
    );
    if (!dialog) throw new Error(`No open dialog titled "${title}".`);
    return dialog;
  });
}

export function queryDialog(title: string): HTMLElement | undefined {
  return screen.queryAllByRole('dialog').find((d) =>
    within(d)
      .queryAllByText(title)
      .some((el) => el.classList.contains('ant-modal-title')),
  );
}
