/**
 * `npm run manifest`: writes package.json's contributes.languageModelTools from the
 * contract (src/core/contract). test/unit/core/manifest.test.ts fails when they drift.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageModelToolContributions } from '../src/core/contract/manifest';

const file = path.join(__dirname, '..', 'package.json');
const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { contributes: Record<string, unknown> };
pkg.contributes.languageModelTools = languageModelToolContributions();
fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`package.json: ${languageModelToolContributions().length} language-model tools written.`);
