import { Dropdown, Tag, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { flattenRoutes, type RouteNode } from '../routes/routeTable.ts';
import { tagsStore, useTags, type VisitedTag } from '../../lib/tags.ts';
import { reachableTags } from './reachableTags.ts';

/** Visited pages as tabs with a context menu (spec §2); affix routes (the dashboard) are pinned. */
export function TagsView({ routes }: { routes: RouteNode[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const visited = reachableTags(routes, useTags());
  const affix: VisitedTag[] = flattenRoutes(routes)
    .filter((r) => r.affix)
    .map((r) => ({ path: r.path, titleKey: r.titleKey }));
  const isAffix = (path: string) => affix.some((a) => a.path === path);
  const tags = [...affix, ...visited.filter((v) => !isAffix(v.path))];

  const goAfterClosing = (remaining: VisitedTag[], closed: string) => {
    if (closed !== location.pathname) return;
    const last = remaining[remaining.length - 1];
    void navigate(last?.path ?? '/dashboard');
  };
  const close = (path: string) => {
    const rest = tagsStore.get().filter((v) => v.path !== path);
    tagsStore.set(rest);
    goAfterClosing([...affix, ...rest.filter((v) => !isAffix(v.path))], path);
  };

  const menuFor = (tag: VisitedTag): MenuProps => ({
    items: [
      { key: 'refresh', label: t('layout.tags.refresh') },
      { key: 'close', label: t('layout.tags.close'), disabled: isAffix(tag.path) },
      { key: 'closeOthers', label: t('layout.tags.closeOthers') },
      { key: 'closeAll', label: t('layout.tags.closeAll') },
    ],
    onClick: ({ key }) => {
      if (key === 'refresh') void navigate(`/redirect${tag.path}`, { replace: true });
      else if (key === 'close') close(tag.path);
      else if (key === 'closeOthers') {
        tagsStore.set(tagsStore.get().filter((v) => v.path === tag.path));
        if (tag.path !== location.pathname) void navigate(tag.path);
      } else if (key === 'closeAll') {
        tagsStore.set([]);
        void navigate(affix[0]?.path ?? '/dashboard');
      }
    },
  });

  return (
    <div className="fa-tags" data-testid="tags-view">
      {tags.map((tag) => {
        const active = tag.path === location.pathname;
        return (
          <Dropdown key={tag.path} trigger={['contextMenu']} menu={menuFor(tag)}>
            <Tag
              className="fa-tag"
              color={active ? 'processing' : undefined}
              closable={!isAffix(tag.path)}
              onClose={(e) => {
                e.preventDefault();
                close(tag.path);
              }}
              onClick={() => void navigate(tag.path)}
            >
              {t(tag.titleKey)}
            </Tag>
          </Dropdown>
        );
      })}
    </div>
  );
}
