import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';

// Only the parts the console draws (line and bar charts) are bundled, in the lazily loaded chunk of the pages that use them.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

interface Props {
  option: EChartsCoreOption;
  height?: number;
  loading?: boolean;
  'data-testid'?: string;
}

/** An ECharts chart that follows its container's width (a narrow phone, a folded sidebar) and its option. */
export function EChart({ option, height = 300, loading, ...rest }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.EChartsType | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const c = echarts.init(el.current);
    chart.current = c;
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  useEffect(() => {
    if (loading) chart.current?.showLoading('default', { text: '' });
    else chart.current?.hideLoading();
  }, [loading]);

  return <div ref={el} style={{ width: '100%', height }} data-testid={rest['data-testid']} />;
}
