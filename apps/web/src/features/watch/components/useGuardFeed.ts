import { useEffect, useMemo, useRef, useState } from 'react';
import { API_PREFIX, pathOf, personsApi } from '@faceadmin/shared';
import { useLiveEvent } from '../../../lib/live.ts';
import { useRightLevel, useUserInfo } from '../../../lib/session.ts';
import { readLocal, writeLocal } from '../../../lib/store.ts';
import { useDeviceOptions } from '../../devices/api.ts';
import { useRecentPunches } from '../api.ts';
import { alarmTempOf, atDoors, HISTORY_MAX, mergeRecognitions, parseDoors, ringsFor, type Recognition } from '../logic.ts';
import { alarmRingOn } from '../../breakers/logic.ts';
import { useAlarmSound } from './useAlarmSound.ts';

export interface Door {
  id: number;
  name: string;
  direction: 'in' | 'out';
  alarmTemp: number;
}

/** The doors a desk watches, remembered in this browser under `storageKey` (none: every door). */
export function useWatchedDoors(storageKey: string): [number[], (ids: number[]) => void] {
  const [doors, setDoors] = useState<number[]>(() => parseDoors(readLocal<unknown>(storageKey, [])));
  const set = (ids: number[]) => {
    const clean = parseDoors(ids);
    writeLocal(storageKey, clean);
    setDoors(clean);
  };
  return [doors, set];
}

/**
 * What a guard desk shows: the newest recognitions (the list first, then the live stream; polling while it is
 * down), capture photos as they follow, the doors known, and the ring for strangers and refused people when
 * the company's alarmRing is on.
 */
export function useGuardFeed(doors: readonly number[]) {
  const recent = useRecentPunches();
  // the doors in full (direction, temperature alarm) for face-device view; a guard with the attendance right alone
  // knows the doors from the history
  const devices = useDeviceOptions(useRightLevel('face').canView);
  const user = useUserInfo().data;
  const people = useRightLevel('person');
  const [live, setLive] = useState<Recognition[]>([]);
  const [photos, setPhotos] = useState<ReadonlyMap<number, string>>(new Map());
  const sound = useAlarmSound(alarmRingOn(user));

  useLiveEvent('punch', (p) => setLive((h) => mergeRecognitions(h, [p])));
  useLiveEvent('photo', (ph) =>
    setPhotos((m) => {
      const next = new Map(m);
      next.set(ph.id, ph.pic_url);
      // only the photos of what can still be shown are kept
      while (next.size > HISTORY_MAX * 2) next.delete(next.keys().next().value!);
      return next;
    }),
  );
  useLiveEvent('reset', () => void recent.refetch());

  // The doors: the company's devices (the face-device right lists them) and any door seen in the history.
  const doorList = useMemo(() => {
    const map = new Map<number, Door>();
    for (const d of devices.data?.items ?? []) map.set(d.id, { id: d.id, name: d.name, direction: d.direction, alarmTemp: alarmTempOf(d.options) });
    for (const r of [...(recent.data?.items ?? []), ...live])
      if (!map.has(r.device_id))
        map.set(r.device_id, { id: r.device_id, name: r.device, direction: r.direction === 'out' ? 'out' : 'in', alarmTemp: alarmTempOf(undefined) });
    return [...map.values()].sort((a, b) => a.name.localeCompare(b.name));
  }, [devices.data, recent.data, live]);
  const alarmTemp = useMemo(() => {
    const m = new Map(doorList.map((d) => [d.id, d.alarmTemp]));
    return (deviceId: number) => m.get(deviceId) ?? alarmTempOf(undefined);
  }, [doorList]);

  const merged = useMemo(() => mergeRecognitions(recent.data?.items ?? [], live), [recent.data, live]);
  const history = useMemo(
    () =>
      atDoors(merged, doors).map((r) => {
        const pic = photos.get(r.id);
        // A listed punch has no registered face: the person's picture, when this session may see people.
        const face = r.face_url || (r.person_id && people.canView ? API_PREFIX + pathOf(personsApi.photo, { id: r.person_id }) : '');
        return pic || face !== r.face_url ? { ...r, pic_url: pic || r.pic_url, face_url: face } : r;
      }),
    [merged, photos, doors, people.canView],
  );

  // Rings once per new alarming recognition at a watched door, whether it came live or by polling; what the
  // first load shows is history and never rings (nor does choosing other doors).
  const seen = useRef<number | null>(null);
  const { ring } = sound;
  useEffect(() => {
    if (!recent.isSuccess && !live.length) return;
    const last = seen.current;
    seen.current = merged.reduce((m, r) => Math.max(m, r.id), last ?? 0);
    if (last !== null && atDoors(merged, doors).some((r) => r.id > last && ringsFor(r, alarmTemp(r.device_id)))) ring();
  }, [merged, doors, recent.isSuccess, live.length, alarmTemp, ring]);

  return {
    history,
    doors: doorList,
    alarmTemp,
    loading: recent.isLoading,
    error: recent.error,
    retry: () => void recent.refetch(),
    sound,
  };
}
