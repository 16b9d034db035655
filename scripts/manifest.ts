/**
 * `npm run manifest`: writes package.json's contributes.languageModelTools from the
 * contract (src/core/contract), and their person-facing strings into package.nls.json, and the
 * agent instructions the extension contributes (core/agentInstructions.ts) into media/instructions/.
 * test/unit/core/manifest.test.ts fails when they drift.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contributedInstructionsFile } from '../src/core/agentInstructions';
import { CONTRIBUTED_INSTRUCTIONS, languageModelToolContributions, languageModelToolStrings } from '../src/vscode/tools/manifest';

const file = path.join(__dirname, '..', 'package.json');
const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { contributes: Record<string, unknown> };
pkg.contributes.languageModelTools = languageModelToolContributions();
fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
const nlsFile = path.join(__dirname, '..', 'package.nls.json');
const nls = { ...(JSON.parse(fs.readFileSync(nlsFile, 'utf8')) as Record<string, string>), ...languageModelToolStrings() };
fs.writeFileSync(nlsFile, `${JSON.stringify(nls, null, 2)}\n`);
// The instructions VS Code hands Copilot from the extension itself (package.json chatInstructions).
const instructionsFile = path.join(__dirname, '..', CONTRIBUTED_INSTRUCTIONS);
fs.mkdirSync(path.dirname(instructionsFile), { recursive: true });
fs.writeFileSync(instructionsFile, contributedInstructionsFile());
console.log(`package.json: ${languageModelToolContributions().length} language-model tools written.`);
