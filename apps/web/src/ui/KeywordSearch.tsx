import { Input } from 'antd';
import { useState } from 'react';

interface Props {
  placeholder: string;
  width?: number;
  'data-testid'?: string;
  /** the trimmed keyword, or undefined when cleared */
  onSearch: (keyword: string | undefined) => void;
}

/** The search box of list pages: typing edits, Enter or the button searches (back to page 1 in the caller). */
export function KeywordSearch({ placeholder, width = 220, onSearch, ...rest }: Props) {
  const [text, setText] = useState('');
  return (
    <Input.Search
      allowClear
      placeholder={placeholder}
      style={{ width }}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onSearch={(keyword) => onSearch(keyword.trim() || undefined)}
      data-testid={rest['data-testid']}
    />
  );
}
