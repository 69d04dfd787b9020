import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button, Dropdown, Tag, type MenuProps } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { flattenRoutes, type RouteNode } from '../routes/routeTable.ts';
import { tagsStore, useTags, type VisitedTag } from '../../lib/tags.ts';
import { useReducedMotion } from '../../lib/motion.ts';
import { reachableTags } from './reachableTags.ts';

/**
 * Visited pages as tabs with a context menu (spec §2); affix routes (the dashboard) are pinned. Tabs that do not fit
 * scroll sideways (arrows, the wheel), and the current page's tab is kept in view.
 */
export function TagsView({ routes }: { routes: RouteNode[] }) {
  const { t, i18n } = useTranslation();
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

  const { ref: stripRef, back, on, scroll } = useStrip(location.pathname, tags.length, i18n.language);
  // The arrows are there while the tabs do not fit; the one at its end does nothing (aria-disabled, not disabled: a
  // keyboard user pressing it to the end keeps the focus on it).
  const arrows = back || on;
  const arrow = (direction: -1 | 1, more: boolean) => (
    <Button
      size="small"
      type="text"
      icon={direction < 0 ? <LeftOutlined /> : <RightOutlined />}
      aria-label={t(direction < 0 ? 'layout.tags.scrollBack' : 'layout.tags.scrollOn')}
      aria-disabled={!more}
      style={more ? undefined : { opacity: 0.35, cursor: 'default' }}
      onClick={() => more && scroll(direction)}
      data-testid={direction < 0 ? 'tags-back' : 'tags-on'}
    />
  );

  return (
    <div className="fa-tags" data-testid="tags-view">
      {arrows && arrow(-1, back)}
      <nav className="fa-tags-strip" ref={stripRef} aria-label={t('layout.tags.label')}>
        {tags.map((tag) => {
          const active = tag.path === location.pathname;
          return (
            <Dropdown key={tag.path} trigger={['contextMenu']} menu={menuFor(tag)}>
              <Tag
                className="fa-tag"
                color={active ? 'processing' : undefined}
                data-active={active || undefined}
                // a button of its own, reached with Tab and named by its page (antd's is "Close" on every tab)
                closable={isAffix(tag.path) ? false : { 'aria-label': t('layout.tags.closeTab', { name: t(tag.titleKey) }) }}
                onClose={(e) => {
                  e.preventDefault();
                  close(tag.path);
                }}
                // the tab's edge opens it too (the link inside does so itself)
                onClick={(e) => {
                  if (!(e.target as HTMLElement).closest('a')) void navigate(tag.path);
                }}
              >
                <Link to={tag.path} aria-current={active ? 'page' : undefined}>
                  {t(tag.titleKey)}
                </Link>
              </Tag>
            </Dropdown>
          );
        })}
      </nav>
      {arrows && arrow(1, on)}
    </div>
  );
}

/** The tab strip's scrolling: whether there is more to either side, the arrows' and the wheel's steps, the current tab shown. */
function useStrip(path: string, count: number, language: string) {
  const ref = useRef<HTMLElement>(null);
  const reduced = useReducedMotion();
  const [ends, setEnds] = useState({ back: false, on: false });
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const back = el.scrollLeft > 1;
    const on = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEnds((was) => (was.back === back && was.on === on ? was : { back, on }));
  }, []);
  // the current page's tab comes into view when the page, the set of tabs or their language changes (the strip
  // scrolls, never the page around it)
  useLayoutEffect(() => {
    const el = ref.current;
    const tab = el?.querySelector<HTMLElement>('[data-active]');
    if (el && tab) {
      const strip = el.getBoundingClientRect();
      const at = tab.getBoundingClientRect();
      if (at.left < strip.left) el.scrollLeft += at.left - strip.left;
      else if (at.right > strip.right) el.scrollLeft += at.right - strip.right;
    }
    measure();
  }, [path, count, language, measure]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const seen = new ResizeObserver(measure);
    seen.observe(el);
    // an upright wheel over the strip turns it sideways while it has further to go (not the page behind it)
    const wheel = (e: WheelEvent) => {
      if (Math.abs(e.deltaY) <= Math.abs(e.deltaX)) return;
      const room = e.deltaY < 0 ? el.scrollLeft : el.scrollWidth - el.clientWidth - el.scrollLeft;
      if (room <= 1) return;
      e.preventDefault();
      el.scrollLeft += e.deltaY;
    };
    el.addEventListener('scroll', measure, { passive: true });
    el.addEventListener('wheel', wheel, { passive: false });
    return () => {
      seen.disconnect();
      el.removeEventListener('scroll', measure);
      el.removeEventListener('wheel', wheel);
    };
  }, [measure]);
  return {
    ref,
    ...ends,
    /** a step of most of the strip's width, back (-1) or on (1) */
    scroll: (direction: -1 | 1) =>
      ref.current?.scrollBy({
        left: direction * ref.current.clientWidth * 0.8,
        behavior: reduced ? 'auto' : 'smooth',
      }),
  };
}
