import { Button, Card, Space, Tag, type TableProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CompanyListItem } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { useCompanyList, useSwitchCompany } from '../api.ts';

/** The administrator's companies; the current one is marked and the others can be switched to. */
export default function CompanyListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useCompanyList();
  const switchCompany = useSwitchCompany();

  const columns: TableProps<CompanyListItem>['columns'] = [
    {
      title: t('company.fields.name'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <Space>
          {name}
          {row.current && <Tag color="success">{t('company.current')}</Tag>}
        </Space>
      ),
    },
    { title: t('company.fields.phone'), dataIndex: 'phone' },
    { title: t('company.fields.address'), dataIndex: 'address', ellipsis: true },
    {
      title: t('company.fields.role'),
      dataIndex: 'role',
      render: (role: CompanyListItem['role'], row) => (
        <Space>
          <Tag color={role === 'main' ? 'blue' : 'default'}>{t(`manager.roles.${role}`)}</Tag>
          {row.is_init ? <Tag color="gold">{t('company.initAdmin')}</Tag> : null}
        </Space>
      ),
    },
    {
      title: t('common.actions.title'),
      key: 'actions',
      render: (_, row) =>
        row.current ? (
          <Button size="small" onClick={() => void navigate('/company/update')}>
            {t('company.edit')}
          </Button>
        ) : (
          <Button
            size="small"
            type="primary"
            ghost
            loading={switchCompany.isPending && switchCompany.variables === row.id}
            onClick={() => switchCompany.mutate(row.id)}
          >
            {t('company.switchTo')}
          </Button>
        ),
    },
  ];

  return (
    <Card
      title={t('route.companyList')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/company/create')}>
          {t('company.create')}
        </Button>
      }
    >
      <DataTable<CompanyListItem>
        rowKey="id"
        loading={list.isFetching}
        error={list.error}
        onRetry={list.refetch}
        data-testid="company-table"
        dataSource={list.data?.items ?? []}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
    </Card>
  );
}
