import { App, Button, Space, Switch, Tag, Tooltip } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { type AlarmType, type BreakerLine, type CommandOutcome, type SelfCheckState } from '@faceadmin/shared';
import { useSelfCheck, useSwitchLine } from '../api.ts';
import { useConfirmPowerOff } from '../confirmPowerOff.ts';

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
 * the server with its message (shown by the API client). Switching off and the self-check ask first, naming the line
 * and the breaker (the line loses power; spec §9, issue #18); the self-check names its configured length.
 */
export function LineControls({
  line,
  breaker,
  selfCheckSeconds,
  canEdit,
  compact,
}: {
  line: BreakerLine;
  /** The breaker's name as the page shows it. */
  breaker: string;
  /** BREAKER_SELF_CHECK_SECONDS as the server answers it. */
  selfCheckSeconds: number;
  canEdit: boolean;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const confirmOff = useConfirmPowerOff();
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
  const onSwitch = (on: boolean) => {
    if (on) return void doSwitch(true);
    confirmOff({ kind: 'now', breaker, lines: [line.title || `#${line.addr}`] }, () => doSwitch(false));
  };
  const doCheck = () =>
    modal.confirm({
      title: t('breaker.selfCheck.confirmTitle', { line: line.title || `#${line.addr}`, breaker }),
      content: t('breaker.selfCheck.confirm', { count: selfCheckSeconds }),
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
          onChange={onSwitch}
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
