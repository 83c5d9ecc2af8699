export async function findBestFit(..._args: unknown[]): Promise<never> { throw new Error("todo"); }
