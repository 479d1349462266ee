CREATE TABLE `operator_actions` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`action` varchar(32) NOT NULL,
	`subject` varchar(255) NOT NULL,
	`actor` varchar(128) NOT NULL,
	`detail` mediumtext NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	CONSTRAINT `operator_actions_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `refused_closes` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`body_sha256` char(64) NOT NULL,
	`round_id` varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
	`provider_tx_id` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
	`reason` varchar(32) NOT NULL,
	`message` varchar(2000) NOT NULL,
	`body` mediumtext NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	`resolved_at` datetime(3),
	`resolution` varchar(255),
	CONSTRAINT `refused_closes_id` PRIMARY KEY(`id`),
	CONSTRAINT `refused_closes_tenant_body` UNIQUE(`tenant_id`,`body_sha256`)
);
--> statement-breakpoint
CREATE INDEX `operator_actions_tenant` ON `operator_actions` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `refused_closes_open` ON `refused_closes` (`tenant_id`,`resolved_at`,`id`);--> statement-breakpoint
CREATE INDEX `refused_closes_round` ON `refused_closes` (`tenant_id`,`round_id`);