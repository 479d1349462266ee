CREATE INDEX `outbox_applied` ON `outbox` (`applied_at`,`published_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `round_reports_created` ON `round_reports` (`created_at`);