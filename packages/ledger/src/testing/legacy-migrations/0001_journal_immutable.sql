-- The journal is append-only: corrections are new entries, never edits.
CREATE TRIGGER `journal_entries_no_update` BEFORE UPDATE ON `journal_entries` FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'journal_entries is append-only';
--> statement-breakpoint
CREATE TRIGGER `journal_entries_no_delete` BEFORE DELETE ON `journal_entries` FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'journal_entries is append-only';
