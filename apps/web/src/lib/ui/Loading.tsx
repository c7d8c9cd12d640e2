import { Spin } from 'antd';

/** A wait that screen readers announce: a spinner with its text in a polite live region. */
export function Loading({ label, className }: { label: string; className?: string }) {
  return (
    <div className={className ? `loading ${className}` : 'loading'} role="status" aria-live="polite">
      <Spin />
      <span className="loading__label">{label}</span>
    </div>
  );
}
