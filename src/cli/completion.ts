import type { Command } from './command';
import { GLOBAL_OPTIONS } from './usage';

/*
 * Shell completion scripts, written from the registry: command words, a group's subcommands,
 * and each command's flags (with the global ones). Arguments complete as file names.
 */

interface Tables {
  /** First words: commands and groups. */
  top: string[];
  /** A group's second words. */
  groups: Map<string, string[]>;
  /** Each command's flags, the global ones included. */
  flags: Map<string, string[]>;
}

function tables(commands: ReadonlyMap<string, Command>): Tables {
  const global = Object.keys(GLOBAL_OPTIONS).map((f) => `--${f}`);
  const groups = new Map<string, string[]>();
  const flags = new Map<string, string[]>();
  for (const [name, command] of commands) {
    const [first, second] = name.split(' ') as [string, string | undefined];
    if (second !== undefined) groups.set(first, [...(groups.get(first) ?? []), second]);
    flags.set(name, [...Object.keys(command.options).map((f) => `--${f}`), ...global]);
  }
  return { top: [...new Set([...commands.keys()].map((k) => k.split(' ')[0]!))], groups, flags };
}

/** Global flags that take a value: their value is not a command word. */
const VALUE_FLAGS = Object.entries(GLOBAL_OPTIONS)
  .filter(([, o]) => o.type === 'string')
  .map(([f]) => `--${f}`)
  .join('|');

/** A `case` arm per key: `  'key') var='words' ;;`. */
const arms = (map: Map<string, string[]>, variable: string) =>
  [...map].map(([key, words]) => `    '${key}') ${variable}='${words.join(' ')}' ;;\n`).join('');

/**
 * The same steps in both shells: the words before the cursor that are not flags (the values of
 * global flags skipped) name the command; then the cursor's word completes as a command word, a
 * subcommand, a flag of that command, or a file.
 */
export function bashCompletion(commands: ReadonlyMap<string, Command>): string {
  const t = tables(commands);
  return `# agent-memory completion for bash. Load it with:
#   source <(agent-memory completion bash)
# or save it in ~/.local/share/bash-completion/completions/agent-memory
_agent_memory() {
  local cur=\${COMP_WORDS[COMP_CWORD]} i w cmd='' words=() subs='' flags=''
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    case $w in
      ${VALUE_FLAGS}) ((i++)) ;;
      -*) ;;
      *) words+=("$w") ;;
    esac
  done
  if ((\${#words[@]} == 0)); then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '${Object.keys(GLOBAL_OPTIONS)
        .map((f) => `--${f}`)
        .join(' ')} --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -W '${t.top.join(' ')}' -- "$cur"))
    fi
    return
  fi
  cmd=\${words[0]}
  case $cmd in
${arms(t.groups, 'subs')}  esac
  if [[ -n $subs ]]; then
    if ((\${#words[@]} == 1)); then
      COMPREPLY=($(compgen -W "$subs" -- "$cur"))
      return
    fi
    cmd="$cmd \${words[1]}"
  fi
  if [[ $cur == -* ]]; then
    case $cmd in
${arms(t.flags, 'flags')}    esac
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ $cmd == help ]]; then
    COMPREPLY=($(compgen -W '${t.top.join(' ')}' -- "$cur"))
  elif [[ $cmd == completion ]]; then
    COMPREPLY=($(compgen -W 'bash zsh' -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _agent_memory agent-memory
`;
}

export function zshCompletion(commands: ReadonlyMap<string, Command>): string {
  const t = tables(commands);
  return `#compdef agent-memory
# agent-memory completion for zsh. Load it with:
#   source <(agent-memory completion zsh)
# or save it as _agent-memory in a folder of your $fpath
_agent_memory() {
  local cur=\${words[CURRENT]} i w cmd='' subs='' flags=''
  local -a ws
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    case $w in
      ${VALUE_FLAGS}) ((i++)) ;;
      -*) ;;
      *) ws+=("$w") ;;
    esac
  done
  if ((\${#ws} == 0)); then
    if [[ $cur == -* ]]; then
      compadd -- ${Object.keys(GLOBAL_OPTIONS)
        .map((f) => `--${f}`)
        .join(' ')} --version
    else
      compadd -- ${t.top.join(' ')}
    fi
    return
  fi
  cmd=\${ws[1]}
  case $cmd in
${arms(t.groups, 'subs')}  esac
  if [[ -n $subs ]]; then
    if ((\${#ws} == 1)); then
      compadd -- \${=subs}
      return
    fi
    cmd="$cmd \${ws[2]}"
  fi
  if [[ $cur == -* ]]; then
    case $cmd in
${arms(t.flags, 'flags')}    esac
    compadd -- \${=flags}
  elif [[ $cmd == help ]]; then
    compadd -- ${t.top.join(' ')}
  elif [[ $cmd == completion ]]; then
    compadd -- bash zsh
  else
    _files
  fi
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _agent_memory "$@"
else
  compdef _agent_memory agent-memory
fi
`;
}
