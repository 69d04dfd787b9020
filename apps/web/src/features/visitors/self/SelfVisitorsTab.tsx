import { useState } from 'react';
import { Alert, Button, Card, Empty, List, Popconfirm, Space, Spin, Typography } from 'antd';
import { LeftOutlined, UserAddOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { selfVisitorsApi, type Visitor } from '@faceadmin/shared';
import { formatDateTime } from '../../../ui/format.ts';
import { selfCall } from '../../workflow/self/selfClient.ts';
import { InviteForm } from '../components/InviteForm.tsx';
import { VisitorStateTag } from '../components/VisitorState.tsx';

/**
 * The self-service page's visitors (#19), on a phone: an employee invites a visitor to the doors that allow
 * visitors, passes on the one-time link (or it goes by SMS), follows their invitations and cancels them.
 */
export function SelfVisitorsTab({ zone }: { zone: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [inviting, setInviting] = useState(false);
  const list = useQuery({ queryKey: ['self', 'visitors'], queryFn: () => selfCall(selfVisitorsApi.list, { pageSize: 50 }), refetchInterval: 15_000 });
  const doors = useQuery({ queryKey: ['self', 'visitor-doors'], queryFn: () => selfCall(selfVisitorsApi.doors), enabled: inviting });
  const cancel = useMutation({
    mutationFn: (id: number) => selfCall(selfVisitorsApi.cancel, { id }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['self', 'visitors'] }),
  });

  if (inviting)
    return (
      <Card
        title={
          <Space>
            <Button type="text" icon={<LeftOutlined />} onClick={() => setInviting(false)} aria-label={t('workflow.self.back')} data-testid="visitor-back" />
            {t('visitor.invite')}
          </Space>
        }
        data-testid="self-visitor-form"
      >
        <InviteForm
          doors={doors.data?.items}
          zone={zone}
          submit={(v) => selfCall(selfVisitorsApi.invite, v)}
          onInvited={() => void qc.invalidateQueries({ queryKey: ['self', 'visitors'] })}
        />
      </Card>
    );
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="self-visitors">
      <Button type="primary" block size="large" icon={<UserAddOutlined />} onClick={() => setInviting(true)} data-testid="self-visitor-invite">
        {t('visitor.invite')}
      </Button>
      {list.error && <Alert type="error" title={list.error.message} />}
      {list.isLoading ? (
        <Spin style={{ display: 'block', marginTop: 40 }} />
      ) : list.data?.items.length ? (
        <List
          dataSource={list.data.items}
          renderItem={(v: Visitor) => (
            <Card size="small" style={{ marginBottom: 8 }} data-testid="self-visitor">
              <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
                <div>
                  <Typography.Text strong>{v.name}</Typography.Text> <VisitorStateTag v={v} />
                  <div style={{ fontSize: 12, color: '#595959' }}>
                    {formatDateTime(v.starts_at).slice(0, 16)} – {formatDateTime(v.ends_at).slice(5, 16)}
                  </div>
                  <div style={{ fontSize: 12, color: '#595959' }}>{v.doors.map((d) => d.name).join(', ')}</div>
                  {v.arrived_at && (
                    <div style={{ fontSize: 12, color: '#389e0d' }} data-testid="self-visitor-arrived">
                      {t('visitor.arrivedAt', { time: formatDateTime(v.arrived_at).slice(0, 16) })}
                    </div>
                  )}
                </div>
                {(v.state === 'invited' || v.state === 'active') && (
                  <Popconfirm title={t('visitor.cancelConfirm', { name: v.name })} onConfirm={() => cancel.mutateAsync(v.id)}>
                    <Button size="small" danger data-testid="self-visitor-cancel">
                      {t('visitor.cancel')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            </Card>
          )}
        />
      ) : (
        <Empty description={t('visitor.none')} />
      )}
    </Space>
  );
}
