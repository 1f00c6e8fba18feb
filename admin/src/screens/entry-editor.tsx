import { Notice, PageHeader } from "../ui/controls";
import type { ScreenProps } from "./types";

/** Placeholder until this screen is built (issue #15). */
export default function EntryEditor(_props: ScreenProps) {
  return (
    <>
      <PageHeader title="EntryEditor" />
      <Notice kind="info" title="This screen is being built." />
    </>
  );
}
