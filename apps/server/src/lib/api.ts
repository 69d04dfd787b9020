/** Base path of the management API (spec §7); one definition in @faceadmin/shared. */
export { API_PREFIX } from '@faceadmin/shared';
