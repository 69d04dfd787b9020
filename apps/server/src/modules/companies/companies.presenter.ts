import type { Company } from '@faceadmin/shared';
import type { CompanyRow } from './companies.repository.ts';
import { optionsOf, viewOptions } from './companies.options.ts';

export function presentCompany(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    phone: row.phone,
    location: row.location,
    filter_seconds: row.filter_seconds,
    options: viewOptions(optionsOf(row)),
    time_zone: row.time_zone,
    created_at: row.created_at,
  };
}
