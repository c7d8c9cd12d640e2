import type { BrowserContext, Page } from '@playwright/test';

/** An address of no server: the page is answered by the test itself, with no Permissions-Policy. */
const READER = 'https://clipboard-reader.test/';

/**
 * What the system clipboard holds, as another application pasting it would see it. The portal's own
 * pages may not read the clipboard (its Permissions-Policy denies `clipboard-read`: it only writes),
 * so the text is read from a blank page of the same browser, then the portal's page is brought back.
 */
export async function clipboardText(context: BrowserContext, portal: Page): Promise<string> {
  const reader = await context.newPage();
  try {
    await reader.route(READER, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>reader</title>' }),
    );
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: READER });
    await reader.goto(READER);
    await reader.bringToFront();
    return await reader.evaluate(() => navigator.clipboard.readText());
  } finally {
    await reader.close();
    await portal.bringToFront();
  }
}
