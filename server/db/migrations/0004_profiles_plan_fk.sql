-- Members left on a plan that no longer exists (deleted while they were on it) fall back to Free, so the key can be added. Free is recreated only if such members exist and it is missing.
INSERT INTO "subscription_plans" ("name", "slug", "price", "credits_per_month", "sort_order")
SELECT 'Free', 'free', 0, 5, 0
WHERE EXISTS (SELECT 1 FROM "profiles" WHERE "subscription_plan" NOT IN (SELECT "slug" FROM "subscription_plans"))
ON CONFLICT ("slug") DO NOTHING;--> statement-breakpoint
UPDATE "profiles" SET "subscription_plan" = 'free', "updated_at" = now()
WHERE "subscription_plan" NOT IN (SELECT "slug" FROM "subscription_plans");--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_subscription_plan_subscription_plans_slug_fk" FOREIGN KEY ("subscription_plan") REFERENCES "public"."subscription_plans"("slug") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "profiles_subscription_plan_index" ON "profiles" USING btree ("subscription_plan");