import { customAlphabet } from "nanoid";

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const nano = customAlphabet(alphabet, 21);

/** Prefixes say what an id names, so a stray id in a log explains itself. */
export type IdPrefix =
  | "site" | "per" | "role" | "mdl" | "fld" | "ent" | "grp" | "ver" | "med" | "aud" | "evt" | "ses" | "key" | "tok" | "mcr" | "prp" | "mpr" | "pin" | "whk" | "dlv" | "dlg" | "obj" | "mfd" | "ocl" | "con" | "inv" | "brt" | "isr" | "imp" | "exp" | "qry" | "mnu" | "cmt" | "sch" | "rdr" | "rel";

/** A new random id such as `ent_4f9…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${nano()}`;
}
