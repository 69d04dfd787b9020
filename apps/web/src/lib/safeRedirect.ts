/** Only same-origin paths are followed after sign-in (an open redirect would let a link send users elsewhere). */
export function safeRedirect(target: string | null | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/login')) return '/';
  return target;
}
