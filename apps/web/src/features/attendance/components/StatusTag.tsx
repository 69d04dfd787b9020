import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DayStatus } from '@faceadmin/shared';
import { LEGEND, LEGEND_COLOR, legendOf, statusText } from '../logic.ts';

/** A result's status in its legend colour (spec §4) with the detail (late 7 min). */
export function StatusTag({ row }: { row: { status: DayStatus; late_min: number; early_min: number } }) {
  const { t } = useTranslation();
  const legend = legendOf(row.status);
  return (
    <Tag color={LEGEND_COLOR[legend]} data-testid="day-status" data-status={row.status} data-legend={legend}>
      {statusText(row, t)}
    </Tag>
  );
}

/** The legend of spec §4: normal, abnormal, out-of-office, leave, holiday. */
export function Legend() {
  const { t } = useTranslation();
  return (
    <span className="fa-att-legend" data-testid="att-legend">
      {LEGEND.map((l) => (
        <span key={l} style={{ marginInlineEnd: 12, whiteSpace: 'nowrap' }}>
          <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: LEGEND_COLOR[l], marginInlineEnd: 4 }} />
          {t(`att.legend.${l}`)}
        </span>
      ))}
    </span>
  );
}
