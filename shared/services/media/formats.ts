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
 * Programs and program containers file-type can name from the bytes, each with the file name
 * extensions and declared types that mark the same thing: ONE table, so the byte side, the name side
 * and the declared-type side agree (docs/media.md, "Program formats"). A plain `zip` is not here (a
 * `file`, refused unless a site allows it); a zip that is a Java or Android package is detected as
 * `jar` / `apk`. `cfb` is an OLE compound file: what file-type reports for an MSI installer, and for
 * old Office files that may carry macros; it is treated as a program and is never allowable.
 */
const PROGRAM_FORMATS: Readonly<Record<string, { extensions: readonly string[]; types: readonly string[] }>> = {
  exe: { extensions: ["exe", "com", "scr", "dll", "sys", "cpl", "pif", "efi"], types: ["application/x-msdownload", "application/x-msdos-program", "application/vnd.microsoft.portable-executable", "application/x-dosexec"] },
  elf: { extensions: ["elf", "so", "bin", "run"], types: ["application/x-executable", "application/x-elf", "application/x-sharedlib"] },
  macho: { extensions: ["dylib", "app"], types: ["application/x-mach-binary"] },
  class: { extensions: ["class"], types: ["application/java-vm"] },
  jar: { extensions: ["jar"], types: ["application/java-archive", "application/x-java-archive", "application/x-java-applet"] },
  apk: { extensions: ["apk", "ipa"], types: ["application/vnd.android.package-archive"] },
  dex: { extensions: ["dex"], types: [] },
  wasm: { extensions: ["wasm"], types: ["application/wasm"] },
  cfb: { extensions: ["msi", "msp", "msc"], types: ["application/x-ms-installer", "application/x-msi", "application/x-cfb"] },
  msi: { extensions: ["msi"], types: ["application/x-msi"] },
  cab: { extensions: ["cab"], types: ["application/vnd.ms-cab-compressed"] },
  deb: { extensions: ["deb"], types: ["application/x-deb", "application/vnd.debian.binary-package"] },
  rpm: { extensions: ["rpm"], types: ["application/x-rpm"] },
  dmg: { extensions: ["dmg", "pkg"], types: ["application/x-apple-diskimage"] },
  reg: { extensions: ["reg"], types: ["application/x-ms-regedit"] },
  chm: { extensions: ["chm"], types: ["application/vnd.ms-htmlhelp"] },
  swf: { extensions: ["swf"], types: ["application/x-shockwave-flash"] },
  lnk: { extensions: ["lnk"], types: ["application/x.ms.shortcut"] },
  alias: { extensions: ["alias"], types: ["application/x.apple.alias"] },
  xpi: { extensions: ["xpi"], types: ["application/x-xpinstall"] },
  crx: { extensions: ["crx"], types: ["application/x-google-chrome-extension"] },
  asar: { extensions: ["asar"], types: ["application/x-asar"] },
  pyc: { extensions: ["pyc"], types: [] },
  // Office files with macros (file-type names them apart from docx / xlsx / pptx).
  docm: { extensions: ["docm"], types: ["application/vnd.ms-word.document.macroenabled.12"] },
  dotm: { extensions: ["dotm"], types: ["application/vnd.ms-word.template.macroenabled.12"] },
  xlsm: { extensions: ["xlsm"], types: ["application/vnd.ms-excel.sheet.macroenabled.12"] },
  xltm: { extensions: ["xltm"], types: ["application/vnd.ms-excel.template.macroenabled.12"] },
  pptm: { extensions: ["pptm"], types: ["application/vnd.ms-powerpoint.presentation.macroenabled.12"] },
  potm: { extensions: ["potm"], types: ["application/vnd.ms-powerpoint.template.macroenabled.12"] },
  ppsm: { extensions: ["ppsm"], types: ["application/vnd.ms-powerpoint.slideshow.macroenabled.12"] },
};

/** Formats (file-type extension names) of programs: refused by the bytes, never allowable by a site. */
export const EXECUTABLE_FORMATS: ReadonlySet<string> = new Set(Object.keys(PROGRAM_FORMATS));

/** Final file name extensions of programs and scripts: refused whatever the bytes say. */
export const EXECUTABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  ...Object.keys(PROGRAM_FORMATS),
  ...Object.values(PROGRAM_FORMATS).flatMap((p) => p.extensions),
  // Scripts and other things that run, which no byte signature names.
  "sh", "bash", "zsh", "csh", "ksh", "fish", "command", "bat", "cmd", "ps1", "psm1", "psd1", "vbs", "vbe", "wsf", "wsh", "hta", "js", "mjs", "cjs", "jse", "ts", "py", "pyw", "pl", "rb", "php", "phtml", "cgi", "lua", "inf", "gadget", "scf", "url", "appref-ms", "application", "jnlp", "msix", "appx", "xbap", "settingcontent-ms", "library-ms", "search-ms",
]);

/** Final extensions of markup a browser renders or runs. */
export const MARKUP_EXTENSIONS: ReadonlySet<string> = new Set(["html", "htm", "shtml", "xhtml", "xht", "xml", "svg", "svgz", "xsl", "xslt", "mht", "mhtml", "rss", "atom"]);

/** Declared types of programs and scripts (compared without parameters, lower case). */
export const EXECUTABLE_TYPES: ReadonlySet<string> = new Set([
  ...Object.values(PROGRAM_FORMATS).flatMap((p) => p.types),
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
