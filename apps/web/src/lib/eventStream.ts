// Pure: the console's reader of server-sent events (request.ts `followStream`), testable without a browser.

/** One server-sent event (`event:` name and its `data:` lines joined). */
export interface StreamEvent {
  event: string;
  data: string;
  /** the `id:` the server gave it (sent back as Last-Event-ID on a reconnect); absent when none */
  id?: string;
}

/**
 * Splits server-sent-event text into complete events; `rest` is the unfinished tail to prepend to the next chunk.
 * Comments (`: ping`) and `retry:` lines carry no event.
 */
export function parseEventStream(text: string): { events: StreamEvent[]; rest: string } {
  const events: StreamEvent[] = [];
  const normalized = text.replace(/\r\n?/g, '\n');
  const blocks = normalized.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    if (data.length) events.push(id === undefined ? { event, data: data.join('\n') } : { event, data: data.join('\n'), id });
  }
  return { events, rest };
}
