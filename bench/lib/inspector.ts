// A benchmark's window into a child process's V8 heap, through the inspector protocol (the child runs with
// `--inspect=127.0.0.1:<port>`): force a full garbage collection, read what is still live, write a heap snapshot.
// What survives a forced collection is what the process holds on to; its growth over a run is a leak, RSS growth
// alone is not (V8 keeps the heap it has grown to).
import { writeFileSync } from 'node:fs';
import { WebSocket } from 'undici';

export interface HeapFigures {
  /** Live heap after a forced full collection, MB. */
  heapUsedMb: number;
  heapTotalMb: number;
  /** Memory of C++ objects bound to JavaScript ones (buffers included), MB. */
  externalMb: number;
  rssMb: number;
}

export class InspectorClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>();
  private chunks: string[] = [];

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data));
      if (message.method === 'HeapProfiler.addHeapSnapshotChunk') this.chunks.push(message.params.chunk);
      if (message.id === undefined) return;
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result);
    });
    socket.addEventListener('close', () => {
      for (const waiting of this.pending.values()) waiting.reject(new Error('the inspector connection closed'));
      this.pending.clear();
    });
  }

  /** Connects to the process listening for an inspector on `port`. */
  static async connect(port: number): Promise<InspectorClient> {
    const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
    const socket = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`no inspector on port ${port}`)), { once: true });
    });
    return new InspectorClient(socket);
  }

  send<T = any>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** A full collection, then the process's memory as it reports it. */
  async heapAfterGc(): Promise<HeapFigures> {
    await this.send('HeapProfiler.collectGarbage');
    const { result } = await this.send<{ result: { value: string } }>('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true,
    });
    const usage = JSON.parse(result.value) as NodeJS.MemoryUsage;
    const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
    return { heapUsedMb: mb(usage.heapUsed), heapTotalMb: mb(usage.heapTotal), externalMb: mb(usage.external), rssMb: mb(usage.rss) };
  }

  /** Writes a heap snapshot (open it in Chrome DevTools' Memory tab; `npx tsx bench/heap-diff.ts a b` compares two). */
  async writeHeapSnapshot(file: string): Promise<void> {
    this.chunks = [];
    await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    writeFileSync(file, this.chunks.join(''));
    this.chunks = [];
  }

  close(): void {
    this.socket.close();
  }
}
