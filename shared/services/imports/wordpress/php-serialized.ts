/**
 * A reader of the arrays PHP's `serialize()` writes, as Polylang keeps them in term descriptions
 * (`a:2:{s:2:"en";i:145;s:2:"fr";i:130;}`: a translation group, language slug → term or post id).
 * Scalars and nested arrays only, at most four levels and 1,000 entries; anything else (an object,
 * a reference, a damaged length) reads as null. The file comes from another site: never evaluated.
 */
type PhpValue = string | number | boolean | null | PhpArray;
interface PhpArray {
  [key: string]: PhpValue;
}

const MAX_LENGTH = 20_000;

class Reader {
  at = 0;
  constructor(readonly s: string) {}

  match(pattern: RegExp): RegExpExecArray {
    pattern.lastIndex = this.at;
    const m = pattern.exec(this.s);
    if (!m || m.index !== this.at) throw new Error("not serialized");
    this.at += m[0].length;
    return m;
  }

  value(depth: number): PhpValue {
    switch (this.s[this.at]) {
      case "N":
        this.match(/N;/y);
        return null;
      case "b":
        return this.match(/b:([01]);/y)[1] === "1";
      case "i":
        return Number(this.match(/i:(-?\d{1,18});/y)[1]);
      case "d":
        return Number(this.match(/d:(-?[0-9.Ee+-]{1,40}|NAN|-?INF);/y)[1]);
      case "s": {
        // The length counts UTF-8 bytes.
        const length = Number(this.match(/s:(\d{1,6}):"/y)[1]);
        const bytes = new TextEncoder().encode(this.s.slice(this.at));
        if (bytes.length < length + 2 || bytes[length] !== 0x22 || bytes[length + 1] !== 0x3b) throw new Error("bad string length");
        const text = new TextDecoder().decode(bytes.subarray(0, length));
        this.at += text.length + 2;
        return text;
      }
      case "a": {
        const count = Number(this.match(/a:(\d{1,4}):\{/y)[1]);
        if (depth >= 4 || count > 1000) throw new Error("too deep or too long");
        const out: PhpArray = {};
        for (let i = 0; i < count; i++) {
          const key = this.value(depth + 1);
          if (typeof key !== "string" && typeof key !== "number") throw new Error("bad key");
          out[String(key)] = this.value(depth + 1);
        }
        this.match(/\}/y);
        return out;
      }
      default:
        throw new Error("unsupported value");
    }
  }
}

/** The serialized array, or null when the text is not one (or is too long, too deep, damaged). */
export function readPhpArray(serialized: string): PhpArray | null {
  if (!serialized.startsWith("a:") || serialized.length > MAX_LENGTH) return null;
  const reader = new Reader(serialized);
  try {
    const value = reader.value(0);
    return reader.at === serialized.length && value !== null && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

/**
 * A Polylang translation group: language slug → id (as text). Other keys (Polylang Pro keeps `sync`
 * there) and values that are not positive ids are left out.
 */
export function translationGroupMap(serialized: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [lang, id] of Object.entries(readPhpArray(serialized) ?? {})) {
    const text = typeof id === "number" ? String(id) : typeof id === "string" ? id : "";
    if (/^[a-z]{2,3}([-_][a-z0-9]{2,8})?$/i.test(lang) && /^[1-9]\d{0,17}$/.test(text)) out[lang.toLowerCase()] = text;
  }
  return out;
}
