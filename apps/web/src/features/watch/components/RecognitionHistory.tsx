import { useTranslation } from 'react-i18next';
import { directionOf, verdictOf, type Recognition } from '../logic.ts';
import { Photo } from './RecognitionCard.tsx';

/** The latest recognitions, newest first; a row shows itself large when clicked. */
export function RecognitionHistory(props: {
  items: readonly Recognition[];
  alarmTemp: (deviceId: number) => number;
  directions: ReadonlyMap<number, string>;
  selected: number | undefined;
  onSelect: (id: number) => void;
  title: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <section className="fa-hist" data-testid={props.testId}>
      <div className="fa-hist-title">{props.title}</div>
      {/* it scrolls: reachable by keyboard, named by its title (WCAG 2.1.1) */}
      <ul className="fa-hist-list" tabIndex={0} aria-label={props.title}>
        {props.items.map((r) => {
          const { verdict, reasons } = verdictOf(r, props.alarmTemp(r.device_id));
          const dir = directionOf(r, props.directions);
          return (
            <li
              key={r.id}
              className={`fa-hist-row ${verdict}${props.selected === r.id ? ' selected' : ''}`}
              data-verdict={verdict}
              data-testid="watch-history-row"
              onClick={() => props.onSelect(r.id)}
            >
              <Photo className="fa-hist-thumb" src={r.pic_url || r.face_url} alt={r.name} />
              <div style={{ minWidth: 0 }}>
                <div className="fa-hist-name">{r.stranger ? t('watch.stranger') : r.name || r.number}</div>
                <div className="fa-hist-sub">
                  {[t(`watch.direction.${dir}`), r.device, r.department].filter(Boolean).join(' · ')}
                  {reasons.length > 0 && <span className="fa-hist-reason"> · {reasons.map((x) => t(`watch.reason.${x}`)).join(', ')}</span>}
                </div>
              </div>
              <div className="fa-hist-time">
                <div>{r.time}</div>
                <div className="fa-hist-sub">{r.day}</div>
              </div>
            </li>
          );
        })}
        {props.items.length === 0 && <li className="fa-rec-empty">{t('watch.none')}</li>}
      </ul>
    </section>
  );
}
