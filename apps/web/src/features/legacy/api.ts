import { useMutation, useQuery } from '@tanstack/react-query';
import { legacyApi, TIMING, type LegacyKind, type LegacyRunBody } from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../lib/mutations.ts';
import { call, upload } from '../../lib/request.ts';

const keys = { info: (id: number) => ['legacy', 'info', id] as const };

/** An export of the old software read by the server: its columns, first rows and the mapping offered. */
export const useLegacyPreview = () =>
  useMutation({
    mutationFn: ({ file, kind, encoding, onProgress }: { file: File; kind: LegacyKind; encoding?: string; onProgress: (p: number) => void }) => {
      const form = new FormData();
      // fields before the file: the server reads the parts in order
      form.append('kind', kind);
      if (encoding) form.append('encoding', encoding);
      form.append('file', file);
      return upload(legacyApi.preview, form, { onProgress, timeout: TIMING.exportTimeout });
    },
  });

/** Starts a run (dry or not); people and punches lists are read again once it is over (useLegacyImport). */
export const useLegacyRun = () => useInvalidatingMutation((body: LegacyRunBody) => call(legacyApi.run, body), [['legacy']], { on: 'success' });

/** A run's progress and report, asked every second while it runs (0: none to follow). */
export const useLegacyImport = (id: number) =>
  useQuery({
    queryKey: keys.info(id),
    queryFn: () => call(legacyApi.info, { id }, { inline: true }),
    enabled: id > 0,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 1000 : false),
  });
