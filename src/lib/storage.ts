// JSON values in localStorage that survive a reload. Missing storage (node, private mode quota)
// and corrupt entries read as null instead of breaking start-up.

function storage(): Storage | null {
  try {
    return typeof globalThis.localStorage === 'undefined' ? null : globalThis.localStorage;
  } catch {
    return null;
  }
}

export function readStored<T>(key: string, isValid: (value: unknown) => value is T): T | null {
  const raw = storage()?.getItem(key);
  if (raw == null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isValid(value) ? value : null;
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota or disabled storage: the value lives for this page only.
  }
}

export function removeStored(key: string): void {
  storage()?.removeItem(key);
}
