import { useEffect, useMemo, useRef } from 'react';
import { lastInputTarget } from './input-modality';

/** Fields a person types in: one focused inside the dialog is kept, a fast typist's. */
const FIELDS = 'input, select, textarea';
/**
 * Other controls: kept only when the person moved there, not antd while opening the dialog. A dialog
 * appears after the action that opened it, which happened outside it, so a key or pointer pressed inside
 * a dialog that is still opening is theirs (the last one the input-modality tracker saw).
 */
const CONTROLS = 'button, a[href], [role="radio"], [role="checkbox"], [role="switch"], [role="tab"]';

/**
 * For antd Modal's `afterOpenChange`: once a dialog has opened, focus its element marked
 * `data-autofocus` (the field to type in, or the safe button). antd otherwise may leave the focus on
 * the dialog box or its close button, one Tab away from where keyboard users need to be. The newest
 * dialog wins (the step-up dialog opens over another). A person who already moved on inside the dialog
 * during its opening animation (typing in a field, or a Tab to "Remove" or "Send a push") keeps their
 * place: taking the focus back then would turn their Enter into the marked button's, or an empty submit.
 */
export function focusMarkedElement(open: boolean): void {
  if (!open) return;
  const marked = document.querySelectorAll<HTMLElement>('.ant-modal-wrap [data-autofocus]');
  const target = marked[marked.length - 1];
  if (!target) return;
  const active = document.activeElement;
  const dialog = target.closest('.ant-modal-wrap');
  if (active && dialog?.contains(active) && active !== target) {
    if (active.matches(FIELDS)) return;
    const acted = lastInputTarget();
    if (active.matches(CONTROLS) && acted instanceof Node && dialog.contains(acted)) return;
  }
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

/**
 * For an antd Modal: gives the focus back to what opened the dialog once it has closed (spread the
 * result into the Modal's props). antd does this itself only when the dialog animates: with reduced
 * motion the dialog has taken the focus before antd notes where it was, and the focus was left on
 * <body>. The opener is noted here while rendering the dialog open, before any of it is on the page.
 * A dialog taken off the page while open (its component unmounted, so antd's `afterClose` never comes)
 * gives the focus back then.
 */
export function useFocusReturn(open: boolean): { focusable: { focusTriggerAfterClose: false }; afterClose: () => void } {
  const trigger = useRef<Element | null>(null);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current) trigger.current = document.activeElement;
  wasOpen.current = open;
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      // Checked a moment later: React's strict mode unmounts and mounts again at once, in development.
      setTimeout(() => {
        if (!mounted.current && wasOpen.current) returnFocus(trigger.current);
      });
    };
  }, []);
  return useMemo(() => ({ focusable: { focusTriggerAfterClose: false }, afterClose: () => returnFocus(trigger.current) }), []);
}
