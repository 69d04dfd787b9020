import { useState } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A mutation that invalidates every query under the given key prefixes, either after a success only or
 * after any outcome ('settled': a refused change may still have moved something on the server).
 * The mutation's promise resolves once the invalidation is done.
 */
export function useInvalidatingMutation<V, R>(
  fn: (v: V) => Promise<R>,
  prefixes: readonly QueryKey[],
  opts: { on: 'success' | 'settled'; /** runs before the invalidation (e.g. notes that people changed) */ before?: () => void },
) {
  const qc = useQueryClient();
  const invalidate = async () => {
    opts.before?.();
    await Promise.all(prefixes.map((queryKey) => qc.invalidateQueries({ queryKey })));
  };
  return useMutation({
    mutationFn: fn,
    onSuccess: opts.on === 'success' ? invalidate : undefined,
    onSettled: opts.on === 'settled' ? invalidate : undefined,
  });
}

/**
 * An export with its progress: the bytes of the streamed workbook received so far (spec §9: 120 s timeout).
 * Failures are shown by the API client.
 */
export function useExportWithProgress<F>(run: (f: F, onProgress: (bytes: number) => void) => Promise<void>) {
  const [bytes, setBytes] = useState(0);
  const mutation = useMutation({
    mutationFn: (f: F) => {
      setBytes(0);
      return run(f, setBytes);
    },
  });
  return { ...mutation, bytes };
}
