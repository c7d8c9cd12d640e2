/**
 * Which kind of input the person used last, kept on `<html data-input="keyboard|pointer">`, so the
 * stylesheet can keep focus rings for keyboard use: the portal moves the focus to a page's heading
 * (and to a few other landmarks) so screen readers start there, and after a click or a tap that
 * heading must not light up with a focus box. Browsers' own `:focus-visible` guess differs between
 * them for focus moved by a script; this does not guess.
 */
export type InputModality = 'keyboard' | 'pointer';

/** Where the person last pressed a key or a pointer, while tracking runs (dialog-focus.ts reads it). */
let lastTarget: EventTarget | null = null;
export const lastInputTarget = (): EventTarget | null => lastTarget;

/** Keys that move the focus or act on it; a modifier alone (e.g. Ctrl+C after a click) is no keyboard use. */
const IGNORED_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock']);

/** Starts tracking on `doc`; returns the function that stops it. */
export function trackInputModality(doc: Document = document): () => void {
  const root = doc.documentElement;
  const set = (modality: InputModality) => {
    if (root.dataset.input !== modality) root.dataset.input = modality;
  };
  const onKey = (event: KeyboardEvent) => {
    lastTarget = event.target;
    if (!IGNORED_KEYS.has(event.key) && !event.metaKey && !event.ctrlKey && !event.altKey) set('keyboard');
  };
  const onPointer = (event: Event) => {
    lastTarget = event.target;
    set('pointer');
  };
  // Capture phase: a component that stops the event (a dialog, a menu) does not hide it from here.
  doc.addEventListener('keydown', onKey, true);
  doc.addEventListener('pointerdown', onPointer, true);
  doc.addEventListener('mousedown', onPointer, true);
  doc.addEventListener('touchstart', onPointer, { capture: true, passive: true });
  return () => {
    doc.removeEventListener('keydown', onKey, true);
    doc.removeEventListener('pointerdown', onPointer, true);
    doc.removeEventListener('mousedown', onPointer, true);
    doc.removeEventListener('touchstart', onPointer, true);
    delete root.dataset.input;
    lastTarget = null;
  };
}
