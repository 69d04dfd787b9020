import {
  AppstoreOutlined,
  CalendarOutlined,
  CarOutlined,
  ClockCircleOutlined,
  CoffeeOutlined,
  FileTextOutlined,
  GiftOutlined,
  MoneyCollectOutlined,
  ScheduleOutlined,
  SendOutlined,
  ToolOutlined,
} from '@ant-design/icons';

/** The pictures of the app icons the contract names (WORKFLOW_ICONS). */
const ICONS: Record<string, React.ComponentType<{ style?: React.CSSProperties }>> = {
  leave: CalendarOutlined,
  trip: SendOutlined,
  overtime: ClockCircleOutlined,
  supplement: ScheduleOutlined,
  document: FileTextOutlined,
  money: MoneyCollectOutlined,
  car: CarOutlined,
  meal: CoffeeOutlined,
  gift: GiftOutlined,
  tool: ToolOutlined,
  other: AppstoreOutlined,
};
const COLORS: Record<string, string> = {
  leave: '#1677ff',
  trip: '#13a8a8',
  overtime: '#fa8c16',
  supplement: '#722ed1',
  document: '#2f54eb',
  money: '#d4380d',
  car: '#08979c',
  meal: '#d48806',
  gift: '#c41d7f',
  tool: '#595959',
  other: '#389e0d',
};

export function AppIcon({ icon, size = 32 }: { icon: string; size?: number }) {
  const Icon = ICONS[icon] ?? AppstoreOutlined;
  return (
    <span
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: size,
        height: size,
        borderRadius: size / 4,
        background: COLORS[icon] ?? '#389e0d',
        color: '#fff',
        fontSize: size * 0.55,
        flex: 'none',
      }}
    >
      <Icon />
    </span>
  );
}
