CREATE TABLE `operator_api_tokens` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`public_id` varchar(16) NOT NULL,
	`token_hash` char(64) NOT NULL,
	`tenant_id` bigint unsigned NOT NULL,
	`scope` varchar(8) NOT NULL,
	`label` varchar(128) NOT NULL,
	`created_at` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
	`revoked_at` datetime(3),
	CONSTRAINT `operator_api_tokens_id` PRIMARY KEY(`id`),
	CONSTRAINT `operator_api_tokens_public` UNIQUE(`public_id`),
	CONSTRAINT `operator_api_tokens_hash` UNIQUE(`token_hash`)
);
