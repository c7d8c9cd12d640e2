import type { SelectHTMLAttributes } from 'react';

export interface NativeSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> {
  options: readonly { value: string; label: string }[];
  value?: string;
  /** Called with the chosen value (antd's Form.Item passes value/onChange like to its own controls). */
  onChange?: (value: string) => void;
}

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
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
