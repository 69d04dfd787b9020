import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { DormitoryBuilding, DormitoryPerson, DormitorySettingsView } from '@faceadmin/shared';
import { useLiveEvent } from '../../../lib/live.ts';
import { useSettings } from '../../../lib/settings.ts';
import { EChart } from '../../../ui/EChart.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { buildingDepartments } from '../logic.ts';

/** 'MM-DD HH:mm' in the company's zone (a not-back list spans two days). */
export const shortTime = (iso: string) => formatDateTime(iso).slice(5, 16);

/** A bar per building: inside, out and without a record, stacked. */
export function DormitoryChart(props: { buildings: readonly DormitoryBuilding[]; dark?: boolean; height: number; loading?: boolean }) {
  const { t } = useTranslation();
  const { themeColor } = useSettings();
  // Bars lie along, one under another, so that a building's name has the room of a column (a third of the chart's width)
  // to wrap between words; under bars standing side by side it had a slot's width, and long words were cut in two.
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const nameWidth = Math.max(80, Math.floor(width / 3));
  // Room for every name (two lines each) and the legend: the page's chart grows with the buildings; the board's has the
  // height of its panel, and when they do not all fit there ECharts leaves out names that would overlap.
  // the chart's type: large on the wall board, the console's size on the page
  const big = props.dark ? 18 : 12;
  const needed = props.buildings.length * Math.round(big * 2.8) + 90;
  const height = props.dark ? props.height : Math.max(props.height, needed);
  const every = needed <= height;
  const option = useMemo(() => {
    // ECharts takes an undefined colour for none at all: the light chart keeps its theme's text colour.
    const color = props.dark ? { color: '#e5e7eb' } : {};
    const names = props.buildings.map((b) => b.name);
    // a part's figure is written on it only when the part is tall enough to hold it (the tooltip has every figure)
    const tallest = Math.max(1, ...props.buildings.map((b) => b.inside + b.out + b.unknown));
    const series = (key: 'inside' | 'out' | 'unknown', color: string) => ({
      name: t(`watch.dorm.${key}`),
      type: 'bar',
      stack: 'people',
      barMaxWidth: 64,
      itemStyle: { color },
      label: {
        show: props.buildings.length <= 12,
        position: 'inside',
        color: '#fff',
        fontSize: big,
        formatter: (p: { value: number }) => (p.value && p.value >= tallest * 0.08 ? String(p.value) : ''),
      },
      labelLayout: { hideOverlap: true },
      data: props.buildings.map((b) => b[key]),
    });
    return {
      textStyle: { ...color, fontSize: big },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0, textStyle: { ...color, fontSize: big } },
      grid: { left: 16, right: 24, top: props.dark ? 44 : 32, bottom: 8, containLabel: true },
      xAxis: { type: 'value', minInterval: 1, axisLabel: { ...color, fontSize: big }, splitLine: { lineStyle: { color: props.dark ? '#1f2937' : '#f0f0f0' } } },
      yAxis: {
        type: 'category',
        data: names,
        // the first building on top, as in the lists beside
        inverse: true,
        axisLabel: { ...color, fontSize: big, interval: every ? 0 : 'auto', width: nameWidth, overflow: 'break', lineHeight: Math.round(big * 1.25) },
      },
      series: [series('inside', themeColor), series('out', '#fa8c16'), series('unknown', props.dark ? '#4b5563' : '#bfbfbf')],
    };
  }, [props.buildings, props.dark, big, themeColor, t, nameWidth, every]);
  return (
    <div ref={box}>
      <EChart option={option} height={height} loading={props.loading} data-testid="dorm-chart" />
    </div>
  );
}

export interface Return {
  id: number;
  name: string;
  department: string;
  device: string;
  time: string;
}

/**
 * The latest returns to the buildings as they happen: entrance punches of people in a building's departments,
 * from the live stream (nothing while it is down; the figures poll meanwhile).
 */
export function useLatestReturns(settings: DormitorySettingsView | undefined, buildingIds: readonly number[], max = 12): Return[] {
  const [items, setItems] = useState<Return[]>([]);
  const depts = useMemo(() => (settings ? buildingDepartments(settings.departments, buildingIds) : null), [settings, buildingIds]);
  useLiveEvent('punch', (p) => {
    if (p.stranger || p.person_id === null || p.direction === 'out') return;
    if (depts && !p.department_ids.some((d) => depts.has(d))) return;
    setItems((list) =>
      [{ id: p.id, name: p.name, department: p.department, device: p.device, time: p.time }, ...list.filter((x) => x.id !== p.id)].slice(0, max),
    );
  });
  return items;
}

/**
 * How many items the grid list fits whole, measured: its rows (the first item's height and the row gap into the
 * list's height) times its columns. `undefined` until measured, and when `enabled` is off (the list's height is its
 * content's, and measuring it would only count what is shown).
 */
function useGridCapacity(list: RefObject<HTMLUListElement | null>, enabled: boolean): number | undefined {
  const [capacity, setCapacity] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    const el = list.current;
    if (!el || !enabled) return;
    const measure = () => {
      const first = el.firstElementChild as HTMLElement | null;
      if (!first) return;
      const style = getComputedStyle(el);
      const gap = parseFloat(style.rowGap) || 0;
      const columns = Math.max(1, style.gridTemplateColumns.split(' ').filter(Boolean).length);
      const rows = Math.max(1, Math.floor((el.clientHeight + gap) / (first.getBoundingClientRect().height + gap)));
      setCapacity(rows * columns);
    };
    measure();
    // the list's box follows its panel, not its items: a resize of the screen is what changes it
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [list, enabled]);
  return enabled ? capacity : undefined;
}

/**
 * Names with a time, as many as fit the panel whole (measured: the columns follow the panel's width); when not all
 * do, the last place says how many more. With `limit` (a phone, where the page scrolls and the panel grows with its
 * list) that many places instead.
 */
export function NameList(props: { people: readonly DormitoryPerson[]; limit?: number; late?: boolean; testId: string; empty: string }) {
  const { t } = useTranslation();
  const list = useRef<HTMLUListElement>(null);
  // measured once the list is there (an empty one is a line of text, not the list)
  const measured = useGridCapacity(list, props.limit === undefined && props.people.length > 0);
  const capacity = props.limit ?? measured ?? props.people.length;
  const shown = props.people.length > capacity ? props.people.slice(0, Math.max(0, capacity - 1)) : props.people;
  if (!props.people.length) return <div className="fa-hist-sub">{props.empty}</div>;
  return (
    <ul className={props.limit === undefined ? 'fa-dorm-names fa-dorm-names-fit' : 'fa-dorm-names'} ref={list} data-testid={props.testId}>
      {shown.map((p) => (
        <li key={`${p.person_id}-${p.time}`}>
          {p.name}
          <span className="when">
            {shortTime(p.time).slice(6)}
            {props.late && p.late_min !== null ? ` +${p.late_min}′` : ''}
          </span>
        </li>
      ))}
      {props.people.length > shown.length && (
        <li className="when" data-testid={`${props.testId}-more`}>
          {t('watch.dorm.more', { n: props.people.length - shown.length })}
        </li>
      )}
    </ul>
  );
}
