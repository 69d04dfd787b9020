import { DatePicker, Input } from 'antd';
import dayjs from 'dayjs';

/** A wall-clock time `HH:mm` (the browser's own time field: typed or picked, always 24-hour in the value). */
export function HmInput({ value, onChange, ...rest }: { value?: string; onChange?: (v: string) => void; 'data-testid'?: string; id?: string }) {
  return <Input type="time" value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} style={{ width: 130 }} {...rest} />;
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
