import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePersonPicker } from '../../persons/api.ts';

interface Props {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** people already chosen, so their names show before any search */
  initial: { id: number; name: string }[];
  id?: string;
}

/** The people a rule names directly: multi-select with a server-side search (name / number) of the working people. */
export function MemberPicker({ value, onChange, initial, id }: Props) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [debounced, setDebounced] = useState<string>();
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(keyword.trim()), 300);
    return () => clearTimeout(timer);
  }, [keyword]);
  const search = usePersonPicker(debounced);
  const known = new Map<number, { value: number; label: string }>(initial.map((p) => [p.id, { value: p.id, label: p.name }]));
  for (const p of search.data ?? []) known.set(p.id, { value: p.id, label: `${p.name} (${p.number})` });
  return (
    <Select
      id={id}
      mode="multiple"
      value={value ?? []}
      onChange={onChange}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      options={[...known.values()]}
      notFoundContent={search.isFetching ? <Spin size="small" /> : t('common.noData')}
      placeholder={t('att.rule.peoplePlaceholder')}
      style={{ width: '100%' }}
      data-testid="rule-people"
    />
  );
}
