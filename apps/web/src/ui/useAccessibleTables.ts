import { useEffect, type RefObject } from 'react';

/**
 * Two fixes to the antd tables inside `ref`, checked after every render as rows and columns come and go:
 * - the parts that scroll (a table wider than its card, a body with a fixed height) take keyboard focus, so arrow keys
 *   scroll them (WCAG 2.1.1; axe's scrollable-region-focusable);
 * - the row antd adds to measure column widths is hidden from assistive technology but holds a copy of the header's
 *   select-all checkbox, which the Tab key could still reach: it is made inert (axe's aria-hidden-focus).
 */
export function useAccessibleTables(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    for (const el of root.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body')) {
      const scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
      if (scrolls) el.tabIndex = 0;
      else el.removeAttribute('tabindex');
    }
    for (const row of root.querySelectorAll<HTMLElement>('.ant-table-measure-row')) row.inert = true;
  });
}
