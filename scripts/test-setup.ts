import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * What `npm test` needs from the machine beyond `npm install`: Debian packages for the browser journeys, the
 * import tests, the breaker suite and the PostgreSQL run, and (as root) the `postgres` user that runs the throwaway
 * cluster (PostgreSQL refuses root). `npm test` calls ensureTestSetup() first: as root with apt-get it installs what
 * is missing, otherwise it stops before any test with the one command that would.
 *
 * `node scripts/test-setup.ts` does the same on its own; `--dry-run` only prints what is missing and what it would run.
 */

/** How the machine is looked at; injected so the unit test can simulate a machine with things missing. */
export interface Probe {
  /** Is there an executable (or file) at this path? */
  file(p: string): boolean;
  /** Is this command on PATH? */
  command(name: string): boolean;
  /** Entries of a folder ([] when it does not exist). */
  dir(p: string): string[];
  /** `fc-list` output ('' without fontconfig). */
  fonts(): string;
  /** Does this system user exist? */
  user(name: string): boolean;
}

interface Requirement {
  pkg: string;
  why: string;
  present(probe: Probe): boolean;
}

export const requirements: Requirement[] = [
  {
    pkg: 'chromium-headless-shell',
    why: 'the browser journeys (e2e): Debian\u2019s Chromium built for headless use, a third less CPU per page than the full browser',
    present: (p) => p.file('/usr/bin/chromium-headless-shell'),
  },
  {
    pkg: 'fonts-wqy-zenhei',
    why: 'CJK fonts, so the journeys\u2019 Chinese and Japanese screenshots are legible',
    present: (p) => /wenquanyi|noto sans cjk/i.test(p.fonts()),
  },
  {
    pkg: 'libreoffice-calc-nogui',
    why: 'LibreOffice writes the "made by another program" workbooks the import tests upload',
    present: (p) => p.command('soffice') || p.command('libreoffice'),
  },
  {
    pkg: 'mosquitto',
    why: 'the breaker suite also runs against a real Mosquitto',
    present: (p) => p.file('/usr/sbin/mosquitto') || p.command('mosquitto'),
  },
  {
    pkg: 'nginx-light',
    why: 'the several-instances journey runs two servers behind nginx with docs/nginx-faceadmin.conf',
    present: (p) => p.file('/usr/sbin/nginx') || p.command('nginx'),
  },
  {
    pkg: 'postgresql',
    why: 'initdb for the server suite\u2019s PostgreSQL run',
    present: (p) => p.command('initdb') || p.dir('/usr/lib/postgresql').some((v) => p.file(`/usr/lib/postgresql/${v}/bin/initdb`)),
  },
];

export interface Missing {
  /** Debian packages to install, in a stable order. */
  packages: string[];
  /** As root only: the `postgres` system user is missing. */
  postgresUser: boolean;
}

/** What the machine lacks. The postgres user matters only as root (otherwise initdb runs as the caller). */
export function findMissing(probe: Probe, root: boolean): Missing {
  return {
    packages: requirements.filter((r) => !r.present(probe)).map((r) => r.pkg),
    postgresUser: root && !probe.user('postgres'),
  };
}

export interface Command {
  env?: Record<string, string>;
  argv: string[];
}

export type Plan =
  | { action: 'none' }
  /** Run these, in order, then look again. */
  | { action: 'install'; packages: string[]; commands: Command[] }
  /** Cannot install from here: stop before any test, printing this. */
  | { action: 'stop'; message: string };

/** The command line a person would type. */
export const shellLine = (c: Command): string => [...Object.entries(c.env ?? {}).map(([k, v]) => `${k}=${v}`), ...c.argv].join(' ');

/**
 * What is missing → what to run. As root with apt-get: update, install, and add the postgres user (unless
 * postgresql is being installed, whose package creates it). Otherwise: stop with the `sudo apt-get install` line.
 */
export function setupPlan(missing: Missing, env: { root: boolean; aptGet: boolean }): Plan {
  const { packages } = missing;
  if (packages.length === 0 && !missing.postgresUser) return { action: 'none' };
  const useradd = ['useradd', '--system', '--no-create-home', 'postgres'];
  const addUser = missing.postgresUser && !packages.includes('postgresql');
  if (env.root && (env.aptGet || packages.length === 0)) {
    const commands: Command[] = [];
    if (packages.length > 0) {
      commands.push({ argv: ['apt-get', 'update', '-qq'] });
      commands.push({ env: { DEBIAN_FRONTEND: 'noninteractive' }, argv: ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages] });
    }
    if (addUser) commands.push({ argv: useradd });
    return { action: 'install', packages, commands };
  }
  const lines = [`npm test needs Debian packages that are missing: ${packages.join(', ')}.`];
  for (const r of requirements) if (packages.includes(r.pkg)) lines.push(`  ${r.pkg}: ${r.why}`);
  const install = `sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (env.root) lines.push(`This machine has no apt-get; on Debian or Ubuntu this installs them:`, `  ${install.replace(/^sudo /, '')}`);
  else lines.push(`Install them (npm test does it itself when run as root), then run npm test again:`, `  ${install}`);
  return { action: 'stop', message: lines.join('\n') };
}

/** The real machine. */
export const systemProbe: Probe = {
  file: (p) => fs.existsSync(p),
  command: (name) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0,
  dir: (p) => {
    try {
      return fs.readdirSync(p);
    } catch {
      return [];
    }
  },
  fonts: () => spawnSync('fc-list', { encoding: 'utf8' }).stdout ?? '',
  user: (name) => spawnSync('id', [name], { stdio: 'ignore' }).status === 0,
};

/** Checks the machine and installs what it can; false (after saying why) when the tests cannot run. */
export function ensureTestSetup(options: { dryRun?: boolean; probe?: Probe; root?: boolean; exec?: (c: Command) => boolean } = {}): boolean {
  const probe = options.probe ?? systemProbe;
  const exec = options.exec ?? spawnCommand;
  const root = options.root ?? process.getuid?.() === 0;
  const env = { root, aptGet: probe.command('apt-get') };
  const plan = setupPlan(findMissing(probe, root), env);
  if (plan.action === 'none') {
    console.log(`test setup: ${requirements.map((r) => r.pkg).join(', ')} present${root ? ', postgres user present' : ''}`);
    return true;
  }
  if (plan.action === 'stop') {
    console.error(plan.message);
    return false;
  }
  if (plan.packages.length > 0) console.log(`test setup: installing ${plan.packages.join(' ')}`);
  if (!run(plan.commands, exec, options.dryRun)) return false;
  if (options.dryRun) return true;
  // Look again: the postgresql package normally brings the postgres user; add it if it did not.
  const after = findMissing(probe, root);
  if (after.packages.length === 0 && after.postgresUser) {
    const again = setupPlan(after, env);
    if (again.action === 'install' && !run(again.commands, exec)) return false;
  }
  const left = findMissing(probe, root);
  if (left.packages.length > 0 || left.postgresUser) {
    console.error(`test setup: still missing after installing: ${[...left.packages, ...(left.postgresUser ? ['the postgres user'] : [])].join(', ')}`);
    return false;
  }
  return true;
}

function run(commands: Command[], exec: (c: Command) => boolean, dryRun = false): boolean {
  for (const c of commands) {
    console.log(`${dryRun ? 'would run:' : '$'} ${shellLine(c)}`);
    if (!dryRun && !exec(c)) return false;
  }
  return true;
}

function spawnCommand(c: Command): boolean {
  const [cmd = '', ...args] = c.argv;
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...c.env } });
  if (r.status === 0) return true;
  console.error(`test setup: \`${shellLine(c)}\` failed (${r.error?.message ?? `exit ${r.status}`})`);
  return false;
}

if (import.meta.main) {
  process.exit(ensureTestSetup({ dryRun: process.argv.includes('--dry-run') }) ? 0 : 1);
}
