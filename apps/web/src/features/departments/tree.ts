import type { DepartmentNode } from '@faceadmin/shared';

/** Where a dragged department lands relative to the node it was dropped on. */
export type DropPlace = 'inside' | 'before' | 'after';

export interface SortUpdate {
  id: number;
  sort: number;
}

/** What a drop means for the API: the dragged department's new parent and sort, then its new siblings' sorts. */
export interface MovePlan {
  id: number;
  parent_id: number;
  sort: number;
  /** Siblings whose sort must change so the new order holds (the server orders by sort, then id). */
  siblings: SortUpdate[];
}

export function findNode(tree: DepartmentNode[], id: number): DepartmentNode | undefined {
  for (const n of tree) {
    if (n.id === id) return n;
    const sub = findNode(n.children, id);
    if (sub) return sub;
  }
  return undefined;
}

/** Ids from the root down to `id` (inclusive); empty when not found. */
export function pathTo(tree: DepartmentNode[], id: number): number[] {
  for (const n of tree) {
    if (n.id === id) return [n.id];
    const sub = pathTo(n.children, id);
    if (sub.length) return [n.id, ...sub];
  }
  return [];
}

export function flattenTree(tree: DepartmentNode[]): DepartmentNode[] {
  return tree.flatMap((n) => [n, ...flattenTree(n.children)]);
}

/**
 * antd Tree's onDrop gives `dropPosition` relative to the whole sibling list and the target's `pos` ("0-1-2");
 * the difference is -1 (above), 0 (on it) or 1 (below). `dropToGap` false means "into the node".
 */
export function dropPlaceOf(info: { dropToGap: boolean; dropPosition: number; pos: string }): DropPlace {
  if (!info.dropToGap) return 'inside';
  const last = Number(info.pos.split('-').pop());
  const rel = info.dropPosition - last;
  return rel < 0 ? 'before' : 'after';
}

/**
 * The API calls for dropping `dragId` on `targetId`. Returns null when nothing changes.
 * Cycles (into itself or a descendant) are not filtered here: the server refuses them with a message.
 */
export function planMove(tree: DepartmentNode[], dragId: number, targetId: number, place: DropPlace): MovePlan | null {
  const drag = findNode(tree, dragId);
  const target = findNode(tree, targetId);
  if (!drag || !target || dragId === targetId) return null;
  const parentId = place === 'inside' ? target.id : target.parent_id;
  const siblingsOf = (pid: number) => (pid === 0 ? tree : (findNode(tree, pid)?.children ?? []));
  const others = siblingsOf(parentId).filter((n) => n.id !== dragId);
  let index = others.length;
  if (place !== 'inside') {
    const at = others.findIndex((n) => n.id === targetId);
    index = place === 'before' ? at : at + 1;
  }
  const order = [...others.slice(0, index), drag, ...others.slice(index)];
  const before = siblingsOf(parentId).map((n) => n.id);
  if (parentId === drag.parent_id && before.length === order.length && before.every((id, i) => id === order[i]!.id)) return null;
  const siblings: SortUpdate[] = [];
  order.forEach((n, i) => {
    if (n.id !== dragId && n.sort !== i) siblings.push({ id: n.id, sort: i });
  });
  return { id: dragId, parent_id: parentId, sort: order.indexOf(drag), siblings };
}
