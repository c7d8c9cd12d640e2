import { serviceDeskLinkProblem, serviceDeskTextProblem, type ServiceDeskContact } from '@mfa-portal/shared';

/**
 * How staff reach the service desk, as the server wrote it into this page (`<meta name="service-desk-contact">`
 * and `<meta name="service-desk-link">`, from SERVICE_DESK_CONTACT and SERVICE_DESK_LINK). The page is all
 * the shell's error pages are sure to have, so no request is made for it. The link is checked again here:
 * only tel:, mailto: and https: ever become clickable. Null when nothing (or nothing usable) is configured.
 */
export function readServiceDesk(doc: Document = document): ServiceDeskContact | null {
  const meta = (name: string) => doc.querySelector(`meta[name="${name}"]`)?.getAttribute('content')?.trim() ?? '';
  const text = meta('service-desk-contact');
  if (!text || serviceDeskTextProblem(text) !== null) return null;
  const link = meta('service-desk-link');
  return { text, link: link && serviceDeskLinkProblem(link) === null ? link : null };
}
