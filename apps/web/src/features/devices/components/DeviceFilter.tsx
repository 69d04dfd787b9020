import { Select } from 'antd';
import { useDeviceNames } from '../api.ts';

/** A list's "which device" filter: the company's devices by name, searchable, clearable. */
export function DeviceFilter(props: { placeholder: string; onChange: (deviceId: number | undefined) => void; testId: string }) {
  const devices = useDeviceNames();
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={props.placeholder}
      style={{ width: 200 }}
      options={(devices.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
      onChange={(deviceId?: number) => props.onChange(deviceId)}
      data-testid={props.testId}
    />
  );
}
