import type { JobStepDefinition } from "../imports/job-step";
import { advanceExport } from "./build-step";
import { exportJobView, loadExportJob } from "./jobs";

/** The export's job steps (spec 2, rule 5: an export step runs again while the export did not move). */
export const EXPORT_STEPS = {
  advanceExport: {
    job: "export",
    rerun: "always",
    run: advanceExport,
    current: async (ctx, jobId) => ({ export: exportJobView(await loadExportJob(ctx, jobId)) }),
  } satisfies JobStepDefinition<object>,
} as const;
