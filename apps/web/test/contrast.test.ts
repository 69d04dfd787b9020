import assert from 'node:assert/strict';
import { test } from 'node:test';
import { THEME_COLORS } from '@faceadmin/shared';
import { contrast, readablePrimary } from '../src/ui/contrast.ts';

test('contrast ratios as WCAG 2.1 computes them', () => {
  assert.equal(Math.round(contrast('#000000', '#ffffff')), 21);
  assert.equal(contrast('#777777', '#777777'), 1);
  assert.equal(contrast('#1890ff', '#ffffff').toFixed(2), '3.24');
});

test('every preset theme colour is used in a shade that white text on it reaches 4.5:1, as little darker as that takes', () => {
  for (const c of THEME_COLORS) {
    const used = readablePrimary(c);
    assert.ok(contrast(used, '#ffffff') >= 4.5, `${c} → ${used}`);
    if (contrast(c, '#ffffff') >= 4.5) assert.equal(used, c.toLowerCase(), `${c} already reads: kept`);
    // same hue: each channel scaled alike
    else assert.ok(contrast(used, '#ffffff') < 5.2, `${c} → ${used} is darker than it needs`);
  }
  assert.equal(readablePrimary('#212121'), '#212121');
  assert.equal(readablePrimary('not a colour'), 'not a colour');
});
