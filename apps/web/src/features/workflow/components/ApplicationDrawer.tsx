import { useState } from 'react';
import { Alert, App, Button, Descriptions, Divider, Drawer, Input, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { WORKFLOW_LIMITS } from '@faceadmin/shared';
import { useLanguage } from '../../../lib/i18n.ts';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { PageLoading } from '../../../ui/PageLoading.tsx';
import { useApplication, useDecide, useWithdraw, workflowFileUrl } from '../api.ts';
import { StatusTag, TimelineView, ValuesView } from './Timeline.tsx';
import { LeaveBalanceNote } from '../../leave/components/LeaveBalanceNote.tsx';

/** An application's detail: the form values, the timeline, and the administrator's decision or withdrawal. */
export function ApplicationDrawer({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const lang = useLanguage();
  const detail = useApplication(id);
  const decide = useDecide();
  const withdraw = useWithdraw();
  const [rejecting, setRejecting] = useState(false);
  const [comment, setComment] = useState('');
  const d = detail.data;

  const approve = () => {
    if (!d?.current) return;
    decide.mutate(
      { id: d.id, step_id: d.current.step_id, decision: 'approve', comment },
      {
        onSuccess: () => {
          setComment('');
          void message.success(t('workflow.records.approved'));
        },
      },
    );
  };
  const reject = () => {
    if (!d?.current || !comment.trim()) return;
    decide.mutate(
      { id: d.id, step_id: d.current.step_id, decision: 'reject', comment: comment.trim() },
      {
        onSuccess: () => {
          setRejecting(false);
          setComment('');
          void message.success(t('workflow.records.rejected'));
        },
      },
    );
  };

  return (
    <Drawer open={id !== undefined} onClose={onClose} size={560} title={d ? `${d.app.name} · ${d.order_no}` : t('workflow.records.detail')} destroyOnHidden>
      {detail.isLoading && <PageLoading />}
      {detail.error && <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />}
      {d && (
        <div data-testid="application-detail">
          <Descriptions column={1} size="small">
            <Descriptions.Item label={t('workflow.records.status')}>
              <StatusTag status={d.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('workflow.records.applicant')}>
              {d.applicant.name} ({d.applicant.number}) {d.departments.map((x) => x.name).join(', ')}
            </Descriptions.Item>
            <Descriptions.Item label={t('workflow.records.created')}>{formatDateTime(d.created_at)}</Descriptions.Item>
            <Descriptions.Item label={t('workflow.records.source')}>{t(`workflow.source.${d.source}`)}</Descriptions.Item>
            <Descriptions.Item label={t('workflow.records.formVersion')}>{d.form_version}</Descriptions.Item>
            {d.current && (
              <Descriptions.Item label={t('workflow.records.current')}>
                {d.current.node_name}: {d.current.approvers.map((a) => a.name).join(', ')}
              </Descriptions.Item>
            )}
          </Descriptions>
          <Divider titlePlacement="start">{t('workflow.records.values')}</Divider>
          <ValuesView detail={d} lang={lang} fileUrl={workflowFileUrl} />
          <LeaveBalanceNote balance={d.leave_balance} waiting={d.status === 0} />
          {d.absences.length > 0 && (
            <Alert
              style={{ marginTop: 12 }}
              type="success"
              showIcon
              title={t('workflow.records.inAttendance', { count: d.absences.length })}
              data-testid="application-absences"
            />
          )}
          <Divider titlePlacement="start">{t('workflow.records.timeline')}</Divider>
          <TimelineView detail={d} />
          {(d.can_decide || d.can_withdraw) && <Divider />}
          {d.can_decide && d.current && (
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Input.TextArea
                rows={2}
                value={comment}
                maxLength={WORKFLOW_LIMITS.commentMax}
                onChange={(e) => setComment(e.target.value)}
                placeholder={t('workflow.records.commentPlaceholder')}
                data-testid="decide-comment"
              />
              <Space>
                <Button type="primary" loading={decide.isPending} onClick={approve} data-testid="decide-approve">
                  {t('workflow.records.approve')}
                </Button>
                <Button danger onClick={() => setRejecting(true)} data-testid="decide-reject">
                  {t('workflow.records.reject')}
                </Button>
              </Space>
            </Space>
          )}
          {d.can_withdraw && (
            <Button
              style={{ marginTop: 8 }}
              loading={withdraw.isPending}
              onClick={() =>
                modal.confirm({
                  title: d.status === 1 ? t('workflow.records.cancelConfirm') : t('workflow.records.withdrawConfirm'),
                  onOk: () => withdraw.mutateAsync({ id: d.id }),
                })
              }
              data-testid="application-withdraw"
            >
              {d.status === 1 ? t('workflow.records.cancel') : t('workflow.records.withdraw')}
            </Button>
          )}
          <Modal
            open={rejecting}
            title={t('workflow.records.rejectTitle')}
            onCancel={() => setRejecting(false)}
            onOk={reject}
            okButtonProps={{ danger: true, disabled: !comment.trim(), loading: decide.isPending }}
          >
            <Typography.Paragraph type="secondary">{t('workflow.records.reasonRequired')}</Typography.Paragraph>
            <Input.TextArea
              rows={3}
              value={comment}
              maxLength={WORKFLOW_LIMITS.commentMax}
              onChange={(e) => setComment(e.target.value)}
              data-testid="reject-reason"
            />
          </Modal>
        </div>
      )}
    </Drawer>
  );
}
