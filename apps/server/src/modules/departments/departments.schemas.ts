import { LIMITS } from '@faceadmin/shared';
import { Type, type TSchema } from 'typebox';
import { Id } from '../../lib/schemas.ts';

const Person = Type.Object({ id: Type.Integer(), name: Type.String() });
const Node: TSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  parent_id: Type.Integer(),
  sort: Type.Integer(),
  /** people directly in this department */
  persons: Type.Integer(),
  /** people in this department and all below it (a person in two of them counts twice) */
  total: Type.Integer(),
  incharges: Type.Array(Person),
  children: Type.Array(Type.Any()),
});
export const TreeData = Type.Array(Node);

/** spec §5: the department name is required. */
export const DepartmentCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: LIMITS.textMax }),
  parent_id: Type.Optional(Type.Integer({ minimum: 0 })),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  incharges: Type.Optional(Type.Array(Id, { maxItems: 20, uniqueItems: true })),
});
export const DepartmentUpdate = Type.Object({ id: Id, ...DepartmentCreate.properties });
export const CreatedData = Type.Object({ id: Type.Integer() });
