/**
 * Stored objects kept small. The objects of one resource are alike (a ReplicaSet's pods differ in names, uids,
 * IPs and times), so each is deflated against a dictionary of recent objects of the same resource: a 2 KiB pod
 * keeps a few hundred bytes. The packed bytes live in a one-byte string rather than a Buffer, which would add an
 * ArrayBuffer, a typed array and a malloc'd backing store (about 250 bytes) to every object. The bytes of the
 * objects written last are kept unpacked a while, because watches and write responses send them at once.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** Objects smaller than this are kept as they are: the dictionary would not pay for itself. */
const minPackBytes = 192;
/** The dictionary holds recent sample objects up to this many bytes (zlib reads it again for every object). */
const maxDictionaryBytes = 8 * 1024;
/** An object packing worse than 1/this of its size becomes a sample, at most once per this many objects. */
const sampleRatio = 5;
const sampleEvery = 64;
/** Entries written last whose unpacked bytes stay at hand (for watch fan-out, write responses, the next update). */
const hotEntries = 1024;

/** One object's stored JSON: packed, or unpacked for a short while after it was written. A stored Entry is one. */
export class PackedJson {
  private hot: Buffer | undefined;
  private readonly data: string;
  private readonly dictionary: Buffer | undefined;
  /** The length of the unpacked JSON in bytes. */
  readonly size: number;

  /**
   * Packs an object's UTF-8 JSON with `packer` (which learns from it). With `text`, the packed text `raw` was
   * read from (an entry read back from a compact table, see compact-entries.ts), nothing is packed again: the
   * entry shares the text's bytes.
   */
  constructor(packer: JsonPacker, raw: Buffer, text?: string) {
    this.size = raw.length;
    if (text !== undefined) {
      // A slice of the stored text, not a copy.
      this.data = text.substring(2);
      this.dictionary = packer.dictionaryOf(text);
      return;
    }
    const packed = packer.deflate(raw);
    this.data = packed.data;
    this.dictionary = packed.dictionary;
    this.hot = raw;
    packer.hot.remember(this);
  }

  /** The packed bytes and their dictionary as one flat one-byte string, which `JsonPacker.unpackText` reads. */
  packedText(packer: JsonPacker): string {
    const id = packer.dictionaryId(this.dictionary);
    // Packed against a dictionary no text can name: kept unpacked.
    if (this.dictionary && id === 0) return textOf(0, this.bytes());
    return textOf(id, Buffer.from(this.data, 'latin1'));
  }

  /** The object's UTF-8 JSON (a buffer the caller must not change). */
  bytes(): Buffer {
    if (this.hot) return this.hot;
    const packed = Buffer.from(this.data, 'latin1');
    return this.dictionary ? inflateRawSync(packed, { dictionary: this.dictionary }) : packed;
  }

  /** The bytes held once the unpacked copy is gone. */
  get packedSize(): number {
    return this.data.length;
  }

  /** Drops the unpacked copy (the entry is no longer among the latest written). */
  cool(): void {
    this.hot = undefined;
  }
}

/** A packed text: two bytes naming the dictionary, then the bytes (a flat string: `+` would make a cons string). */
function textOf(dictionaryId: number, body: Buffer): string {
  return Buffer.concat([Buffer.of(dictionaryId >> 8, dictionaryId & 255), body]).toString('latin1');
}

/** The latest packed entries, which keep their unpacked copy; one ring for every packer of a store. */
export class HotEntries {
  private readonly recent: Array<PackedJson | undefined> = new Array(hotEntries);
  private next = 0;

  /** Keeps `p` hot, cooling the entry it replaces. */
  remember(p: PackedJson): void {
    this.recent[this.next]?.cool();
    this.recent[this.next] = p;
    this.next = (this.next + 1) % hotEntries;
  }
}

/** Packs the objects of one resource, learning its dictionary from the objects it sees. */
export class JsonPacker {
  /** `hot` is the ring of entries kept unpacked (shared by the packers of one store). */
  constructor(readonly hot: HotEntries = new HotEntries()) {}

  private samples: Buffer[] = [];
  private dictionary: Buffer | undefined;
  private sinceSample = sampleEvery;
  /** Dictionaries named in packed texts, by number (1-based; 0 is none). Only texts name them, so few are kept. */
  private readonly numbered: Buffer[] = [];
  private readonly numbers = new Map<Buffer, number>();

  /** The number a packed text gives `dictionary` (0 for none). */
  dictionaryId(dictionary: Buffer | undefined): number {
    if (!dictionary) return 0;
    let id = this.numbers.get(dictionary);
    if (id === undefined) {
      // Two bytes name it: past 65,535 dictionaries a text is packed against none rather than misread.
      if (this.numbered.length >= 0xffff) return 0;
      this.numbered.push(dictionary);
      id = this.numbered.length;
      this.numbers.set(dictionary, id);
    }
    return id;
  }

  /** The dictionary a packed text was packed against (undefined for none). */
  dictionaryOf(text: string): Buffer | undefined {
    const id = (text.charCodeAt(0) << 8) | text.charCodeAt(1);
    return id === 0 ? undefined : this.numbered[id - 1];
  }

  /** The UTF-8 JSON of a packed text. */
  unpackText(text: string): Buffer {
    const body = Buffer.from(text, 'latin1').subarray(2);
    const dictionary = this.dictionaryOf(text);
    return dictionary ? inflateRawSync(body, { dictionary }) : body;
  }

  /** Packs an object's UTF-8 JSON. */
  pack(raw: Buffer): PackedJson {
    return new PackedJson(this, raw);
  }

  /** The packed bytes of an object's UTF-8 JSON (as a one-byte string) and the dictionary they need, if any. */
  deflate(raw: Buffer): { data: string; dictionary: Buffer | undefined } {
    if (raw.length < minPackBytes) return { data: raw.toString('latin1'), dictionary: undefined };
    const dictionary = this.dictionary;
    const deflated = dictionary ? deflateRawSync(raw, { dictionary, level: 1 }) : undefined;
    this.sinceSample++;
    if ((!deflated || deflated.length * sampleRatio > raw.length) && this.sinceSample >= sampleEvery)
      this.addSample(raw);
    if (!deflated || deflated.length >= raw.length) return { data: raw.toString('latin1'), dictionary: undefined };
    return { data: deflated.toString('latin1'), dictionary };
  }

  /** Adds an object to the dictionary, dropping the oldest samples past its size; zlib prefers the newest at the end. */
  private addSample(raw: Buffer): void {
    this.sinceSample = 0;
    this.samples.push(Buffer.from(raw));
    let total = this.samples.reduce((n, s) => n + s.length, 0);
    while (total > maxDictionaryBytes && this.samples.length > 1) total -= this.samples.shift()?.length ?? 0;
    const joined = Buffer.concat(this.samples);
    this.dictionary = joined.length > maxDictionaryBytes ? joined.subarray(joined.length - maxDictionaryBytes) : joined;
  }
}
