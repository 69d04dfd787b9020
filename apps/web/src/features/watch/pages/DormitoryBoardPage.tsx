import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '../../../lib/media.ts';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { useDormitorySettings, useDormitoryStatus } from '../api.ts';
import { acrossBuildings } from '../logic.ts';
import { DormitoryChart, NameList, shortTime, useLatestReturns } from '../components/Dormitory.tsx';
import { WatchScreen } from '../components/WatchScreen.tsx';

const NONE: readonly number[] = [];

/** The viewport's height, followed (the board fits the screen it is on). */
function useViewportHeight() {
  const [h, setH] = useState(() => window.innerHeight);
  useEffect(() => {
    const on = () => setH(window.innerHeight);
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return h;
}

/** watch.css's one-column layout. */
const NARROW = '(max-width: 900px)';

/**
 * /dormitory2: the dormitory wall board (issue #16): dark, large, fitted to the screen, nothing to click: the
 * totals, a bar per building (inside / out), who is not back after the hour, late returns and the latest returns.
 */
export default function DormitoryBoardPage() {
  const { t } = useTranslation();
  const status = useDormitoryStatus();
  const settings = useDormitorySettings();
  const height = useViewportHeight();
  const buildingIds = useMemo(() => status.data?.buildings.map((b) => b.id) ?? NONE, [status.data]);
  const returns = useLatestReturns(settings.data, buildingIds, 8);
  const s = status.data;
  const notBack = useMemo(() => acrossBuildings((s?.buildings ?? []).map((b) => ({ name: b.name, people: b.not_back }))), [s]);
  const late = useMemo(() => acrossBuildings((s?.buildings ?? []).map((b) => ({ name: b.name, people: b.late }))), [s]);
  // The lists show what fits their panels (NameList measures); on a phone the page scrolls and each shows a dozen.
  const narrow = useMediaQuery(NARROW);
  const limit = narrow ? 12 : undefined;
  const chartHeight = narrow ? 280 : Math.max(240, height - 300);

  const tools = s && (
    <span className="fa-watch-note" data-testid="board-deadline">
      {t('watch.dorm.returnBy')} {s.return_by}
      {s.passed_today ? '' : ` · ${t('watch.dorm.lastNight', { time: shortTime(s.deadline) })}`}
    </span>
  );

  return (
    <WatchScreen title={t('route.dormitory2')} tools={tools} testId="dormitory-board-page" bodyClass="fa-dorm-board">
      {status.error && !s ? (
        <ErrorState error={status.error} onRetry={status.refetch} retrying={status.isFetching} />
      ) : !s ? null : (
        <>
          <div className="fa-dorm-figures" data-testid="board-totals">
            {(
              [
                ['total', s.totals.total, '#f9fafb'],
                ['inside', s.totals.inside, '#22c55e'],
                ['out', s.totals.out, '#f59e0b'],
                ['notBack', s.totals.not_back, s.totals.not_back ? '#ef4444' : '#f9fafb'],
                ['late', s.totals.late, s.totals.late ? '#fbbf24' : '#f9fafb'],
              ] as const
            ).map(([key, value, color]) => (
              <div className="fa-dorm-figure" key={key}>
                <div className="fa-dorm-figure-label">{t(`watch.dorm.${key}`)}</div>
                <div className="fa-dorm-figure-value" style={{ color }} data-testid={`board-total-${key}`}>
                  {value}
                </div>
              </div>
            ))}
          </div>
          <div className="fa-dorm-board-main">
            <div className="fa-dorm-panel">
              <h2>{t('watch.dorm.byBuilding')}</h2>
              <DormitoryChart buildings={s.buildings} dark height={chartHeight} />
            </div>
            <div style={{ display: 'flex', flexDirection: 'column', gap: 16, minHeight: 0 }}>
              <div className="fa-dorm-panel" style={{ flex: 2 }}>
                <h2 style={{ color: notBack.length ? '#ef4444' : undefined }}>
                  {t('watch.dorm.notBack')} ({notBack.length})
                </h2>
                <NameList people={notBack} limit={limit} testId="board-not-back" empty={t('watch.dorm.allBack')} />
              </div>
              <div className="fa-dorm-panel" style={{ flex: 1 }}>
                <h2>
                  {t('watch.dorm.lateReturns')} ({late.length})
                </h2>
                <NameList people={late} limit={limit} late testId="board-late" empty={t('watch.dorm.noLate')} />
              </div>
              <div className="fa-dorm-panel" style={{ flex: 1 }} data-testid="board-returns">
                <h2>{t('watch.dorm.latestReturns')}</h2>
                {returns.length ? (
                  <ul className="fa-dorm-names">
                    {returns.map((r) => (
                      <li key={r.id}>
                        {r.name}
                        <span className="when">{r.time.slice(0, 5)}</span>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <div className="fa-hist-sub">{t('watch.dorm.noReturns')}</div>
                )}
              </div>
            </div>
          </div>
        </>
      )}
    </WatchScreen>
  );
}
