/**
 * A small cron matcher for budget schedules: five fields (minute hour day-of-month month day-of-week) with
 * `*`, lists, ranges, steps and month/day names, plus the `@daily`-style macros, evaluated in UTC as Karpenter
 * does. Day-of-month and day-of-week combine with OR when both are restricted (classic cron, robfig/cron).
 */

/** A parsed schedule: the allowed values of each field. */
export interface CronSchedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  daysOfWeek: ReadonlySet<number>;
  domRestricted: boolean;
  dowRestricted: boolean;
}

/** A schedule that could not be parsed, with the field and the rule. */
export type CronParse = { ok: true; schedule: CronSchedule } | { ok: false; error: string };

const macros: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const dayNames = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: string[];
  /** Offset of names[0] (months start at 1). */
  nameBase?: number;
}

const fields: FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: monthNames, nameBase: 1 },
  // 7 is accepted as Sunday, as in most crons.
  { name: 'day-of-week', min: 0, max: 7, names: dayNames, nameBase: 0 },
];

function value(s: string, f: FieldSpec): number | undefined {
  const i = f.names?.indexOf(s.toLowerCase()) ?? -1;
  if (i >= 0) return i + (f.nameBase ?? 0);
  if (!/^\d+$/.test(s)) return undefined;
  const n = Number(s);
  return n >= f.min && n <= f.max ? n : undefined;
}

function parsePart(part: string, f: FieldSpec, out: Set<number>): string | undefined {
  const [range = '', stepText] = part.split('/');
  const step = stepText === undefined ? 1 : Number(stepText);
  if (!Number.isInteger(step) || step < 1) return `${f.name}: bad step in "${part}"`;
  let lo = f.min;
  let hi = f.max;
  if (range !== '*' && range !== '?') {
    const [a = '', b] = range.split('-');
    const from = value(a, f);
    const to = b === undefined ? (stepText === undefined ? from : f.max) : value(b, f);
    if (from === undefined || to === undefined || to < from) return `${f.name}: "${part}" is not in ${f.min}-${f.max}`;
    lo = from;
    hi = to;
  }
  for (let v = lo; v <= hi; v += step) out.add(v);
  return undefined;
}

function parseField(text: string, f: FieldSpec): Set<number> | string {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const err = parsePart(part, f, out);
    if (err) return err;
  }
  if (f.name === 'day-of-week' && out.delete(7)) out.add(0);
  return out;
}

/** Parses a 5-field cron expression or macro. */
export function parseCron(expr: string): CronParse {
  const text = macros[expr.trim().toLowerCase()] ?? expr.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5)
    return { ok: false, error: `schedule "${expr}": expected 5 fields or a macro such as @daily` };
  const sets: Set<number>[] = [];
  for (const [i, f] of fields.entries()) {
    const r = parseField(parts[i] ?? '', f);
    if (typeof r === 'string') return { ok: false, error: `schedule "${expr}": ${r}` };
    sets.push(r);
  }
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = sets as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  const star = (s: string | undefined): boolean => s === '*' || s === '?' || (s?.startsWith('*/') ?? false);
  return {
    ok: true,
    schedule: {
      minutes,
      hours,
      daysOfMonth,
      months,
      daysOfWeek,
      domRestricted: !star(parts[2]),
      dowRestricted: !star(parts[4]),
    },
  };
}

function dayMatches(s: CronSchedule, d: Date): boolean {
  const dom = s.daysOfMonth.has(d.getUTCDate());
  const dow = s.daysOfWeek.has(d.getUTCDay());
  if (s.domRestricted && s.dowRestricted) return dom || dow;
  return dom && dow;
}

/** True when the schedule fires at the UTC minute containing `ms`. */
export function cronMatches(s: CronSchedule, ms: number): boolean {
  const d = new Date(ms);
  return (
    s.minutes.has(d.getUTCMinutes()) &&
    s.hours.has(d.getUTCHours()) &&
    s.months.has(d.getUTCMonth() + 1) &&
    dayMatches(s, d)
  );
}

const minute = 60_000;
const hour = 60 * minute;

/**
 * The latest time the schedule fired in (now - windowMs, now], if any. Walks back minute by minute, skipping
 * whole hours and days that cannot match, so a window of weeks costs a few thousand steps at most.
 */
export function lastFiring(s: CronSchedule, now: number, windowMs: number): number | undefined {
  const earliest = now - windowMs;
  for (let t = Math.floor(now / minute) * minute; t > earliest;) {
    const d = new Date(t);
    if (!s.months.has(d.getUTCMonth() + 1) || !dayMatches(s, d)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - minute;
      continue;
    }
    if (!s.hours.has(d.getUTCHours())) {
      t = Math.floor(t / hour) * hour - minute;
      continue;
    }
    if (s.minutes.has(d.getUTCMinutes())) return t;
    t -= minute;
  }
  return undefined;
}
