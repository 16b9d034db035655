import * as vscode from 'vscode';
import type { Ontology } from '../../core/playbook/ontology';

/** What the New Fact wizard collects, as typed (trimmed by the fact service). */
export interface NewFact {
  subject: string;
  predicate: string;
  object: string;
  source: string;
  confidence: string;
}

const STEPS = 5;
/** A validator refusing an empty answer, naming `what`. */
export const required = (what: string) => (v: string) => (v.trim() ? undefined : vscode.l10n.t('{0} is required', what));

/**
 * The New Fact wizard: five steps with a step counter (subject, predicate, object, source,
 * confidence). With an ontology the predicate is picked from its relations (what each links, and
 * its description), since the fact service refuses any other; without one it is typed.
 * Undefined when the person cancels at any step.
 */
export async function newFactWizard(ontology: Ontology | null): Promise<NewFact | undefined> {
  const title = vscode.l10n.t('New Fact');
  const subject = await inputStep(
    title,
    1,
    ontology
      ? vscode.l10n.t('Subject: the entity the fact is about, as type:name (e.g. service:billing)')
      : vscode.l10n.t('Subject: the entity the fact is about (e.g. billing)'),
    required(vscode.l10n.t('The subject')),
  );
  if (subject === undefined) return undefined;
  const predicate = ontology?.relations.length
    ? await relationStep(title, ontology)
    : await inputStep(
        title,
        2,
        vscode.l10n.t('Predicate: the relation, e.g. depends_on or owned_by'),
        required(vscode.l10n.t('The predicate')),
      );
  if (predicate === undefined) return undefined;
  const object = await inputStep(title, 3, vscode.l10n.t('Object: the value or the other entity'), required(vscode.l10n.t('The object')));
  if (object === undefined) return undefined;
  const source = await inputStep(title, 4, vscode.l10n.t('Source: where it comes from (a URL, a file, a commit, a memory id); optional'));
  if (source === undefined) return undefined;
  const confidence = await inputStep(
    title,
    5,
    vscode.l10n.t('Confidence from 0 to 1 (1 = certain)'),
    (v) =>
      v.trim() === '' || (Number.isFinite(Number(v)) && Number(v) >= 0 && Number(v) <= 1)
        ? undefined
        : vscode.l10n.t('A number from 0 to 1'),
    '1',
  );
  if (confidence === undefined) return undefined;
  return { subject, predicate, object, source, confidence };
}

/** One text step: resolves to the accepted value, or undefined when the box is closed. */
function inputStep(
  title: string,
  step: number,
  prompt: string,
  validate?: (v: string) => string | undefined,
  value = '',
): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  Object.assign(box, { title, step, totalSteps: STEPS, prompt, value, ignoreFocusOut: true });
  box.onDidChangeValue((v) => (box.validationMessage = validate?.(v)));
  return answer(box, () => {
    box.validationMessage = validate?.(box.value);
    return box.validationMessage ? undefined : box.value;
  });
}

/** The predicate step with an ontology: its relations, each with the types it links. */
function relationStep(title: string, ontology: Ontology): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { name: string }>();
  Object.assign(pick, {
    title,
    step: 2,
    totalSteps: STEPS,
    placeholder: vscode.l10n.t('Predicate: the relations of the ontology'),
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  pick.items = ontology.relations.map((r) => ({
    label: r.name,
    name: r.name,
    description: `${r.from.join(' | ')} → ${Array.isArray(r.to) ? r.to.join(' | ') : r.to}${r.cardinality === 'one' ? vscode.l10n.t(' (one)') : ''}`,
    detail: r.description,
  }));
  return answer(pick, () => pick.selectedItems[0]?.name);
}

/**
 * Shows `input` and resolves with what `accept` makes of it when the person presses Enter (an
 * undefined answer keeps it open, e.g. while it is invalid), or with undefined once it is closed.
 */
function answer<T>(input: vscode.InputBox | vscode.QuickPick<vscode.QuickPickItem>, accept: () => T | undefined): Promise<T | undefined> {
  return new Promise((resolve) => {
    let done = false;
    input.onDidAccept(() => {
      const value = accept();
      if (value === undefined) return;
      done = true;
      resolve(value);
      input.hide();
    });
    input.onDidHide(() => {
      if (!done) resolve(undefined);
      input.dispose();
    });
    input.show();
  });
}
