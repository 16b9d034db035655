import * as vscode from 'vscode';
import { normalizeTag, tagProblem } from '../../core/tags';
import type { MemoryService } from '../../core/memoryService';

/** What the person settled on, or undefined when they cancelled. */
export interface ReviewedMemory {
  description: string;
  tags: string[];
}

interface TagItem extends vscode.QuickPickItem {
  tag?: string;
  editDescription?: boolean;
}

/**
 * The review step after a person allowed a write: the model's proposed tags come checked,
 * the closest existing tags of the vocabulary are offered unchecked, typing adds new tags,
 * and "Edit description…" opens the description. Enter accepts everything as shown, so
 * accepting the proposal is one keystroke; Escape cancels the write.
 */
export async function reviewMemory(
  service: MemoryService,
  proposal: ReviewedMemory,
  options: { title?: string; tagsLabel?: string; canEditDescription?: boolean } = {},
): Promise<ReviewedMemory | undefined> {
  const vocabulary = await service.tags({ proposed: proposal.tags });
  const similar = [...new Set(vocabulary.suggestions.flatMap((s) => s.similar.map((x) => x.tag)))].filter(
    (t) => !proposal.tags.includes(t),
  );
  const count = new Map(vocabulary.tags.map((t) => [t.tag, t.count]));
  const tagItem = (tag: string, isNew: boolean): TagItem => ({
    label: tag,
    tag,
    description: isNew ? vscode.l10n.t('new tag') : vscode.l10n.t('used by {0}', count.get(tag) ?? 0),
  });
  const editItem: TagItem = {
    label: `$(edit) ${vscode.l10n.t('Edit description…')}`,
    description: proposal.description,
    editDescription: true,
    alwaysShow: true,
  };
  const fixed: TagItem[] = [
    ...(options.canEditDescription === false ? [] : [editItem]),
    { label: options.tagsLabel ?? vscode.l10n.t('Proposed'), kind: vscode.QuickPickItemKind.Separator },
    ...proposal.tags.map((t) => tagItem(t, !count.has(t))),
    ...(similar.length ? [{ label: vscode.l10n.t('Existing tags close to the proposal'), kind: vscode.QuickPickItemKind.Separator }] : []),
    ...similar.map((t) => tagItem(t, false)),
  ];

  const pick = vscode.window.createQuickPick<TagItem>();
  pick.title = options.title ?? vscode.l10n.t('Review the memory before it is saved');
  pick.placeholder = vscode.l10n.t('Enter saves the checked tags; type to add tags (a, b); Escape cancels');
  pick.canSelectMany = true;
  pick.ignoreFocusOut = true;
  pick.items = fixed;
  pick.selectedItems = fixed.filter((i) => i.tag && proposal.tags.includes(i.tag));

  // Free entry: the typed text's tags (comma-separated) are checked items that follow the text.
  // They are replaced on every keystroke, not added: the value changes once per key, and adding
  // would keep every prefix ("p", "pe", "per" for "perf") as a tag of its own.
  let typed: TagItem[] = [];
  pick.onDidChangeValue((value) => {
    const tags = [...new Set(value.split(',').map(normalizeTag))].filter((t) => t && !tagProblem(t) && !fixed.some((i) => i.tag === t));
    const selected = pick.selectedItems;
    const uncheckedTyped = new Set(typed.filter((i) => !selected.includes(i)).map((i) => i.tag));
    typed = tags.map((t) => ({ ...tagItem(t, !count.has(t)), alwaysShow: true }));
    pick.items = [...fixed, ...typed];
    pick.selectedItems = [...selected.filter((i) => fixed.includes(i)), ...typed.filter((i) => !uncheckedTyped.has(i.tag))];
  });

  const result = await new Promise<{ tags: string[]; edit: boolean } | undefined>((resolve) => {
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems;
      resolve({ tags: chosen.filter((i) => i.tag).map((i) => i.tag!), edit: chosen.some((i) => i.editDescription) });
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (!result) return undefined;

  let description = proposal.description;
  if (result.edit) {
    const edited = await vscode.window.showInputBox({
      title: vscode.l10n.t('Description of the memory'),
      value: proposal.description,
      ignoreFocusOut: true,
      validateInput: (v) =>
        v.trim().length === 0
          ? vscode.l10n.t('The description cannot be empty')
          : v.length > 500
            ? vscode.l10n.t('{0} characters; the limit is 500', v.length)
            : undefined,
    });
    if (edited === undefined) return undefined;
    description = edited.trim();
  }
  return { description, tags: result.tags };
}
