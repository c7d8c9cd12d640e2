/** Dates for people: "Mar 12, 2025" / "Mar 12, 2025, 2:05 PM" in the interface language. */
export function formatDate(iso: string, language: string | undefined, withTime = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' }).format(date);
}

/** "2:05 PM" */
export function formatTime(iso: string, language: string | undefined): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { timeStyle: 'short' }).format(date);
}
