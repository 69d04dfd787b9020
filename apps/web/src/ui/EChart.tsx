import { useEffect, useMemo, useRef } from 'react';
import { theme as antdTheme } from 'antd';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';
import { useReducedMotion } from '../lib/motion.ts';

// Only the parts the console draws (line, bar and pie charts) are bundled, in the lazily loaded chunk of the pages that use them.
echarts.use([LineChart, BarChart, PieChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

/** What a click on a series item says (the part of ECharts' event the screens use). */
export interface ChartClick {
  seriesIndex?: number;
  seriesName?: string;
  dataIndex: number;
  name: string;
  data?: unknown;
}

interface Props {
  option: EChartsCoreOption;
  height?: number | string;
  loading?: boolean;
  /** the big screen's dark palette (text and axes light on a dark background) */
  dark?: boolean;
  onClick?: (e: ChartClick) => void;
  'data-testid'?: string;
}

/**
 * The console's chart theme: the series palette starts with the theme colour the settings drawer chose (antd's
 * colorPrimary), then antd's status colours; text, axes and split lines follow the light or dark surface.
 */
function chartTheme(token: ReturnType<typeof antdTheme.useToken>['token'], dark: boolean) {
  const text = dark ? 'rgba(255,255,255,0.85)' : token.colorText;
  const muted = dark ? 'rgba(255,255,255,0.55)' : token.colorTextSecondary;
  const line = dark ? 'rgba(255,255,255,0.15)' : token.colorBorderSecondary;
  const axis = {
    axisLine: { lineStyle: { color: line } },
    axisTick: { lineStyle: { color: line } },
    axisLabel: { color: muted },
    splitLine: { lineStyle: { color: line } },
  };
  return {
    color: [token.colorPrimary, token.colorSuccess, token.colorWarning, token.colorError, '#722ed1', '#13c2c2', '#eb2f96', '#8c8c8c'],
    backgroundColor: 'transparent',
    textStyle: { color: text },
    legend: { textStyle: { color: muted } },
    tooltip: dark ? { backgroundColor: 'rgba(10,20,40,0.9)', borderColor: line, textStyle: { color: text } } : {},
    categoryAxis: axis,
    valueAxis: axis,
  };
}

/** An ECharts chart that follows its container's size (a narrow phone, a folded sidebar, a big screen's panel), its option and the console's theme colour. */
export function EChart({ option, height = 300, loading, dark = false, onClick, ...rest }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.EChartsType | null>(null);
  const click = useRef(onClick);
  const { token } = antdTheme.useToken();
  const themed = useMemo(() => chartTheme(token, dark), [token, dark]);
  const reducedMotion = useReducedMotion();

  useEffect(() => {
    click.current = onClick;
  });

  // A new theme (another theme colour, dark or light) needs a new instance: ECharts applies a theme at init.
  useEffect(() => {
    if (!el.current) return;
    const c = echarts.init(el.current, themed);
    chart.current = c;
    c.on('click', (e) => click.current?.(e as unknown as ChartClick));
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, [themed]);

  // with "reduce motion" set, a chart is drawn at once instead of growing into place (and a live chart's every update)
  useEffect(() => {
    chart.current?.setOption(reducedMotion ? { ...option, animation: false } : option, { notMerge: true });
  }, [option, themed, reducedMotion]);

  useEffect(() => {
    if (loading) chart.current?.showLoading('default', { text: '', maskColor: dark ? 'rgba(0,0,0,0.3)' : 'rgba(255,255,255,0.8)' });
    else chart.current?.hideLoading();
  }, [loading, themed, dark]);

  return <div ref={el} style={{ width: '100%', height, cursor: onClick ? 'pointer' : undefined }} data-testid={rest['data-testid']} />;
}
