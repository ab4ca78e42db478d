CREATE TABLE "automation_files" (
	"automation_id" uuid NOT NULL,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_files_automation_id_name_pk" PRIMARY KEY("automation_id","name")
);
--> statement-breakpoint
ALTER TABLE "automation_files" ADD CONSTRAINT "automation_files_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;