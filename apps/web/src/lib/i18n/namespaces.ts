/**
 * Translation namespaces of the main application (files in /locales/en/). They are all requested in
 * parallel when the main application starts, so no screen waits for its own file later.
 * `main` is the overview's namespace (the shell's placeholder used it; its keys are kept).
 */
export const MAIN_NAMESPACES = ['app', 'main', 'devices', 'bypass-codes', 'activity', 'help', 'step-up', 'errors', 'common'] as const;
export type MainNamespace = (typeof MAIN_NAMESPACES)[number];
