import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.ts';

/** A row id: positive, and within a 32-bit integer column on both databases. */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
/** `{id}` as a body, a query string or path parameters. */
export const IdBody = Type.Object({ id: Id });
export type IdBody = Static<typeof IdBody>;
/** A 0/1 switch. */
export const Flag = Type.Integer({ minimum: 0, maximum: 1 });
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.pageMax, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.pageSizeMax, default: 20 })),
};
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
/**
 * A page of a list. `more`: the list counted no further than `total` and has more rows than that (a list that may
 * hold millions, such as the punches, stops counting there: the console shows "more than 10,000").
 */
export const Page = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({ items: Type.Array(item), total: Type.Integer(), more: Type.Optional(Type.Boolean()), page: Type.Integer(), pageSize: Type.Integer() });
export interface Page<T> {
  items: T[];
  total: number;
  more?: boolean;
  page: number;
  pageSize: number;
}

/**
 * A string from a known set, for answers: typed as that set while the schema stays `type: string` (plus the enum
 * as documentation), so the serializer writes whatever the server holds exactly as before.
 */
export const StringEnum = <const T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>(Type.String({ enum: [...values] }));

/** A tree level whose children are more of the same: the schema keeps them as plain JSON, the type knows them. */
export const Children = <T>() => Type.Unsafe<T[]>(Type.Array(Type.Any()));

export const Count = Type.Object({ count: Type.Integer() });
export type Count = Static<typeof Count>;
export const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });
export type Ref = Static<typeof Ref>;

/** The media type of the spreadsheets the API serves. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
