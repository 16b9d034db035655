import * as vscode from 'vscode';
import type { PlaybookAccess } from '../layers/composePlaybook';
import { AssertFactTool } from './assertFactTool';
import { ContextTool } from './contextTool';
import { CreateTool } from './createTool';
import { DeleteTool } from './deleteTool';
import { EditTool } from './editTool';
import { FindSkillsTool } from './findSkillsTool';
import { ProposeSkillTool } from './proposeSkillTool';
import { QueryFactsTool } from './queryFactsTool';
import { ReadSkillTool } from './readSkillTool';
import { ReadTool } from './readTool';
import { RecordEpisodeTool } from './recordEpisodeTool';
import { RetractFactTool } from './retractFactTool';
import { SearchTool } from './searchTool';
import { TagsTool } from './tagsTool';
import type { ServiceProvider } from './toolSupport';

/** Registers every contract tool (ALL_TOOLS: the memory tools and the playbook tools) with VS Code's language-model API. */
export function registerTools(context: vscode.ExtensionContext, service: ServiceProvider, access: PlaybookAccess): void {
  const reads = () => access.getPlaybook().then((l) => l.searchReads);
  context.subscriptions.push(
    vscode.lm.registerTool(SearchTool.id, new SearchTool(service, reads)),
    vscode.lm.registerTool(CreateTool.id, new CreateTool(service, access)),
    vscode.lm.registerTool(EditTool.id, new EditTool(service, access)),
    vscode.lm.registerTool(ReadTool.id, new ReadTool(service, reads)),
    vscode.lm.registerTool(DeleteTool.id, new DeleteTool(service)),
    vscode.lm.registerTool(TagsTool.id, new TagsTool(service)),
    vscode.lm.registerTool(ContextTool.id, new ContextTool(access)),
    vscode.lm.registerTool(RecordEpisodeTool.id, new RecordEpisodeTool(access)),
    vscode.lm.registerTool(QueryFactsTool.id, new QueryFactsTool(access)),
    vscode.lm.registerTool(AssertFactTool.id, new AssertFactTool(access)),
    vscode.lm.registerTool(RetractFactTool.id, new RetractFactTool(access)),
    vscode.lm.registerTool(FindSkillsTool.id, new FindSkillsTool(access)),
    vscode.lm.registerTool(ReadSkillTool.id, new ReadSkillTool(access)),
    vscode.lm.registerTool(ProposeSkillTool.id, new ProposeSkillTool(access)),
  );
}
