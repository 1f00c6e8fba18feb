import { EXPORT_STEPS } from "../../shared/services/exports/steps";
import { IMPORT_STEPS } from "../../shared/services/imports/steps";

/** Every job step a SiteObject runs, by operation (spec 2, idempotency rule 5; objects/site/job-steps.ts). */
export const JOB_STEPS = { ...IMPORT_STEPS, ...EXPORT_STEPS } as const;

export type JobStepName = keyof typeof JOB_STEPS;
