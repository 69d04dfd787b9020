import type { App } from 'antd';
import { createStore, useStore } from './store.ts';

type AppApi = ReturnType<typeof App.useApp>;
type MessageInstance = AppApi['message'];
type ModalHookAPI = AppApi['modal'];
export type ToastArgs = Parameters<MessageInstance['open']>[0];
export type ConfirmArgs = Parameters<ModalHookAPI['confirm']>[0];

/**
 * Non-component code (the API client, the language switch, the route guard) needs toasts and dialogs that follow the
 * ConfigProvider theme and locale. They come from one antd App, the feedback host (ui/AntdProviders.tsx
 * `FeedbackHost`), mounted beside the router by app/AppProviders.tsx, so a toast or the sign-in-again dialog outlives
 * the page that asked for it (a session that ended: the shell goes, the sign-in page comes, the message stays).
 * The host comes with antd: when the first antd page mounts, or when something is to be shown before (the sign-in page
 * draws without antd: #31's first load); what is asked meanwhile is shown once it is there.
 */
interface Feedback {
  message: MessageInstance;
  modal: ModalHookAPI;
}

let current: Feedback | undefined;
const waiting: ((f: Feedback) => void)[] = [];
const hostWanted = createStore(false);

/** Whether the feedback host is to be mounted (AppProviders). */
export const useFeedbackHostWanted = (): boolean => useStore(hostWanted);

/** Mounts the feedback host (antd is on its way or here already). */
export const wantFeedbackHost = (): void => hostWanted.set(true);

/** Registers the host's instances; the answer unregisters them (an effect's cleanup). */
export function registerFeedback(f: Feedback): () => void {
  current = f;
  for (const show of waiting.splice(0)) show(f);
  return () => {
    if (current === f) current = undefined;
  };
}

function withFeedback(show: (f: Feedback) => void): void {
  if (current) return show(current);
  waiting.push(show);
  wantFeedbackHost();
}

/** An error or success toast (antd's message). */
export function toast(args: ToastArgs): void {
  withFeedback((f) => void f.message.open(args));
}

/** A confirmation dialog (antd's Modal.confirm). */
export function confirm(args: ConfirmArgs): void {
  withFeedback((f) => void f.modal.confirm(args));
}
