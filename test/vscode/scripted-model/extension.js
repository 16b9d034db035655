// Test-only extension (never packaged: .vscodeignore keeps test/ out of the .vsix). It
// contributes one language model, "scripted", whose behaviour the VS Code tests set:
//
//   agentMemoryTest.scriptedModel.script(calls)  queue tool calls [{ name, input }]
//   agentMemoryTest.scriptedModel.state()        → { requests, replies } seen so far (a request:
//                                                 its messages, tool names, tools with descriptions)
//   agentMemoryTest.scriptedModel.reset()        forget the queue and the record
//
// Each chat request that offers tools (Agent mode's tool loop) gets, in this order:
//   1. if it carries results of tool calls this model made and has not answered yet: a text
//      reply that echoes them ("Scripted model read: <tool result text>"), so a test can see
//      in the chat what the model was handed;
//   2. else the next queued tool call, as a LanguageModelToolCallPart;
//   3. else a fixed text.
// Requests without tools (a chat title, a summary) get a fixed text and consume nothing, so
// side requests the chat makes cannot eat a scripted step. Plain JavaScript: no build step.
const vscode = require('vscode');

const VENDOR = 'agent-memory-test';
const MODEL_ID = 'scripted';

/** @type {{ name: string, input: object }[]} */
let queue = [];
/** callId → whether its result has been echoed */
let issued = new Map();
let requests = [];
let replies = [];
let nextCall = 1;

function partText(part) {
  if (part instanceof vscode.LanguageModelTextPart) return part.value;
  if (typeof part?.value === 'string') return part.value;
  if (part?.data instanceof Uint8Array) return Buffer.from(part.data).toString('utf8');
  return JSON.stringify(part);
}

/** A JSON-friendly copy of a request's messages, for the tests to inspect. */
function summarise(messages) {
  return messages.map((m) => ({
    role:
      m.role === vscode.LanguageModelChatMessageRole.User
        ? 'user'
        : m.role === vscode.LanguageModelChatMessageRole.Assistant
          ? 'assistant'
          : String(m.role),
    parts: (m.content ?? []).map((p) => {
      if (p instanceof vscode.LanguageModelToolResultPart)
        return { kind: 'toolResult', callId: p.callId, text: (p.content ?? []).map(partText).join('') };
      if (p instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', callId: p.callId, name: p.name, input: p.input };
      if (p instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: p.value };
      return { kind: 'other' };
    }),
  }));
}

const provider = {
  provideLanguageModelChatInformation() {
    return [
      {
        id: MODEL_ID,
        name: 'Scripted (Agent Memory tests)',
        family: 'scripted',
        version: '1.0.0',
        maxInputTokens: 128000,
        maxOutputTokens: 4096,
        isUserSelectable: true,
        capabilities: { toolCalling: true, imageInput: false },
      },
    ];
  },

  async provideLanguageModelChatResponse(model, messages, options, progress) {
    const summary = summarise(messages);
    const toolNames = (options.tools ?? []).map((t) => t.name);
    const tools = (options.tools ?? []).map((t) => ({ name: t.name, description: t.description }));
    requests.push({ toolNames, tools, messages: summary });
    let reply;
    if (toolNames.length === 0) {
      reply = { text: 'Scripted model test chat' };
    } else {
      const results = summary.flatMap((m) => m.parts).filter((p) => p.kind === 'toolResult' && issued.get(p.callId) === false);
      if (results.length) {
        for (const r of results) issued.set(r.callId, true);
        reply = { text: results.map((r) => `Scripted model read: ${r.text}`).join('\n\n') };
      } else if (queue.length) {
        const call = queue.shift();
        const callId = `scripted-call-${nextCall++}`;
        issued.set(callId, false);
        reply = { toolCall: { callId, name: call.name, input: call.input } };
      } else {
        reply = { text: 'Scripted model: nothing more to do.' };
      }
    }
    replies.push(reply);
    if (reply.toolCall)
      progress.report(new vscode.LanguageModelToolCallPart(reply.toolCall.callId, reply.toolCall.name, reply.toolCall.input));
    else progress.report(new vscode.LanguageModelTextPart(reply.text));
  },

  provideTokenCount(model, text) {
    const s = typeof text === 'string' ? text : JSON.stringify(text);
    return Math.ceil(s.length / 4);
  },
};

function activate(context) {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(VENDOR, provider),
    vscode.commands.registerCommand('agentMemoryTest.scriptedModel.script', (calls) => {
      queue.push(...calls);
    }),
    vscode.commands.registerCommand('agentMemoryTest.scriptedModel.state', () =>
      JSON.parse(JSON.stringify({ requests, replies, queued: queue.length })),
    ),
    vscode.commands.registerCommand('agentMemoryTest.scriptedModel.reset', () => {
      queue = [];
      issued = new Map();
      requests = [];
      replies = [];
    }),
  );
  return { vendor: VENDOR, id: MODEL_ID };
}

module.exports = { activate, deactivate() {} };
