/** spec §3 "Device options": numeric ranges (spec §5/§9) used by the settings form and the server alike. */
export const DEVICE_OPTION_RANGES = {
  ctrl_type: [0, 9],
  delay: [0, 255],
  voice_mute: [0, 1],
  voice_value: [0, 100],
  alarmTemp: [30, 45],
  tempratureMode: [0, 2],
  tempratureEnable: [0, 1],
  allowvisit: [0, 1],
  autoface: [0, 1],
  autoface_type: [0, 3],
  /** face recognition range */
  minface: [910, 8192],
  /** seconds; 0 = always on */
  screen_auto_close_time: [0, 3600],
  recognition_threshold: [0, 1000],
  sfz_recognition_threshold: [0, 1000],
  facemodel: [0, 3],
  wiegand_mode: [0, 3],
  timezone: [-720, 840],
  facial: [0, 1],
  /** breathalyser terminals: a breath test after the face (spec §3 "alcohol" tab) */
  alcohol_enable: [0, 1],
  /** mg/100 mL at or above which the test fails; 20 is the drink-driving limit of GB 19522 */
  alcohol_threshold: [1, 200],
  /** seconds the person has to blow */
  alcohol_timeout: [3, 60],
} as const;

/** spec §3 "Special device settings": numeric ranges. */
export const DEVICE_SPECIAL_RANGES = {
  card_mode: [0, 3],
  open_action: [0, 3],
  IOStayTime: [0, 255],
  LiveThreshold: [0, 100],
  LiveFrameNum: [1, 10],
  LedLightType: [0, 2],
  LedTime: [0, 255],
  LedBrightness: [0, 100],
  TimeZone: [-720, 840],
  display_mode: [0, 3],
  AutoRebootDay: [0, 31],
} as const;

export const OPEN_TYPES = ['card', 'face', 'faceAndCard', 'faceOrCard'] as const;
/** A failed breath test: keep the door shut, or open and record it. */
export const ALCOHOL_ACTIONS = ['deny', 'allow'] as const;
/** Unit the terminal shows readings in (records are always stored in mg/100 mL). */
export const ALCOHOL_UNITS = ['mg100ml', 'mgl', 'bac'] as const;
export const WIEGAND_FORMS = ['26', '34', '66'] as const;

/** spec §3/§9 defaults: recognition threshold 500, ID-card threshold 300, screen on 15 s. */
export const DEVICE_OPTION_DEFAULTS = {
  ctrl_type: 0,
  delay: 5,
  voice_mute: 0,
  voice_value: 80,
  alarmTemp: 37.3,
  tempratureMode: 0,
  tempratureEnable: 0,
  allowvisit: 0,
  autoface: 1,
  autoface_type: 0,
  minface: 910,
  screen_auto_close_time: 15,
  recognition_threshold: 500,
  sfz_recognition_threshold: 300,
  openType: 'face' as (typeof OPEN_TYPES)[number],
  facemodel: 0,
  wiegand_mode: 0,
  wiegand_form: '26' as (typeof WIEGAND_FORMS)[number],
  wiegand_inout: 'in' as 'in' | 'out',
  timezone: 480,
  timemode: '24' as '12' | '24',
  facial: 1,
  alcohol_enable: 0,
  alcohol_threshold: 20,
  alcohol_timeout: 10,
  alcohol_over_action: 'deny' as (typeof ALCOHOL_ACTIONS)[number],
  alcohol_unit: 'mg100ml' as (typeof ALCOHOL_UNITS)[number],
};
