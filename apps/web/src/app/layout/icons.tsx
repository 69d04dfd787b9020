import type { ReactNode } from 'react';
import {
  ApartmentOutlined,
  AuditOutlined,
  BankOutlined,
  DashboardOutlined,
  IdcardOutlined,
  MailOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { IconKey } from '../routes/routeTable.ts';

export const ROUTE_ICONS: Record<IconKey, ReactNode> = {
  dashboard: <DashboardOutlined />,
  system: <SettingOutlined />,
  log: <AuditOutlined />,
  manager: <TeamOutlined />,
  company: <BankOutlined />,
  message: <MailOutlined />,
  user: <UserOutlined />,
  organization: <ApartmentOutlined />,
  personList: <IdcardOutlined />,
};
