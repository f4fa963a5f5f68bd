/**
 * Rewrites generated-messages.ts from a kubectl binary's descriptors:
 *
 *   npx tsx src/apiserver/protobuf/regenerate.ts /usr/lib/google-cloud-sdk/bin/kubectl.1.33
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMessages } from './descriptors.js';

const binary = process.argv[2];
if (!binary) throw new Error('usage: regenerate.ts KUBECTL_BINARY');
writeFileSync(join(import.meta.dirname, 'generated-messages.ts'), renderMessages(readFileSync(binary)));
