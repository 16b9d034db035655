// Without schemas, so the CLI's usage text can name them without building the episode contract.

/** What an episode's source points at: a commit, an issue, a chat, … (contract/episodes.ts). */
export const SOURCE_TYPES = ['commit', 'issue', 'pull-request', 'chat', 'url', 'file', 'other'] as const;
