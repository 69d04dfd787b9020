import { useMemo, useState } from 'react';
import { Card, Empty, Select, Typography } from 'antd';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { breakersApi, type BreakerLine } from '@faceadmin/shared';
import { call } from '../../../lib/request.ts';
import { EChart } from '../../../ui/EChart.tsx';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { breakerKeys } from '../api.ts';
import { energyMonths, lineEnergyOfMonth } from '../logic.ts';

/**
 * A breaker's lines side by side: each line's energy in one month (this month first, any of the last 12 to pick),
 * kWh in the company's zone, from GET /breaker/line/energy?by=month (the meter's advance, docs/api-breakers.md).
 */
export function LineEnergyChart({ lines }: { lines: readonly Pick<BreakerLine, 'id' | 'title' | 'main'>[] }) {
  const { t } = useTranslation();
  const qs = useQueries({
    queries: lines.map((l) => ({
      queryKey: breakerKeys.energy(l.id, 'month'),
      queryFn: () => call(breakersApi.lineEnergy, { id: l.id, by: 'month' }, { inline: true }),
      staleTime: 60_000,
    })),
  });
  // a new array every render: the charts follow the answers' times
  const lists = qs.map((q) => q.data);
  const stamp = qs.map((q) => q.dataUpdatedAt).join();
  const months = useMemo(() => energyMonths(lists), [stamp]); // eslint-disable-line react-hooks/exhaustive-deps
  const [picked, setPicked] = useState<string | null>(null);
  const month = picked && months.includes(picked) ? picked : (months[0] ?? null);
  const kwh = useMemo(() => (month ? lineEnergyOfMonth(lists, month) : []), [stamp, month]); // eslint-disable-line react-hooks/exhaustive-deps
  const names = useMemo(() => lines.map((l) => (l.main ? `${l.title} (${t('breaker.line.main')})` : l.title)), [lines, t]);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? `${v} kWh` : '–') },
      grid: { left: 48, right: 16, top: 24, bottom: 28, containLabel: true },
      xAxis: { type: 'category', data: names, axisLabel: { interval: 0, hideOverlap: true } },
      yAxis: { type: 'value', name: 'kWh' },
      series: [{ name: t('breaker.chart.energy'), type: 'bar', data: kwh, barMaxWidth: 48, label: { show: lines.length <= 8, position: 'top' } }],
    }),
    [names, kwh, lines.length, t],
  );
  const failure = qs.find((q) => q.error && !q.data)?.error ?? null;
  const loading = qs.some((q) => q.isLoading);
  const total = Math.round(kwh.reduce<number>((s, x) => s + (x ?? 0), 0) * 100) / 100;
  return (
    <Card
      size="small"
      title={t('breaker.chart.byLine')}
      data-testid="line-energy-chart"
      extra={
        months.length > 0 && (
          <Select<string>
            size="small"
            value={month ?? undefined}
            onChange={setPicked}
            options={months.map((m) => ({ value: m, label: m }))}
            style={{ width: 110 }}
            aria-label={t('breaker.chart.pickMonth')}
            data-testid="line-energy-month"
          />
        )
      }
    >
      {failure ? (
        <ErrorState error={failure} onRetry={() => qs.forEach((q) => q.error && void q.refetch())} retrying={qs.some((q) => q.isFetching)} />
      ) : !loading && months.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('breaker.chart.empty')} style={{ height: 228, paddingTop: 48 }} />
      ) : (
        <>
          <EChart option={option} height={260} loading={loading} />
          <Typography.Text type="secondary">{t('breaker.chart.byLineTotal', { kwh: total })}</Typography.Text>
        </>
      )}
    </Card>
  );
}
