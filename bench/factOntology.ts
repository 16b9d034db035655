/**
 * The ontology of the facts benchmark: a dozen entity types and 50 relations of a software
 * team's knowledge (ownership, dependencies, versions, endpoints…), about half of them
 * single-valued, so that a contradicting assertion opens a dispute as it would in a real store.
 * Order matters: relations are drawn with Zipf weights by position among those a subject's
 * type allows, so the first ones are the common ones.
 */
import { Ontology, type OntologyRelation, VALUE_TYPE } from '../src/core/playbook/ontology';

export const FACT_TYPES = [
  'service',
  'library',
  'repo',
  'person',
  'team',
  'endpoint',
  'host',
  'database',
  'queue',
  'config',
  'file',
  'env',
] as const;
/** Share of subjects of each type (same order as FACT_TYPES); files and environments are only ever objects. */
export const TYPE_WEIGHTS = [33, 16, 8, 10, 4, 10, 8, 4, 3, 4, 0, 0];

const LANGS = ['typescript', 'go', 'python', 'java', 'rust', 'kotlin', 'javascript', 'c#'];
const REGIONS = ['eu-west-1', 'us-east-1', 'us-west-2', 'eu-central-1', 'ap-south-1'];
const num = (k: number, f: (i: number) => string) => Array.from({ length: k }, (_, i) => f(i));

/** [name, from, to (types or a literal pool), cardinality] */
type Row = [string, string, string | string[], 'one' | 'many'];
const ROWS: Row[] = [
  ['depends_on', 'service', 'service database queue library', 'many'],
  ['owned_by', 'service repo database queue library', 'team', 'one'],
  ['uses_library', 'service repo', 'library', 'many'],
  ['runs_version', 'service library database', num(60, (i) => `${1 + (i % 4)}.${i % 15}.${i % 7}`), 'one'],
  ['maintained_by', 'library repo', 'person', 'many'],
  ['member_of', 'person', 'team', 'many'],
  ['written_in', 'service library repo', LANGS, 'one'],
  ['exposes', 'service', 'endpoint', 'many'],
  ['calls', 'service', 'endpoint', 'many'],
  ['served_by', 'endpoint', 'service', 'one'],
  ['runs_on', 'service database queue', 'host', 'many'],
  ['deployed_to', 'service', 'env', 'many'],
  ['known_issue', 'service library endpoint', num(400, (i) => `issue #${1000 + i}`), 'many'],
  ['workaround', 'service library endpoint', num(200, (i) => `see runbook step ${i}`), 'many'],
  ['reads_from', 'service', 'database queue', 'many'],
  ['writes_to', 'service', 'database queue', 'many'],
  ['lives_in', 'service library config', 'repo', 'one'],
  ['listens_on', 'service', num(40, (i) => String(3000 + i * 10)), 'one'],
  ['timeout_ms', 'service endpoint', num(30, (i) => String(250 * (i + 1))), 'one'],
  ['has_oncall', 'team', 'person', 'one'],
  ['led_by', 'team', 'person', 'one'],
  ['defined_in', 'config endpoint', 'file', 'one'],
  ['tested_by', 'service library endpoint', 'file', 'many'],
  ['documented_in', 'service library endpoint repo', 'file', 'many'],
  ['configured_by', 'service', 'config', 'many'],
  ['feature_flag', 'service', 'config', 'many'],
  ['publishes_to', 'service', 'queue', 'many'],
  ['consumes_from', 'service', 'queue', 'many'],
  ['http_method', 'endpoint', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], 'one'],
  ['auth_required', 'endpoint', ['true', 'false'], 'one'],
  ['rate_limit', 'endpoint', num(12, (i) => `${50 * (i + 1)}/min`), 'one'],
  ['slo', 'service endpoint', ['99.9%', '99.95%', '99.99%', '99.5%', '99%'], 'one'],
  ['build_tool', 'repo', ['npm', 'pnpm', 'gradle', 'maven', 'cargo', 'bazel', 'make'], 'one'],
  ['ci_system', 'repo', ['github-actions', 'gitlab-ci', 'jenkins', 'buildkite'], 'one'],
  ['default_branch', 'repo', ['main', 'master', 'trunk', 'develop'], 'one'],
  ['license', 'library repo', ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'proprietary', 'MPL-2.0'], 'one'],
  ['reviewed_by', 'repo', 'person', 'many'],
  ['region', 'host database queue', REGIONS, 'one'],
  ['os', 'host', ['debian 12', 'ubuntu 24.04', 'alpine 3.20', 'windows server 2022'], 'one'],
  ['engine', 'database', ['postgres 16', 'postgres 15', 'mysql 8', 'redis 7', 'sqlite'], 'one'],
  ['schema_version', 'database', num(80, (i) => String(i + 1)), 'one'],
  ['replica_of', 'database', 'database', 'one'],
  ['backed_up_to', 'database', 'host', 'many'],
  ['max_connections', 'database', num(10, (i) => String(50 * (i + 1))), 'one'],
  ['replaced_by', 'library endpoint', 'library endpoint', 'one'],
  ['deprecated_in', 'library endpoint', num(40, (i) => `${1 + (i % 5)}.${i}.0`), 'one'],
  ['alert_channel', 'team service', num(30, (i) => `#alerts-${i}`), 'one'],
  ['cron_schedule', 'service', ['*/5 * * * *', '0 * * * *', '0 3 * * *', '0 0 * * 0'], 'one'],
  ['env_var', 'service', 'config', 'many'],
  ['status_page', 'service', num(20, (i) => `https://status.example.com/${i}`), 'one'],
];

const words = (s: string) => s.split(' ');

/** A relation with its literal pool, when its objects are values. */
export interface BenchRelation extends OntologyRelation {
  values?: string[];
}

export const RELATIONS: BenchRelation[] = ROWS.map(([name, from, to, cardinality]) => ({
  name,
  from: words(from),
  to: Array.isArray(to) ? VALUE_TYPE : words(to),
  cardinality,
  ...(Array.isArray(to) ? { values: to } : {}),
}));

/** The ontology every FactService of the benchmark is given. */
export const BENCH_ONTOLOGY = new Ontology(
  [...FACT_TYPES],
  RELATIONS.map(({ values: _v, ...r }) => r),
);

/** The relations a subject of `type` may have, in declaration order (common first). */
export function relationsFrom(type: string): BenchRelation[] {
  return RELATIONS.filter((r) => r.from.includes(type));
}
