/**
 * MSAL v5 redirect bridge: the page the identity provider sends silent (iframe) and popup responses to.
 * It hands the response to the main frame and does nothing else.
 */
import { broadcastResponseToMainFrame } from '@azure/msal-browser/redirect-bridge';

broadcastResponseToMainFrame().catch((error: unknown) => {
  console.error('The sign-in response could not be passed back to the portal.', error);
});
