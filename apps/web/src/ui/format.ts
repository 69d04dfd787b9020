import dayjs from 'dayjs';

/** Local date-time for API timestamps (ISO strings); empty for missing values. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : value;
}
