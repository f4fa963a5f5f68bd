/** One part of a MIME multi-part userData archive. */
export interface MimePart {
  contentType: string;
  content: string;
  /** 1-based line in the whole text where the part's content starts (for findings). */
  startLine: number;
  headers: Record<string, string>;
}

/** The parts of a userData text, and what is malformed about it. */
export interface MimeArchive {
  /** True when the text was a MIME document (headers first); false for a bare script or config. */
  isMime: boolean;
  parts: MimePart[];
  problems: string[];
  /**
   * What Go's mime/multipart (Karpenter's userData merge, nodeadm) fails on while Python's email package
   * (cloud-init) reads on: an archive whose end is not `--boundary--`.
   */
  strictProblems?: string[];
}

/** Content type of shell-script parts, as Karpenter writes them. */
export const ShellScriptType = 'text/x-shellscript; charset="us-ascii"';
/** Content type of nodeadm NodeConfig parts. */
export const NodeConfigType = 'application/node.eks.aws';
/** The boundary Karpenter (and Tenon) use for generated archives. */
export const Boundary = '//';

/** True when the text starts with MIME headers (the rule Karpenter uses to tell MIME from a bare script). */
export function looksLikeMime(text: string): boolean {
  const t = text.trimStart();
  return /^mime-version:/i.test(t) || /^content-type:/i.test(t);
}

interface HeaderBlock {
  headers: Record<string, string>;
  next: number;
}

function readHeaders(lines: readonly string[], start: number): HeaderBlock {
  const headers: Record<string, string> = {};
  let last = '';
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') return { headers, next: i + 1 };
    if (/^\s/.test(line) && last) {
      headers[last] = `${headers[last] ?? ''} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) return { headers, next: i };
    last = line.slice(0, colon).trim().toLowerCase();
    headers[last] = line.slice(colon + 1).trim();
  }
  return { headers, next: i };
}

/** Reads a parameter (e.g. boundary) from a Content-Type header value. */
export function headerParam(value: string, name: string): string | undefined {
  const re = new RegExp(`;\\s*${name}\\s*=\\s*("([^"]*)"|[^;\\s]+)`, 'i');
  const m = re.exec(value);
  if (!m) return undefined;
  return m[2] ?? m[1];
}

function decode(content: string, headers: Record<string, string>, problems: string[]): string {
  if ((headers['content-transfer-encoding'] ?? '').toLowerCase() !== 'base64') return content;
  const clean = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) {
    problems.push('a part declares base64 transfer encoding but is not valid base64');
    return content;
  }
  return Buffer.from(clean, 'base64').toString('utf8');
}

/** Splits userData into parts. A bare (non-MIME) text is one part of the given default type. Never throws. */
export function parseMime(text: string, defaultType = ShellScriptType): MimeArchive {
  const normalised = text.replace(/\r\n/g, '\n');
  if (!looksLikeMime(normalised)) {
    return {
      isMime: false,
      parts: [{ contentType: defaultType, content: text, startLine: 1, headers: {} }],
      problems: [],
    };
  }
  const lines = normalised.split('\n');
  const lead = lines.findIndex((l) => l.trim() !== '');
  const top = readHeaders(lines, Math.max(lead, 0));
  const type = top.headers['content-type'] ?? '';
  const problems: string[] = [];
  if (!/^multipart\//i.test(type)) {
    if (!type) problems.push('MIME headers without a Content-Type');
    const content = decode(lines.slice(top.next).join('\n'), top.headers, problems);
    return {
      isMime: true,
      parts: [{ contentType: type || 'text/plain', content, startLine: top.next + 1, headers: top.headers }],
      problems,
    };
  }
  const boundary = headerParam(type, 'boundary');
  if (!boundary) {
    return { isMime: true, parts: [], problems: ['multipart Content-Type without a boundary parameter'] };
  }
  const strictProblems: string[] = [];
  const parts = splitParts(lines, top.next, boundary, { problems, strict: strictProblems });
  return { isMime: true, parts, problems, strictProblems };
}

/** True when every line from `from` on is blank. */
function blankFrom(lines: readonly string[], from: number): boolean {
  for (let i = from; i < lines.length; i++) if ((lines[i] ?? '').trim() !== '') return false;
  return true;
}

function splitParts(
  lines: readonly string[],
  from: number,
  boundary: string,
  found: { problems: string[]; strict: string[] },
): MimePart[] {
  const { problems, strict } = found;
  const delim = `--${boundary}`;
  const parts: MimePart[] = [];
  let current: number | undefined;
  let closed = false;
  const flush = (end: number): void => {
    if (current === undefined) return;
    const h = readHeaders(lines, current);
    const contentType = h.headers['content-type'];
    if (!contentType) problems.push(`part ${parts.length + 1} has no Content-Type header`);
    const content = decode(lines.slice(h.next, end).join('\n'), h.headers, problems);
    parts.push({ contentType: contentType ?? 'text/plain', content, startLine: h.next + 1, headers: h.headers });
  };
  for (let i = from; i < lines.length && !closed; i++) {
    const line = (lines[i] ?? '').trimEnd();
    if (line === delim || line === `${delim}--`) {
      flush(i);
      current = i + 1;
      closed = line === `${delim}--`;
    }
  }
  if (!closed && current !== undefined) {
    // Ending on "--boundary" and a newline (Karpenter's own examples do) reads the same as "--boundary--" in Go
    // (the next part's headers meet EOF: io.EOF, the loop's end) and in Python (a defect and an empty part).
    if (!blankFrom(lines, current)) {
      flush(lines.length);
      strict.push(
        `the last part is not closed: Go's mime/multipart (Karpenter, nodeadm) reads "unexpected EOF" in it; end with "${delim}--"`,
      );
    } else if (current >= lines.length)
      strict.push(
        `the archive ends with "${delim}" and no newline: Go's mime/multipart (Karpenter, nodeadm) fails with "NextPart: EOF"; end with "${delim}--"`,
      );
  }
  if (parts.length === 0 && current === undefined) problems.push(`no part starts with the boundary "${delim}"`);
  return parts;
}

/** One part to write. */
export interface MimeEntry {
  contentType: string;
  content: string;
}

/** Writes a multi-part archive in the layout Karpenter generates (boundary `//`, LF line ends). */
export function serializeMime(entries: readonly MimeEntry[]): string {
  const out = ['MIME-Version: 1.0', `Content-Type: multipart/mixed; boundary="${Boundary}"`, ''];
  const body = entries.map((e) => `--${Boundary}\nContent-Type: ${e.contentType}\n\n${e.content}`);
  return `${out.join('\n')}\n${body.join('\n')}\n--${Boundary}--\n`;
}
