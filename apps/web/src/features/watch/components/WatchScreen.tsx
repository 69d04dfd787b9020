import { useEffect, useState, type ReactNode } from 'react';
import { Button, ConfigProvider, Tooltip } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLiveOpen } from '../../../lib/live.ts';
import { FullscreenToggle } from '../../../ui/FullscreenToggle.tsx';
import { displayTimeZone, formatDateTime } from '../../../ui/format.ts';
import '../watch.css';
import { DARK_THEME } from '../../../ui/darkTheme.ts';

/** The company's time now, ticking every second. */
function Clock() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return (
    <span className="fa-watch-clock" title={displayTimeZone()} data-testid="watch-clock">
      {formatDateTime(new Date(now).toISOString())}
    </span>
  );
}

/** The live stream's state: open (events arrive as they happen) or down (the screen polls). */
export function LiveIndicator() {
  const { t } = useTranslation();
  const open = useLiveOpen();
  return (
    <span className={open ? 'fa-watch-live open' : 'fa-watch-live'} data-testid="watch-live" data-open={open ? '1' : '0'}>
      {open ? t('watch.live.open') : t('watch.live.down')}
    </span>
  );
}

/**
 * A watchers' screen (issue #16: guard desk, dormitory board): the whole viewport, dark, with its title, the live
 * indicator, the clock and its own tools; the shell's sidebar and tabs are hidden on these paths, and the navbar
 * is covered (a way back is in the bar).
 */
export function WatchScreen(props: { title: string; tools?: ReactNode; children: ReactNode; testId: string; bodyClass?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <ConfigProvider theme={DARK_THEME}>
      <div className="fa-watch" data-testid={props.testId}>
        <header className="fa-watch-bar">
          <Tooltip title={t('watch.back')}>
            <Button
              type="text"
              aria-label={t('watch.back')}
              icon={<ArrowLeftOutlined />}
              onClick={() => void navigate('/dashboard')}
              data-testid="watch-back"
            />
          </Tooltip>
          <h1 className="fa-watch-title">{props.title}</h1>
          <LiveIndicator />
          {props.tools}
          <Clock />
          <FullscreenToggle />
        </header>
        <main className={`fa-watch-body ${props.bodyClass ?? ''}`}>{props.children}</main>
      </div>
    </ConfigProvider>
  );
}
