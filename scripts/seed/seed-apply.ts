/** How the seed writes: a service's write plan committed with commitPlan, and a model added that way. */
import type { Model } from "../../shared/repositories/model-repository";
import { commitPlan, type LifecycleContext, type WritePlan } from "../../shared/services/lifecycle";
import { createModel, type CreateModelInput } from "../../shared/services/models/create-model";

export async function apply<T>(ctx: LifecycleContext, plan: Promise<WritePlan<T>>): Promise<T> {
  return (await commitPlan(ctx, await plan)).answer;
}

export async function addModel(ctx: LifecycleContext, input: CreateModelInput): Promise<Model> {
  return apply(ctx, createModel(ctx, input));
}
