#!/usr/bin/env node
// `agent-memory`: runs the CLI's bundle (cli-main.js, next to this file) with its compiled code
// kept between runs (codeCache.ts). Kept small: it is compiled afresh on every start.
import * as path from 'node:path';
import { codeCacheDir, runBundle } from './codeCache';

runBundle(path.join(__dirname, 'cli-main.js'), codeCacheDir());
