// Test paths from a real machine: every transition of its state graph is walked by at least one
// path (the shortest path to the transition's source, then the transition). Paths that are a
// prefix of another path are dropped, since the longer one checks the same states on the way.
import { getInitialSnapshot, getNextSnapshot, type AnyActorLogic, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, type TraversalOptions } from 'xstate/graph';

export interface PathStep<TMachine extends AnyActorLogic> {
  event: EventFromLogic<TMachine>;
  state: SnapshotFrom<TMachine>;
}

export interface ModelPath<TMachine extends AnyActorLogic> {
  description: string;
  steps: PathStep<TMachine>[];
}

export const serializeState = (snapshot: { value: unknown; context: unknown }) =>
  JSON.stringify({ value: snapshot.value, context: snapshot.context });

/** The event's name plus what tells it apart from its siblings: an output's status, an error's code, a code. */
export function describeEvent(event: { type: string }): string {
  const result = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
  const name = result ? `${result[1]}:${result[2]}` : event.type;
  const data = event as { output?: unknown; error?: { code?: string; status?: number }; code?: string };
  let detail: unknown;
  if ('output' in data) detail = data.output === null ? 'null' : ((data.output as { status?: string }).status ?? '');
  else if (data.error) detail = data.error.code ?? data.error.status;
  else if (data.code) detail = data.code;
  return detail ? `${name}(${String(detail)})` : name;
}

export function describeState(snapshot: { value: unknown }): string {
  const flatten = (value: unknown): string =>
    typeof value === 'string'
      ? value
      : Object.entries(value as Record<string, unknown>)
          .map(([key, child]) => `${key}.${flatten(child)}`)
          .join(',');
  return flatten(snapshot.value);
}

/**
 * `machine`: a state machine, or any logic whose snapshots have a value and a context (two machines walked together).
 * `options.serializeState` may be coarser than the default (the state's value and whole context): states it does not
 * tell apart count as one, so a transition is walked once from one of them rather than once from each.
 */
export function transitionCoveringPaths<TMachine extends AnyActorLogic>(
  machine: TMachine,
  options: TraversalOptions<SnapshotFrom<TMachine>, EventFromLogic<TMachine>, unknown>,
): ModelPath<TMachine>[] {
  const traversal = { serializeState, ...options } as TraversalOptions<SnapshotFrom<TMachine>, EventFromLogic<TMachine>, unknown>;
  const keyOf = (snapshot: unknown) => traversal.serializeState!(snapshot as SnapshotFrom<TMachine>, undefined);
  const shortest = new Map<string, PathStep<TMachine>[]>();
  for (const path of getShortestPaths(machine, traversal as never)) {
    const steps = (path.steps as PathStep<TMachine>[]).filter((step) => step.event.type !== 'xstate.init');
    shortest.set(keyOf(path.state), steps);
  }

  const candidates: PathStep<TMachine>[][] = [];
  for (const edge of adjacencyMapToArray(getAdjacencyMap(machine, traversal as never))) {
    const from = keyOf(edge.state);
    if (from === keyOf(edge.nextState)) continue;
    const prefix = shortest.get(from);
    if (!prefix) continue;
    candidates.push(replay(machine, options.input, [...prefix.map((step) => step.event), edge.event as EventFromLogic<TMachine>]));
  }

  const key = (steps: PathStep<TMachine>[]) => steps.map((step) => `${JSON.stringify(step.event)}>${keyOf(step.state)}`);
  const kept: PathStep<TMachine>[][] = [];
  for (const steps of candidates.sort((a, b) => b.length - a.length)) {
    const keys = key(steps);
    const covered = kept.some((other) => {
      const otherKeys = key(other);
      return keys.every((entry, index) => otherKeys[index] === entry);
    });
    if (!covered) kept.push(steps);
  }
  return kept
    .reverse()
    .map((steps) => ({ description: steps.map((step) => `${describeEvent(step.event)} → ${describeState(step.state)}`).join(' ; '), steps }));
}

/**
 * Each step with the state the machine reaches from the steps before it. The graph keeps one state for all those its
 * serializeState counts as one, which may be another of them (a run in progress where this path's run is pending).
 */
function replay<TMachine extends AnyActorLogic>(machine: TMachine, input: unknown, events: EventFromLogic<TMachine>[]): PathStep<TMachine>[] {
  // Typed loosely: the input's type is a conditional of the generic machine.
  let state = (getInitialSnapshot as (logic: AnyActorLogic, input: unknown) => SnapshotFrom<TMachine>)(machine, input);
  return events.map((event) => {
    state = getNextSnapshot(machine, state, event) as SnapshotFrom<TMachine>;
    return { event, state };
  });
}

/**
 * The paths that are not the beginning of a longer one. Each path renders fresh and checks what the user sees after
 * every step, so a path dropped here is walked, with the same checks at each of its steps, by the longer one.
 */
export function withoutPrefixes<TPath extends { steps: Array<{ event: unknown }> }>(paths: TPath[]): TPath[] {
  const keys = paths.map((path) => path.steps.map((step) => JSON.stringify(step.event)));
  return paths.filter((_, index) => !keys.some((other, otherIndex) =>
    otherIndex !== index && other.length > keys[index].length && keys[index].every((event, step) => other[step] === event)));
}
