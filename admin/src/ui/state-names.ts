/** The built-in workflow states as a person reads them (the badge and the editor's buttons share these words). */
export const STATE_NAMES: Readonly<Record<string, string>> = { draft: "Draft", in_review: "In review", published: "Published", unpublished: "Unpublished" };

/** A workflow state as a person reads it ("In review"); a site's own states with spaces for underscores. */
export const stateName = (state: string): string => STATE_NAMES[state] ?? state.replace(/_/g, " ");
