import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { MAILBOX_DIR, SMTP_PORT } from './playwright.config';

/**
 * Global set-up of the builtin journeys: a real SMTP server (smtp-server) on loopback, where the portal
 * under test sends its security e-mail (SMTP_URL in its environment). Every message it accepts is parsed
 * (mailparser) and written as JSON to MAILBOX_DIR, which the journeys read (support/mailbox.ts).
 */
export default async function setup(): Promise<() => Promise<void>> {
  fs.rmSync(MAILBOX_DIR, { recursive: true, force: true });
  fs.mkdirSync(MAILBOX_DIR, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const to = [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address ?? ''));
          const saved = { to, subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : '' };
          fs.writeFileSync(path.join(MAILBOX_DIR, `${String(++count).padStart(5, '0')}.json`), JSON.stringify(saved));
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(SMTP_PORT, '127.0.0.1', () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
