/** A full-page progress indicator; screen readers announce the label politely. */
export function Spinner({ label }: { label: string }) {
  return (
    <main className="page page--centered">
      <div className="spinner-box" role="status" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <p className="spinner-label">{label}</p>
      </div>
    </main>
  );
}

/**
 * Suspense fallback while pages (and the translations) load. Its text is the one string not taken
 * from the translation files: it is shown before they exist.
 */
export function LoadingFallback() {
  return <Spinner label="Loading..." />;
}
