import { DatePicker } from 'antd';

/** A list's day range filter: both days as 'YYYY-MM-DD' (the company's days on the server), or neither when cleared. */
export function DayRangeFilter(props: { onChange: (range: { from: string | undefined; to: string | undefined }) => void; testId: string }) {
  return (
    <DatePicker.RangePicker
      onChange={(v) => props.onChange({ from: v?.[0]?.format('YYYY-MM-DD') ?? undefined, to: v?.[1]?.format('YYYY-MM-DD') ?? undefined })}
      data-testid={props.testId}
    />
  );
}
