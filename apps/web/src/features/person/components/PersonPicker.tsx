import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { searchPersons } from '../api.ts';

interface Option {
  value: number;
  label: string;
}

interface Props {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** people already chosen, so their names show before any search */
  initial: { id: number; name: string }[];
}

/** Multi-select of people with a server-side search (name / number / phone). */
export function PersonPicker({ value, onChange, initial }: Props) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [loading, setLoading] = useState(false);
  const [found, setFound] = useState<Option[]>([]);

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      setLoading(true);
      searchPersons(keyword.trim())
        .then((page) => {
          if (live) setFound(page.items.map((p) => ({ value: p.id, label: `${p.name} (${p.number})` })));
        })
        .catch(() => undefined)
        .finally(() => live && setLoading(false));
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [keyword]);

  const known = new Map<number, Option>(initial.map((p) => [p.id, { value: p.id, label: p.name }]));
  for (const o of found) known.set(o.value, o);

  return (
    <Select
      mode="multiple"
      value={value ?? []}
      onChange={onChange}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      options={[...known.values()]}
      notFoundContent={loading ? <Spin size="small" /> : t('common.noData')}
      placeholder={t('org.headsPlaceholder')}
      style={{ width: '100%' }}
      data-testid="heads-picker"
    />
  );
}
