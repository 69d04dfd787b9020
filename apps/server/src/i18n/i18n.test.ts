import assert from 'node:assert/strict';
import { test } from 'node:test';
import { t } from './i18n.ts';

test('counted server messages use the plural form of their language (1 person, 2 people; one form in Chinese and Japanese)', () => {
  assert.equal(t('en-US', 'log.actions.device.addPersons', { count: 1, name: 'Gate' }), 'Put 1 person on Gate');
  assert.equal(t('en-US', 'log.actions.device.addPersons', { count: 2, name: 'Gate' }), 'Put 2 people on Gate');
  assert.equal(t('en-US', 'log.actions.person.delete', { count: 1, names: 'Li' }), 'Deleted 1 person: Li');
  assert.equal(t('en-US', 'messages.syncFailed.content', { count: 1, device: 'Gate', code: -1001 }).startsWith('1 person could not'), true);
  assert.equal(t('en-US', 'messages.syncFailed.content', { count: 3, device: 'Gate', code: -1001 }).startsWith('3 people could not'), true);
  // Messages without a plural form of their own are unchanged.
  assert.equal(t('en-US', 'log.actions.person.import', { created: 1, updated: 0, failed: 0 }), 'Imported people: 1 added, 0 updated, 0 rejected');
  assert.equal(
    t('zh-CN', 'log.actions.device.addPersons', { count: 1, name: '大门' }),
    t('zh-CN', 'log.actions.device.addPersons', { count: 2, name: '大门' }).replace('2', '1'),
  );
});
