import { useMemo, useState } from 'react';
import { Button, Select } from 'antd';
import { SoundOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { directionOf, type Recognition } from '../logic.ts';
import { RecognitionCard } from './RecognitionCard.tsx';
import { RecognitionHistory } from './RecognitionHistory.tsx';
import { useGuardFeed, useWatchedDoors, type Door } from './useGuardFeed.ts';
import { WatchScreen } from './WatchScreen.tsx';

/** The doors this desk watches (none chosen: all), remembered in the browser. */
function DoorSelect(props: { doors: readonly Door[]; value: number[]; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation();
  return (
    <Select
      mode="multiple"
      allowClear
      maxTagCount="responsive"
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('watch.allDoors')}
      aria-label={t('watch.doors')}
      style={{ minWidth: 220, maxWidth: 420 }}
      value={props.value}
      options={props.doors.map((d) => ({ value: d.id, label: `${d.name} (${t(`watch.direction.${d.direction}`)})` }))}
      onChange={(ids: number[]) => props.onChange(ids)}
      data-testid="watch-doors"
    />
  );
}

/**
 * One column of a desk: the current recognition (the newest, or a history row clicked until a newer one
 * arrives) above the history.
 */
function DeskColumn(props: {
  items: readonly Recognition[];
  alarmTemp: (deviceId: number) => number;
  directions: ReadonlyMap<number, string>;
  title?: string;
  compact?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const newest = props.items[0]?.id;
  const [pinned, setPinned] = useState<number | undefined>(undefined);
  const [newestSeen, setNewestSeen] = useState(newest);
  // A new recognition takes the stage: a clicked row stays only until then (adjusted while rendering).
  if (newest !== newestSeen) {
    setNewestSeen(newest);
    setPinned(undefined);
  }
  const current = (pinned !== undefined && props.items.find((r) => r.id === pinned)) || props.items[0];
  return (
    <>
      <RecognitionCard
        r={current}
        alarmTemp={current ? props.alarmTemp(current.device_id) : 0}
        directions={props.directions}
        compact={props.compact}
        testId={`${props.testId}-current`}
      />
      <RecognitionHistory
        items={props.items}
        alarmTemp={props.alarmTemp}
        directions={props.directions}
        selected={current?.id}
        onSelect={(id) => setPinned(id === newest ? undefined : id)}
        title={props.title ?? t('watch.history')}
        testId={`${props.testId}-history`}
      />
    </>
  );
}

/**
 * The guard desk (issue #16 /ioconsoles, and /ioconsoles2 with `split`): the current recognition large and the
 * latest ones below or beside it; `split` shows entrances and exits side by side.
 */
export function GuardDesk(props: { split?: boolean; title: string; storageKey: string; testId: string }) {
  const { t } = useTranslation();
  const [watched, setWatched] = useWatchedDoors(props.storageKey);
  const feed = useGuardFeed(watched);
  const directions = useMemo(() => new Map(feed.doors.map((d) => [d.id, d.direction])), [feed.doors]);

  const tools = (
    <>
      <DoorSelect doors={feed.doors} value={watched} onChange={setWatched} />
      {feed.sound.blocked && (
        <Button type="primary" danger icon={<SoundOutlined />} onClick={feed.sound.unlock} data-testid="watch-enable-sound">
          {t('watch.enableSound')}
        </Button>
      )}
    </>
  );

  let body;
  if (feed.error && !feed.history.length) {
    body = (
      <div style={{ gridColumn: '1 / -1' }}>
        <ErrorState error={feed.error} onRetry={feed.retry} />
      </div>
    );
  } else if (props.split) {
    const entries = feed.history.filter((r) => directionOf(r, directions) === 'in');
    const exits = feed.history.filter((r) => directionOf(r, directions) === 'out');
    body = (
      <>
        <div className="fa-guard-column" data-testid="watch-entrances">
          <h2 className="fa-guard-column-title">{t('watch.entrances')}</h2>
          <DeskColumn items={entries} alarmTemp={feed.alarmTemp} directions={directions} compact title={t('watch.historyIn')} testId="watch-in" />
        </div>
        <div className="fa-guard-column" data-testid="watch-exits">
          <h2 className="fa-guard-column-title">{t('watch.exits')}</h2>
          <DeskColumn items={exits} alarmTemp={feed.alarmTemp} directions={directions} compact title={t('watch.historyOut')} testId="watch-out" />
        </div>
      </>
    );
  } else {
    body = (
      <div className="fa-guard-column" style={{ display: 'contents' }}>
        <DeskColumn items={feed.history} alarmTemp={feed.alarmTemp} directions={directions} testId="watch" />
      </div>
    );
  }

  return (
    <WatchScreen title={props.title} tools={tools} testId={props.testId} bodyClass={props.split ? 'fa-guard-split' : 'fa-guard-single'}>
      {body}
    </WatchScreen>
  );
}
