// The optimisation settings form as data: the draft the inputs change, its problems in words by field, and the changes
// it makes (only those are sent). A plain choice (preset) stands for its weights; editing a weight makes it custom.
import type { OptimizationPreset, OptimizationSettings, OptimizationSettingsChanges, OptimizationWeights } from '../../../entities/optimization-settings/api';

export type NamedPreset = Exclude<OptimizationPreset, 'custom'>;
export type WeightKey = keyof OptimizationWeights;

export const PRESET_CHOICES: readonly { preset: NamedPreset; label: string; hint: string }[] = [
  { preset: 'shortest_travel', label: 'Shortest travel', hint: 'The least driving, whoever sees the client.' },
  { preset: 'balanced', label: 'Balanced', hint: 'Travel first, with some weight on arriving on time, overtime and keeping clients’ practitioners. The default.' },
  { preset: 'punctual', label: 'Arrive on time', hint: 'Lateness counts most, then overtime; more travel if that is what it takes.' },
  { preset: 'continuity', label: 'Keep clients with their usual practitioner', hint: 'Clients see the practitioner they saw last time wherever the day allows.' },
];

/** The weights on one scale, 1 = one minute of travel at the default travel weight (the contract's OptimizationWeights). */
export const WEIGHT_FIELDS: readonly { key: WeightKey; label: string; unit: string }[] = [
  { key: 'travel_time', label: 'Travel time', unit: 'per minute of travel' },
  { key: 'distance', label: 'Distance', unit: 'per kilometre driven' },
  { key: 'continuity', label: 'Continuity', unit: 'per visit given to someone other than the client’s usual practitioner, in hours of travel' },
  { key: 'lateness', label: 'Lateness', unit: 'per minute a visit starts late (soft availability)' },
  { key: 'overtime', label: 'Overtime', unit: 'per minute a day runs past the working hours' },
];

export const ROUNDING_CHOICES = [0, 1, 5, 10, 15] as const;
export type Rounding = (typeof ROUNDING_CHOICES)[number];

export interface SettingsDraft {
  availabilityMode: 'hard' | 'soft';
  maxLateness: string;
  overtime: string;
  buffer: string;
  rounding: Rounding;
  preset: OptimizationPreset;
  weights: Record<WeightKey, string>;
  searchSeconds: string;
  allowReassignment: boolean;
  fixedBefore: string;
  tolerance: string;
  clientGap: string;
  balanceWorkload: boolean;
  balanceWeight: string;
  callInVisits: string;
  callInMinutes: string;
  movePrice: string;
}

export type SettingsField =
  | 'availability_mode' | 'max_lateness_minutes' | 'overtime_minutes' | 'visit_buffer_minutes' | 'arrival_rounding_minutes'
  | 'preset' | `weights.${WeightKey}` | 'weights' | 'search_seconds' | 'allow_reassignment' | 'fixed_before_minutes'
  | 'tolerance_minutes' | 'client_gap_minutes' | 'balance_workload' | 'balance_weight' | 'move_price'
  | 'call_in_min_visits' | 'call_in_min_minutes';

const weightsDraft = (weights: OptimizationWeights): Record<WeightKey, string> =>
  Object.fromEntries(WEIGHT_FIELDS.map(({ key }) => [key, String(weights[key])])) as Record<WeightKey, string>;

export function draftOfSettings(settings: OptimizationSettings): SettingsDraft {
  return {
    availabilityMode: settings.availability_mode,
    maxLateness: String(settings.max_lateness_minutes),
    overtime: String(settings.overtime_minutes),
    buffer: String(settings.visit_buffer_minutes),
    rounding: (ROUNDING_CHOICES as readonly number[]).includes(settings.arrival_rounding_minutes) ? (settings.arrival_rounding_minutes as Rounding) : 5,
    preset: settings.preset,
    weights: weightsDraft(settings.weights),
    searchSeconds: String(settings.search_seconds),
    allowReassignment: settings.allow_reassignment,
    fixedBefore: String(settings.fixed_before_minutes),
    tolerance: String(settings.tolerance_minutes),
    clientGap: String(settings.client_gap_minutes),
    balanceWorkload: settings.balance_workload,
    balanceWeight: String(settings.balance_weight),
    callInVisits: String(settings.call_in_min_visits),
    callInMinutes: String(settings.call_in_min_minutes),
    movePrice: String(settings.move_price),
  };
}

/** The draft with a plain choice made: its weights shown under Advanced. */
export function choosePreset(draft: SettingsDraft, preset: NamedPreset, settings: OptimizationSettings): SettingsDraft {
  return { ...draft, preset, weights: weightsDraft(settings.preset_weights[preset]) };
}

/** The draft with one weight typed: the choice becomes custom. */
export function editWeight(draft: SettingsDraft, key: WeightKey, value: string): SettingsDraft {
  return { ...draft, preset: 'custom', weights: { ...draft.weights, [key]: value } };
}

const wholeIn = (text: string, min: number, max: number) => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;
const numberIn = (text: string, min: number, max: number) =>
  /^\d+(\.\d+)?$|^\.\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;

export function settingsProblems(draft: SettingsDraft): Map<SettingsField, string> {
  const problems = new Map<SettingsField, string>();
  if (draft.availabilityMode === 'soft' && !wholeIn(draft.maxLateness, 0, 240)) {
    problems.set('max_lateness_minutes', 'How late: a whole number of minutes from 0 to 240.');
  }
  if (!wholeIn(draft.overtime, 0, 240)) problems.set('overtime_minutes', 'Overtime: a whole number of minutes from 0 to 240.');
  if (!wholeIn(draft.buffer, 0, 60)) problems.set('visit_buffer_minutes', 'Buffer: a whole number of minutes from 0 to 60.');
  if (!wholeIn(draft.fixedBefore, 0, 720)) problems.set('fixed_before_minutes', 'Visits starting within: a whole number of minutes from 0 to 720.');
  if (!wholeIn(draft.tolerance, 0, 720)) problems.set('tolerance_minutes', 'Arrivals may move: a whole number of minutes from 0 to 720.');
  if (!wholeIn(draft.clientGap, 0, 720)) problems.set('client_gap_minutes', 'Between a client’s visits: a whole number of minutes from 0 to 720.');
  if (!wholeIn(draft.searchSeconds, 1, 120)) problems.set('search_seconds', 'Search time: a whole number of seconds from 1 to 120.');
  for (const { key } of WEIGHT_FIELDS) {
    if (!numberIn(draft.weights[key], 0, 1000)) problems.set(`weights.${key}`, 'A number from 0 to 1000.');
  }
  if (!numberIn(draft.balanceWeight, 0, 1000)) problems.set('balance_weight', 'A number from 0 to 1000.');
  if (!wholeIn(draft.callInVisits, 1, 50)) problems.set('call_in_min_visits', 'Visits that make a day worth opening: a whole number from 1 to 50.');
  if (!wholeIn(draft.callInMinutes, 0, 720)) problems.set('call_in_min_minutes', 'Or working time: a whole number of minutes from 0 to 720.');
  if (!numberIn(draft.movePrice, 0, 100)) problems.set('move_price', 'Price of moving a visit: a number from 0 to 100.');
  if (WEIGHT_FIELDS.every(({ key }) => Number(draft.weights[key]) === 0) && !problems.has('weights.travel_time')) {
    problems.set('weights', 'At least one weight must be above 0, or the optimiser has nothing to improve.');
  }
  return problems;
}

const weightsOf = (draft: SettingsDraft): OptimizationWeights =>
  Object.fromEntries(WEIGHT_FIELDS.map(({ key }) => [key, Number(draft.weights[key])])) as unknown as OptimizationWeights;

/** What a valid draft changes from the saved settings, as the PUT's body; {} when nothing. */
export function settingsChanges(draft: SettingsDraft, saved: SettingsDraft): OptimizationSettingsChanges {
  const changes: OptimizationSettingsChanges = {};
  if (draft.availabilityMode !== saved.availabilityMode) changes.availability_mode = draft.availabilityMode;
  if (draft.availabilityMode === 'soft' && Number(draft.maxLateness) !== Number(saved.maxLateness)) changes.max_lateness_minutes = Number(draft.maxLateness);
  if (Number(draft.overtime) !== Number(saved.overtime)) changes.overtime_minutes = Number(draft.overtime);
  if (Number(draft.buffer) !== Number(saved.buffer)) changes.visit_buffer_minutes = Number(draft.buffer);
  if (draft.rounding !== saved.rounding) changes.arrival_rounding_minutes = draft.rounding;
  const weightsChanged = JSON.stringify(weightsOf(draft)) !== JSON.stringify(weightsOf(saved));
  if (draft.preset === 'custom') {
    if (saved.preset !== 'custom' || weightsChanged) Object.assign(changes, { preset: 'custom', weights: weightsOf(draft) });
  } else if (draft.preset !== saved.preset) {
    changes.preset = draft.preset;
  }
  if (Number(draft.searchSeconds) !== Number(saved.searchSeconds)) changes.search_seconds = Number(draft.searchSeconds);
  if (draft.allowReassignment !== saved.allowReassignment) changes.allow_reassignment = draft.allowReassignment;
  if (Number(draft.fixedBefore) !== Number(saved.fixedBefore)) changes.fixed_before_minutes = Number(draft.fixedBefore);
  if (Number(draft.tolerance) !== Number(saved.tolerance)) changes.tolerance_minutes = Number(draft.tolerance);
  if (Number(draft.clientGap) !== Number(saved.clientGap)) changes.client_gap_minutes = Number(draft.clientGap);
  if (draft.balanceWorkload !== saved.balanceWorkload) changes.balance_workload = draft.balanceWorkload;
  if (Number(draft.balanceWeight) !== Number(saved.balanceWeight)) changes.balance_weight = Number(draft.balanceWeight);
  if (Number(draft.callInVisits) !== Number(saved.callInVisits)) changes.call_in_min_visits = Number(draft.callInVisits);
  if (Number(draft.callInMinutes) !== Number(saved.callInMinutes)) changes.call_in_min_minutes = Number(draft.callInMinutes);
  if (Number(draft.movePrice) !== Number(saved.movePrice)) changes.move_price = Number(draft.movePrice);
  return changes;
}

/** The form field a 422's line is about, or null when the form shows no such field. */
/** The draft by form field: a field's problem is shown until its value changes. */
export function settingsValues(draft: SettingsDraft): Partial<Record<SettingsField, unknown>> {
  return {
    availability_mode: draft.availabilityMode, max_lateness_minutes: draft.maxLateness, overtime_minutes: draft.overtime,
    visit_buffer_minutes: draft.buffer, arrival_rounding_minutes: draft.rounding, preset: draft.preset, weights: draft.weights,
    search_seconds: draft.searchSeconds, allow_reassignment: draft.allowReassignment, fixed_before_minutes: draft.fixedBefore,
    tolerance_minutes: draft.tolerance, client_gap_minutes: draft.clientGap, balance_workload: draft.balanceWorkload, balance_weight: draft.balanceWeight,
    call_in_min_visits: draft.callInVisits, call_in_min_minutes: draft.callInMinutes,
    move_price: draft.movePrice,
    ...Object.fromEntries(WEIGHT_FIELDS.map(({ key }) => [`weights.${key}`, draft.weights[key]])),
  };
}

export function settingsFieldOf(path: string): SettingsField | null {
  const weight = /^weights\.(\w+)/.exec(path);
  if (weight && WEIGHT_FIELDS.some(({ key }) => key === weight[1])) return `weights.${weight[1] as WeightKey}`;
  const fields: readonly SettingsField[] = [
    'availability_mode', 'max_lateness_minutes', 'overtime_minutes', 'visit_buffer_minutes', 'arrival_rounding_minutes', 'preset', 'weights', 'search_seconds', 'allow_reassignment', 'fixed_before_minutes',
    'tolerance_minutes', 'client_gap_minutes', 'balance_workload', 'balance_weight', 'move_price',
    'call_in_min_visits', 'call_in_min_minutes',
  ];
  const head = path.split(/[.[]/)[0] as SettingsField;
  return fields.includes(head) ? head : null;
}
