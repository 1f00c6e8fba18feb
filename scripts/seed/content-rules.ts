/**
 * The demo's use of issue #13's field rules (docs/content-rules-fields.md), kept in one block: the
 * article model gets a `format` select with a `video_url` shown (and required) only for videos, an
 * `seo` component with a private nested note, and a repeatable `faq` component.
 */
import type { CreateModelInput } from "../../shared/services/models/create-model";
import type { ArticleSpec } from "./content";

export const ARTICLE_RULE_FIELDS: CreateModelInput["fields"] = [
  { key: "format", label: "Format", type: "select", options: [{ value: "story", label: "Story" }, { value: "video", label: "Video" }] },
  {
    key: "video_url",
    label: "Video URL",
    type: "text",
    help: "Shown, and required to publish, for video articles only.",
    required: true,
    validation: { pattern: "^https://" },
    condition: { field: "format", op: "in", value: ["video"] },
  },
  {
    key: "seo",
    label: "SEO",
    type: "component",
    fields: [
      { key: "title", label: "SEO title", type: "text", validation: { max_length: 70 } },
      { key: "description", label: "Meta description", type: "long_text", validation: { max_length: 160 } },
      { key: "review_note", label: "Review note", type: "text", private: true },
    ],
  },
  {
    key: "faq",
    label: "FAQ",
    type: "component",
    multiple: true,
    validation: { max_items: 5 },
    fields: [
      { key: "question", label: "Question", type: "text", required: true },
      { key: "answer", label: "Answer", type: "long_text", required: true },
    ],
  },
];

/** The rule fields' values of the `index`th demo article: every fifth a video, every sixth with a FAQ. */
export function articleRuleValues(spec: ArticleSpec, index: number): Record<string, unknown> {
  const video = index % 5 === 1;
  return {
    format: video ? "video" : "story",
    ...(video ? { video_url: `https://video.example/driftwood/${index}` } : {}),
    seo: { title: spec.title.slice(0, 70), description: spec.summary.slice(0, 160), ...(index % 7 === 0 ? { review_note: "Checked by the desk." } : {}) },
    ...(index % 6 === 2 ? { faq: [{ question: `What is “${spec.title.slice(0, 60)}” about?`, answer: spec.summary }] } : {}),
  };
}
