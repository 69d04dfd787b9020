import { TreeSelect, type TreeSelectProps } from 'antd';
import { useOrgOptions } from '../api.ts';

type Props = Omit<TreeSelectProps, 'treeData' | 'fieldNames'> & { 'data-testid'?: string };

/** Department picker over GET /person/personOrgOptions: searchable by name, fully expanded; other props (form value, multiple…) pass through. */
export function DepartmentSelect(props: Props) {
  const options = useOrgOptions();
  return (
    <TreeSelect
      showSearch={{ treeNodeFilterProp: 'label' }}
      treeDefaultExpandAll
      {...props}
      treeData={options.data ?? []}
      fieldNames={{ label: 'label', value: 'value', children: 'children' }}
    />
  );
}
