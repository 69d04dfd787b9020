import { Button, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CompanyListItem } from '@faceadmin/shared';
import { ListPage, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { useCompanyList, useSwitchCompany } from '../api.ts';

/** The administrator's companies; the current one is marked and the others can be switched to. */
export default function CompanyListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useCompanyList();
  const switchCompany = useSwitchCompany();

  const columns: ListColumn<CompanyListItem>[] = [
    {
      title: t('company.fields.name'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string, row) => (
        <Space>
          {name}
          {row.current && <Tag color="success">{t('company.current')}</Tag>}
        </Space>
      ),
    },
    { title: t('company.fields.phone'), dataIndex: 'phone', key: 'phone' },
    { title: t('company.fields.address'), dataIndex: 'address', key: 'address', ellipsis: true },
    {
      title: t('company.fields.role'),
      dataIndex: 'role',
      key: 'role',
      render: (role: CompanyListItem['role'], row) => (
        <Space>
          <Tag color={role === 'main' ? 'blue' : 'default'}>{t(`manager.roles.${role}`)}</Tag>
          {row.is_init ? <Tag color="gold">{t('company.initAdmin')}</Tag> : null}
        </Space>
      ),
    },
  ];

  // the company signed in to is edited; another is switched to
  const actions: ListAction<CompanyListItem>[] = [
    { key: 'edit', label: t('company.edit'), hidden: (row) => !row.current, to: () => '/company/update' },
    {
      key: 'switch',
      label: t('company.switchTo'),
      look: 'primary',
      hidden: (row) => row.current,
      loading: (row) => switchCompany.isPending && switchCompany.variables === row.id,
      run: (row) => switchCompany.mutate(row.id),
    },
  ];

  return (
    <ListPage<CompanyListItem, object>
      title={t('route.companyList')}
      testId="company-list-page"
      tableTestId="company-table"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/company/create')}>
          {t('company.create')}
        </Button>
      }
      columns={columns}
      actions={actions}
      list={list}
      paged={false}
    />
  );
}
