CREATE TABLE "cloud_queue_turns" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"last_start" bigint NOT NULL,
	"next_start" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cloud_queue_turns" ADD CONSTRAINT "cloud_queue_turns_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cloud_queue_turns_last_start_index" ON "cloud_queue_turns" USING btree ("last_start");