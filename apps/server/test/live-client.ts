import { API } from './helpers.ts';

export interface Received {
  id: string | undefined;
  event: string;
  data: any;
}

/** A console's live stream as a test reads it: every event kept, with a wait for the one a test expects. */
export interface LiveClient {
  events: Received[];
  status: number;
  /** the envelope when the server refused the stream */
  refusal: any;
  waitFor(what: string, match: (e: Received) => boolean, ms?: number): Promise<Received>;
  close(): void;
  /** resolves when the server ended the stream */
  ended: Promise<void>;
}

/** Opens GET /events on a listening server, as the console does (X-Token header, optional Last-Event-ID). */
export async function openLive(server: string, token: string, opts: { topics?: string; lastEventId?: string } = {}): Promise<LiveClient> {
  const ctrl = new AbortController();
  const headers: Record<string, string> = { 'X-Token': token, Accept: 'text/event-stream' };
  if (opts.lastEventId !== undefined) headers['Last-Event-ID'] = opts.lastEventId;
  const res = await fetch(`${server}${API}/events${opts.topics ? `?topics=${opts.topics}` : ''}`, { headers, signal: ctrl.signal });
  const events: Received[] = [];
  const waiters = new Set<() => void>();
  const client: LiveClient = {
    events,
    status: res.status,
    refusal: null,
    // as long as until() (test/terminals.ts): a busy machine delays an event, it does not lose it
    async waitFor(what, match, ms = 30_000) {
      const end = Date.now() + ms;
      for (;;) {
        const hit = events.find(match);
        if (hit) return hit;
        const left = end - Date.now();
        if (left <= 0) throw new Error(`no live event: ${what} (got ${events.map((e) => e.event).join(', ') || 'nothing'})`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () => ctrl.abort(),
    ended: Promise.resolve(),
  };
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    client.refusal = await res.json();
    return client;
  }
  client.ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          let event = 'message';
          let id: string | undefined;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('id: ') || line === 'id:') id = line.slice(4);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (!data.length) continue;
          events.push({ id, event, data: JSON.parse(data.join('\n')) });
        }
        for (const w of [...waiters]) w();
      }
    } catch {
      // aborted by the test or dropped by the server
    }
    for (const w of [...waiters]) w();
  })();
  return client;
}
