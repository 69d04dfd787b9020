import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { API_PREFIX } from '@faceadmin/shared';

/** The API's answer as it comes. */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** The session of the console signed in on `page` (its Admin-Token cookie). */
export async function sessionToken(page: Page): Promise<string> {
  return decodeURIComponent((await page.context().cookies()).find((c) => c.name === 'Admin-Token')?.value ?? '');
}

/**
 * The management API as the console signed in on `page` calls it (same server, same session, English), for setup
 * that is not a journey's subject. A FormData body goes as a form (uploads); the answer is the whole envelope.
 */
export async function callApi<T = any>(page: Page, method: 'GET' | 'POST', apiPath: string, body?: unknown): Promise<Envelope<T>> {
  const form = body instanceof FormData;
  const res = await fetch(`${new URL(page.url()).origin}${API_PREFIX}${apiPath}`, {
    method,
    headers: { 'X-Token': await sessionToken(page), 'X-Lang': 'en-US', ...(body === undefined || form ? {} : { 'Content-Type': 'application/json' }) },
    body: form ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Envelope<T>;
}

/** As callApi, answering the data of a success (anything else fails the journey with the server's message). */
export async function api<T = any>(page: Page, method: 'GET' | 'POST', apiPath: string, body?: unknown): Promise<T> {
  const env = await callApi<T>(page, method, apiPath, body);
  assert.equal(env.code, 20000, `${apiPath}: ${env.message}`);
  return env.data;
}
