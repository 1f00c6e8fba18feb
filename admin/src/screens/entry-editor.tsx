/** Until the entry editor lands (issue #15 item 4), the lifecycle's stand-in form (admin/src/editor/lifecycle-harness.tsx). */
export { default } from "../editor/lifecycle-harness";
