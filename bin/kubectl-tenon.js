#!/usr/bin/env node
// kubectl's plugin entry point: `kubectl tenon explain pod web-1` runs `tenon explain pod web-1`.
await import('./tenon.js');
