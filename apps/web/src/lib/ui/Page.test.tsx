import { createRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actAsSoonAsShown } from '../test/first-paint';
import { Page } from './Page';

/**
 * Rendered the way a browser renders it (no act(), so React's passive effects run a moment after the
 * commit), to see what happens to the focus in between.
 */
describe('Page', () => {
  let previous: unknown;
  beforeEach(() => {
    previous = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: unknown }).IS_REACT_ACT_ENVIRONMENT;
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: unknown }).IS_REACT_ACT_ENVIRONMENT = false;
  });
  afterEach(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: unknown }).IS_REACT_ACT_ENVIRONMENT = previous;
    document.body.innerHTML = '';
  });

  const screens = [
    { path: '/', element: <Page title="First">first</Page> },
    {
      path: '/second',
      element: (
        <Page title="Second">
          <input aria-label="Code" />
        </Page>
      ),
    },
  ];

  it('moves the focus to the new heading, and before paint, so a field taken at once keeps the focus', async () => {
    const router = createMemoryRouter(screens);
    const container = document.body.appendChild(document.createElement('div'));
    const root = createRoot(container);
    root.render(<RouterProvider router={router} />);
    await expect.poll(() => document.querySelector('h1')?.textContent).toBe('First');
    expect(document.activeElement).toBe(document.body);

    // Something takes the field as soon as it is in the page, before the next task.
    const focused = actAsSoonAsShown<HTMLInputElement>(container, 'input', (field) => field.focus());
    void router.navigate('/second');
    const field = await focused;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.activeElement).toBe(field);

    void router.navigate('/');
    await expect.poll(() => document.activeElement?.textContent).toBe('First');
    root.unmount();
  });
});
