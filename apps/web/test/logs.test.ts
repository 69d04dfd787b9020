import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LOG_MODULES } from '@faceadmin/shared';
import { moduleLabel } from '../src/features/logs/moduleLabel.ts';

const LOCALES = path.resolve(import.meta.dirname, '..', 'src', 'locales');
const labels = (folder: string) => (JSON.parse(readFileSync(path.join(LOCALES, folder, 'log.json'), 'utf8')) as { modules: Record<string, string> }).modules;

// issue #9: the module column showed raw `device`, `person`, `department` in every language.
for (const folder of ['zh-CN', 'zh-TW', 'en-US', 'ja']) {
  test(`${folder} labels exactly the modules that write the log`, () => {
    const m = labels(folder);
    assert.deepEqual(Object.keys(m).sort(), [...LOG_MODULES].sort());
    for (const id of LOG_MODULES) assert.notEqual(m[id], id, `${folder}: ${id} is not translated`);
  });
}

test('a module is shown by its label; one the console does not know yet is shown as sent', () => {
  const en = labels('en-US');
  const t = (key: string, opts: { defaultValue: string }) => en[key.replace('log.modules.', '')] ?? opts.defaultValue;
  assert.equal(moduleLabel(t, 'device'), 'Face devices');
  assert.equal(moduleLabel(t, 'department'), 'Departments');
  assert.equal(moduleLabel(t, 'breaker'), 'Circuit breakers');
  assert.equal(moduleLabel(t, 'parking'), 'parking');
});
