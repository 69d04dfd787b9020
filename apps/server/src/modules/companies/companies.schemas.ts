import { LIMITS } from '@faceadmin/shared';
import { Type } from 'typebox';
import { Flag, Id } from '../../lib/schemas.ts';

export const CompanyOptionsSchema = Type.Object({
  iocount: Flag,
  rfid: Flag,
  idcard: Flag,
  number: Flag,
  alarmRing: Flag,
  thirdParty: Flag,
  parking: Type.Object({ enabled: Flag, url: Type.String({ maxLength: 300 }), key: Type.String({ maxLength: 200 }) }),
  dualAuth: Flag,
  internalTesting: Flag,
});
export const CompanyOptionsInput = Type.Partial(
  Type.Object({
    ...CompanyOptionsSchema.properties,
    parking: Type.Partial(CompanyOptionsSchema.properties.parking),
  }),
);

export const CompanySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  address: Type.String(),
  phone: Type.String(),
  location: Type.String(),
  filter_seconds: Type.Integer(),
  options: CompanyOptionsSchema,
  created_at: Type.String(),
});

/** spec §5: company name and contact phone are required. */
export const CompanyInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: LIMITS.textMax }),
  phone: Type.String({ minLength: 1, maxLength: 30, pattern: '^[0-9+()\\- ]+$' }),
  address: Type.Optional(Type.String({ maxLength: 200 })),
  location: Type.Optional(Type.String({ maxLength: 60, pattern: '^$|^-?\\d{1,3}(\\.\\d+)?,-?\\d{1,2}(\\.\\d+)?$' })),
  filter_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
  options: Type.Optional(CompanyOptionsInput),
});

export const CompanyListData = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      address: Type.String(),
      phone: Type.String(),
      role: Type.String(),
      is_init: Type.Integer(),
      current: Type.Boolean(),
    }),
  ),
  total: Type.Integer(),
});
export const SetDefaultBody = Type.Object({ company_id: Id });
