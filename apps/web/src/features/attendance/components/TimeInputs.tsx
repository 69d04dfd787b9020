import { DatePicker, Input } from 'antd';
import dayjs from 'dayjs';

/** A wall-clock time `HH:mm`, always 24-hour whatever the language (issue #17: the browser's field showed "09:00 AM"). */
export function HmInput({ value, onChange, ...rest }: { value?: string; onChange?: (v: string) => void; 'data-testid'?: string; id?: string }) {
  // A text field in 24-hour HH:mm, not the browser's time field (it follows the language's 12-hour clock: "09:00 AM")
  // nor a picker popup (a typed time was lost when the popup closed on a click elsewhere). The server checks the value.
  return (
    <Input
      value={value ?? ''}
      placeholder="HH:mm"
      maxLength={5}
      inputMode="numeric"
      onChange={(e) => onChange?.(e.target.value)}
      style={{ width: 90 }}
      {...rest}
    />
  );
}

/** A plain date `YYYY-MM-DD` held as a string in the form. */
export function DateInput({
  value,
  onChange,
  ...rest
}: {
  value?: string | null;
  onChange?: (v: string | null) => void;
  'data-testid'?: string;
  id?: string;
  allowClear?: boolean;
}) {
  return <DatePicker value={value ? dayjs(value) : null} onChange={(d) => onChange?.(d ? d.format('YYYY-MM-DD') : null)} {...rest} />;
}
