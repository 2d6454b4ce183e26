/**
 * A loader that runs once, on first call, and hands every later caller the same result: a feature's
 * library imported when the feature is first used rather than at start-up (docs/performance.md,
 * "Issue 32: footprint"). A load that fails is tried again by the next caller.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    })
    return loading
  }
}
