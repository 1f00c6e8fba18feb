import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Loading, Notice } from "./controls";

/**
 * A screen loaded on first use (code splitting keeps the initial JavaScript small: the rich-text
 * editor alone is larger than the whole shell). The module's default export is the screen.
 */
export function lazyScreen<P extends object>(load: () => Promise<{ default: FunctionComponent<P> }>): FunctionComponent<P> {
  let loaded: FunctionComponent<P> | undefined;
  return function LazyScreen(props: P) {
    const [Screen, setScreen] = useState<FunctionComponent<P> | undefined>(() => loaded);
    const [failed, setFailed] = useState<string | null>(null);
    useEffect(() => {
      if (Screen) return;
      load()
        .then((module) => {
          loaded = module.default;
          setScreen(() => module.default);
        })
        .catch((error: unknown) => setFailed(error instanceof Error ? error.message : String(error)));
    }, []);
    if (failed) return <Notice kind="error" title="This screen could not be loaded. Reload the page.">{failed}</Notice>;
    return Screen ? <Screen {...props} /> : <Loading />;
  };
}
