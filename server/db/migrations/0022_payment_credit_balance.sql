ALTER TABLE "payments" ADD COLUMN "credit_applied" numeric(10, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "credit_to_balance" numeric(10, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_credit_check" CHECK ("payments"."credit_applied" >= 0 and "payments"."credit_to_balance" >= 0);