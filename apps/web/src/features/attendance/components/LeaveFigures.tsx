import { Typography } from 'antd';
import type { LeaveKinds, LeaveType } from '@faceadmin/shared';
import { useLeaveTypes } from '../api.ts';
import { hm } from '../logic.ts';

/** Leave minutes by leave type as "Annual leave 4:00 · Sick leave 1:00", labelled in the console's language (#17). */
export function leaveKindsText(kinds: LeaveKinds, types: LeaveType[] | undefined): string {
  const label = (k: string) => types?.find((x) => x.value === k)?.label ?? k;
  return Object.entries(kinds)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${label(k)} ${hm(v)}`)
    .join(' · ');
}

/** A day's (or month's) leave time with its split by leave type under it. */
export function LeaveTime({ minutes, kinds }: { minutes: number; kinds: LeaveKinds }) {
  const types = useLeaveTypes();
  const split = leaveKindsText(kinds, types.data?.items);
  return (
    <span data-testid="leave-time">
      {hm(minutes, true)}
      {split && (
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
          {split}
        </Typography.Text>
      )}
    </span>
  );
}
