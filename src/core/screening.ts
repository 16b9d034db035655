/**
 * Screening of memory text that a later agent will read. A memory is data, but a repository
 * can ship memories written to steer the agent that reads them. Two checks, as secrets.ts has
 * (the first in invisibleText.ts):
 *
 * - invisible characters (bidirectional controls, zero-width characters, Unicode tag
 *   characters, terminal controls) are refused: they hide or reorder text, so a person
 *   reviewing the memory does not see what the model reads;
 * - text that addresses the agent (override phrasing, role markers, fetch-and-run commands,
 *   hidden comments, exfiltration links) is flagged, never refused: the reasons go to the
 *   person who reviews the write and to the model that reads the memory later.
 */

/**
 * A rule for text that addresses the reading agent: the reason shown, and its patterns. `needs`
 * matches every text any of the patterns can match (a word each of them requires): checked first,
 * it spares compiling the patterns (V8 compiles a regular expression at its first use, about 0.7 ms
 * each here) for text that cannot match them, e.g. the few short descriptions of a one-shot search.
 */
interface InstructionRule {
  reason: string;
  needs: RegExp;
  patterns: RegExp[];
}

/** Words for the reading agent: what it is, and the names of the assistants people address. */
const AGENT = String.raw`(?:ai|a\.i\.|llms?|large language models?|language models?|(?:(?:ai|code|coding|programming|autonomous|software)\s+)*(?:assistants?|agents?)|automated [\w ]{0,30}?(?:software|system|tool|reviewer|analysis)|bots?|chatbots?|copilot|claude|chatgpt|gpt(?:-?\d\w*)?|gemini|bard|bing|cursor|devin|codex|duo|windsurf|cline|jules|kiro|amp|aider|tabnine|codeium)`;
const CREDENTIAL_FILE = String.raw`(?:~\/\.ssh\/(?:id_\w+\b(?!\.pub)|\*)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\.aws\/credentials|~\/\.netrc|\/etc\/shadow|\/etc\/passwd|\bmcp\.json\b|wallet\.dat)`;

export const INSTRUCTION_RULES: readonly InstructionRule[] = [
  {
    reason: 'asks to ignore earlier instructions',
    needs: /ignor|disregard|forget|bypass|overr|discard|abandon|neglect|follow|instruction/i,
    patterns: [
      // ignore / disregard / forget (all) (the|your) previous|prior|above|system … instructions|rules|prompt …
      new RegExp(
        String.raw`\b(?:ignore|ignoring|disregard|disregarding|forget|forgetting|bypass|override|overrule|discard|abandon|neglect|do not follow|don't follow|stop following|no longer follow)\s+(?:all\s+|any\s+|every\s+|each\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+|its\s+|their\s+)?(?:(?:previous|prior|above|earlier|preceding|former|foregoing|original|initial|old|existing|system|safety|developer|default|current|other|given|preset)\s+|(?:previous|prior|above)[-\s]\w+\s+)+(?:\w+\s+)?(?:instructions?|prompts?|rules|directions?|directives?|guidelines|commands?|context|messages?|guidance|constraints|orders|polic(?:y|ies)|restrictions|programming|tasks?)\b`,
        'i',
      ),
      new RegExp(
        String.raw`\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:your|all)\s+(?:\w+\s+)?(?:instructions|system prompt|prompt|rules|guidelines|programming|training|directives|restrictions)\b`,
        'i',
      ),
      /\b(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:(?:that\s+)?(?:is\s+|was\s+)?(?:above|before|previously|prior|earlier)|you(?:'ve| have)? (?:been|were) told|you know|(?:that\s+)?came before)/i,
      /\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:above|previous|preceding|foregoing)\s*(?:and\b|[,.;:!])/i,
      /^\s*(?:[#*>\-\s]*)(?:new|updated|revised|real|actual|true|secret|hidden|override)\s+(?:system\s+)?instructions?\s*[:\-\u2014]/im,
    ],
  },
  {
    reason: 'addresses the AI agent directly',
    needs:
      /\b(?:ai|a\.i|llm|language model|assistant|agent|automated|bot|chatbot|copilot|claude|chatgpt|gpt|gemini|bard|bing|cursor|devin|codex|duo|windsurf|cline|jules|kiro|amp|aider|tabnine|codeium)|from now on/i,
    patterns: [
      new RegExp(
        String.raw`\b(?:note|message|instructions?|attention|reminder|directive|request)s?\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?${AGENT}(?:\s+${AGENT})?\s*[:,.!\u2014)=-]`,
        'i',
      ),
      new RegExp(String.raw`\b(?:if|when|since|because)\s+you(?:\s+are|'re)\s+(?:an?\s+|the\s+)?${AGENT}\b`, 'i'),
      new RegExp(String.raw`\b(?:dear|hey|hi|hello|attention|attn|psst)[\s,:]+(?:the\s+)?${AGENT}\s*[,:!.]`, 'i'),
      new RegExp(
        String.raw`(?:^|[.!?]\s+)${AGENT}\s*[,:]\s*(?:you|please|ignore|do|always|never|from now|before|when|stop|execute|run|make sure|remember)\b`,
        'im',
      ),
      new RegExp(
        String.raw`\byou(?:\s+are|'re)\s+(?:now\s+)?(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,3}${AGENT}(?:\s+(?:with|that|who|whose|tasked|designed|built|created|working)\b|[.,:;]|$)`,
        'im',
      ),
      new RegExp(String.raw`\bas an?\s+${AGENT}\s*,?\s+(?:you|your)\b`, 'i'),
      /\bfrom now on,?\s+you\s+(?:are|will|must|should|shall|have to|need to|may only)\b/i,
    ],
  },
  {
    reason: 'poses as a system or chat-role message',
    needs: /[<[]|system|assistant|human/i,
    patterns: [
      /<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\|>/i,
      /\[\/?INST\]|<<\/?SYS>>/,
      /<\/?(?:system|system[-_]prompt|system[-_]message|sys|instructions?|important|admin|developer|assistant|user_query|user_instructions)(?:\s[^>]*)?>/i,
      /^\s*(?:\[(?:system|assistant)\](?:\(#[\w-]+\))?|\((?:system|assistant)\)|system\s+(?:override|message|prompt|notice|instructions?|update|alert)\s*:)/im,
      /\bSYSTEM\s*(?:OVERRIDE|MESSAGE|PROMPT|NOTICE|INSTRUCTIONS?|UPDATE|ALERT)?\s*:\s/,
      /^\s*(?:Human|Assistant)\s*:/m,
    ],
  },
  {
    reason: 'tells the agent to fetch and run code',
    needs: /curl|wget|\biwr|\birm|invoke-|base64|eval|\biex|powershell|download|fetch|http/i,
    patterns: [
      /\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:\w+=\S*\s+)*(?:(?:ba|z|da|k|fi)?sh|python[23]?|node|perl|ruby|php|iex|invoke-expression|powershell|pwsh)\b/i,
      /\b(?:(?:ba|z)?sh|source|\.|eval)\s+(?:-c\s+)?["']?(?:<\(|\$\()\s*(?:curl|wget)\b/i,
      /\bbase64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*(?:sudo\s+)?(?:(?:ba|z)?sh|python[23]?|node|perl)\b/i,
      /\beval\s*\(\s*(?:atob|Buffer\.from|unescape|decodeURIComponent)\s*\(/i,
      /\biex\s*\(?\s*(?:\(?\s*new-object\s+net\.webclient|iwr|irm|invoke-webrequest|invoke-restmethod)/i,
      /\bpowershell(?:\.exe)?\s+(?:-\w+\s+)*-e(?:nc|ncodedcommand)?\s+[A-Za-z0-9+/=]{16,}/i,
      /\b(?:download|fetch)\s+(?:and|then)\s+(?:run|execute)\b/i,
      /\b(?:fetch|load|read|retrieve|visit|download|get)\b[^\n]{0,40}https?:\/\/\S+[^\n]{0,40}?\b(?:and|then)\s+(?:follow|obey|execute|carry out)\b/i,
    ],
  },
  {
    reason: 'hides text from a person reading it',
    needs: /<!--|\]:|\\color|decode|style/i,
    patterns: [
      // An HTML comment that holds prose (not `<!-- prettier-ignore -->`): rendered Markdown does not show it.
      /<!--(?:(?!-->)[\s\S])*?(?:[A-Za-z]{2,}[^A-Za-z-]+){4}(?:(?!-->)[\s\S])*?-->/,
      /^\s*\[(?:\/\/|comment|_|hidden)\]:\s*[#<]/im,
      /\\color\{(?:white|#fff(?:fff)?)\}/i,
      // Encoded text the reader is told to decode and obey.
      /\bdecode\b[^\n]{0,60}?\b(?:and|then)\s+(?:follow|obey|execute|run|do)\b/i,
      /<[a-z][\w-]*\s[^>]*style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\s*[;"']|opacity\s*:\s*0(?:\.0+)?\s*[;"']|color\s*:\s*(?:white|#fff(?:fff)?|transparent)\b)/i,
    ],
  },
  {
    reason: 'links an image or URL that would carry data out',
    needs: /http|url|link|image|query|parameter/i,
    patterns: [
      // A Markdown image (or a reference one's target) whose query is a slot to fill with data.
      /!\[[^\]\n]*\]\(\s*<?https?:\/\/[^)\s]*\?(?:[^)\s]*=)?(?:\{|<|\$|\[|%7B|%3C|\.\.\.|\u2026|(?:data|secret|secrets|token|key|info|history|chat|conversation|context|summary|password|creds?|credentials|payload|env|memory|prompt|message|content|output|q)\b)/i,
      /^\s*\[[^\]\n]+\]:\s*<?https?:\/\/\S*\?\S*=(?:\{|<|\$|\[|%7B|%3C|\.\.\.|\u2026)/im,
      /\b(?:render|display|show|output|include|print|emit|insert|add)\s+(?:this|the following|an?|the)\s+(?:markdown\s+)?(?:image|img)\b[^\n]{0,120}https?:\/\//i,
      /\b(?:append|add|include|encode|put|embed|insert|attach|replace)\b[^\n.]{0,60}\b(?:conversation|chat history|previous messages|secrets?|credentials?|api keys?|tokens?|passwords?|environment variables|env vars|private keys?|user'?s? (?:data|info\w*|messages?|email|address|name))\b[^\n.]{0,40}\b(?:to|into|in|as)\s+(?:the\s+|a\s+|this\s+)?(?:url|link|image(?:\s+url)?|query(?:\s+string)?|query parameter|\w+ parameter)\b/i,
    ],
  },
  {
    reason: 'asks to keep something from the user',
    needs: /not\b|n't|never|without|no need|secretly|silently|covertly|quietly/i,
    patterns: [
      /\b(?:do not|don't|never|must not|should not|without)\s+(?:tell|telling|inform|informing|notify|notifying|let|letting|alert|alerting|warn|warning|ask|asking)\s+(?:the\s+)?(?:user|human|developer|operator)s?\s+(?:about|of|know|that|this|it)\b/i,
      /\b(?:do not|don't|never|must not|should not|without|no need to)\s+(?:mention|mentioning|reveal|revealing|disclose|disclosing|acknowledge|acknowledging|report|reporting|explain|explaining|show|showing)\s+(?:this|these|that|it|them|the\s+(?:instructions?|changes?|steps?|request|file|addition|script|line|code))\s+(?:to\s+the\s+(?:user|human|developer)|in\s+(?:your|the|any)\s+(?:response|reply|answer|output|summary|explanation|message|chat))/i,
      /\b(?:do not|don't|never)\s+(?:mention|reveal|disclose|acknowledge)\s+(?:these|this|the(?:se)?)\s+(?:instructions?|message|note|rules?)\b/i,
      /\b(?:secretly|silently|covertly|quietly)\s+(?:add|insert|include|send|upload|post|exfiltrate|append|execute|run|install|modify|replace)\b(?!\w)[^\n]{0,80}\b(?:without|do not|don't|so that the user)\b/i,
      /\b(?:the\s+)?user\s+(?:must|should|will)\s+not\s+(?:know|see|notice|be told)\b/i,
    ],
  },
  {
    reason: 'asks to reveal the system prompt',
    needs: /system|instruction|prompt/i,
    patterns: [
      /\b(?:reveal|print|show|output|repeat|display|tell me|leak|dump|share|give me|write out|spell out|recite|translate|summari[sz]e)\b[^\n]{0,30}?\b(?:your|the)\s+(?:(?:full|entire|complete|original|initial|hidden|secret|exact|verbatim)\s+)*(?:system\s+prompt|system\s+message|initial\s+instructions|hidden\s+instructions|instructions\s+(?:above|you were given)|prompt\s+above|original\s+prompt|pre-?prompt)\b/i,
    ],
  },
  {
    reason: "tries to lift the agent's restrictions",
    needs:
      /anything now|dan\s+mode|jailbr|god mode|you|not\b|pretend|imagine|\bact\s|behave|respond|roleplay|autoapprove|dangerously|yolo|trust-all-tools/i,
    patterns: [
      /\bdo anything now\b|\bDAN\s+mode\b|\bjailbr(?:oken|eak mode)\b|\bgod mode\b/i,
      /\byou(?:\s+are|'re)\s+(?:now\s+)?(?:no longer|free from|freed from|unrestricted|unfiltered|not bound)\b/i,
      /\bnot\s+(?:bound|restricted|limited)\s+by\s+(?:any\s+|the\s+|your\s+)?(?:rules|guidelines|policies|restrictions|content policy|safety)\b/i,
      /\b(?:pretend|imagine)\s+(?:to be|you are|that you are|you're)\b|\b(?:act|behave|respond)\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|evil|jailbroken|uncensored)\b|\broleplay\s+as\b/i,
      /chat\.tools\.autoApprove|["']?autoApprove["']?\s*:\s*true|--dangerously-skip-permissions|--dangerously-bypass-approvals\w*|--yolo\b|\byolo mode\b|--trust-all-tools\b/i,
    ],
  },
  {
    reason: 'asks to read or send credential files',
    needs:
      /\.ssh\/|id_|\.aws\/credentials|\.netrc|\/etc\/(?:shadow|passwd)|mcp\.json|wallet\.dat|\$\(|\b(?:send|post|upload|exfiltrate|transmit|forward|leak|beacon)\s/i,
    patterns: [
      new RegExp(
        String.raw`\b(?:read|cat|open|type|print|dump|get|fetch|collect|gather|grab|copy|exfiltrate|steal|include|pass|send|upload|post|attach|append|concatenate)\b[^\n]{0,60}?${CREDENTIAL_FILE}[^\n]{0,100}?\b(?:pass|send|upload|post|include|append|attach|put|add|sidenote|parameter|argument|https?:\/\/|to\s+(?:the\s+|an?\s+|my\s+|our\s+)?(?:server|endpoint|webhook|url|attacker|external|remote|address|email))`,
        'i',
      ),
      new RegExp(
        String.raw`${CREDENTIAL_FILE}[^\n]{0,80}?\b(?:as|in|into)\s+(?:the\s+|an?\s+)?['"]?\w+['"]?\s+(?:argument|parameter|param|field)\b`,
        'i',
      ),
      // A secret substituted into a network command: ping $(cat .env | base64).host
      /\b(?:ping|nslookup|dig|host|curl|wget|nc)\b[^\n]*\$\([^)\n]*(?:\.env\b|id_rsa|credentials|secret|token|\.npmrc|\.netrc)/i,
      /\b(?:send|post|upload|exfiltrate|transmit|forward|leak|beacon)\s+(?:all\s+|the\s+|any\s+|every\s+|your\s+|their\s+|its\s+)*(?:[\w.-]+\s+){0,2}(?:secrets|credentials|env vars|environment variables|api keys|private keys|ssh keys|tokens|cookies|chat history|conversation|\.env(?:\s+file)?)\b[^\n]{0,60}?\b(?:to|at)\s+(?:https?:\/\/|[\w-]+\.[a-z]{2,}\/|the\s+(?:attacker|remote|external))/i,
    ],
  },
];

/**
 * Why `text` reads like instructions to an agent rather than a note: short plain reasons
 * ("asks to ignore earlier instructions"), none when it reads as a note. General rules over the
 * shape of the text, not a list of known attacks; measured in test/core/screening.test.ts.
 */
export function instructionLike(text: string): string[] {
  return INSTRUCTION_RULES.filter((r) => r.needs.test(text) && r.patterns.some((re) => re.test(text))).map((r) => r.reason);
}

/** The reasons of a memory's text (description and content; tags cannot hold a phrase), each once. */
export function screenMemory(m: { description?: string; content?: string }): string[] {
  return [...new Set([...instructionLike(m.description ?? ''), ...instructionLike(m.content ?? '')])];
}

/** `{ instructionLike: reasons }` when there are any, else `{}`: spread into an answer to mark a memory. */
export function instructionLikeField(m: { description?: string; content?: string }): { instructionLike?: string[] } {
  const reasons = screenMemory(m);
  return reasons.length ? { instructionLike: reasons } : {};
}
