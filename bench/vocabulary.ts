/**
 * Word lists for the benchmark's synthetic memories. Order matters: samplers draw
 * with Zipf weights by position, so the first entries are the common ones.
 */

/** Software terms for descriptions and content, most common first. */
export const TERMS = (
  'error test build fix cache config update request server client database query timeout file ' +
  'version module package release deploy service api function type data user session token log ' +
  'memory path response event retry connection schema index migration bundle import export ' +
  'extension command output input script dependency install environment variable branch commit ' +
  'merge pipeline job worker thread process queue lock transaction handler callback promise async ' +
  'stream buffer socket port proxy header cookie route endpoint payload json yaml parser compiler ' +
  'linter formatter plugin hook middleware controller component state store reducer render view ' +
  'layout style theme font image asset upload download storage bucket container image registry ' +
  'cluster node pod volume secret certificate key permission role policy account tenant quota limit ' +
  'rate throttle backoff circuit breaker health check probe metric trace span alert dashboard ' +
  'monitor crash panic exception stack frame symbol sourcemap debugger breakpoint profile benchmark ' +
  'latency throughput regression flaky snapshot fixture mock stub spy coverage assertion suite ' +
  'runner watcher reload refresh invalidation eviction ttl hit miss warmup cold startup shutdown ' +
  'signal child spawn exit code status encoding utf8 unicode locale timezone date timestamp clock ' +
  'drift skew offset cursor pagination filter sort search ranking tokenizer stemmer vector embedding ' +
  'prompt model agent tool context window completion chat notebook kernel cell editor workspace ' +
  'folder terminal shell path symlink permission watcher glob pattern regex escape quote newline ' +
  'whitespace indentation lint rule override default fallback feature flag toggle rollout canary ' +
  'rollback hotfix patch semver changelog tag artifact checksum signature verify audit scanner ' +
  'vulnerability sanitizer injection escape xss csrf cors origin redirect oauth saml sso ldap ' +
  'password hash salt encryption decrypt cipher tls handshake dns resolver host gateway balancer ' +
  'ingress egress firewall subnet vpc peering replica shard partition leader follower election ' +
  'consensus quorum heartbeat gossip backup restore vacuum compaction wal checkpoint journal fsync ' +
  'deadlock race condition mutex semaphore atomic contention starvation livelock leak allocation ' +
  'garbage collector heap pause finalizer weakref closure scope hoisting transpile polyfill shim ' +
  'decorator generic inference overload union intersection enum interface trait macro lifetime ' +
  'borrow ownership unsafe ffi binding wasm sandbox isolate worklet webview iframe postmessage csp'
).split(' ');

/** Technologies and topics that tags are built from. */
const TECHS = (
  'typescript javascript node react vue angular svelte python rust go java kotlin swift csharp ' +
  'postgres mysql sqlite redis kafka rabbitmq elasticsearch mongodb dynamodb docker kubernetes ' +
  'helm terraform ansible nginx envoy graphql grpc rest aws azure gcp github-actions gitlab-ci ' +
  'jenkins webpack vite esbuild rollup babel jest mocha vitest playwright cypress eslint prettier ' +
  'vscode-extension electron deno bun npm yarn pnpm git linux windows macos wasm sqljs'
).split(' ');
const TOPICS = (
  'performance security testing build deploy migration caching logging auth ci config ' +
  'memory-leak concurrency networking observability packaging upgrade flaky-tests ' +
  'error-handling dependencies release'
).split(' ');
const PLAIN_TAGS = (
  'bug fix decision workaround postmortem incident design refactor docs onboarding tooling ' +
  'regression perf infra api ux accessibility i18n data-loss outage'
).split(' ');

/** About 300 tags: plain ones, technologies, topics, then technology-topic pairs. */
export const TAGS: string[] = (() => {
  const out = new Set<string>([...PLAIN_TAGS.slice(0, 6), ...TOPICS, ...TECHS.slice(0, 30), ...PLAIN_TAGS.slice(6), ...TECHS.slice(30)]);
  for (let i = 0; out.size < 300; i++) out.add(`${TECHS[(i * 7) % TECHS.length]}-${TOPICS[i % TOPICS.length]}`);
  return [...out];
})();

const SYLLABLES = 'ka lo vi ren dor zu pel mir tas quo nex bri fal gon hup jix wem sor tal vun'.split(' ');

/**
 * Project code names ("kalorenvi"): rare, unambiguous words that make selective queries.
 * They are made of syllables, not vocabulary words, so they match nothing by accident.
 */
export function codeName(i: number): string {
  let s = '';
  let n = 8000 + (i % 152_000); // always four base-20 digits: four syllables
  while (n > 0) {
    s += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return s;
}
