import type { SelectHTMLAttributes } from 'react';

export interface NativeOption {
  value: string;
  label: string;
}
/** Options under a heading of their own (`<optgroup>`). */
export interface NativeOptionGroup {
  label: string;
  options: readonly NativeOption[];
}

export interface NativeSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> {
  options: readonly (NativeOption | NativeOptionGroup)[];
  value?: string;
  /** Called with the chosen value (antd's Form.Item passes value/onChange like to its own controls). */
  onChange?: (value: string) => void;
}

const option = (o: NativeOption) => (
  <option key={o.value} value={o.value}>
    {o.label}
  </option>
);

/**
 * The browser's own drop-down, styled like the other inputs: type-ahead, keyboard and screen readers
 * work everywhere, on phones it opens the system picker, and it costs no JavaScript.
 */
export function NativeSelect({ options, value, onChange, className, ...rest }: NativeSelectProps) {
  return (
    <select
      {...rest}
      className={className ? `native-select ${className}` : 'native-select'}
      value={value}
      onChange={(e) => onChange?.(e.target.value)}
    >
      {options.map((o) =>
        'options' in o ? (
          <optgroup key={o.label} label={o.label}>
            {o.options.map(option)}
          </optgroup>
        ) : (
          option(o)
        ),
      )}
    </select>
  );
}
