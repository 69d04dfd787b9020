import { DeleteOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { boundParam, type ListAction, type ListPageProps } from './ListPage.tsx';

/**
 * A row's "Delete": confirmed first (a dialog from the row's menu, a popover beside a button), then `remove(row.id)`,
 * then "Deleted". The same on every page: the bin icon and the word, in the row's menu or beside the row.
 */
export function deleteAction<T extends { id: number }>(
  t: TFunction,
  o: {
    confirm: (row: T) => { title: string; content?: string };
    remove: (id: number) => Promise<unknown>;
    hidden?: (row: T) => boolean;
    /** shown but not offered (the administrator signed in, who cannot delete themselves) */
    disabled?: (row: T) => boolean;
    inMenu?: boolean;
    testId?: string;
  },
): ListAction<T> {
  return {
    key: 'delete',
    label: t('common.actions.delete'),
    icon: <DeleteOutlined />,
    ...(o.inMenu ? { inMenu: true } : {}),
    ...(o.hidden ? { hidden: o.hidden } : {}),
    ...(o.disabled ? { disabled: o.disabled } : {}),
    ...(o.testId ? { testId: o.testId } : {}),
    danger: true,
    confirm: o.confirm,
    run: (row) => o.remove(row.id),
    done: t('common.deleted'),
  };
}

/**
 * What the lists of connected things (terminals, breakers) share: test ids from one prefix, a keyword box and an
 * online / offline filter, and the row menu. Their locale keys follow one pattern under the prefix: `keyword`,
 * `fields.online`, `online.on` / `online.off` and `actions.more`.
 */
export function connectedList<T extends object, F extends { keyword?: unknown; online?: unknown }>(
  t: TFunction,
  prefix: string,
): Pick<ListPageProps<T, F>, 'testId' | 'tableTestId' | 'more' | 'filters'> {
  const param = boundParam<F>;
  return {
    testId: `${prefix}-list-page`,
    tableTestId: `${prefix}-table`,
    more: { label: t(`${prefix}.actions.more`), testId: `${prefix}-more` },
    filters: [
      { kind: 'keyword', param: param('keyword'), placeholder: t(`${prefix}.keyword`), testId: `${prefix}-keyword` },
      {
        kind: 'select',
        param: param('online'),
        placeholder: t(`${prefix}.fields.online`),
        options: [
          { value: 1, label: t(`${prefix}.online.on`) },
          { value: 0, label: t(`${prefix}.online.off`) },
        ],
        testId: `${prefix}-online-filter`,
      },
    ],
  };
}
