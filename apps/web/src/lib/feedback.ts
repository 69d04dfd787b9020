import type { App } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;
type MessageInstance = AppApi['message'];
type ModalHookAPI = AppApi['modal'];
export type ToastArgs = Parameters<MessageInstance['open']>[0];
export type ConfirmArgs = Parameters<ModalHookAPI['confirm']>[0];

/**
 * Non-component code (the API client, the language switch, the route guard) needs toasts and dialogs that follow the
 * ConfigProvider theme and locale: <FeedbackBridge/> (ui/AntdProviders.tsx) registers antd's App-context instances here
 * while the console's antd tree is on screen.
 */
interface Feedback {
  message: MessageInstance;
  modal: ModalHookAPI;
}

let current: Feedback | undefined;

/** Registers the instances of the antd tree on screen; the answer unregisters them (an effect's cleanup). */
export function registerFeedback(f: Feedback): () => void {
  current = f;
  return () => {
    if (current === f) current = undefined;
  };
}

/**
 * Without an antd tree on screen (the sign-in page draws without antd: #31's first load), antd's static API, whose
 * code is fetched then (a failure there has nothing left to show it).
 */
const staticFeedback = () => import('./staticFeedback.ts');

/** An error or success toast (antd's message). */
export function toast(args: ToastArgs): void {
  if (current) void current.message.open(args);
  else
    void staticFeedback().then(
      ({ message }) => void message.open(args),
      () => undefined,
    );
}

/** A confirmation dialog (antd's Modal.confirm). */
export function confirm(args: ConfirmArgs): void {
  if (current) current.modal.confirm(args);
  else
    void staticFeedback().then(
      ({ Modal }) => void Modal.confirm(args),
      () => undefined,
    );
}
