/**
 * Demo of content rules (docs/content-rules-reverse-single-unique.md): a `product` model whose brand
 * and SKU are unique together (named combination `brand_sku`); the single `homepage` model and the
 * reverse relations of categories (GET /v1/category/{slug}/related-from) come from the main demo.
 */
import type { LifecycleContext } from "../../shared/services/lifecycle";
import { commitPlan, createEntry, publishEntry } from "../../shared/services/lifecycle";
import { createModel } from "../../shared/services/models/create-model";

const PRODUCTS = [
  { slug: "driftwood-stool", name: "Driftwood stool", brand: "Tideline", sku: "ST-01" },
  { slug: "rope-lamp", name: "Rope lamp", brand: "Tideline", sku: "LA-02" },
  // The same SKU under another brand is allowed: only the pair must be unique.
  { slug: "beach-stool", name: "Beach stool", brand: "Saltworks", sku: "ST-01" },
];

export async function seedRulesDemo(ctx: LifecycleContext, log: string[]): Promise<void> {
  const product = (
    await commitPlan(
      ctx,
      await createModel(ctx, {
        slug: "product",
        name: "Product",
        description: "Goods from the journal's shop; brand and SKU are unique together.",
        fields: [
          { key: "name", label: "Name", type: "text", required: true, title: true },
          { key: "brand", label: "Brand", type: "text", required: true },
          { key: "sku", label: "SKU", type: "text", required: true },
        ],
        unique_combinations: [{ name: "brand_sku", fields: ["brand", "sku"], scope: "model" }],
      }),
    )
  ).answer;
  for (const p of PRODUCTS) {
    const entry = (await commitPlan(ctx, await createEntry(ctx, { model_id: product.id, slug: p.slug, fields: { name: p.name, brand: p.brand, sku: p.sku } }))).answer;
    await commitPlan(ctx, await publishEntry(ctx, { instance_id: entry.instance_id }));
  }
  log.push(`demo: model product (unique combination brand_sku) and ${PRODUCTS.length} published products.`);
}
