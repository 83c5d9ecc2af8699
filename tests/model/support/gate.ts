// Holds an msw response until the model path says what the server answers.
export class Gate {
  private waiting: Array<(response: Response) => void> = [];
  armed = false;

  arm(): void {
    this.armed = true;
  }

  /** Used inside an msw handler: resolves with the response a later step provides. */
  wait(): Promise<Response> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  get pending(): number {
    return this.waiting.length;
  }

  open(response: () => Response): void {
    this.armed = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve(response());
  }
}
