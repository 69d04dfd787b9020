import { DatePicker, TimePicker } from 'antd';
import dayjs from 'dayjs';

/**
 * A wall-clock time `HH:mm`, always shown 24-hour whatever the language (the browser's own time field showed
 * "09:00 AM" in English): typed or picked, the value is `HH:mm`.
 */
export function HmInput({ value, onChange, ...rest }: { value?: string; onChange?: (v: string) => void; 'data-testid'?: string; id?: string }) {
  return (
    <TimePicker
      format="HH:mm"
      needConfirm={false}
      allowClear={false}
      value={value ? dayjs(`2000-01-01T${value}`) : null}
      onChange={(d) => onChange?.(d ? d.format('HH:mm') : '')}
      style={{ width: 110 }}
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
