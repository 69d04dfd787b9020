import { Descriptions, Image, Space, Tag, Timeline as AntTimeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ApplicationDetail, Language } from '@faceadmin/shared';
import { formatDateTime } from '../../../ui/format.ts';
import { valueText } from '../schema.ts';
import { textOf } from '../schema.ts';

const STATE_COLOR: Record<string, string> = {
  submitted: 'blue',
  pending: 'gold',
  approved: 'green',
  rejected: 'red',
  skipped: 'default',
  cc: 'cyan',
  withdrawn: 'default',
  cancelled: 'default',
  imported: 'purple',
};
const STATUS_COLOR: Record<number, string> = { 0: 'gold', 1: 'green', [-1]: 'red', [-2]: 'default' };

/** spec §4: 0 pending, 1 approved, -1 rejected (and -2 withdrawn / cancelled). */
export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status] ?? 'default'} data-testid="status-tag">
      {t(`workflow.status.${status}`)}
    </Tag>
  );
}

/** The form values of an application as label: value lines. */
export function ValuesView({ detail, lang, fileUrl }: { detail: ApplicationDetail; lang: Language; fileUrl?: (name: string) => string }) {
  return (
    <Descriptions column={1} size="small" bordered data-testid="application-values">
      {detail.form.fields
        .filter((f) => f.type !== 'description')
        .map((f) => (
          <Descriptions.Item key={f.key} label={textOf(f.label, lang, f.key)}>
            {(f.type === 'picture' || f.type === 'attachment') && fileUrl && Array.isArray(detail.values[f.key]) ? (
              <Space wrap data-testid={`value-${f.key}`}>
                {(detail.values[f.key] as string[]).map((name) =>
                  f.type === 'picture' ? (
                    <Image key={name} src={fileUrl(name)} width={72} height={72} style={{ objectFit: 'cover' }} />
                  ) : (
                    <a key={name} href={fileUrl(name)} download>
                      {name}
                    </a>
                  ),
                )}
              </Space>
            ) : (
              <span data-testid={`value-${f.key}`}>{valueText(f, detail.values[f.key], lang, { dateTime: (iso) => formatDateTime(iso) })}</span>
            )}
            {f.type === 'daterange' && f.key === 'period' && detail.duration && (
              <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                ({detail.duration.days} / {detail.duration.hours} h)
              </Typography.Text>
            )}
          </Descriptions.Item>
        ))}
    </Descriptions>
  );
}

/** Every step: who, when, the decision and the comment. */
export function TimelineView({ detail }: { detail: ApplicationDetail }) {
  const { t } = useTranslation();
  return (
    <AntTimeline
      data-testid="application-timeline"
      items={detail.timeline.map((e, i) => ({
        key: i,
        color: STATE_COLOR[e.state] === 'default' ? 'gray' : (STATE_COLOR[e.state] ?? 'gray'),
        content: (
          <div data-testid="timeline-entry">
            <div>
              {/* a node without a name is reported by its id: call it by its kind */}
              <strong>
                {e.node_id && e.node_name === e.node_id ? t(e.state === 'cc' ? 'workflow.flow.nodeTitle.cc' : 'workflow.flow.nodeTitle.approver') : e.node_name}
              </strong>{' '}
              <Tag color={STATE_COLOR[e.state]}>{t(`workflow.steps.${e.state}`)}</Tag>
              {e.mode && e.actors.length > 1 && <Typography.Text type="secondary">{t(`workflow.flow.modes.${e.mode}`)}</Typography.Text>}
            </div>
            {e.actors.map((a, j) => (
              <div key={j} style={{ fontSize: 13 }}>
                {a.name} · {t(`workflow.steps.${a.state}`)}
                {a.decided_at && <Typography.Text type="secondary"> · {formatDateTime(a.decided_at)}</Typography.Text>}
                {a.comment && <div style={{ color: '#595959' }}>“{a.comment}”</div>}
              </div>
            ))}
            {e.comment && <div style={{ color: '#595959' }}>“{e.comment}”</div>}
            {!e.actors.some((a) => a.decided_at) && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {formatDateTime(e.at)}
              </Typography.Text>
            )}
          </div>
        ),
      }))}
    />
  );
}
