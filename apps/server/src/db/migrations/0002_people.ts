import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('departments'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('departments_company_parent').on('departments').columns(['company_id', 'parent_id']).execute();

  await withId(db.schema.createTable('persons'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('photo', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('rfid', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('idcard', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('work_status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('notify', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('access_from', 'text')
    .addColumn('access_to', 'text')
    .addColumn('access_periods', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('door_password', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('remote_open', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('admin_password', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('feature_rights', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('user_pri', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    // lower(name) number phone card, kept by the repository: one LIKE per row for keyword search
    .addColumn('search', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('persons_company_number', ['company_id', 'number'])
    .execute();
  await db.schema.createIndex('persons_company_name').on('persons').columns(['company_id', 'name']).execute();
  await db.schema.createIndex('persons_company_status').on('persons').columns(['company_id', 'work_status']).execute();

  await db.schema
    .createTable('person_departments')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .addColumn('department_id', 'integer', (c) => c.notNull().references('departments.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('person_departments_pk', ['person_id', 'department_id'])
    .execute();
  await db.schema.createIndex('person_departments_dept').on('person_departments').columns(['department_id', 'person_id']).execute();

  await db.schema
    .createTable('department_heads')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('department_id', 'integer', (c) => c.notNull().references('departments.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('department_heads_pk', ['department_id', 'person_id'])
    .execute();
}
