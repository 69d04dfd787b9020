import { isValidElement, useRef, type Key, type ReactNode } from 'react';
import { Card, Checkbox, Empty, Pagination, Spin, Table, type TableColumnType, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from './ErrorState.tsx';
import { useAccessibleTables } from './useAccessibleTables.ts';
import { useIsMobile } from './useIsMobile.ts';

export interface DataTableProps<T> extends TableProps<T> {
  /** The list query's failure: shown in place of the rows, or above them while earlier rows are still shown. */
  error?: Error | null;
  /** Loads again (the query's refetch); required for the error state's Retry. */
  onRetry?: () => unknown;
  retrying?: boolean;
  /** On narrow screens each row is a card titled by this column (its key or dataIndex); the first column by default. */
  cardTitle?: string;
}

/**
 * The console's list table: antd's Table on a desktop; below 992 px (spec §9 mobile width) every row becomes
 * a card of "column title: value" lines, with the actions column at its foot, so a phone shows whole rows
 * instead of one column and a clipped button. Both show a failed load as an error state with Retry.
 */
export function DataTable<T extends object>({ error, onRetry, retrying, cardTitle, ...table }: DataTableProps<T>) {
  const mobile = useIsMobile();
  const box = useRef<HTMLDivElement>(null);
  useAccessibleTables(box);
  const rows = table.dataSource ?? [];
  const failed = error && onRetry ? error : null;
  const notice = failed && rows.length > 0 ? <ErrorState compact error={failed} onRetry={onRetry!} retrying={retrying} /> : null;
  const given = table.locale?.emptyText;
  const emptyText: ReactNode =
    failed && rows.length === 0 ? <ErrorState error={failed} onRetry={onRetry!} retrying={retrying} /> : typeof given === 'function' ? given() : given;
  return (
    <>
      {notice}
      {mobile ? (
        <CardList {...table} cardTitle={cardTitle} emptyText={emptyText} />
      ) : (
        <div ref={box}>
          <Table<T> {...table} locale={emptyText === undefined ? table.locale : { ...table.locale, emptyText }} />
        </div>
      )}
    </>
  );
}

type Column<T> = TableColumnType<T>;

const columnId = <T,>(c: Column<T>, i: number): string =>
  String(c.key ?? (Array.isArray(c.dataIndex) ? c.dataIndex.join('.') : (c.dataIndex as string | number | undefined)) ?? i);

function valueAt(row: object, dataIndex: Column<object>['dataIndex']): unknown {
  if (dataIndex === undefined || dataIndex === null) return undefined;
  const path = Array.isArray(dataIndex) ? (dataIndex as (string | number)[]) : [dataIndex as string | number];
  let v: unknown = row;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[p] : undefined;
  return v;
}

/** A cell as a column renders it (antd also allows `{ children, props }` from render). */
function cellOf<T extends object>(c: Column<T>, row: T, index: number): ReactNode {
  const value = valueAt(row, c.dataIndex as Column<object>['dataIndex']);
  const out: unknown = c.render ? c.render(value, row, index) : value;
  if (out === null || out === undefined || typeof out !== 'object' || isValidElement(out) || Array.isArray(out)) return out as ReactNode;
  return 'children' in out ? (out as { children?: ReactNode }).children : null;
}

function CardList<T extends object>({
  columns,
  dataSource,
  rowKey,
  rowSelection,
  pagination,
  loading,
  expandable,
  cardTitle,
  emptyText,
  ...rest
}: TableProps<T> & { cardTitle?: string | undefined; emptyText: ReactNode }) {
  const { t } = useTranslation();
  const rows = dataSource ?? [];
  const cols = (columns ?? []).filter((c): c is Column<T> => !('children' in c));
  const keyOf = (row: T, i: number): Key =>
    typeof rowKey === 'function' ? rowKey(row, i) : (valueAt(row, (rowKey ?? 'key') as Column<object>['dataIndex']) as Key);
  const titleCol = cols.find((c, i) => columnId(c, i) === cardTitle) ?? cols.find((c) => c.key !== 'actions');
  const actions = cols.find((c) => c.key === 'actions');
  const fields = cols.filter((c) => c !== titleCol && c !== actions);
  const selected = rowSelection?.selectedRowKeys ?? [];
  const select = (keys: Key[]) =>
    rowSelection?.onChange?.(
      keys,
      rows.filter((r, i) => keys.includes(keyOf(r, i))),
      { type: 'multiple' },
    );
  const pageKeys = rows.map(keyOf);
  const pageSelected = pageKeys.filter((k) => selected.includes(k)).length;

  return (
    <div className="fa-cards" data-testid={(rest as Record<string, unknown>)['data-testid'] as string | undefined}>
      {rowSelection && rows.length > 0 && (
        <Checkbox
          className="fa-cards-select"
          checked={pageSelected === rows.length}
          indeterminate={pageSelected > 0 && pageSelected < rows.length}
          onChange={(e) => select(e.target.checked ? [...new Set([...selected, ...pageKeys])] : selected.filter((k) => !pageKeys.includes(k)))}
        >
          {t('common.selectPage')}
        </Checkbox>
      )}
      <Spin spinning={Boolean(loading)}>
        {rows.length === 0 ? (
          <div className="fa-cards-empty">{emptyText ?? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.noData')} />}</div>
        ) : (
          rows.map((row, i) => {
            const key = keyOf(row, i);
            const title = titleCol ? cellOf(titleCol, row, i) : null;
            const expanded = expandable?.expandedRowRender && (expandable.rowExpandable?.(row) ?? true) ? expandable.expandedRowRender(row, i, 0, true) : null;
            return (
              <Card
                key={key}
                size="small"
                className="fa-row-card"
                data-row-key={String(key)}
                title={
                  <span className="fa-row-card-title">
                    {rowSelection && (
                      <Checkbox
                        checked={selected.includes(key)}
                        onChange={(e) => select(e.target.checked ? [...selected, key] : selected.filter((k) => k !== key))}
                        aria-label={t('common.select')}
                      />
                    )}
                    {title}
                  </span>
                }
              >
                <dl className="fa-row-card-fields">
                  {fields.map((c, ci) => (
                    <div key={columnId(c, ci)}>
                      <dt>{typeof c.title === 'function' ? null : c.title}</dt>
                      <dd>{cellOf(c, row, i)}</dd>
                    </div>
                  ))}
                </dl>
                {expanded && (
                  <details className="fa-row-card-more">
                    <summary>{t('common.details')}</summary>
                    {expanded}
                  </details>
                )}
                {actions && <div className="fa-row-card-actions">{cellOf(actions, row, i)}</div>}
              </Card>
            );
          })
        )}
      </Spin>
      {pagination && rows.length > 0 && (
        <Pagination className="fa-cards-pagination" size="small" {...pagination} showSizeChanger={false} showQuickJumper={false} />
      )}
    </div>
  );
}
