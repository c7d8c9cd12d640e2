import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { focusMarkedElement } from './dialog-focus';
import { trackInputModality } from './input-modality';

/**
 * The focus once a dialog's opening animation ends: on its marked element, unless the person already
 * moved on inside the dialog (typed in a field, or pressed Tab), whose Enter must then stay theirs.
 */
function dialog(): { box: HTMLElement; keep: HTMLButtonElement; remove: HTMLButtonElement; code: HTMLInputElement } {
  document.body.innerHTML = `
    <div class="ant-modal-wrap">
      <div class="ant-modal" role="dialog" tabindex="-1">
        <input aria-label="Code from the device" />
        <button type="button" data-autofocus>Keep it</button>
        <button type="button">Remove</button>
      </div>
    </div>`;
  return {
    box: document.querySelector<HTMLElement>('[role="dialog"]')!,
    keep: document.querySelector<HTMLButtonElement>('[data-autofocus]')!,
    remove: [...document.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Remove')!,
    code: document.querySelector('input')!,
  };
}

describe('focusMarkedElement', () => {
  // The application's layout tracks the person's input; so does each test here.
  let stop: () => void;
  beforeEach(() => {
    stop = trackInputModality();
  });
  afterEach(() => {
    stop();
    document.body.innerHTML = '';
  });

  it('moves the focus from the dialog box, or from outside, to the marked element', () => {
    const { box, keep } = dialog();
    box.focus();
    focusMarkedElement(true);
    expect(document.activeElement).toBe(keep);

    document.body.focus();
    focusMarkedElement(true);
    expect(document.activeElement).toBe(keep);
  });

  it('leaves a person on the button they tabbed to while the dialog was opening', () => {
    const { keep, remove } = dialog();
    keep.focus();
    keep.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    remove.focus();
    focusMarkedElement(true);
    expect(document.activeElement).toBe(remove);
  });

  it('moves the focus from a button the person did not go to (antd, while opening)', () => {
    const opener = document.createElement('button');
    const { remove, keep } = dialog();
    document.body.append(opener);
    opener.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    remove.focus();
    focusMarkedElement(true);
    expect(document.activeElement).toBe(keep);
  });

  it('leaves a person in the field they are typing in', () => {
    const { code } = dialog();
    code.focus();
    focusMarkedElement(true);
    expect(document.activeElement).toBe(code);
  });

  it('does nothing when the dialog closes', () => {
    const { box } = dialog();
    box.focus();
    focusMarkedElement(false);
    expect(document.activeElement).toBe(box);
  });
});
