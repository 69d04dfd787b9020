/**
 * The alertStream's framing (`GET /ISAPI/Event/notification/alertStream`, docs/isapi-protocol.md): an endless
 * multipart/mixed answer cut into its parts as it arrives. Bytes only: what a part means is events.codec.ts's `readAlertPart`.
 */

/** One part of the alertStream: its content type and bytes. */
export interface StreamPart {
  contentType: string;
  data: Buffer;
}

/** The boundary of a multipart answer (`multipart/mixed; boundary=MIME_boundary`), undefined when none. */
export function boundaryOf(contentType: string): string | undefined {
  if (!/^multipart\//i.test(contentType.trim())) return undefined;
  const m = /boundary=(?:"([^"]{1,70})"|([^\s;,]{1,70}))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

const CRLF2 = Buffer.from('\r\n\r\n');
/** the largest part header read before the part is given up as garbage */
const MAX_HEAD = 4096;

/**
 * Reads the alertStream (`GET /ISAPI/Event/notification/alertStream`: an endless multipart/mixed answer, one
 * part per event, heartbeats in between, a JPEG part after an event that has a picture) as it arrives, in
 * chunks cut anywhere. A part with `Content-Length` is taken by its length; one without, up to the next
 * boundary. Memory stays bounded whatever the terminal sends: bytes outside any part are dropped as they come,
 * a part over `maxPartBytes` is skipped (counted in `oversized`) without being kept, a header over 4 KB is
 * garbage. Never throws.
 */
export class AlertStreamParser {
  private buf: Buffer = Buffer.alloc(0);
  private state: 'seek' | 'head' | 'body' | 'skip' = 'seek';
  /** bytes of buf already searched for a boundary without one found */
  private scanned = 0;
  private length: number | undefined;
  private type = '';
  /** bytes of an oversized part still to drop */
  private skipping = 0;
  private readonly delim: Buffer;
  private readonly maxPartBytes: number;
  /** parts given up for being over the cap */
  oversized = 0;
  /** bytes dropped for being outside any readable part */
  garbage = 0;

  constructor(boundary: string, maxPartBytes: number) {
    this.delim = Buffer.from(`--${boundary}`);
    this.maxPartBytes = maxPartBytes;
  }

  /** chunks of the part being read, kept apart until it can complete (joining at every chunk would be quadratic) */
  private pieces: Buffer[] = [];
  private piecesBytes = 0;

  /** Feeds a chunk; returns the parts it completed. */
  push(chunk: Buffer): StreamPart[] {
    const out: StreamPart[] = [];
    if (this.state === 'body' && this.deferrable(chunk)) {
      this.pieces.push(chunk);
      this.piecesBytes += chunk.length;
      return out;
    }
    if (this.pieces.length) {
      this.buf = Buffer.concat([this.buf, ...this.pieces, chunk]);
      this.pieces = [];
      this.piecesBytes = 0;
    } else this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (let guard = 0; guard < 100_000; guard++) {
      if (this.state === 'skip') {
        const n = Math.min(this.skipping, this.buf.length);
        this.skipping -= n;
        this.buf = this.buf.subarray(n);
        if (this.skipping > 0) break;
        this.state = 'seek';
        continue;
      }
      if (this.state === 'seek') {
        const at = this.buf.indexOf(this.delim, Math.max(0, this.scanned - this.delim.length + 1));
        if (at < 0) {
          // Keep only what could still begin a boundary.
          const keep = Math.min(this.buf.length, this.delim.length - 1);
          if (this.buf.length - keep > 2) this.garbage += this.buf.length - keep;
          this.buf = Buffer.from(this.buf.subarray(this.buf.length - keep));
          this.scanned = this.buf.length;
          break;
        }
        // (the line end closing the previous part is no garbage)
        if (at > 2) this.garbage += at;
        this.buf = this.buf.subarray(at + this.delim.length);
        this.scanned = 0;
        this.state = 'head';
        continue;
      }
      if (this.state === 'head') {
        if (this.buf.length < 2) break;
        // The closing delimiter (`--boundary--`) ends the parts; anything after it is looked at as garbage.
        if (this.buf[0] === 0x2d && this.buf[1] === 0x2d) {
          this.buf = this.buf.subarray(2);
          this.state = 'seek';
          continue;
        }
        const end = this.buf.indexOf(CRLF2);
        if (end < 0) {
          if (this.buf.length > MAX_HEAD) {
            this.garbage += this.buf.length;
            this.buf = Buffer.alloc(0);
            this.state = 'seek';
            continue;
          }
          break;
        }
        if (end > MAX_HEAD) {
          this.garbage += end;
          this.buf = this.buf.subarray(end + 4);
          this.state = 'seek';
          continue;
        }
        const head = this.buf.subarray(0, end).toString('latin1');
        this.buf = this.buf.subarray(end + 4);
        this.type = /content-type:[ \t]*([^\r\n;]+)/i.exec(head)?.[1]?.trim() ?? '';
        const len = /content-length:[ \t]*(\d{1,12})[ \t]*(?:\r|\n|$)/i.exec(head)?.[1];
        this.length = len === undefined ? undefined : Number(len);
        if (this.length !== undefined && this.length > this.maxPartBytes) {
          this.oversized++;
          this.skipping = this.length;
          this.state = 'skip';
          continue;
        }
        this.scanned = 0;
        this.state = 'body';
        continue;
      }
      // body
      if (this.length !== undefined) {
        if (this.buf.length < this.length) break;
        out.push({ contentType: this.type, data: Buffer.from(this.buf.subarray(0, this.length)) });
        this.buf = this.buf.subarray(this.length);
        this.state = 'seek';
        this.scanned = 0;
        continue;
      }
      const next = this.buf.indexOf(this.delim, Math.max(0, this.scanned - this.delim.length + 1));
      if (next < 0) {
        if (this.buf.length > this.maxPartBytes) {
          // Over the cap with no end in sight: dropped, and the boundary looked for again from here.
          this.oversized++;
          this.garbage += this.buf.length;
          this.buf = Buffer.from(this.buf.subarray(this.buf.length - (this.delim.length - 1)));
          this.scanned = this.buf.length;
          this.state = 'seek';
          continue;
        }
        this.scanned = this.buf.length;
        break;
      }
      let data = this.buf.subarray(0, next);
      if (data.length >= 2 && data[data.length - 2] === 0x0d && data[data.length - 1] === 0x0a) data = data.subarray(0, -2);
      out.push({ contentType: this.type, data: Buffer.from(data) });
      this.buf = this.buf.subarray(next);
      this.scanned = 0;
      this.state = 'seek';
    }
    // What is kept is copied out of the chunk, so a large chunk is not held alive by a small remainder.
    if (this.buf.length && this.buf.buffer === chunk.buffer) this.buf = Buffer.from(this.buf);
    return out;
  }

  /** Whether a chunk of the body cannot complete the part (so it is only kept aside). */
  private deferrable(chunk: Buffer): boolean {
    const total = this.buf.length + this.piecesBytes + chunk.length;
    if (this.length !== undefined) return total < this.length;
    if (total > this.maxPartBytes) return false;
    // No length: the part ends at the next boundary, which may begin in what came before this chunk.
    const need = this.delim.length - 1;
    const tail: Buffer[] = [];
    let got = 0;
    for (let i = this.pieces.length - 1; i >= 0 && got < need; i--) {
      tail.unshift(this.pieces[i]!);
      got += this.pieces[i]!.length;
    }
    if (got < need) tail.unshift(this.buf.subarray(Math.max(0, this.buf.length - (need - got))));
    const prev = Buffer.concat(tail);
    return Buffer.concat([prev.subarray(Math.max(0, prev.length - need)), chunk]).indexOf(this.delim) < 0;
  }

  /** bytes held now (bounded by the part cap plus one chunk) */
  get buffered() {
    return this.buf.length + this.piecesBytes;
  }
}
