import * as vscode from 'vscode';
import { AssertFactTool } from './assertFactTool';
import { ContextTool } from './contextTool';
import { CreateTool } from './createTool';
import { DeleteTool } from './deleteTool';
import { EditTool } from './editTool';
import { FindEpisodesTool } from './findEpisodesTool';
import { FindSkillsTool } from './findSkillsTool';
import { ProposeSkillTool } from './proposeSkillTool';
import { QueryFactsTool } from './queryFactsTool';
import { ReadSkillTool } from './readSkillTool';
import { ReadTool } from './readTool';
import { RecordEpisodeTool } from './recordEpisodeTool';
import { RetractFactTool } from './retractFactTool';
import { SearchTool } from './searchTool';
import { TagsTool } from './tagsTool';
import type { ServicesProvider } from './toolSupport';

/** Registers every contract tool (ALL_TOOLS: the memory tools and the playbook tools) with VS Code's language-model API. */
export function registerTools(context: vscode.ExtensionContext, services: ServicesProvider): void {
  context.subscriptions.push(
    vscode.lm.registerTool(SearchTool.id, new SearchTool(services)),
    vscode.lm.registerTool(CreateTool.id, new CreateTool(services)),
    vscode.lm.registerTool(EditTool.id, new EditTool(services)),
    vscode.lm.registerTool(ReadTool.id, new ReadTool(services)),
    vscode.lm.registerTool(DeleteTool.id, new DeleteTool(services)),
    vscode.lm.registerTool(TagsTool.id, new TagsTool(services)),
    vscode.lm.registerTool(ContextTool.id, new ContextTool(services)),
    vscode.lm.registerTool(RecordEpisodeTool.id, new RecordEpisodeTool(services)),
    vscode.lm.registerTool(FindEpisodesTool.id, new FindEpisodesTool(services)),
    vscode.lm.registerTool(QueryFactsTool.id, new QueryFactsTool(services)),
    vscode.lm.registerTool(AssertFactTool.id, new AssertFactTool(services)),
    vscode.lm.registerTool(RetractFactTool.id, new RetractFactTool(services)),
    vscode.lm.registerTool(FindSkillsTool.id, new FindSkillsTool(services)),
    vscode.lm.registerTool(ReadSkillTool.id, new ReadSkillTool(services)),
    vscode.lm.registerTool(ProposeSkillTool.id, new ProposeSkillTool(services)),
  );
}
