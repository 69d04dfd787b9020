import { App, message as staticMessage, Modal } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;
type MessageInstance = AppApi['message'];
type ModalHookAPI = AppApi['modal'];

/**
 * Non-component code (the API client) needs toasts and dialogs that follow the ConfigProvider theme and locale;
 * <FeedbackBridge/> registers antd's App-context instances here, with the static API as the fallback.
 */
interface Feedback {
  message: MessageInstance;
  modal: ModalHookAPI;
}

let current: Feedback | undefined;

export function registerFeedback(f: Feedback): void {
  current = f;
}

export function feedback(): Feedback {
  return current ?? { message: staticMessage, modal: Modal as unknown as ModalHookAPI };
}
