ALTER TABLE "devices" ADD COLUMN "public_key" text;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "vault_values_allowed_at" timestamp with time zone;