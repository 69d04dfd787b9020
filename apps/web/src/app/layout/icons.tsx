import type { ReactNode } from 'react';
import { AuditOutlined, BankOutlined, DashboardOutlined, MailOutlined, SettingOutlined, TeamOutlined } from '@ant-design/icons';
import type { IconKey } from '../routes/routeTable.ts';

export const ROUTE_ICONS: Record<IconKey, ReactNode> = {
  dashboard: <DashboardOutlined />,
  system: <SettingOutlined />,
  log: <AuditOutlined />,
  manager: <TeamOutlined />,
  company: <BankOutlined />,
  message: <MailOutlined />,
};
