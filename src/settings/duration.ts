const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go duration (`1s`, `1m30s`, `720h`, `0.5h`) to milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * (unitMs[m[2] ?? ''] ?? Number.NaN);
    consumed = re.lastIndex;
  }
  return consumed === s.length && s.length > 0 && Number.isFinite(total) ? total : undefined;
}

/** Formats milliseconds as a short Go-style duration (`1h30m`, `45s`, `250ms`). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  rest -= m * 60;
  if (h) parts.push(`${h}h`);
  if (m) parts.push(`${m}m`);
  if (rest || parts.length === 0) parts.push(`${rest}s`);
  return parts.join('');
}
