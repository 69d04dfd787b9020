import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderCaptcha } from './captcha.service.ts';

test('the captcha image does not contain its answer as text', () => {
  const svg = renderCaptcha('8351');
  assert.doesNotMatch(svg, /<text/);
  assert.doesNotMatch(svg, /8351/);
  assert.match(svg, /^<svg /);
});
