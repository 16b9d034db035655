import { randomUUID } from 'node:crypto';
import { episodeColumns, type EpisodeData } from '../../../src/core/playbook/kinds';
import type { StoredRecord } from '../../../src/core/ports/records';
import type { Store } from '../../../src/core/ports/store';
export { rejects } from '../../helpers/assertions';

/** Test data for the skills, promotion, proposal and context suites (episodes are written directly: their service is elsewhere). */

export const SKILL_YAML = `name: fix-flaky-test
version: 2
description: Find and fix a test that fails only sometimes, in CI or locally
trigger:
  - fix a flaky test
  - test fails only in CI
preconditions:
  - the test can be run on its own
tools:
  - npx mocha
steps:
  - do: Run the test 20 times
    tool: npx mocha --repeat 20
    expect: the failure rate, e.g. 3/20 failed
  - do: Look for shared state or timing between tests
    expect: the line that depends on order or time
success_checks:
  - the test passes 50 runs in a row
failure_handling:
  - if it never fails locally, run it with the CI environment variables
evidence:
  episodes: []
  executors: []
`;

/** A skill as data, with defaults. */
export function skill(over: Record<string, unknown> = {}) {
  return {
    name: 'deploy-preview',
    description: 'Deploy a branch to a preview environment and share the link',
    trigger: ['deploy a preview', 'preview environment for a branch'],
    tools: ['gh'],
    steps: [{ do: 'Run the preview workflow', tool: 'gh workflow run preview.yml', expect: 'a run URL is printed' }],
    success_checks: ['the preview URL answers 200'],
    ...over,
  };
}

/** An episode with defaults. */
export function episode(over: Partial<EpisodeData> = {}): EpisodeData {
  return {
    timestamp: '2026-03-01T10:00:00.000Z',
    task: 'Fix the flaky login test in CI',
    outcome: 'success',
    tools: ['npx mocha'],
    errors: [],
    resolution: 'Awaited the login promise before asserting',
    tags: ['testing', 'ci'],
    source: { type: 'commit', ref: 'abc123' },
    skill: null,
    executor: 'ana@example.com',
    ...over,
  };
}

/**
 * Writes episodes straight into the record store, as the episode service would, recorded by
 * `author` (default: each episode's executor, as when executors record their own). Returns their ids.
 */
export async function writeEpisodes(store: Store, episodes: EpisodeData[], author?: string): Promise<string[]> {
  const rows: StoredRecord[] = episodes.map((d, i) => ({
    rowId: randomUUID(),
    kind: 'episode',
    id: randomUUID(),
    version: 1,
    op: 'create',
    ...episodeColumns(d),
    data: d as unknown as Record<string, unknown>,
    changedAt: new Date(Date.parse(d.timestamp) + i).toISOString(),
    deletedAt: null,
    author: author ?? d.executor,
  }));
  await store.records.write('episode:test', () => rows);
  return rows.map((r) => r.id);
}
