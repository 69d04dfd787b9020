import { App, Button, Space, Switch, Tag, Tooltip } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BREAKER_LIMITS, type AlarmType, type BreakerLine, type CommandOutcome, type SelfCheckState } from '@faceadmin/shared';
import { useSelfCheck, useSwitchLine } from '../api.ts';

/** The active alarm of a line (or "normal"). */
export function AlarmTag({ alarm }: { alarm: AlarmType | null }) {
  const { t } = useTranslation();
  return alarm ? (
    <Tag color="red" data-testid="line-alarm" data-alarm={alarm}>
      {t(`breaker.alarmTypes.${alarm}`)}
    </Tag>
  ) : (
    <Tag color="green" data-testid="line-alarm" data-alarm="">
      {t('breaker.alarmNone')}
    </Tag>
  );
}

const SELF_CHECK_COLOR: Record<SelfCheckState, string | undefined> = { idle: undefined, running: 'processing', passed: 'success', failed: 'error' };

export function SelfCheckTag({ state }: { state: SelfCheckState }) {
  const { t } = useTranslation();
  if (state === 'idle') return null;
  return (
    <Tag color={SELF_CHECK_COLOR[state]} data-testid="line-selfcheck" data-state={state}>
      {t(`breaker.selfCheck.${state}`)}
    </Tag>
  );
}

/** Shows the breaker's answer to a command: confirmed, refused (with its reason) or no answer in time. */
export function useShowOutcome() {
  const { message } = App.useApp();
  return (r: CommandOutcome) => {
    if (r.outcome === 'success') void message.success(r.message);
    else if (r.outcome === 'failure') void message.error(r.message);
    else void message.warning(r.message);
  };
}

/**
 * A line's switch and self-check. The switch waits for the breaker's confirmation; an offline breaker is refused by
 * the server with its message (shown by the API client). The self-check asks first: spec §9, the line loses power.
 */
export function LineControls({ line, canEdit, compact }: { line: BreakerLine; canEdit: boolean; compact?: boolean }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const toggle = useSwitchLine();
  const check = useSelfCheck();
  const show = useShowOutcome();
  const switching = toggle.isPending && toggle.variables?.id === line.id;
  const checking = check.isPending && check.variables === line.id;

  const doSwitch = async (on: boolean) => {
    try {
      show(await toggle.mutateAsync({ id: line.id, oc: on ? 1 : 0 }));
    } catch {
      // refused (offline, no authority): the API client showed the server's message
    }
  };
  const doCheck = () =>
    modal.confirm({
      title: t('breaker.selfCheck.confirmTitle', { line: line.title }),
      content: t('breaker.selfCheck.confirm', { seconds: BREAKER_LIMITS.selfCheckSeconds }),
      okText: t('breaker.selfCheck.start'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'selfcheck-ok' } as Record<string, string>) },
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        try {
          show(await check.mutateAsync(line.id));
        } catch {
          // shown by the API client
        }
      },
    });

  return (
    <Space size={8} wrap>
      <Tooltip title={line.online ? undefined : t('breaker.offlineHint')}>
        <Switch
          checked={line.oc === 1}
          loading={switching}
          disabled={!canEdit || line.selfcheck === 'running'}
          checkedChildren={t('breaker.switch.on')}
          unCheckedChildren={t('breaker.switch.off')}
          onChange={(on) => void doSwitch(on)}
          data-testid="line-switch"
          data-oc={String(line.oc)}
        />
      </Tooltip>
      {canEdit && (
        <Button
          size="small"
          icon={<SafetyOutlined />}
          loading={checking}
          disabled={line.selfcheck === 'running'}
          onClick={doCheck}
          data-testid="line-selfcheck-run"
        >
          {compact ? null : t('breaker.selfCheck.run')}
        </Button>
      )}
    </Space>
  );
}
