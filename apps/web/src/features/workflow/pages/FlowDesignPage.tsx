import { useMemo, useState } from 'react';
import { Alert, App, Button, Card, Dropdown, Space, Tag, Tooltip, Typography } from 'antd';
import { AuditOutlined, BranchesOutlined, CloseOutlined, LeftOutlined, PlusOutlined, RightOutlined, SendOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useParams } from 'react-router';
import type { Condition, ConditionNode, FormSchema, Language, ProcessBranch, ProcessNode, ProcessTree } from '@faceadmin/shared';
import { useLanguage } from '../../../lib/i18n.ts';
import { ApiError } from '../../../lib/request.ts';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { PageLoading } from '../../../ui/PageLoading.tsx';
import { consoleSource, useApp, useForm as useAppForm, usePeopleNames, useProcess, useSaveProcess } from '../api.ts';
import { useDepartmentTree } from '../components/Pickers.tsx';
import { BranchDrawer, NodeDrawer } from '../components/NodeEditors.tsx';
import {
  addBranch,
  findBranch,
  findNode,
  idsOf,
  insertNode,
  makeNode,
  moveBranch,
  processProblems,
  removeBranch,
  removeNode,
  updateBranch,
  updateNode,
  type NewNodeType,
  type ProcessProblem,
} from '../process.ts';
import { textOf } from '../schema.ts';

const LINE = '#bfbfbf';
const EMPTY_NAMES = new Map<number, string>();

interface Ctx {
  tree: ProcessTree;
  form: FormSchema;
  lang: Language;
  problems: ProcessProblem[];
  /** Whether the server's last refusal is about this node or branch (by its id in data.node, else its title in the message). */
  serverHit: (id: string, name: string) => boolean;
  departments: Map<number, string>;
  names: Map<number, string>;
  set: (t: ProcessTree) => void;
  open: (id: string) => void;
}

/** /workflow/flow/{id}: the process designer — a DingTalk/Feishu-style vertical chain from the applicant to the end. */
export default function FlowDesignPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const id = Number(useParams().id);
  const app = useApp(id);
  const form = useAppForm(id);
  const saved = useProcess(id);
  const save = useSaveProcess();
  const lang = useLanguage();
  const { names: departments } = useDepartmentTree(consoleSource);
  const people = usePeopleNames();
  const names = people.data ?? EMPTY_NAMES;
  // the designer's draft; until the first edit, the saved process
  const [draft, setTree] = useState<ProcessTree>();
  const tree = draft ?? saved.data?.process;
  const [openId, setOpenId] = useState<string>();
  const [checked, setChecked] = useState(false);
  const [serverError, setServerError] = useState<string>();
  const [serverNode, setServerNode] = useState<string>();

  const schema = useMemo(() => form.data?.schema ?? { fields: [] }, [form.data]);
  const problems = useMemo(() => (tree && checked ? processProblems(tree, schema) : []), [tree, checked, schema]);

  if (app.isLoading || form.isLoading || saved.isLoading) return <PageLoading />;
  const failed = app.error ?? form.error ?? saved.error;
  if (failed) return <ErrorState error={failed} onRetry={() => void (app.refetch(), form.refetch(), saved.refetch())} />;
  if (!tree) return <PageLoading />;

  const ctx: Ctx = {
    tree,
    form: schema,
    lang,
    problems,
    serverHit: (nodeId, name) => !!serverError && (serverNode ? serverNode === nodeId : !!name && serverError.includes(name)),
    departments,
    names,
    set: (next) => {
      setTree(next);
      setServerError(undefined);
    },
    open: setOpenId,
  };
  const node = openId ? findNode(tree, openId) : undefined;
  const branch = openId ? findBranch(tree, openId)?.branch : undefined;

  const submit = async () => {
    setChecked(true);
    setServerError(undefined);
    if (processProblems(tree, schema).length) return;
    try {
      const v = await save.mutateAsync({ app_id: id, process: tree });
      setTree(v.process);
      message.success(t('workflow.designer.savedVersion', { version: v.version }));
    } catch (e) {
      const node = e instanceof ApiError ? (e.data as { node?: unknown } | null)?.node : undefined;
      setServerNode(typeof node === 'string' ? node : undefined);
      setServerError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Card
      data-testid="flow-design-page"
      title={
        <Space>
          {t('route.workflowFlow')}
          <Typography.Text type="secondary">{app.data?.name}</Typography.Text>
          <Tag color="geekblue" data-testid="flow-version">
            {t('workflow.designer.version', { version: saved.data?.version ?? 0 })}
          </Tag>
        </Space>
      }
      extra={
        <Space>
          <Button onClick={() => setChecked(true)} data-testid="flow-check">
            {t('workflow.flow.check')}
          </Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="flow-save">
            {t('workflow.designer.saveVersion')}
          </Button>
        </Space>
      }
    >
      {serverError && <Alert type="error" showIcon title={serverError} style={{ marginBottom: 12 }} data-testid="flow-error" />}
      {checked && problems.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('workflow.flow.problems', { count: problems.length })}
          description={problems
            .filter((p) => p.id === '')
            .map((p, i) => (
              <div key={i}>{t(`workflow.flow.reasons.${p.reason}`)}</div>
            ))}
          data-testid="flow-problems"
        />
      )}
      {checked && problems.length === 0 && !serverError && (
        <Alert type="success" showIcon title={t('workflow.flow.valid')} style={{ marginBottom: 12 }} data-testid="flow-valid" />
      )}
      <div style={{ overflowX: 'auto', padding: '16px 0', background: '#f5f7fa', borderRadius: 8 }}>
        <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', minWidth: 'max-content', padding: '0 24px' }} data-testid="flow-chain">
          <Terminal label={t('workflow.flow.start')} color="#576a95" testId="flow-start" />
          <Chain ctx={ctx} nodes={tree.nodes} branch={null} />
          <Terminal label={t('workflow.flow.end')} color="#8c8c8c" testId="flow-end" />
        </div>
      </div>
      <NodeDrawer node={node} names={names} onChange={(n) => ctx.set(updateNode(tree, n))} onClose={() => setOpenId(undefined)} />
      <BranchDrawer branch={branch} form={schema} lang={lang} onChange={(b) => ctx.set(updateBranch(tree, b))} onClose={() => setOpenId(undefined)} />
    </Card>
  );
}

function Terminal({ label, color, testId }: { label: string; color: string; testId: string }) {
  return (
    <div style={{ padding: '6px 20px', borderRadius: 16, background: color, color: '#fff', fontWeight: 500 }} data-testid={testId}>
      {label}
    </div>
  );
}

function Chain({ ctx, nodes, branch }: { ctx: Ctx; nodes: ProcessNode[]; branch: string | null }) {
  return (
    <>
      <AddButton ctx={ctx} branch={branch} index={0} />
      {nodes.map((n, i) => (
        <div key={n.id} style={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
          {n.type === 'condition' ? <ConditionView ctx={ctx} node={n} /> : <NodeCard ctx={ctx} node={n} />}
          <AddButton ctx={ctx} branch={branch} index={i + 1} />
        </div>
      ))}
    </>
  );
}

/** The "+" between two nodes: adds an approver, a cc or a condition there. */
function AddButton({ ctx, branch, index }: { ctx: Ctx; branch: string | null; index: number }) {
  const { t } = useTranslation();
  const add = (type: NewNodeType) => {
    const node = makeNode(type, idsOf(ctx.tree));
    ctx.set(insertNode(ctx.tree, branch, index, node));
    if (type !== 'condition') ctx.open(node.id);
  };
  return (
    <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
      <div style={{ width: 2, height: 16, background: LINE }} />
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'approver', icon: <AuditOutlined />, label: t('workflow.flow.add.approver') },
            { key: 'cc', icon: <SendOutlined />, label: t('workflow.flow.add.cc') },
            { key: 'condition', icon: <BranchesOutlined />, label: t('workflow.flow.add.condition') },
          ],
          onClick: ({ key }) => add(key as NewNodeType),
        }}
      >
        <Button
          shape="circle"
          size="small"
          type="primary"
          icon={<PlusOutlined />}
          aria-label={t('workflow.flow.addHere')}
          data-testid={`flow-add-${branch ?? 'root'}-${index}`}
        />
      </Dropdown>
      <div style={{ width: 2, height: 16, background: LINE }} />
    </div>
  );
}

function problemText(ctx: Ctx, id: string, t: (k: string) => string) {
  return ctx.problems
    .filter((p) => p.id === id)
    .map((p) => t(`workflow.flow.reasons.${p.reason}`))
    .join(' ');
}

function NodeCard({ ctx, node }: { ctx: Ctx; node: Exclude<ProcessNode, ConditionNode> }) {
  const { t } = useTranslation();
  const problem = problemText(ctx, node.id, t);
  const hit = ctx.serverHit(node.id, node.name?.trim() || node.id);
  const a = node.approver;
  const who =
    a.kind === 'people'
      ? (a.person_ids ?? []).length
        ? (a.person_ids ?? [])
            .slice(0, 3)
            .map((id) => ctx.names.get(id) ?? `#${id}`)
            .join(', ') + ((a.person_ids ?? []).length > 3 ? ` +${(a.person_ids ?? []).length - 3}` : '')
        : t('workflow.flow.summary.people', { n: 0 })
      : a.kind === 'head'
        ? t('workflow.flow.summary.head', { level: a.level ?? 1 })
        : t('workflow.flow.summary.admins');
  const color = node.type === 'approver' ? '#ff943e' : '#3296fa';
  return (
    <div
      onClick={() => ctx.open(node.id)}
      data-testid={`flow-node-${node.id}`}
      className="wf-node"
      style={{
        width: 240,
        borderRadius: 8,
        background: '#fff',
        cursor: 'pointer',
        boxShadow: '0 2px 6px rgba(0,0,0,.08)',
        border: `1px solid ${problem || hit ? '#ff4d4f' : 'transparent'}`,
        overflow: 'hidden',
      }}
    >
      <div style={{ background: color, color: '#fff', padding: '4px 10px', display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <span>
          {node.type === 'approver' ? <UserOutlined /> : <SendOutlined />}{' '}
          <span data-testid="node-title">{node.name || t(`workflow.flow.nodeTitle.${node.type}`)}</span>
        </span>
        <Tooltip title={t('common.actions.delete')}>
          <CloseOutlined
            onClick={(e) => {
              e.stopPropagation();
              ctx.set(removeNode(ctx.tree, node.id));
            }}
            data-testid="node-remove"
          />
        </Tooltip>
      </div>
      <div style={{ padding: '8px 10px' }}>
        <div data-testid="node-summary">{who}</div>
        {node.type === 'approver' && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`workflow.flow.modes.${node.mode}`)} · {t(`workflow.flow.emptyRules.${node.empty}`)}
          </Typography.Text>
        )}
        {problem && (
          <div style={{ color: '#cf1322', fontSize: 12 }} data-testid="node-problem">
            {problem}
          </div>
        )}
      </div>
    </div>
  );
}

function conditionText(c: Condition, ctx: Ctx, t: TFunction): string {
  if (c.kind === 'department')
    return t('workflow.flow.summary.department', { names: (c.department_ids ?? []).map((id) => ctx.departments.get(id) ?? `#${id}`).join(', ') });
  const f = ctx.form.fields.find((x) => x.key === c.field);
  if (!f) return t('workflow.flow.summary.incomplete');
  const label = f.type === 'daterange' ? t('workflow.flow.durationOf', { label: textOf(f.label, ctx.lang, f.key) }) : textOf(f.label, ctx.lang, f.key);
  const option = (v: string) => textOf(f.options?.find((o) => o.value === v)?.label, ctx.lang, v);
  const value = Array.isArray(c.value) ? c.value.map(option).join(', ') : typeof c.value === 'string' ? option(c.value) : String(c.value ?? '?');
  return `${label} ${c.op ? t(`workflow.flow.ops.${c.op}`) : '?'} ${value}`;
}

function ConditionView({ ctx, node }: { ctx: Ctx; node: ConditionNode }) {
  const { t } = useTranslation();
  const problem = problemText(ctx, node.id, t);
  const hit = ctx.serverHit(node.id, node.name?.trim() || node.id);
  const ordered = [...node.branches].sort((a, b) => a.priority - b.priority);
  return (
    <div
      style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', outline: hit ? '1px solid #ff4d4f' : undefined, outlineOffset: 4 }}
      data-testid={`flow-condition-${node.id}`}
    >
      <Space>
        <Button size="small" onClick={() => ctx.set(addBranch(ctx.tree, node.id))} data-testid="branch-add">
          {t('workflow.flow.addBranch')}
        </Button>
        <Button size="small" danger onClick={() => ctx.set(removeNode(ctx.tree, node.id))} data-testid="condition-remove">
          {t('workflow.flow.removeCondition')}
        </Button>
      </Space>
      {problem && <div style={{ color: '#cf1322', fontSize: 12 }}>{problem}</div>}
      <div style={{ display: 'flex', alignItems: 'stretch', borderTop: `2px solid ${LINE}`, borderBottom: `2px solid ${LINE}`, marginTop: 8 }}>
        {ordered.map((b, i) => (
          <BranchColumn key={b.id} ctx={ctx} branch={b} first={i === 0} last={i === ordered.length - 1} count={ordered.length} />
        ))}
      </div>
    </div>
  );
}

function BranchColumn({ ctx, branch: b, first, last, count }: { ctx: Ctx; branch: ProcessBranch; first: boolean; last: boolean; count: number }) {
  const { t } = useTranslation();
  const problem = problemText(ctx, b.id, t);
  const hit = ctx.serverHit(b.id, b.name?.trim() || b.id);
  const title = b.name || (b.default ? t('workflow.flow.defaultBranch') : t('workflow.flow.branchN', { n: b.priority }));
  return (
    <div
      style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', padding: '0 20px', position: 'relative' }}
      data-testid={`flow-branch-${b.id}`}
    >
      {/* hide the frame's outer half-lines so the branches hang from one bar */}
      {first && <div style={{ position: 'absolute', left: 0, top: -2, width: '50%', height: 'calc(100% + 4px)', background: '#f5f7fa' }} />}
      {last && <div style={{ position: 'absolute', right: 0, top: -2, width: '50%', height: 'calc(100% + 4px)', background: '#f5f7fa' }} />}
      <div style={{ position: 'absolute', left: '50%', top: 0, bottom: 0, width: 2, marginLeft: -1, background: LINE }} />
      <div style={{ position: 'relative', display: 'flex', flexDirection: 'column', alignItems: 'center', width: '100%' }}>
        <div style={{ height: 16 }} />
        <div
          onClick={() => ctx.open(b.id)}
          data-testid="branch-card"
          style={{
            width: 220,
            background: '#fff',
            borderRadius: 8,
            padding: '6px 10px',
            cursor: 'pointer',
            boxShadow: '0 2px 6px rgba(0,0,0,.08)',
            border: `1px solid ${problem || hit ? '#ff4d4f' : 'transparent'}`,
          }}
        >
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', color: '#15bc83' }}>
            <span data-testid="branch-title">{title}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('workflow.flow.priority', { n: b.priority })}
            </Typography.Text>
          </div>
          <div style={{ fontSize: 12, minHeight: 18 }} data-testid="branch-summary">
            {b.default
              ? t('workflow.flow.otherwise')
              : b.conditions.length
                ? b.conditions.map((c) => conditionText(c, ctx, t)).join(` ${t('workflow.flow.and')} `)
                : t('workflow.flow.summary.noConditions')}
          </div>
          {problem && (
            <div style={{ color: '#cf1322', fontSize: 12 }} data-testid="branch-problem">
              {problem}
            </div>
          )}
          <Space size={2} onClick={(e) => e.stopPropagation()}>
            {!b.default && (
              <>
                <Button
                  size="small"
                  type="text"
                  icon={<LeftOutlined />}
                  disabled={b.priority === 1}
                  onClick={() => ctx.set(moveBranch(ctx.tree, b.id, -1))}
                  aria-label={t('workflow.flow.earlier')}
                />
                <Button
                  size="small"
                  type="text"
                  icon={<RightOutlined />}
                  disabled={b.priority >= count - 1}
                  onClick={() => ctx.set(moveBranch(ctx.tree, b.id, 1))}
                  aria-label={t('workflow.flow.later')}
                />
              </>
            )}
            <Button
              size="small"
              type="text"
              danger
              icon={<CloseOutlined />}
              onClick={() => ctx.set(removeBranch(ctx.tree, b.id))}
              aria-label={t('workflow.flow.removeBranch')}
              data-testid="branch-remove"
            />
          </Space>
        </div>
        <Chain ctx={ctx} nodes={b.nodes} branch={b.id} />
        <div style={{ flex: 1 }} />
      </div>
    </div>
  );
}
