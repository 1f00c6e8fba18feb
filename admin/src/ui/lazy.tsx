import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Button, Loading, Notice } from "./controls";

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
    // Its code could not be fetched (a new deployment replaced the hashed file, the network dropped):
    // say so and offer the reload that fetches the current files, never "Loading…" forever.
    if (failed)
      return (
        <Notice kind="error" title="This screen could not be loaded.">
          <p>Its code did not arrive ({failed}). Reloading the page fetches it again.</p>
          <Button variant="primary" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        </Notice>
      );
    return Screen ? <Screen {...props} /> : <Loading />;
  };
}
