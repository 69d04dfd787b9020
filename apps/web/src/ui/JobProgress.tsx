import { Progress, Typography } from 'antd';

/** Read by screen readers, not shown. */
const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/**
 * A background job's progress (an import, an apply): `text` ("Rows done: 120 of 350") above a bar named `label`; a
 * screen reader hears each quarter, not every second's count. Held at 99 % until the job says it is over.
 */
export function JobProgress({ done, total, label, text, testId }: { done: number; total: number; label: string; text: string; testId: string }) {
  const percent = total > 0 ? Math.min(99, Math.floor((done * 100) / total)) : 0;
  return (
    <div data-testid={testId}>
      <span role="status" style={VISUALLY_HIDDEN}>
        {label}: {Math.floor(percent / 25) * 25}%
      </span>
      <Typography.Text>{text}</Typography.Text>
      <Progress percent={percent} status="active" aria-label={label} />
    </div>
  );
}
