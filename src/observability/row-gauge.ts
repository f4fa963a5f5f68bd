/**
 * A gauge whose samples are computed when scraped: the rows go straight into the exposition, without the
 * per-series bookkeeping (label hashing, a map of series) a prom-client Gauge does on every `set`, which dominated
 * a scrape of a few thousand nodes' series.
 */
import { Gauge, type Registry } from 'prom-client';

/** One sample: its labels and value. */
export interface Row {
  labels: Record<string, string>;
  value: number;
}

/** Options of a {@link RowGauge}. */
export interface RowGaugeOptions {
  name: string;
  help: string;
  labelNames: readonly string[];
  registry: Registry;
  /** The samples of the moment, read on every scrape. */
  rows: () => Iterable<Row>;
}

/** A gauge filled from `rows` at each scrape. */
export class RowGauge extends Gauge {
  private readonly rows: () => Iterable<Row>;

  /** Registers the gauge on `o.registry`. */
  constructor(o: RowGaugeOptions) {
    super({ name: o.name, help: o.help, labelNames: [...o.labelNames], registers: [o.registry] });
    this.rows = o.rows;
  }

  /** The header prom-client writes, with the rows as the samples. */
  override async get(): ReturnType<Gauge['get']> {
    const header = await super.get();
    return { ...header, values: [...this.rows()] };
  }
}
