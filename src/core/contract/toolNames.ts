// The agent-facing tools' names, spelled once and without the tools' schemas: text that names a
// tool (the agent instructions that `agent-memory init` writes) needs no contract built.

const PREFIX = 'agent-memory_';

export const TOOL_NAMES = {
  search: `${PREFIX}search`,
  create: `${PREFIX}create`,
  edit: `${PREFIX}edit`,
  read: `${PREFIX}read`,
  delete: `${PREFIX}delete`,
  tags: `${PREFIX}tags`,
  recordEpisode: `${PREFIX}recordEpisode`,
  findEpisodes: `${PREFIX}findEpisodes`,
  assertFact: `${PREFIX}assertFact`,
  queryFacts: `${PREFIX}queryFacts`,
  retractFact: `${PREFIX}retractFact`,
  findSkills: `${PREFIX}findSkills`,
  readSkill: `${PREFIX}readSkill`,
  proposeSkill: `${PREFIX}proposeSkill`,
  context: `${PREFIX}context`,
} as const;
