import type { MouseEvent, ReactNode } from 'react';
import { useHref, useLocation } from 'react-router';

/**
 * A link to a part of the current page. Under `<base href>` a bare `href="#id"` resolves against the
 * base, not the page, and would leave it (the portal's overview). The address here keeps the current
 * path, so copying or opening it in a new tab lands on the same part; a plain activation moves the
 * focus there (the target needs `tabIndex={-1}`) without navigating at all.
 */
export function InPageLink({ targetId, children, className }: { targetId: string; children: ReactNode; className?: string }) {
  const { pathname, search } = useLocation();
  const href = useHref({ pathname, search, hash: `#${targetId}` });
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window (modifier keys, middle button) is the browser's business.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const target = document.getElementById(targetId);
    if (!target) return;
    event.preventDefault();
    target.focus();
  };
  return (
    <a href={href} onClick={onClick} className={className}>
      {children}
    </a>
  );
}
