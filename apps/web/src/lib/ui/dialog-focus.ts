/**
 * For antd Modal's `afterOpenChange`: once a dialog has opened, focus its element marked
 * `data-autofocus` (the field to type in, or the safe button). antd otherwise may leave the focus on
 * the dialog box itself, one Tab away from where keyboard users need to be. The newest dialog wins
 * (the step-up dialog opens over another). A user who already moved on to a control of the dialog
 * (a fast typist, during the opening animation) keeps their place.
 */
export function focusMarkedElement(open: boolean): void {
  if (!open) return;
  const marked = document.querySelectorAll<HTMLElement>('.ant-modal-wrap [data-autofocus]');
  const target = marked[marked.length - 1];
  if (!target) return;
  const active = document.activeElement;
  const dialog = target.closest('.ant-modal-wrap');
  if (active && dialog?.contains(active) && active !== target && active.matches('input, select, textarea')) return;
  target.focus();
}

/**
 * For a dialog's `afterClose` (with antd's own focus return turned off): give the focus back to what
 * opened the dialog, unless something else took it meanwhile (e.g. newly shown codes), or, when that
 * element is gone (a removed device's button), to the page heading, never leaving it on <body>.
 */
export function returnFocus(trigger: Element | null): void {
  const active = document.activeElement;
  const lost = !active || active === document.body || !!active.closest('.ant-modal-wrap');
  if (!lost) return;
  if (trigger instanceof HTMLElement && trigger.isConnected && !trigger.closest('.ant-modal-wrap')) trigger.focus();
  else document.querySelector<HTMLElement>('main h1')?.focus();
}
