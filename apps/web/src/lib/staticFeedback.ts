// antd's static message and dialog, for lib/feedback.ts while no antd tree is on screen: a chunk of their own, so the
// sign-in page's first load goes without antd (#31).
export { message, Modal } from 'antd';
