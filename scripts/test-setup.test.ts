import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ensureTestSetup, findMissing, setupPlan, shellLine, systemProbe, type Command, type Probe } from './test-setup.ts';

/** A Debian machine with everything the suite needs, minus what `without` takes away. */
function machine(without: { files?: string[]; commands?: string[]; fonts?: boolean; users?: string[] } = {}): Probe {
  const files = new Set(['/usr/bin/chromium-headless-shell', '/usr/sbin/mosquitto', '/usr/sbin/nginx', '/usr/lib/postgresql/15/bin/initdb']);
  const commands = new Set(['apt-get', 'soffice', 'mosquitto']);
  for (const f of without.files ?? []) files.delete(f);
  for (const c of without.commands ?? []) commands.delete(c);
  return {
    file: (p) => files.has(p),
    command: (c) => commands.has(c),
    dir: (p) => (p === '/usr/lib/postgresql' && files.has('/usr/lib/postgresql/15/bin/initdb') ? ['15'] : []),
    fonts: () =>
      without.fonts === false
        ? '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf: DejaVu Sans:style=Book\n'
        : '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc: WenQuanYi Zen Hei:style=Regular\n',
    user: (u) => !(without.users ?? []).includes(u),
  };
}
const bare = machine({
  files: ['/usr/bin/chromium-headless-shell', '/usr/sbin/mosquitto', '/usr/sbin/nginx', '/usr/lib/postgresql/15/bin/initdb'],
  commands: ['soffice', 'mosquitto'],
  fonts: false,
  users: ['postgres'],
});
const all = ['chromium-headless-shell', 'fonts-wqy-zenhei', 'libreoffice-calc-nogui', 'mosquitto', 'nginx-light', 'postgresql'];

test('a complete machine needs nothing', () => {
  assert.deepEqual(findMissing(machine(), true), { packages: [], postgresUser: false });
  assert.deepEqual(setupPlan(findMissing(machine(), true), { root: true, aptGet: true }), { action: 'none' });
});

test('each missing piece maps to its Debian package', () => {
  assert.deepEqual(findMissing(machine({ files: ['/usr/bin/chromium-headless-shell'] }), false).packages, ['chromium-headless-shell']);
  assert.deepEqual(findMissing(machine({ fonts: false }), false).packages, ['fonts-wqy-zenhei']);
  assert.deepEqual(findMissing(machine({ commands: ['soffice'] }), false).packages, ['libreoffice-calc-nogui']);
  // Mosquitto on PATH elsewhere counts; gone from both places it is missing.
  assert.deepEqual(findMissing(machine({ files: ['/usr/sbin/mosquitto'] }), false).packages, []);
  assert.deepEqual(findMissing(machine({ files: ['/usr/sbin/mosquitto'], commands: ['mosquitto'] }), false).packages, ['mosquitto']);
  assert.deepEqual(findMissing(machine({ files: ['/usr/lib/postgresql/15/bin/initdb'] }), false).packages, ['postgresql']);
  assert.deepEqual(findMissing(machine({ files: ['/usr/sbin/nginx'] }), false).packages, ['nginx-light']);
  assert.deepEqual(findMissing(bare, true), { packages: all, postgresUser: true });
});

test('initdb on PATH is enough; Noto Sans CJK counts as CJK fonts; LibreOffice as libreoffice counts', () => {
  const p = machine({ files: ['/usr/lib/postgresql/15/bin/initdb'], commands: ['soffice'] });
  const probe: Probe = { ...p, command: (c) => c === 'initdb' || c === 'libreoffice' || p.command(c), fonts: () => 'x.ttc: Noto Sans CJK JP:style=Regular' };
  assert.deepEqual(findMissing(probe, false).packages, []);
});

test('the postgres user is needed only as root', () => {
  const p = machine({ users: ['postgres'] });
  assert.deepEqual(findMissing(p, false), { packages: [], postgresUser: false });
  assert.deepEqual(findMissing(p, true), { packages: [], postgresUser: true });
});

test('as root with apt-get: update, then a quiet non-interactive install of exactly what is missing', () => {
  const plan = setupPlan({ packages: ['chromium-headless-shell', 'libreoffice-calc-nogui'], postgresUser: false }, { root: true, aptGet: true });
  assert.equal(plan.action, 'install');
  if (plan.action !== 'install') return;
  assert.deepEqual(plan.packages, ['chromium-headless-shell', 'libreoffice-calc-nogui']);
  assert.deepEqual(plan.commands.map(shellLine), [
    'apt-get update -qq',
    'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium-headless-shell libreoffice-calc-nogui',
  ]);
});

test('as root, the postgres user is added unless the postgresql package (which creates it) is being installed', () => {
  const onlyUser = setupPlan({ packages: [], postgresUser: true }, { root: true, aptGet: true });
  assert.deepEqual(onlyUser.action === 'install' && onlyUser.commands.map(shellLine), ['useradd --system --no-create-home postgres']);
  const withChromium = setupPlan({ packages: ['chromium-headless-shell'], postgresUser: true }, { root: true, aptGet: true });
  assert.deepEqual(withChromium.action === 'install' && withChromium.commands.map(shellLine).at(-1), 'useradd --system --no-create-home postgres');
  const withPostgres = setupPlan({ packages: ['postgresql'], postgresUser: true }, { root: true, aptGet: true });
  assert.deepEqual(withPostgres.action === 'install' && withPostgres.commands.length, 2);
  // No apt-get needed to add a user.
  assert.equal(setupPlan({ packages: [], postgresUser: true }, { root: true, aptGet: false }).action, 'install');
});

test('not root: stop with the one sudo apt-get install line', () => {
  const plan = setupPlan(findMissing(bare, false), { root: false, aptGet: true });
  assert.equal(plan.action, 'stop');
  if (plan.action !== 'stop') return;
  const lines = plan.message.split('\n').filter((l) => l.includes('apt-get'));
  assert.deepEqual(lines, [`  sudo apt-get install -y --no-install-recommends ${all.join(' ')}`]);
  assert.match(plan.message, /libreoffice-calc-nogui: LibreOffice/);
});

test('root without apt-get: stop, naming the Debian install line', () => {
  const plan = setupPlan({ packages: ['mosquitto'], postgresUser: false }, { root: true, aptGet: false });
  assert.equal(plan.action, 'stop');
  assert.match(plan.action === 'stop' ? plan.message : '', /^ {2}apt-get install -y --no-install-recommends mosquitto$/m);
});

test('ensureTestSetup: a dry run as root plans the install; not root it refuses; complete it passes', (t) => {
  const out: string[] = [];
  t.mock.method(console, 'log', (s: string) => out.push(s));
  t.mock.method(console, 'error', (s: string) => out.push(s));
  assert.equal(ensureTestSetup({ probe: bare, root: true, dryRun: true }), true);
  assert.deepEqual(out.splice(0), [
    `test setup: installing ${all.join(' ')}`,
    'would run: apt-get update -qq',
    `would run: DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${all.join(' ')}`,
  ]);
  assert.equal(ensureTestSetup({ probe: bare, root: false }), false);
  assert.match(out.splice(0).join('\n'), /sudo apt-get install/);
  assert.equal(ensureTestSetup({ probe: machine(), root: true }), true);
});

test('ensureTestSetup as root installs, looks again, and adds the postgres user if the package did not', (t) => {
  t.mock.method(console, 'log', () => {});
  t.mock.method(console, 'error', () => {});
  // A simulated machine where apt-get install puts the binaries in place but no postgres user appears.
  const files = new Set<string>();
  const users = new Set<string>();
  const probe: Probe = {
    file: (p) => files.has(p),
    command: (c) => c === 'apt-get' || (c === 'soffice' && files.has('soffice')),
    dir: () => (files.has('pg') ? ['16'] : []),
    fonts: () => (files.has('wqy') ? 'WenQuanYi Zen Hei' : ''),
    user: (u) => users.has(u),
  };
  const ran: string[] = [];
  const exec = (c: Command) => {
    ran.push(shellLine(c));
    if (c.argv[1] === 'install')
      for (const f of [
        '/usr/bin/chromium-headless-shell',
        '/usr/sbin/mosquitto',
        '/usr/sbin/nginx',
        '/usr/lib/postgresql/16/bin/initdb',
        'pg',
        'soffice',
        'wqy',
      ])
        files.add(f);
    if (c.argv[0] === 'useradd') users.add('postgres');
    return true;
  };
  assert.equal(ensureTestSetup({ probe, root: true, exec }), true);
  assert.deepEqual(ran, [
    'apt-get update -qq',
    `DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${all.join(' ')}`,
    'useradd --system --no-create-home postgres',
  ]);
  // A failing command, or a package that installs nothing, stops the run.
  files.clear();
  users.clear();
  assert.equal(ensureTestSetup({ probe, root: true, exec: () => false }), false);
  assert.equal(ensureTestSetup({ probe, root: true, exec: () => true }), false);
});

test('the real probe answers for this machine without throwing', () => {
  const m = findMissing(systemProbe, process.getuid?.() === 0);
  assert.ok(Array.isArray(m.packages));
});
