import { Select } from 'antd';
import type { ListFilter } from '../../../ui/ListPage.tsx';
import { useDeviceNames } from '../api.ts';

/** A list's "which device" filter: the company's devices by name, searchable, clearable; named by `aria-label`, else by its placeholder. */
export function DeviceFilter(props: { placeholder: string; 'aria-label'?: string; onChange: (deviceId: number | undefined) => void; testId: string }) {
  const devices = useDeviceNames();
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={props.placeholder}
      aria-label={props['aria-label'] ?? props.placeholder}
      style={{ width: 200 }}
      options={(devices.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
      onChange={(deviceId?: number) => props.onChange(deviceId)}
      data-testid={props.testId}
    />
  );
}

/** DeviceFilter as a ListPage filter of a list read by `device_id` (punches, health, alcohol, strangers). */
export function deviceFilter<F extends { device_id?: number }>(placeholder: string, testId: string): ListFilter<F> {
  return {
    kind: 'custom',
    testId,
    render: (set) => <DeviceFilter placeholder={placeholder} onChange={(device_id) => set({ device_id } as Partial<F>)} testId={testId} />,
  };
}
