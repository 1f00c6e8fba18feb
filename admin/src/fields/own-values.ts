import { useRef } from "preact/hooks";

/**
 * The values an input itself handed to `onChange`, most recent last (bounded). A value prop that is
 * one of them is the input's own change coming back through the form, possibly after the person
 * typed on (renders and effects lag behind fast typing), and must not replace what is on screen;
 * any other value came from outside (a restored version, a reload) and does.
 */
export function useOwnValues(size = 50) {
  const seen = useRef<string[]>([]);
  return {
    note(value: string): void {
      const list = seen.current;
      list.push(value);
      if (list.length > size) list.shift();
    },
    mine(value: string): boolean {
      return seen.current.includes(value);
    },
  };
}
