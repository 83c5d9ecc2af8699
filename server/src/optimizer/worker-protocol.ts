import type { SearchParams } from './core/search';
import type { SharedBest } from './solve';
import type { Problem, Progress, Solution, StartRoute, TravelMatrix } from './types';
import type { ValidationError } from './validate';

export interface WorkerSolveOptions {
  seed?: number;
  timeBudgetMs?: number;
  maxIterations?: number;
  tuning?: Partial<SearchParams>;
  startFrom?: StartRoute[];
}

export type WorkerRequest =
  | {
      type: 'solve';
      problem: Problem;
      matrix: TravelMatrix;
      options: WorkerSolveOptions;
      wantProgress: boolean;
      /** Fractions of the budget at which to meet the pool's other searches (none alone). */
      meetAt?: number[];
    }
  | { type: 'abort' }
  /** The answer to a 'best' message: the pool's best solution, or null when the worker's own is the best. */
  | { type: 'better'; best: SharedBest | null };

export type WorkerResponse =
  | { type: 'progress'; progress: Progress }
  /** At a meeting: the worker's best so far; it waits for a 'better' answer. */
  | { type: 'best'; best: SharedBest }
  | { type: 'result'; solution: Solution }
  | { type: 'error'; message: string; validation?: ValidationError[] };
