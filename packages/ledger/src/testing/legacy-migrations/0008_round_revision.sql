ALTER TABLE `round_reconciliations` ADD `revision` int DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `round_reports` ADD `revision` int DEFAULT 1 NOT NULL;