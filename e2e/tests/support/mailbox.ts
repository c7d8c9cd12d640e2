import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { MAILBOX_DIR } from '../../playwright.config';

/** A message the test's SMTP server received (e2e/mailbox.setup.ts). */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** Every message received so far, oldest first. */
export function receivedMail(): ReceivedMail[] {
  if (!fs.existsSync(MAILBOX_DIR)) return [];
  return fs
    .readdirSync(MAILBOX_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(MAILBOX_DIR, f), 'utf8')) as ReceivedMail);
}

/** Waits for a message to `address` whose subject matches, and returns it. */
export async function mailTo(address: string, subject: RegExp, timeout = 20_000): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      () => {
        found = receivedMail().find((m) => m.to.includes(address) && subject.test(m.subject));
        return found !== undefined;
      },
      { timeout, message: `an e-mail to ${address} with a subject matching ${String(subject)}` },
    )
    .toBe(true);
  return found!;
}
