import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ASK_GIT, gitUserEmail } from '../../src/platform/gitConfig';
import { tmpDir } from '../helpers/tmp';

/** A home folder, an XDG config folder and a repository (with a subfolder) of their own, and git's answer there. */
function setup(files: { home?: string; xdg?: string; repo?: string }) {
  const root = tmpDir('am-gitconfig-');
  const home = path.join(root, 'home');
  const xdg = path.join(root, 'xdg');
  const repo = path.join(root, 'repo');
  const sub = path.join(repo, 'src', 'deep');
  fs.mkdirSync(path.join(xdg, 'git'), { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(sub, { recursive: true });
  execFileSync('git', ['init', '-q', repo]);
  if (files.home !== undefined) fs.writeFileSync(path.join(home, '.gitconfig'), files.home);
  if (files.xdg !== undefined) fs.writeFileSync(path.join(xdg, 'git', 'config'), files.xdg);
  if (files.repo !== undefined) fs.appendFileSync(path.join(repo, '.git', 'config'), files.repo);
  // The test runner's own git variables would change both answers: neither sees them.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: xdg };
  const git = () => {
    try {
      return execFileSync('git', ['config', 'user.email'], { cwd: sub, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return ''; // none set: git exits 1
    }
  };
  return { sub, env, git, root, repo };
}

describe('git user.email read from the config files (real git as the reference)', function () {
  if (process.platform !== 'linux') {
    it('leaves every platform but Linux to git (its files lie elsewhere)', () => assert.equal(gitUserEmail(process.cwd()), ASK_GIT));
    return;
  }

  const plain: Array<[string, { home?: string; xdg?: string; repo?: string }]> = [
    ['nothing set', {}],
    ['the home file, with comments', { home: '# mine\n[user]\n\tname = Me\n\temail = me@example.org ; work\n' }],
    ['the home file over the XDG file', { xdg: '[user]\nemail = xdg@example.org\n', home: '[user]\nemail = home@example.org\n' }],
    ['the XDG file alone', { xdg: '[user]\n  email=xdg@example.org\n' }],
    ['the repository over both, any case', { home: '[user]\nemail = home@example.org\n', repo: '[User]\n\tEMAIL = repo@example.org\n' }],
    ['the last of several', { home: '[user]\nemail = one@example.org\n[core]\n\temail = not-this\n[user]\nemail = two@example.org\n' }],
    [
      'subsections are other sections',
      { home: '[user]\nemail = main@example.org\n[user "work"]\n\temail = w@example.org\n[user.work]\nemail = x@example.org\n' },
    ],
  ];
  for (const [name, files] of plain)
    it(`gives git's answer: ${name}`, () => {
      const { sub, env, git } = setup(files);
      assert.equal(gitUserEmail(sub, env), git());
    });

  const gits: Array<[string, { home?: string; xdg?: string; repo?: string }]> = [
    ['an include', { home: '[include]\n\tpath = other\n[user]\nemail = a@example.org\n' }],
    ['a conditional include', { home: '[includeIf "gitdir:~/work/"]\n\tpath = work\n' }],
    ['a quoted value', { home: '[user]\n\temail = "quoted@example.org"\n' }],
    ['a continued line', { home: '[user]\n\temail = a@example.org\\\n' }],
    ['worktree configuration', { repo: '[extensions]\n\tworktreeConfig = true\n' }],
  ];
  for (const [name, files] of gits)
    it(`leaves to git: ${name}`, () => {
      const { sub, env } = setup(files);
      assert.equal(gitUserEmail(sub, env), ASK_GIT);
    });

  it('leaves a `.git` file (a worktree, a submodule) and git variables to git', () => {
    const { sub, env, repo } = setup({ home: '[user]\nemail = a@example.org\n' });
    assert.equal(gitUserEmail(sub, { ...env, GIT_CONFIG_GLOBAL: '/elsewhere' }), ASK_GIT);
    assert.equal(gitUserEmail(sub, { ...env, GIT_DIR: '/elsewhere' }), ASK_GIT);
    fs.rmSync(path.join(repo, '.git'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.git'), 'gitdir: /elsewhere\n');
    assert.equal(gitUserEmail(sub, env), ASK_GIT);
  });

  it('reads only the user files outside a repository', () => {
    const { env, root } = setup({ home: '[user]\nemail = home@example.org\n' });
    const outside = path.join(root, 'home');
    assert.equal(gitUserEmail(outside, env), 'home@example.org');
  });
});
