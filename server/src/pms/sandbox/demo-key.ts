/**
 * The key the built-in sandbox accepts by default; shaped like a real Cliniko key with its shard suffix. It is
 * public (README, the demo), so no real Cliniko account has it: a provider account holding it is the sandbox.
 */
export const SANDBOX_DEMO_API_KEY = 'MS0xNzgyNTY4ODAwMDAwMDAwMDAyLVJvdW5kc1NhbmRib3hEZW1vS2V5-au1';
