import { TreeSelect, type TreeSelectProps } from 'antd';
import type { ListFilter } from '../../../ui/ListPage.tsx';
import { useOrgOptions } from '../api.ts';

type Props = Omit<TreeSelectProps, 'treeData' | 'fieldNames'> & { 'data-testid'?: string };

/**
 * Department picker over GET /person/personOrgOptions: searchable by name, fully expanded; other props (form value, multiple…) pass through.
 * Its accessible name is `aria-label`, else the label an `id` ties to it (a Form.Item's), else its placeholder (antd's placeholder is no name).
 */
export function DepartmentSelect(props: Props) {
  const options = useOrgOptions();
  const named = props.id !== undefined || props['aria-labelledby'] !== undefined;
  return (
    <TreeSelect
      showSearch={{ treeNodeFilterProp: 'label' }}
      treeDefaultExpandAll
      {...props}
      aria-label={props['aria-label'] ?? (named || typeof props.placeholder !== 'string' ? undefined : props.placeholder)}
      treeData={options.data ?? []}
      fieldNames={{ label: 'label', value: 'value', children: 'children' }}
    />
  );
}

/** DepartmentSelect as a ListPage filter of a list read by `department_id` (day results, leave balances). */
export function departmentFilter<F extends { department_id?: number }>(placeholder: string, testId: string): ListFilter<F> {
  return {
    kind: 'custom',
    testId,
    render: (set) => (
      <DepartmentSelect
        allowClear
        placeholder={placeholder}
        style={{ width: 200 }}
        onChange={(department_id?: number) => set({ department_id } as Partial<F>)}
        data-testid={testId}
      />
    ),
  };
}
