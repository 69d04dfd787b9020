import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePersonSearch } from '../api.ts';

interface Option {
  value: number;
  label: string;
}

interface Props {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** people already chosen, so their names show before any search */
  initial: { id: number; name: string }[];
  /** a Form.Item's, so its label names the box */
  id?: string;
  placeholder?: string;
  /** the box's accessible name: by default the label its `id` ties to, else the placeholder */
  'aria-label'?: string;
}

/** Multi-select of people with a server-side search (name / number / phone). */
export function PersonPicker({ value, onChange, initial, id, placeholder, 'aria-label': ariaLabel }: Props) {
  const { t } = useTranslation();
  const hint = placeholder ?? t('org.headsPlaceholder');
  const [keyword, setKeyword] = useState('');
  // the search waits until typing pauses for 300 ms (the first one too); undefined = not searched yet
  const [debounced, setDebounced] = useState<string>();
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(keyword.trim()), 300);
    return () => clearTimeout(timer);
  }, [keyword]);
  const search = usePersonSearch(debounced);
  const found: Option[] = (search.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.number})` }));

  const known = new Map<number, Option>(initial.map((p) => [p.id, { value: p.id, label: p.name }]));
  for (const o of found) known.set(o.value, o);

  return (
    <Select
      id={id}
      mode="multiple"
      value={value ?? []}
      onChange={onChange}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      options={[...known.values()]}
      notFoundContent={search.isFetching ? <Spin size="small" /> : t('common.noData')}
      placeholder={hint}
      aria-label={ariaLabel ?? (id ? undefined : hint)}
      style={{ width: '100%' }}
      data-testid="heads-picker"
    />
  );
}
