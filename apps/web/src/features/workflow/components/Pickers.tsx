import { useEffect, useMemo, useState } from 'react';
import { Select, Spin, TreeSelect, type TreeSelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PickPerson } from '@faceadmin/shared';

/**
 * People and departments for the approvals' designers and forms (issue #11). An administrator with only the
 * workflow right has no people right, so these read the workflow's own lists (GET /workflow/people and
 * /workflow/departments; on the self-service page /self/people and /self/departments): the caller passes the fetchers.
 */
export interface PickSource {
  /** a cache key prefix: 'workflow' (console) or 'self' */
  scope: string;
  people: (q: { keyword?: string; page: number; pageSize: number }) => Promise<{ items: PickPerson[]; total: number }>;
  departments: () => Promise<{ items: { id: number; name: string; parent_id: number }[] }>;
}

interface PersonProps {
  source: PickSource;
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** people already chosen, so their names show before any search */
  initial: { id: number; name: string }[];
  /** one person only (the value stays an array of at most one id) */
  single?: boolean;
  /** a Form.Item's, so its label names the box */
  id?: string;
  /** the box's accessible name: by default the label its `id` ties to, else the placeholder */
  'aria-label'?: string;
  'data-testid'?: string;
}

/** People by name or number, searched on the server as one types. */
export function PersonPick({ source, value, onChange, initial, single, id, ...rest }: PersonProps) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [debounced, setDebounced] = useState<string>();
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(keyword.trim()), 300);
    return () => clearTimeout(timer);
  }, [keyword]);
  const search = useQuery({
    queryKey: [source.scope, 'pickPeople', debounced ?? ''],
    queryFn: () => source.people({ keyword: debounced || undefined, page: 1, pageSize: 20 }),
    enabled: debounced !== undefined,
    placeholderData: keepPreviousData,
  });
  const known = new Map<number, { value: number; label: string }>(initial.map((p) => [p.id, { value: p.id, label: p.name }]));
  for (const p of search.data?.items ?? []) known.set(p.id, { value: p.id, label: `${p.name} (${p.number})` });
  const placeholder = t('workflow.pick.person');
  return (
    <Select
      id={id}
      mode={single ? undefined : 'multiple'}
      value={single ? value?.[0] : (value ?? [])}
      onChange={(v: number | number[] | undefined) => onChange?.(Array.isArray(v) ? v : v === undefined ? [] : [v])}
      allowClear={single}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      options={[...known.values()]}
      notFoundContent={search.isFetching ? <Spin size="small" /> : t('common.noData')}
      placeholder={placeholder}
      aria-label={rest['aria-label'] ?? (id ? undefined : placeholder)}
      style={{ width: '100%' }}
      data-testid={rest['data-testid'] ?? 'person-pick'}
    />
  );
}

/** Every department as a tree (built from the flat list with parent ids). */
export function useDepartmentTree(source: PickSource) {
  const list = useQuery({ queryKey: [source.scope, 'pickDepartments'], queryFn: source.departments, staleTime: 30_000 });
  return useMemo(() => {
    type Node = { value: number; title: string; children: Node[] };
    const items = list.data?.items ?? [];
    const byId = new Map<number, Node>(items.map((d) => [d.id, { value: d.id, title: d.name, children: [] }]));
    const roots: Node[] = [];
    for (const d of items) {
      const node = byId.get(d.id)!;
      const parent = byId.get(d.parent_id);
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    return { tree: roots, names: new Map(items.map((d) => [d.id, d.name])) };
  }, [list.data]);
}

type DepartmentProps = Omit<TreeSelectProps, 'treeData'> & { source: PickSource; 'data-testid'?: string };

/**
 * A department picker (searchable, expanded); other props (value, multiple …) pass through.
 * Its accessible name is `aria-label`, else the label an `id` ties to it (a Form.Item's), else its placeholder.
 */
export function DepartmentPick({ source, ...props }: DepartmentProps) {
  const { t } = useTranslation();
  const { tree } = useDepartmentTree(source);
  const placeholder = props.placeholder ?? t('workflow.pick.department');
  const named = props.id !== undefined || props['aria-labelledby'] !== undefined;
  return (
    <TreeSelect
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      style={{ width: '100%' }}
      {...props}
      placeholder={placeholder}
      aria-label={props['aria-label'] ?? (named || typeof placeholder !== 'string' ? undefined : placeholder)}
      treeData={tree}
    />
  );
}
