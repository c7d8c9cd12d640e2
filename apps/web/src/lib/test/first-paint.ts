/**
 * Does `act` to the first element under `root` that matches `selector`, as soon as it is in the page:
 * in the microtask after the commit that added it, before React's passive effects run, as a quick
 * person, a password manager or a test driver can. Resolves with the element once done.
 */
export function actAsSoonAsShown<E extends Element>(root: Node, selector: string, act: (element: E) => void): Promise<E> {
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const element = (root as ParentNode).querySelector<E>(selector);
      if (!element) return;
      observer.disconnect();
      act(element);
      resolve(element);
    });
    observer.observe(root, { childList: true, subtree: true });
  });
}

/** Types `value` into an input the way the browser does: the value, then an `input` event React hears. */
export function typeInto(field: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
