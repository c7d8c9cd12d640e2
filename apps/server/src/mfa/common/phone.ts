/** Phone helpers the adapters share. */

/** Shows only the last digits of a phone number: +1 ••• ••• 0123. */
export function maskPhoneNumber(e164: string | null): string | null {
  if (!e164) return null;
  const digits = e164.replace(/\D/g, '');
  return `+${'•'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}
