import * as vscode from 'vscode';

/** Opens the document a saved draft became (`target`) in the draft's place, and closes the draft's tab. */
export async function replaceDraftTab(draft: vscode.Uri, target: vscode.Uri): Promise<void> {
  const tab = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === draft.toString());
  await vscode.window.showTextDocument(target, { preview: false, viewColumn: tab?.group.viewColumn });
  if (tab && !tab.isDirty) await vscode.window.tabGroups.close(tab);
}
