import { useState } from 'react';
import { PictureOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { measure } from '../../punches/logic.ts';
import { directionOf, verdictOf, type Recognition } from '../logic.ts';

/** A photo that shows a placeholder when there is none or it cannot be loaded (no right, not arrived yet). */
export function Photo(props: { src: string | undefined; label?: string; className: string; alt: string; icon?: 'face' | 'capture' }) {
  const [failed, setFailed] = useState<string | null>(null);
  const ok = props.src && failed !== props.src;
  return (
    <div className={props.className}>
      {ok ? (
        <img src={props.src} alt={props.alt} onError={() => setFailed(props.src ?? null)} />
      ) : props.icon === 'face' ? (
        <UserOutlined aria-hidden />
      ) : (
        <PictureOutlined aria-hidden />
      )}
      {props.label && <span className="fa-rec-photo-label">{props.label}</span>}
    </div>
  );
}

/** The current recognition, large: photos, who, where, when, the readings and the verdict's colour. */
export function RecognitionCard(props: {
  r: Recognition | undefined;
  alarmTemp: number;
  directions: ReadonlyMap<number, string>;
  compact?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const { r } = props;
  if (!r) {
    return (
      <section className={props.compact ? 'fa-rec compact' : 'fa-rec'} data-testid={props.testId} data-verdict="none">
        <div className="fa-rec-empty">{t('watch.waiting')}</div>
      </section>
    );
  }
  const { verdict, reasons } = verdictOf(r, props.alarmTemp);
  const dir = directionOf(r, props.directions);
  const fever = reasons.includes('fever');
  const name = r.stranger ? t('watch.stranger') : r.name || r.number;
  const code = r.health?.toLowerCase();
  return (
    <section
      className={`fa-rec ${verdict}${props.compact ? ' compact' : ''}`}
      data-testid={props.testId}
      data-verdict={verdict}
      data-id={r.id}
      aria-live="polite"
    >
      <div className="fa-rec-verdict">
        <span>{t(`watch.verdict.${verdict}`)}</span>
        {reasons.length > 0 && <span className="fa-rec-reasons">{reasons.map((x) => t(`watch.reason.${x}`)).join(' · ')}</span>}
      </div>
      <div className="fa-rec-photos">
        <Photo className="fa-rec-photo" src={r.pic_url} label={t('watch.capture')} alt={t('watch.capture')} />
        <Photo className="fa-rec-photo" src={r.face_url} label={t('watch.registered')} alt={t('watch.registered')} icon="face" />
      </div>
      <div className="fa-rec-name" data-testid={`${props.testId}-name`}>
        {name}
      </div>
      <div className="fa-rec-meta">
        <span className={`fa-rec-dir ${dir}`}>{t(`watch.direction.${dir}`)}</span>
        <span style={{ fontVariantNumeric: 'tabular-nums' }}>{r.time}</span>
        {r.department && <span>{r.department}</span>}
        {!r.stranger && r.number && <span>{r.number}</span>}
        <span>{r.device}</span>
      </div>
      {(r.temperature !== null || r.alcohol !== null || r.alcohol_over || code) && (
        <div className="fa-rec-measure">
          {r.temperature !== null && (
            <span className={fever ? 'fa-rec-chip bad' : 'fa-rec-chip'}>
              {t('watch.fields.temperature')} {measure(r.temperature, 1, ' °C')}
            </span>
          )}
          {(r.alcohol !== null || r.alcohol_over) && (
            <span className={r.alcohol_over ? 'fa-rec-chip bad' : 'fa-rec-chip'}>
              {t('watch.fields.alcohol')} {measure(r.alcohol, 1, '')}
              {r.alcohol_over ? ` · ${t('watch.reason.alcohol')}` : ''}
            </span>
          )}
          {code && (
            <span className={`fa-rec-chip ${code}`}>
              {t('watch.fields.health')} {['green', 'yellow', 'red'].includes(code) ? t(`watch.health.${code}`) : r.health}
            </span>
          )}
        </div>
      )}
    </section>
  );
}
