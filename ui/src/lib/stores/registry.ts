/**
 * Every app-wide store, with the way back to its first state. The stores are module
 * singletons that outlive a test; the test setup resets them all before each test, so a
 * new store is reset by registering here, not by every test remembering it.
 */
const resets = new Set<() => void>();

/** Registers `store` with its reset; returns the store. */
export function resettable<T>(store: T, reset: (store: T) => void): T {
  resets.add(() => {
    reset(store);
  });
  return store;
}

/** Back to a clean slate: every registered store reset. */
export function resetStores(): void {
  for (const reset of resets) reset();
}
