CREATE TABLE "loop_reminders" (
	"loop_id" bigint PRIMARY KEY NOT NULL,
	"own_questions" text[] DEFAULT '{}'::text[] NOT NULL,
	"last_question" text,
	"last_call_for" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "loop_reminders" ADD CONSTRAINT "loop_reminders_loop_id_loops_id_fk" FOREIGN KEY ("loop_id") REFERENCES "public"."loops"("id") ON DELETE cascade ON UPDATE no action;