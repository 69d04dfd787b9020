/** WCAG 2.1 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The contrast ratio of two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * The theme colour as the console uses it for buttons and links: the chosen one when white text on it, and it on white,
 * reach WCAG AA's 4.5:1; else the same hue darkened just enough (the presets' #1890ff is 3.2:1, its shade here 4.5:1).
 */
export function readablePrimary(hex: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return hex;
  let [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  const out = () => `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
  for (let i = 0; i < 60 && contrast(out(), '#ffffff') < 4.5; i++) [r, g, b] = [r * 0.97, g * 0.97, b * 0.97];
  return out();
}
