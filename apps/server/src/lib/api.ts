/** Base path of the management API (spec §7). */
export const API_PREFIX = '/api/management';
