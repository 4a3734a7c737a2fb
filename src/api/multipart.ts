/**
 * The multipart/form-data reader of uploads (RFC 7578): parts are read one after another from
 * the request as it arrives, each part's bytes passed on as they come (a 25 MB file is never
 * held whole), the delimiter found with `Buffer.indexOf`. What it refuses: a body without the
 * boundary its content type names or cut off before the closing delimiter (`MultipartError`,
 * 400 `invalid_request`), more fields or files than the limits allow (413).
 */
import type { Readable } from 'node:stream';
import { ApiError } from '../domain/errors.js';

/** The body is not the multipart/form-data its content type says (400 `invalid_request`). */
export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

export interface FormPart {
  /** The `name` of its Content-Disposition. */
  name: string | undefined;
  /** Its `filename` (`filename*` when given), as sent; undefined for a field. */
  filename: string | undefined;
  /** A file: it has a file name or the type application/octet-stream. */
  isFile: boolean;
  /** Its bytes as they arrive. The next part is read once this one's bytes are (the rest is skipped). */
  body: AsyncIterable<Buffer>;
}

export interface MultipartLimits {
  /** File parts a body may have (any name); past it, 413 `too_many_files`. */
  files: number;
  /** Other parts a body may have; past it, 413 `payload_too_large`. */
  fields: number;
}

/** The most header bytes one part may have. */
const MAX_HEADER_BYTES = 80 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/** True when the request's content type is multipart/form-data. */
export function isFormData(contentType: string | undefined): boolean {
  return /^multipart\/form-data\s*(;|$)/i.test(contentType ?? '');
}

/** The boundary a multipart content type names (quoted or not); throws `MultipartError` without one. */
export function boundaryOf(contentType: string | undefined): string {
  const m = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType ?? '');
  if (!m) throw new MultipartError('no boundary in the content type');
  return m[1] ?? m[2];
}

/**
 * A request's chunks pulled one at a time: the request is paused while a chunk waits for its
 * pull, so a slow consumer holds back the sender, and it is never destroyed (its socket stays
 * open for the answer). A chunk that finds a pull waiting goes to it without pausing the
 * request: a pause costs its resume a turn of the stream machinery (`nextTick`, a read, a flow)
 * for each chunk of a body the consumer keeps up with. An error emitted on the request (the idle
 * watch) fails the next pull. `release()` lets go of the request, leaving it paused.
 */
export function pullChunks(raw: Readable): { pull(): Promise<Buffer | null>; release(): void } {
  const queue: Buffer[] = [];
  let ended = false;
  let failure: unknown = null;
  let waiter: (() => void) | null = null;
  const wake = () => {
    const w = waiter;
    waiter = null;
    w?.();
  };
  const onData = (chunk: Buffer) => {
    queue.push(chunk);
    if (waiter) wake();
    else raw.pause();
  };
  const onEnd = () => {
    ended = true;
    wake();
  };
  const onError = (err: unknown) => {
    failure ??= err;
    wake();
  };
  const onClose = () => {
    if (!ended) failure ??= new MultipartError('the connection closed before the body ended');
    wake();
  };
  raw.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  return {
    async pull() {
      for (;;) {
        if (failure) throw failure;
        const chunk = queue.shift();
        if (chunk) {
          if (queue.length === 0 && raw.isPaused()) raw.resume();
          return chunk;
        }
        if (ended) return null;
        await new Promise<void>((resolve) => (waiter = resolve));
      }
    },
    release() {
      raw.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      raw.pause();
    },
  };
}

/**
 * Reads the parts of a multipart body whose chunks `pull` gives (null at its end), delimited by
 * `boundary`. One reader reads one body, once.
 */
export class MultipartReader {
  /** `CRLF--boundary`: what ends a part's bytes. */
  private readonly delimiter: Buffer;
  /** Bytes read and not yet consumed. A virtual CRLF in front lets the first delimiter match like the others. */
  private buf: Buffer = CRLF;
  /** Inside a part's bytes (or the preamble), before its delimiter. */
  private inBody = true;

  constructor(
    private readonly pull: () => Promise<Buffer | null>,
    boundary: string,
    private readonly limits: MultipartLimits,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  /** The parts in order; the body after the closing delimiter is read to its end and dropped. */
  async *parts(): AsyncGenerator<FormPart> {
    let files = 0;
    let fields = 0;
    await this.skipBody(); // the preamble
    while (await this.nextPart()) {
      const headers = await this.readHeaders();
      this.inBody = true;
      const part = partOf(headers, this.bodyChunks());
      if (part) {
        if (part.isFile && ++files > this.limits.files) throw new ApiError(413, 'too_many_files', `at most ${this.limits.files} file parts a request`);
        if (!part.isFile && ++fields > this.limits.fields) throw new ApiError(413, 'payload_too_large', `at most ${this.limits.fields} fields a request`);
        yield part;
      }
      await this.skipBody();
    }
    while ((await this.pull()) !== null);
  }

  /** The current part's bytes from where they were left, up to its delimiter. */
  private async *bodyChunks(): AsyncGenerator<Buffer> {
    while (this.inBody) {
      const piece = await this.bodyPiece();
      if (piece) yield piece;
    }
  }

  private async skipBody(): Promise<void> {
    while (this.inBody) await this.bodyPiece();
  }

  /**
   * The next bytes of the current part that cannot be the start of its delimiter, or null when
   * there were none yet; at the delimiter, `inBody` turns false and the bytes after it stay in
   * `buf`. Only the last `delimiter.length - 1` bytes are held back between chunks; a delimiter
   * split between the held bytes and a new chunk is found in a probe of those bytes and the
   * chunk's first ones, so a chunk is not copied to be searched.
   */
  private async bodyPiece(): Promise<Buffer | null> {
    const d = this.delimiter;
    const at = this.buf.indexOf(d);
    if (at >= 0) return this.endBody(this.buf.subarray(0, at), this.buf.subarray(at + d.length));
    if (this.buf.length >= d.length) {
      const cut = this.buf.length - (d.length - 1);
      const piece = this.buf.subarray(0, cut);
      this.buf = this.buf.subarray(cut);
      return piece;
    }
    const chunk = await this.pull();
    if (chunk === null) throw new MultipartError('the body ends inside a part (no closing delimiter)');
    const held = this.buf;
    if (held.length === 0) {
      this.buf = chunk;
    } else if (chunk.length < d.length) {
      this.buf = Buffer.concat([held, chunk]);
    } else {
      const probe = Buffer.concat([held, chunk.subarray(0, d.length - 1)]);
      const split = probe.indexOf(d);
      if (split >= 0) return this.endBody(held.subarray(0, split), chunk.subarray(split + d.length - held.length));
      this.buf = chunk;
      return held;
    }
    return null;
  }

  private endBody(last: Buffer, rest: Buffer): Buffer | null {
    this.buf = rest;
    this.inBody = false;
    return last.length > 0 ? last : null;
  }

  /** More bytes into `buf`; throws at the body's end. */
  private async more(): Promise<void> {
    const chunk = await this.pull();
    if (chunk === null) throw new MultipartError('the body ends inside a part header (no closing delimiter)');
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
  }

  /**
   * After a delimiter: true when a part follows (optional spaces or tabs, then CRLF), false at
   * the closing delimiter (`--`).
   */
  private async nextPart(): Promise<boolean> {
    let i = 0;
    for (;;) {
      while (this.buf.length < i + 2) await this.more();
      if (i === 0 && this.buf[0] === 0x2d && this.buf[1] === 0x2d) return false;
      const c = this.buf[i];
      if (c === 0x20 || c === 0x09) {
        if (++i > 1024) throw new MultipartError('a delimiter line is too long');
        continue;
      }
      if (c !== 0x0d || this.buf[i + 1] !== 0x0a) throw new MultipartError('a delimiter is not followed by CRLF');
      // The CRLF stays: the header block is searched from it, so that no headers at all is CRLF CRLF.
      this.buf = this.buf.subarray(i);
      return true;
    }
  }

  /** The part's header lines (from the CRLF after its delimiter to the blank line), by lower-case name. */
  private async readHeaders(): Promise<Map<string, string>> {
    let end: number;
    while ((end = this.buf.indexOf(HEADERS_END)) < 0) {
      if (this.buf.length > MAX_HEADER_BYTES) throw new MultipartError(`a part's headers exceed ${MAX_HEADER_BYTES} bytes`);
      await this.more();
    }
    if (end > MAX_HEADER_BYTES) throw new MultipartError(`a part's headers exceed ${MAX_HEADER_BYTES} bytes`);
    const block = end > 0 ? this.buf.toString('utf8', 2, end) : '';
    this.buf = this.buf.subarray(end + HEADERS_END.length);
    const headers = new Map<string, string>();
    let last = '';
    for (const line of block.split('\r\n')) {
      if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
        headers.set(last, `${headers.get(last)} ${line.trim()}`); // an obsolete folded line
        continue;
      }
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      last = line.slice(0, colon).trim().toLowerCase();
      if (!headers.has(last)) headers.set(last, line.slice(colon + 1).trim());
    }
    return headers;
  }
}

/** The part its headers describe, or null for one that is no form-data part (it is skipped). */
function partOf(headers: Map<string, string>, body: AsyncIterable<Buffer>): FormPart | null {
  const disposition = headers.get('content-disposition');
  if (!disposition) return null;
  const [type, params] = parseParams(disposition);
  if (type.toLowerCase() !== 'form-data') return null;
  const name = params.get('name');
  const filename = params.get('filename*') ?? params.get('filename');
  const contentType = (headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  return { name, filename, isFile: filename !== undefined || contentType === 'application/octet-stream', body };
}

/**
 * `type; key=value; key="quoted \" value"; key*=charset'lang'percent-encoded` into the type and
 * the parameters by lower-case key (`key*` decoded, kept under its own key).
 */
export function parseParams(header: string): [string, Map<string, string>] {
  const params = new Map<string, string>();
  let i = header.indexOf(';');
  const type = (i < 0 ? header : header.slice(0, i)).trim();
  while (i >= 0 && i < header.length) {
    i++; // past ';'
    const eq = header.indexOf('=', i);
    if (eq < 0) break;
    const key = header.slice(i, eq).trim().toLowerCase();
    let j = eq + 1;
    while (header[j] === ' ' || header[j] === '\t') j++;
    let value = '';
    if (header[j] === '"') {
      for (j++; j < header.length && header[j] !== '"'; j++) {
        if (header[j] === '\\' && j + 1 < header.length) j++;
        value += header[j];
      }
      i = header.indexOf(';', j);
    } else {
      i = header.indexOf(';', j);
      value = header.slice(j, i < 0 ? undefined : i).trim();
    }
    if (key.endsWith('*')) {
      const decoded = decodeExtended(value);
      if (decoded === null) continue;
      value = decoded;
    }
    if (key && !params.has(key)) params.set(key, value);
  }
  return [type, params];
}

/** RFC 5987 `charset'lang'percent-encoded` (UTF-8 or ISO-8859-1); null when it is not one. */
function decodeExtended(value: string): string | null {
  const m = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!m) return null;
  const charset = m[1].toLowerCase();
  const bytes = Buffer.from(m[2].replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
  if (charset === 'utf-8' || charset === 'utf8') return bytes.toString('utf8');
  if (charset === 'iso-8859-1' || charset === 'latin1') return bytes.toString('latin1');
  return null;
}
