/**
 * What a media file is, judged by its bytes (file-type's extension names), and the names, types and
 * byte signatures that mark a program, a script or markup (spec 2 rule 1, docs/media.md).
 */

/** The kinds of the media library (spec 2, "Media item"). */
export const MEDIA_KINDS = ["image", "document", "audio", "video", "file"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Formats (file-type extension names) by the kind they belong to; any other format is `file`. */
const KIND_OF_FORMAT: Readonly<Record<string, MediaKind>> = {
  jpg: "image", png: "image", gif: "image", webp: "image", avif: "image", heic: "image", bmp: "image", tif: "image", ico: "image", jxl: "image",
  pdf: "document", docx: "document", xlsx: "document", pptx: "document", odt: "document", ods: "document", odp: "document", epub: "document", rtf: "document",
  mp3: "audio", ogg: "audio", oga: "audio", opus: "audio", wav: "audio", m4a: "audio", flac: "audio", aac: "audio",
  mp4: "video", webm: "video", mov: "video", mkv: "video", m4v: "video",
};

/** The kind of a detected format (file-type's `ext`), `file` when the format has no kind of its own. */
export function kindOfFormat(format: string | undefined): MediaKind {
  return (format && KIND_OF_FORMAT[format]) || "file";
}

/** Allowed formats by kind when the site's settings name none (`media.allowed`). */
export const DEFAULT_ALLOWED_FORMATS: Readonly<Record<MediaKind, readonly string[]>> = {
  image: ["jpg", "png", "gif", "webp", "avif"],
  document: ["pdf"],
  audio: ["mp3", "ogg", "wav", "m4a"],
  video: ["mp4", "webm"],
  file: [],
};

/**
 * Formats file-type reports for programs and program archives. A `zip` is not here: a plain archive
 * is a `file` (refused unless a site allows it); a zip that is a Java or Android package is detected
 * as `jar` / `apk`.
 */
export const EXECUTABLE_FORMATS: ReadonlySet<string> = new Set(["exe", "elf", "macho", "class", "jar", "apk", "dex", "wasm", "msi", "deb", "rpm", "swf", "lnk", "xpi", "crx", "pyc"]);

/** Final file name extensions of programs and scripts: refused whatever the bytes say. */
export const EXECUTABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  "exe", "com", "scr", "dll", "sys", "msi", "msp", "msc", "cpl", "pif", "app", "apk", "ipa", "jar", "class", "dex", "deb", "rpm", "dmg", "pkg", "run", "bin", "elf", "so", "dylib", "wasm",
  "sh", "bash", "zsh", "csh", "ksh", "fish", "command", "bat", "cmd", "ps1", "psm1", "psd1", "vbs", "vbe", "wsf", "wsh", "hta", "js", "mjs", "cjs", "jse", "ts", "py", "pyc", "pyw", "pl", "rb", "php", "phtml", "cgi", "lua", "reg", "inf", "lnk", "gadget", "scf", "url",
]);

/** Final extensions of markup a browser renders or runs. */
export const MARKUP_EXTENSIONS: ReadonlySet<string> = new Set(["html", "htm", "shtml", "xhtml", "xht", "xml", "svg", "svgz", "xsl", "xslt", "mht", "mhtml", "rss", "atom"]);

/** Declared types of programs and scripts (compared without parameters, lower case). */
export const EXECUTABLE_TYPES: ReadonlySet<string> = new Set([
  "application/x-msdownload", "application/x-msdos-program", "application/x-ms-installer", "application/x-msi", "application/vnd.microsoft.portable-executable", "application/x-dosexec",
  "application/x-executable", "application/x-elf", "application/x-sharedlib", "application/x-mach-binary", "application/x-apple-diskimage",
  "application/java-archive", "application/x-java-archive", "application/java-vm", "application/x-java-applet", "application/vnd.android.package-archive",
  "application/x-sh", "application/x-shellscript", "text/x-shellscript", "text/x-sh", "application/x-csh", "application/x-bat", "application/bat", "text/x-bat", "application/x-powershell",
  "application/javascript", "application/x-javascript", "text/javascript", "application/ecmascript", "text/ecmascript", "module/javascript",
  "application/x-python", "text/x-python", "application/x-perl", "text/x-perl", "application/x-php", "text/x-php", "application/x-ruby", "application/wasm", "application/hta", "application/x-shockwave-flash",
]);

/** True for declared markup types: HTML, XHTML, SVG and any XML. */
export function isMarkupType(type: string): boolean {
  return type === "text/html" || type === "application/xhtml+xml" || type === "image/svg+xml" || type === "text/xml" || type === "application/xml" || type.endsWith("+xml") || type === "text/xsl" || type === "message/rfc822" || type === "multipart/related";
}

/** Leading bytes of programs file-type may not name (or names only past a point we do not trust). */
export const EXECUTABLE_SIGNATURES: readonly (readonly number[])[] = [
  [0x4d, 0x5a], // MZ: DOS / PE
  [0x7f, 0x45, 0x4c, 0x46], // \x7fELF
  [0xca, 0xfe, 0xba, 0xbe], // Java class, Mach-O fat binary
  [0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe], // Mach-O
  [0x23, 0x21], // #! shebang
  [0x00, 0x61, 0x73, 0x6d], // \0asm: WebAssembly
];
