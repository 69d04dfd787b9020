import { formatDateTime } from './format.ts';

/** A timestamp in a narrow table column: the date over the time, neither broken inside. */
export function DateTime({ value }: { value: string | null | undefined }) {
  const text = formatDateTime(value);
  const [date, time] = text.split(' ');
  if (!time) return <>{text}</>;
  return (
    <span className="fa-datetime" title={text}>
      <span>{date}</span>
      <span>{time}</span>
    </span>
  );
}
