CREATE TABLE `side_effect_failures` (
	`event_id` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`topic` varchar(32) NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
	`attempts` int NOT NULL,
	`last_error` varchar(1000) NOT NULL,
	`first_failed_at` datetime(3) NOT NULL,
	`last_failed_at` datetime(3) NOT NULL,
	`dead_at` datetime(3),
	CONSTRAINT `side_effect_failures_event_id_topic_pk` PRIMARY KEY(`event_id`,`topic`)
);
--> statement-breakpoint
ALTER TABLE `outbox` ADD `dead_at` datetime(3);--> statement-breakpoint
CREATE INDEX `side_effect_failures_dead` ON `side_effect_failures` (`dead_at`);