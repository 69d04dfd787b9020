import type { ReactNode } from 'react';
import { Button, Space } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';

/**
 * A page's title with the arrow back to the page it belongs under (a terminal's users under the terminals). The arrow is
 * an icon button named by `back`; a long title wraps on a phone instead of pushing the card wider.
 */
export function BackTitle({ to, back, children }: { to: string; back: string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <Space>
      <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => void navigate(to)} aria-label={back} />
      <span style={{ whiteSpace: 'normal' }}>{children}</span>
    </Space>
  );
}
