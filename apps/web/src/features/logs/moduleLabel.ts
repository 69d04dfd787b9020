type T = (key: string, opts: { defaultValue: string }) => string;

/** Modules are server identifiers (e.g. "manager"); known ones are translated, others shown as sent. */
export function moduleLabel(t: T, module: string): string {
  return t(`log.modules.${module}`, { defaultValue: module });
}
