import type { ReactNode } from 'react';
import {
  ApartmentOutlined,
  AuditOutlined,
  BankOutlined,
  CameraOutlined,
  CalendarOutlined,
  CarryOutOutlined,
  ScheduleOutlined,
  ProfileOutlined,
  ClockCircleOutlined,
  DashboardOutlined,
  DesktopOutlined,
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
  device: <CameraOutlined />,
  deviceList: <DesktopOutlined />,
  attendance: <CarryOutOutlined />,
  punchList: <ClockCircleOutlined />,
  attendanceRule: <ScheduleOutlined />,
  attendanceHoliday: <CalendarOutlined />,
  attendanceResult: <ProfileOutlined />,
};
