import { stem } from '../text';

/**
 * Other words for the same thing, so a query phrased differently from a memory can still
 * reach it (`mistake` ~ `error`, `permit` ~ `allow`). A small, general list, not one tuned to
 * any query: each group is one WordNet 3.1 synset (Princeton University, "WordNet 3.1";
 * WordNet License, a permissive BSD-style licence: https://wordnet.princeton.edu/license-and-commercial-use),
 * picked where the synset has a software or operations sense, keeping its one-word lemmas and
 * leaving out lemmas that name something else in this field (`node`, `net`, `make`, `issue`,
 * `cold`, `boot`, `end`). The comment on each line is the synset's part of speech and offset in WordNet 3.1.
 *
 * Groups are symmetric: every word of a group stands for every other. A word in several
 * groups stands for the words of all of them. Applied to query words only (the index is not
 * expanded), and weighed below the word itself (RankingOptions.synonym).
 */
const GROUPS: readonly string[] = [
  'erase delete', // v01001860 wipe out digitally recorded information
  'publish release', // v00969657 prepare and issue for public distribution
  'construct build', // v01658171 make by combining parts
  'begin start commence', // v00346415 take the first step in carrying out an action
  'discontinue stop cease quit', // v02686624 put an end to a state or an activity
  'stop finish terminate cease', // v02615799 have an end (without `end`: line endings, front end)
  'resume restart', // v00350758 take up or begin anew
  'connect link', // v01357376 fasten or put together two or more pieces
  'repair fix mend', // n00267650 / v00261534 put in working order again
  'change alteration modification', // n07311046 an event that occurs when something passes from one state to another
  'change alter modify', // v00126072 cause to change; make different
  'replicate copy', // v01738810 reproduce or make an exact copy of
  'duplicate duplication', // n03262046 a copy that corresponds to an original exactly
  'recover retrieve regain', // v02252785 get or find back
  'memory storage store', // n03749767 an electronic memory device
  'allow permit', // v02427979 make it possible through a specific action
  'license permission permit', // n01141515 the act of giving a formal authorization
  'deny refuse', // v02217607 refuse to let have
  'refuse reject decline', // v02242120 refuse to accept
  'obstruct block hinder', // v02563025 hinder or prevent the progress of
  'prevent forestall preclude forbid', // v02458316 keep from happening or arising
  'hide conceal', // v02149298 prevent from being seen or discovered
  'delay wait postponement', // n15297015 time during which some action is awaited
  'await wait', // v00721987 look forward to the probable occurrence of
  'freeze halt', // n01065621 an interruption or temporary suspension of progress
  'repeat iterate reiterate', // v00960366 to say, state, or perform again
  'recur repeat', // v00343988 happen or occur again
  'decelerate slow', // v00440913 lose velocity; move more slowly
  'slow slack slacken', // v00441535 become slow or slower
  'ignore disregard neglect', // v00618547 give little or no attention to
  'omit overlook miss', // v00616690 leave undone or leave out
  'mistake error fault', // n00071785 a wrong action attributable to bad judgment
  'defect fault flaw', // n14487787 an imperfection in an object or machine
  'bug glitch', // n14488259 a fault or defect in a computer program, system, or machine
  'problem trouble', // n05695143 a source of difficulty
  'option alternative choice', // n05798949 one of a number of things from which one can be chosen
  'password watchword countersign', // n06686933 a secret word known only to a restricted group
  'outdated superannuated', // a00672374 no longer valid or fashionable
  'obsolete disused', // a00672257 no longer in use
  'stale dusty', // a01694033 no longer new
  'large big', // a01385012 above average in size or number
  'huge immense vast', // a01390253 unusually great in size or amount
  'small little', // a01394303 limited or below average in number or quantity
  'missing absent lacking', // a00931073 nonexistent
  'faulty incorrect wrong', // a00023894 characterized by errors
  'corrupt corrupted', // a01757260 containing errors or alterations
  'quick speedy', // a00982557 accomplished rapidly and without delay
  'quick fast', // a01273596 hurried and brief
  'accelerate speed quicken', // v00439133 move faster
  'disk disc', // n03712192 a memory device consisting of a flat disk
  'server host', // n04182208 a computer that provides client stations with access to files
  'answer reply response', // n06758700 a statement made to reply to a question or request
  'alarm alert', // n06816015 an automatic signal warning of danger
  'version variant', // n05849159 something a little different from others of the same type (without `edition`, which stems to `edit`)
  'software package', // n06578068 written programs or procedures
  'dependence dependency', // n14024833 the state of relying on something
  'certificate certification credential', // n06483016 a document attesting to the truth of certain statements
  'restrict limit confine throttle', // v00234091 place limits on (extent or amount or access)
  'connection link', // n14442568 the state of being connected
  'trial test', // n00792739 the act of testing something
  'deadlock impasse stalemate standstill', // n14038832 a situation in which no progress can be made
];

/** Per stemmed word, the stems of its other words, in the list's order. */
const OTHER_WORDS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const group of GROUPS) {
    const stems = [...new Set(group.split(' ').map((w) => stem(w)))];
    for (const s of stems) {
      const others = map.get(s) ?? [];
      for (const o of stems) if (o !== s && !others.includes(o)) others.push(o);
      map.set(s, others);
    }
  }
  return map;
})();

/** The stems of the other words for a stemmed term (empty when the list has none). */
export function otherWords(term: string): readonly string[] {
  return OTHER_WORDS.get(term) ?? [];
}
