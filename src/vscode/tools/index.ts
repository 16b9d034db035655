import * as vscode from 'vscode';
import { CreateTool } from './createTool';
import { DeleteTool } from './deleteTool';
import { EditTool } from './editTool';
import { ReadTool } from './readTool';
import { SearchTool } from './searchTool';
import { TagsTool } from './tagsTool';
import type { ServiceProvider } from './toolSupport';

/** Registers every contract tool with VS Code's language-model API. */
export function registerTools(context: vscode.ExtensionContext, service: ServiceProvider): void {
  context.subscriptions.push(
    vscode.lm.registerTool(SearchTool.id, new SearchTool(service)),
    vscode.lm.registerTool(CreateTool.id, new CreateTool(service)),
    vscode.lm.registerTool(EditTool.id, new EditTool(service)),
    vscode.lm.registerTool(ReadTool.id, new ReadTool(service)),
    vscode.lm.registerTool(DeleteTool.id, new DeleteTool(service)),
    vscode.lm.registerTool(TagsTool.id, new TagsTool(service)),
  );
}
