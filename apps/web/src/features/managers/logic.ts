import type { ManagerCreate } from '@faceadmin/shared';

/** The administrator dialog's values: every field of a new one; on edit a blank password keeps the current one. */
export type ManagerFormValues = Required<ManagerCreate>;
