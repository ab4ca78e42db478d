-- The template gallery (docs/decisions/022): templates the site's admins publish, and which plans
-- may use the advanced ones.
CREATE TABLE "automation_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"category" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"steps" jsonb NOT NULL,
	"steps_version" integer DEFAULT 2 NOT NULL,
	"inputs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"advanced" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_templates_slug_unique" UNIQUE("slug"),
	CONSTRAINT "automation_templates_category_check" CHECK ("category" in ('data-entry', 'form-submission', 'site-navigation', 'scraping', 'monitoring'))
);
--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "advanced_templates" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "automation_templates_published_category_index" ON "automation_templates" USING btree ("published","category");--> statement-breakpoint
-- "Advanced workflow templates" is sold with Business.
UPDATE "subscription_plans" SET "advanced_templates" = true WHERE "slug" = 'business';
