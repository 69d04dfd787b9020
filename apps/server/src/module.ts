import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Config } from './config.ts';
import type { Bus } from './db/bus.ts';
import type { Database } from './db/database.ts';
import type { JobDefinition } from './jobs/scheduler.ts';
import type { FileStore } from './lib/files/store.ts';

/** The Fastify instance as modules see it: TypeBox schemas type each handler's request. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What every module is built from. */
export interface Core {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
  /** what this instance tells every instance on the same database (db/bus.ts) */
  bus: Bus;
  /** the server's version (package.json) */
  version: string;
  /** every stored file (faces, photos, plans, firmware, …): DATA_DIR, the database or a bucket (docs/files.md) */
  files: FileStore;
}

/**
 * One feature as app.ts lists it (docs/architecture.md): its routes under the management API (which
 * checks sessions, tenants and rights), and its scheduled work. Built by `<feature>Module(core, deps)`,
 * which also returns the services other modules may use.
 */
export interface AppModule {
  readonly name: string;
  routes?: (app: App) => Promise<void>;
  jobs?: JobDefinition[];
  /** Runs once the server is built (before it listens): e.g. the initial administrator. */
  ready?: () => Promise<unknown>;
  /** Runs when the server closes, after the jobs stopped and before the database closes. */
  close?: () => Promise<unknown>;
}

/** Types a module entry against AppModule while keeping the services it also returns. */
export const defineModule = <M extends AppModule>(module: M): M => module;
