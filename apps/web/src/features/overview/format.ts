/** Dates for people: "12 Mar 2025" / "12 Mar 2025, 14:05" in the interface language. */
export function formatDate(iso: string, language: string | undefined, withTime = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' }).format(date);
}
