import { useMemo, useState } from 'react';
import { Card, Empty, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PowerRange } from '@faceadmin/shared';
import { EChart } from '../../../ui/EChart.tsx';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { usePower } from '../api.ts';
import { powerSeries } from '../logic.ts';

/** Power of a breaker (all its lines) or one line: the last 24 h in 5-minute steps, or the last 30 days by day. */
export function PowerChart({ breakerId, lineId }: { breakerId: number; lineId?: number }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<PowerRange>('day');
  const q = usePower(breakerId, lineId, range);
  const option = useMemo(() => {
    // day: HH:mm in the company's zone; month: MM-DD (the server's dates are already the company's days)
    const s = powerSeries(q.data, (iso) => formatDateTime(iso).slice(11, 16));
    // A curve of a few points (a breaker registered minutes ago) shows its points, or one point would draw nothing.
    const few = s.labels.length < 24;
    return {
      // average: the mean of the bucket's one-minute totals; peak: the highest of them (docs/api-breakers.md)
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? `${v} W` : '–') },
      legend: { data: [t('breaker.chart.avg'), t('breaker.chart.max')], top: 0 },
      grid: { left: 48, right: 16, top: 32, bottom: 28 },
      xAxis: { type: 'category', data: s.labels, boundaryGap: range === 'month' },
      yAxis: { type: 'value', name: 'W', minInterval: 1 },
      series: [
        {
          name: t('breaker.chart.avg'),
          type: range === 'month' ? 'bar' : 'line',
          data: s.avg,
          smooth: true,
          showSymbol: few,
          areaStyle: range === 'day' ? { opacity: 0.15 } : undefined,
        },
        { name: t('breaker.chart.max'), type: 'line', data: s.max, smooth: true, showSymbol: few, lineStyle: { type: 'dashed' } },
      ],
    };
  }, [q.data, range, t]);
  const empty = q.isSuccess && q.data.points.length === 0;
  return (
    <Card
      size="small"
      title={t('breaker.chart.power')}
      extra={
        <Segmented<PowerRange>
          size="small"
          value={range}
          onChange={setRange}
          options={[
            { value: 'day', label: t('breaker.chart.day') },
            { value: 'month', label: t('breaker.chart.month') },
          ]}
          data-testid="power-range"
        />
      }
      data-testid="power-chart"
    >
      {q.error && !q.data ? (
        <ErrorState error={q.error} onRetry={q.refetch} retrying={q.isFetching} />
      ) : (
        <>
          {empty ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('breaker.chart.empty')}
              style={{ height: 228, paddingTop: 48 }}
              data-testid="power-empty"
            />
          ) : (
            <EChart option={option} height={260} loading={q.isLoading} />
          )}
        </>
      )}
    </Card>
  );
}
