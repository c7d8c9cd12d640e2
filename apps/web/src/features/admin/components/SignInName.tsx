import { Fragment } from 'react';

/**
 * A sign-in name or e-mail address that may wrap only after its "@" and its dots (`<wbr>`), never in
 * the middle of a word, in a narrow table cell (the `sign-in-name` class stops the cell's
 * "break anywhere" from squeezing it further).
 */
export function SignInName({ value }: { value: string }) {
  // "grace@example.com" → ["grace@", "example.", "com"]
  const parts = value.match(/[^@.]*[@.]|[^@.]+$/g) ?? [value];
  return (
    <span className="sign-in-name">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
