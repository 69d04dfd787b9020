import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { PersonTable } from '../components/PersonTable.tsx';

/** /user/list: every person of the company with filters, columns, import/export and batch actions (right `person`). */
export default function PersonListPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('route.personList')} data-testid="person-list-page">
      <PersonTable />
    </Card>
  );
}
