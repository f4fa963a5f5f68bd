import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { renderMessages } from './descriptors.js';

const kubectl = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

describe.runIf(existsSync(kubectl))('generated-messages.ts', () => {
  test('is current with kubectl 1.33 (regenerate with `npx tsx src/apiserver/protobuf/regenerate.ts KUBECTL`)', () => {
    const current = readFileSync(join(import.meta.dirname, 'generated-messages.ts'), 'utf8');
    expect(renderMessages(readFileSync(kubectl))).toBe(current);
  });
});
