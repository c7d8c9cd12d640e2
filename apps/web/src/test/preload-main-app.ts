/**
 * Vitest setup: the main application (Ant Design and every feature) is one large lazily loaded module
 * graph. Loading it once before a test file runs keeps its first lazy render within Testing Library's
 * default one-second wait, in the shell's tests as in ours, instead of depending on machine speed.
 */
await import('../app');
export {};
