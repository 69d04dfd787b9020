import { Fragment, useId, useState, type ReactNode } from 'react';
import {
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Dropdown,
  Empty,
  Pagination,
  Popconfirm,
  Row,
  Select,
  Space,
  Spin,
  Tooltip,
  type MenuProps,
  type TableColumnType,
  type TablePaginationConfig,
  type TableProps,
} from 'antd';
import { MoreOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DataTable } from './DataTable.tsx';
import { DayRangeFilter } from './DayRangeFilter.tsx';
import { ErrorState } from './ErrorState.tsx';
import { ExportButton } from './ExportButton.tsx';
import { KeywordSearch } from './KeywordSearch.tsx';
import { pagination } from './paging.ts';
import { useIsMobile } from './useIsMobile.ts';

/** A column as a list page declares it: antd's column, keyed, and whether a phone's card leaves it out. */
export interface ListColumn<T> extends TableColumnType<T> {
  key: string;
  hideOnPhone?: boolean;
  /** the server sorts by it: a click sets the query's `sort` (the key) and `order` (asc, desc) and goes to page 1 */
  sortable?: boolean;
}

/** The query parameters of a list sorted by the server. */
interface Sorted {
  sort?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
}

type Param<F> = Extract<keyof F, string>;

/**
 * A parameter of a shared list's filters (keyword, online, from / to) that its filter type has by its bound:
 * TypeScript does not narrow the keys of a type parameter by its bound, so the shared list names them through this.
 */
export const boundParam = <F,>(name: string) => name as Param<F>;

/** The filters above the rows: each sets one or two query parameters and takes the list back to page 1. */
export type ListFilter<F> =
  | { kind: 'keyword'; param: Param<F>; placeholder: string; width?: number; testId: string }
  | {
      kind: 'select';
      param: Param<F>;
      options: { value: string | number; label: ReactNode }[];
      placeholder?: string;
      /** a caption before the box (e.g. "Year") */
      label?: ReactNode;
      width?: number;
      /** a filter with a value always set (a year) cannot be cleared */
      clearable?: boolean;
      /** the options are still being fetched */
      loading?: boolean;
      testId: string;
    }
  | { kind: 'dayRange'; from: Param<F>; to: Param<F>; testId: string }
  /** ticked: the parameter is 1; unticked: left out */
  | { kind: 'check'; param: Param<F>; label: ReactNode; testId: string }
  /** a filter box of a feature's own (a device picker); `set` changes parameters and goes back to page 1 */
  | { kind: 'custom'; testId: string; render: (set: (values: Partial<F>) => void) => ReactNode };

interface Confirm {
  title: string;
  content?: ReactNode;
  /** the button that goes ahead, when "OK" / "Delete" would not say what happens ("Remove") */
  ok?: string;
}

interface ActionBase<T> {
  key: string;
  label: string;
  icon?: ReactNode;
  /** the same for every row, or the row's own (`key-revoke-${id}`) */
  testId?: string | ((row: T) => string);
  /** not offered for this row (or at all: a right the session lacks) */
  hidden?: (row: T) => boolean;
  /** shown but not offered for this row (a key already revoked) */
  disabled?: (row: T) => boolean;
  /** said once the run succeeded ("Deleted") */
  done?: string;
}

/** A row action: a button beside the row, or an item of its "more" menu. A destructive one always confirms first. */
export type ListAction<T> = ActionBase<T> &
  (
    | {
        danger: true;
        confirm: (row: T) => Confirm;
        run: (row: T) => unknown;
        /** inline only: an icon-only button whose label is its tooltip and aria-label (a row of icon buttons) */
        look?: 'icon';
      }
    | {
        danger?: false;
        confirm?: (row: T) => Confirm;
        /** run it (a rejected promise was shown by the API client), or open a page */
        run?: (row: T) => unknown;
        to?: (row: T) => string;
        /** inline only: a primary button, or an icon-only button whose label is its tooltip and aria-label */
        look?: 'primary' | 'icon';
        loading?: (row: T) => boolean;
      }
  ) & { inMenu?: boolean };

/** What a list query returns as the page's query hook hands it over. */
export interface ListResult<T> {
  data?: { items: T[]; total?: number; more?: boolean | undefined } | undefined;
  isLoading: boolean;
  isFetching: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/** The query of a list page: its filters, and the page and page size read from the URL (?page=&pageSize=). */
export interface ListQuery<F> {
  query: F & { page: number; pageSize: number };
  /** the page size the URL leaves out */
  defaultPageSize: number;
  setFilter: <K extends keyof F>(param: K, value: F[K]) => void;
  setFilters: (values: Partial<F>) => void;
  /**
   * Settles filters without going back to page 1 (the URL is left alone), so a page may call it while rendering: a
   * default learned from the server, or the parameters of a link that opened the page (already on page 1).
   */
  adjustFilters: (values: Partial<F>) => void;
  /**
   * As adjustFilters, for the filters still unset only: a default learned from the server never replaces a choice the
   * reader made meanwhile (a render that read "unset" may be applied after the reader's change).
   */
  defaultFilters: (values: Partial<F>) => void;
}

const positive = (v: string | null, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/**
 * A list page's query state. Paging lives in the URL, so a reload, the back button or a shared link keep the page;
 * the URL stays bare on the first page at the default size. Filters live in the page (the keyword box holds its own
 * text, so a filter restored from the URL would not show in it); changing one goes back to page 1.
 */
export function useListQuery<F extends object>(initial: F, defaultPageSize = 10): ListQuery<F> {
  const [params, setParams] = useSearchParams();
  const [filters, setFilterState] = useState<F>(initial);
  const toFirstPage = () =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        p.delete('page');
        return p;
      },
      { replace: true },
    );
  const setFilters = (values: Partial<F>) => {
    setFilterState((f) => ({ ...f, ...values }));
    toFirstPage();
  };
  return {
    query: { ...filters, page: positive(params.get('page'), 1), pageSize: positive(params.get('pageSize'), defaultPageSize) },
    defaultPageSize,
    setFilters,
    adjustFilters: (values) => setFilterState((f) => ({ ...f, ...values })),
    defaultFilters: (values) =>
      setFilterState((f) => {
        const unset = Object.entries(values).filter(([k]) => f[k as keyof F] === undefined);
        return unset.length ? { ...f, ...Object.fromEntries(unset) } : f;
      }),
    setFilter: (param, value) => setFilters({ [param]: value } as unknown as Partial<F>),
  };
}

function usePagingSetter(defaultPageSize: number) {
  const [, setParams] = useSearchParams();
  return (page: number, size: number) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (page === 1) p.delete('page');
        else p.set('page', String(page));
        if (size === defaultPageSize) p.delete('pageSize');
        else p.set('pageSize', String(size));
        return p;
      },
      { replace: true },
    );
}

export interface ListPageProps<T extends object, F extends object> {
  /** the card's title (none when `bare`) */
  title?: ReactNode;
  testId: string;
  /** inside another page's card (a tab, a drawer): no card of its own, the filter bar and the rows only */
  bare?: boolean;
  /** the card's corner (e.g. a create button) */
  extra?: ReactNode;
  columns: ListColumn<T>[];
  /** the query state from useListQuery, for the filters and the paging; a list with neither needs none */
  state?: ListQuery<F>;
  list: ListResult<T>;
  filters?: ListFilter<F>[];
  /** buttons after the filters (create, import…) */
  toolbar?: ReactNode;
  exporter?: { pending: boolean; bytes: number; run: () => void; testId: string };
  actions?: ListAction<T>[];
  /** the "more" menu button's tooltip and aria-label, and its test id */
  more?: { label: string; testId: string };
  rowKey?: string;
  tableTestId: string;
  /** the column that titles a phone's card (the first by default) */
  cardTitle?: string;
  /** false: every row on one page (a short list such as a year's holidays) */
  paged?: boolean;
  pageSizeOptions?: number[];
  /** before the filter bar: what the page is about (a one-line explanation, the record the rows belong to) */
  header?: ReactNode;
  /** between the filters and the rows (a notice about the rows) */
  notice?: ReactNode;
  /** what an empty list says (antd's "No data" by default) */
  empty?: string;
  /**
   * the rows as a grid of the page's own cards, on every screen, instead of the table (a gallery of photos); the
   * grid takes `tableTestId`, and the columns may be empty
   */
  gallery?: { render: (row: T) => ReactNode };
  /** the table's own features a page may ask for: ticked rows, a row's details below it, a click on a row, a small table */
  table?: Pick<TableProps<T>, 'rowSelection' | 'expandable' | 'onRow' | 'size'>;
  /** dialogs and drawers the page opens */
  children?: ReactNode;
}

/**
 * The console's list page, in the spirit of ant-design-pro's ProTable: the page declares its columns, filters, row
 * actions and export; this draws the card, the filter bar, the table (cards on a phone), the actions column with its
 * confirmations and the URL-kept paging.
 */
export function ListPage<T extends object, F extends object>(props: ListPageProps<T, F>) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const { state, list } = props;
  const setPaging = usePagingSetter(state?.defaultPageSize ?? 10);
  const actions = props.actions ?? [];
  const sorted = (state?.query ?? {}) as Sorted;
  const columns: ListColumn<T>[] = props.columns
    .filter((c) => !(mobile && c.hideOnPhone))
    .map(({ sortable, ...c }) =>
      sortable ? { ...c, sorter: true, sortOrder: sorted.sort === c.key ? (sorted.order === 'desc' ? 'descend' : 'ascend') : null } : c,
    );
  // antd reports paging here too, after the pager's own onChange: only a click on a header (action 'sort') changes
  // the sort. (A sort by a column hidden meanwhile is not reported back; reading a page change as "unsorted" would
  // drop it and undo the page.)
  const onSort: TableProps<T>['onChange'] = (_paging, _filters, sorter, extra) => {
    if (extra.action !== 'sort') return;
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const sort = s?.order ? String(s.columnKey) : undefined;
    const order = sort ? (s?.order === 'descend' ? 'desc' : 'asc') : undefined;
    if (state && (sort !== sorted.sort || order !== sorted.order)) state.setFilters({ sort, order } as unknown as Partial<F>);
  };
  if (actions.length > 0)
    columns.push({
      title: t('common.actions.title'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => <RowActions row={row} actions={actions} more={props.more} />,
    });
  const toolbar = [
    ...(state ? (props.filters ?? []).map((f) => <FilterBox key={f.testId} filter={f} state={state} />) : []),
    props.toolbar && <Fragment key="toolbar">{props.toolbar}</Fragment>,
    props.exporter && (
      <ExportButton key="export" pending={props.exporter.pending} bytes={props.exporter.bytes} onClick={props.exporter.run} testId={props.exporter.testId} />
    ),
  ].filter(Boolean);
  const rowKey = props.rowKey ?? 'id';
  const rows = list.data?.items ?? [];
  const paging: TablePaginationConfig | false =
    props.paged === false || !state
      ? false
      : pagination(
          state.query,
          (next) => {
            const q = typeof next === 'function' ? next(state.query) : next;
            setPaging(q.page, q.pageSize);
          },
          list.data?.total,
          t,
          props.pageSizeOptions,
          list.data?.more,
        );
  const body = (
    <>
      {props.header}
      {toolbar.length > 0 && (
        <Space wrap style={{ marginBottom: 12 }}>
          {toolbar}
        </Space>
      )}
      {props.notice}
      {props.gallery ? (
        <Gallery<T> list={list} rows={rows} rowKey={rowKey} render={props.gallery.render} empty={props.empty} pagination={paging} testId={props.tableTestId} />
      ) : (
        <DataTable<T>
          rowKey={rowKey}
          cardTitle={props.cardTitle}
          loading={list.isLoading}
          error={list.error}
          onRetry={list.refetch}
          retrying={list.isFetching}
          dataSource={rows}
          columns={columns}
          scroll={{ x: 'max-content' }}
          data-testid={props.tableTestId}
          pagination={paging}
          {...(props.columns.some((c) => c.sortable) ? { onChange: onSort } : {})}
          {...props.table}
          {...(props.empty === undefined ? {} : { locale: { emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.empty} /> } })}
        />
      )}
      {props.children}
    </>
  );
  return props.bare ? (
    <div data-testid={props.testId}>{body}</div>
  ) : (
    <Card title={props.title} data-testid={props.testId} extra={props.extra}>
      {body}
    </Card>
  );
}

/** The rows as a grid of cards: two across on a phone, up to eight on a wide screen. */
function Gallery<T extends object>(props: {
  list: ListResult<T>;
  rows: T[];
  rowKey: string;
  render: (row: T) => ReactNode;
  empty: string | undefined;
  pagination: TablePaginationConfig | false;
  testId: string;
}) {
  const { t } = useTranslation();
  const { list, rows } = props;
  return (
    <>
      {list.error ? <ErrorState error={list.error} onRetry={list.refetch} retrying={list.isFetching} compact={Boolean(list.data)} /> : null}
      {list.error && !list.data ? null : (
        <Spin spinning={list.isLoading}>
          {rows.length ? (
            <Row gutter={[12, 12]} data-testid={props.testId}>
              {rows.map((row) => (
                <Col key={String((row as Record<string, unknown>)[props.rowKey])} xs={12} sm={8} md={6} lg={6} xl={4} xxl={3}>
                  {props.render(row)}
                </Col>
              ))}
            </Row>
          ) : (
            <Empty description={list.isLoading ? ' ' : (props.empty ?? t('common.noData'))} />
          )}
        </Spin>
      )}
      {props.pagination && rows.length > 0 && <Pagination style={{ marginTop: 16, justifyContent: 'flex-end' }} {...props.pagination} />}
    </>
  );
}

function FilterBox<F extends object>({ filter: f, state }: { filter: ListFilter<F>; state: ListQuery<F> }) {
  // a select box is named by its caption, or else by its placeholder (antd's placeholder is no accessible name)
  const id = useId();
  const set = (param: Param<F>, value: unknown) => state.setFilter(param, value as F[Param<F>]);
  if (f.kind === 'keyword')
    return <KeywordSearch placeholder={f.placeholder} width={f.width ?? 240} onSearch={(keyword) => set(f.param, keyword)} data-testid={f.testId} />;
  if (f.kind === 'custom') return f.render(state.setFilters);
  if (f.kind === 'check')
    return (
      <Checkbox onChange={(e) => set(f.param, e.target.checked ? 1 : undefined)} data-testid={f.testId}>
        {f.label}
      </Checkbox>
    );
  if (f.kind === 'dayRange')
    return <DayRangeFilter testId={f.testId} onChange={(r) => state.setFilters({ [f.from]: r.from, [f.to]: r.to } as unknown as Partial<F>)} />;
  const box = (
    <Select
      allowClear={f.clearable ?? true}
      placeholder={f.placeholder}
      style={{ width: f.width ?? 140 }}
      options={f.options}
      loading={f.loading ?? false}
      value={state.query[f.param] as string | number | undefined}
      onChange={(v: string | number | undefined) => set(f.param, v)}
      id={f.label ? id : undefined}
      aria-label={f.label ? undefined : f.placeholder}
      data-testid={f.testId}
    />
  );
  return f.label ? (
    <Space>
      <label htmlFor={id}>{f.label}</label>
      {box}
    </Space>
  ) : (
    box
  );
}

function RowActions<T extends object>({ row, actions, more }: { row: T; actions: ListAction<T>[]; more: ListPageProps<T, object>['more'] }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const shown = actions.filter((a) => !a.hidden?.(row));
  const inline = shown.filter((a) => !a.inMenu);
  const menu = shown.filter((a) => a.inMenu);
  const run = async (a: ListAction<T>) => {
    try {
      await a.run?.(row);
      if (a.done) void message.success(a.done);
    } catch {
      // shown by the API client
    }
  };
  // A menu item's confirmation is a dialog (the menu has closed); a button's is a popover beside it.
  const fromMenu = (a: ListAction<T>) => {
    const c = a.confirm?.(row);
    if (!c) return void run(a);
    modal.confirm({
      title: c.title,
      content: c.content,
      okText: c.ok ?? t(a.danger ? 'common.actions.delete' : 'common.actions.ok'),
      ...(a.danger ? { okButtonProps: { danger: true } } : {}),
      cancelText: t('common.actions.cancel'),
      onOk: () => run(a),
    });
  };
  const items: MenuProps['items'] = [];
  menu.forEach((a, i) => {
    if (a.danger && i > 0 && !menu[i - 1]!.danger) items.push({ type: 'divider' });
    items.push({ key: a.key, icon: a.icon, label: a.label, danger: a.danger ?? false, disabled: a.disabled?.(row) ?? false });
  });
  // a click on an action (or in its menu or confirmation, portals included) is not a click on the row (onRow)
  return (
    <Space size={4} onClick={(e) => e.stopPropagation()}>
      {inline.map((a) => (
        <InlineAction key={a.key} row={row} action={a} run={() => run(a)} />
      ))}
      {menu.length > 0 && more && (
        <Dropdown trigger={['click']} placement="bottomRight" menu={{ items, onClick: ({ key }) => fromMenu(menu.find((a) => a.key === key)!) }}>
          <Tooltip title={more.label}>
            <Button size="small" icon={<MoreOutlined />} aria-label={more.label} data-testid={more.testId} />
          </Tooltip>
        </Dropdown>
      )}
    </Space>
  );
}

function InlineAction<T>({ row, action: a, run }: { row: T; action: ListAction<T>; run: () => Promise<void> }) {
  const { t } = useTranslation();
  const look = a.look;
  const loading = a.danger ? false : (a.loading?.(row) ?? false);
  const c = a.confirm?.(row);
  const disabled = a.disabled?.(row) ?? false;
  const button = (
    <Button
      size="small"
      type={look === 'primary' ? 'primary' : undefined}
      danger={a.danger ?? false}
      icon={a.icon}
      loading={loading}
      disabled={disabled}
      aria-label={look === 'icon' ? a.label : undefined}
      onClick={c || (!a.danger && a.to) ? undefined : () => void run()}
      data-testid={typeof a.testId === 'function' ? a.testId(row) : a.testId}
    >
      {look === 'icon' ? null : a.label}
    </Button>
  );
  const named = look === 'icon' ? <Tooltip title={a.label}>{button}</Tooltip> : button;
  if (c)
    return (
      <Popconfirm
        title={c.title}
        description={c.content}
        okText={c.ok ?? t('common.actions.ok')}
        okButtonProps={a.danger ? { danger: true } : undefined}
        cancelText={t('common.actions.cancel')}
        disabled={disabled}
        onConfirm={run}
      >
        {named}
      </Popconfirm>
    );
  const to = a.danger ? undefined : a.to?.(row);
  const linked = to ? <Link to={to}>{button}</Link> : button;
  return look === 'icon' ? <Tooltip title={a.label}>{linked}</Tooltip> : linked;
}
