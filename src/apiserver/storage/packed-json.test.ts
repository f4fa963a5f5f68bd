import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonPacker, type PackedJson } from './packed-json.js';

const utf8 = (o: unknown): Buffer => Buffer.from(JSON.stringify(o), 'utf8');

function pod(i: number): unknown {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name: `web-7d9c-${i.toString(36)}`,
      namespace: 'default',
      uid: `uid-${i * 7919}`,
      resourceVersion: String(1000 + i),
      labels: { app: 'web' },
    },
    spec: {
      containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '250m', memory: '512Mi' } } }],
      nodeName: `ip-10-0-${i % 250}-${i % 7}.ec2.internal`,
      schedulerName: 'default-scheduler',
    },
    status: {
      phase: 'Running',
      podIP: `10.1.${i % 250}.${i % 200}`,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    },
  };
}

describe('packed JSON', () => {
  it('gives back exactly the bytes it was given, before and after they leave the recent window', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 40 }), (values) => {
        const packer = new JsonPacker();
        const raws = values.map((v) => utf8({ value: v, pad: 'x'.repeat(200) }));
        const packed: PackedJson[] = raws.map((r) => packer.pack(Buffer.from(r)));
        // Enough later writes to push every one of them out of the unpacked window.
        for (let i = 0; i < 1100; i++) packer.pack(utf8(pod(i)));
        packed.forEach((p, i) => {
          expect(p.bytes().equals(raws[i] as Buffer)).toBe(true);
          expect(p.size).toBe(raws[i]?.length);
        });
      }),
      { numRuns: 30 },
    );
  });

  it('gives back exactly the bytes from a packed text, whichever dictionary packed them', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 40 }), (values) => {
        const packer = new JsonPacker();
        const raws = values.map((v) => utf8({ value: v, pad: 'x'.repeat(200) }));
        // Interleaved with other objects, so the dictionary changes between them; every second text is taken
        // at once, the others only after all were packed.
        const texts = new Map<number, string>();
        const packed = raws.map((r, i) => {
          for (let k = 0; k < 70; k++) packer.pack(utf8(pod(i * 70 + k)));
          const p = packer.pack(Buffer.from(r));
          if (i % 2 === 0) texts.set(i, p.packedText(packer));
          return p;
        });
        packed.forEach((p, i) => texts.set(i, texts.get(i) ?? p.packedText(packer)));
        raws.forEach((r, i) => expect(packer.unpackText(texts.get(i) ?? '').equals(r)).toBe(true));
      }),
      { numRuns: 20 },
    );
  });

  it('keeps the pods of one template in well under a third of their JSON once it has seen a few', () => {
    const packer = new JsonPacker();
    const all = Array.from({ length: 3000 }, (_, i) => packer.pack(utf8(pod(i))));
    const later = all.slice(2000);
    const raw = later.reduce((n, p) => n + p.size, 0);
    // What stays in memory once the entries are no longer recent: the packed form.
    for (let i = 0; i < 1100; i++) packer.pack(utf8({ other: i }));
    const kept = later.reduce((n, p) => n + p.packedSize, 0);
    expect(kept * 3).toBeLessThan(raw);
    expect(later.every((p, i) => p.bytes().equals(utf8(pod(2000 + i))))).toBe(true);
  });
});
