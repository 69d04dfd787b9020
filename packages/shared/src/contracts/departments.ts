import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.ts';
import { Children, Id, IdBody, Ref } from './common.ts';
import { endpoint } from './endpoint.ts';

const DepartmentFields = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  parent_id: Type.Integer(),
  sort: Type.Integer(),
  /** people directly in this department */
  persons: Type.Integer(),
  /** people in this department and all below it (a person in two of them counts twice) */
  total: Type.Integer(),
  incharges: Type.Array(Ref),
});
export type DepartmentNode = Static<typeof DepartmentFields> & { children: DepartmentNode[] };
export const DepartmentNode = Type.Object({ ...DepartmentFields.properties, children: Children<DepartmentNode>() });
export const DepartmentTree = Type.Array(DepartmentNode);

/** spec §5: the department name is required. */
export const DepartmentCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: LIMITS.textMax }),
  parent_id: Type.Optional(Type.Integer({ minimum: 0 })),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  incharges: Type.Optional(Type.Array(Id, { maxItems: 20, uniqueItems: true })),
});
export type DepartmentCreate = Static<typeof DepartmentCreate>;
export const DepartmentUpdate = Type.Object({ id: Id, ...DepartmentCreate.properties });
export type DepartmentUpdate = Static<typeof DepartmentUpdate>;
export const DepartmentCreated = Type.Object({ id: Type.Integer() });

export const departmentsApi = {
  tree: endpoint({ method: 'GET', path: '/org/tree', response: DepartmentTree }),
  create: endpoint({ method: 'POST', path: '/org/create', body: DepartmentCreate, response: DepartmentCreated }),
  update: endpoint({ method: 'POST', path: '/org/update', body: DepartmentUpdate, response: Type.Null() }),
  delete: endpoint({ method: 'POST', path: '/org/delete', body: IdBody, response: Type.Null() }),
};
