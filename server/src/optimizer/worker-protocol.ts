import type { SearchParams } from './core/search';
import type { Problem, Progress, Solution, TravelMatrix } from './types';
import type { ValidationError } from './validate';

export interface WorkerSolveOptions {
  seed?: number;
  timeBudgetMs?: number;
  maxIterations?: number;
  tuning?: Partial<SearchParams>;
}

export type WorkerRequest =
  | { type: 'solve'; problem: Problem; matrix: TravelMatrix; options: WorkerSolveOptions; wantProgress: boolean }
  | { type: 'abort' };

export type WorkerResponse =
  | { type: 'progress'; progress: Progress }
  | { type: 'result'; solution: Solution }
  | { type: 'error'; message: string; validation?: ValidationError[] };
