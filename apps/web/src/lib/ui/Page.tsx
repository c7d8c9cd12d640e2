import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useDocumentTitle } from '../../shell/components/use-document-title';

/** react-router's key of the location the application was opened at (no navigation yet). */
const INITIAL_LOCATION_KEY = 'default';

/**
 * One screen of the main application: its single h1 and the tab title. When the user moves to another
 * screen, focus goes to the new heading so screen-reader and keyboard users start at the top of it
 * (not on the first screen, where the browser starts at the top anyway).
 */
export function Page({ title, intro, children, className }: { title: string; intro?: ReactNode; children: ReactNode; className?: string }) {
  useDocumentTitle(title);
  const heading = useRef<HTMLHeadingElement>(null);
  const { key } = useLocation();
  // Before paint: a passive effect runs a moment after the screen shows, and would take the focus from
  // a field someone (or something) had already started typing in.
  useLayoutEffect(() => {
    if (key !== INITIAL_LOCATION_KEY) heading.current?.focus();
  }, [key]);
  return (
    <div className={className ? `page-body ${className}` : 'page-body'}>
      <h1 className="page__title" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {intro ? <div className="page-intro">{intro}</div> : null}
      {children}
    </div>
  );
}
