import type { Static, TSchema } from 'typebox';

export type Method = 'GET' | 'POST';

/** A download's answer: the file itself (of this media type) on success, the error envelope otherwise. */
export interface Binary {
  readonly binary: string;
}
export const binary = (mime: string): Binary => ({ binary: mime });
export const isBinary = (response: Endpoint['response']): response is Binary => typeof (response as Partial<Binary>).binary === 'string';

/** Any TypeBox schema; `binary` never appears in one, which tells the two kinds of answer apart. */
type DataSchema = TSchema & { readonly binary?: never };

/**
 * One route of the management API (paths are below API_PREFIX). `response` is the `data` inside the envelope,
 * or `binary(mime)` for a download; `multipart` marks an upload, whose body is a form and not JSON.
 */
export interface Endpoint {
  readonly method: Method;
  readonly path: string;
  readonly query?: TSchema;
  readonly body?: TSchema;
  readonly params?: TSchema;
  readonly multipart?: true;
  readonly response: DataSchema | Binary;
}

/** Keeps the entry's literal types (method, path, schemas) for the server's route types and the client's calls. */
export const endpoint = <const E extends Endpoint>(entry: E): E => entry;

/** The entry's path with its `:name` parameters filled in (links to pictures the API serves). */
export function pathOf<E extends Endpoint & { readonly params: TSchema }>(entry: E, params: Static<E['params']>): string {
  const values = params as Record<string, string | number>;
  return entry.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(values[name])));
}

/** A JSON call: JSON (or nothing) in, the envelope out. */
export type CallEndpoint = Endpoint & { readonly response: DataSchema; readonly multipart?: undefined };
/** A multipart upload answered by the envelope. */
export type UploadEndpoint = Endpoint & { readonly method: 'POST'; readonly response: DataSchema; readonly multipart: true };
/** A file download. */
export type DownloadEndpoint = Endpoint & { readonly response: Binary };

/** What the caller sends: the query string of a GET, the JSON body of a POST (undefined when the route takes neither). */
export type InputOf<E extends Endpoint> = E extends { readonly query: infer Q extends TSchema }
  ? Static<Q>
  : E extends { readonly body: infer B extends TSchema }
    ? Static<B>
    : undefined;

/** The `data` of a successful answer. */
export type ResponseOf<E extends Endpoint> = E['response'] extends Binary ? never : Static<E['response']>;
