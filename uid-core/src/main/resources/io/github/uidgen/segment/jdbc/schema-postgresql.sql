-- Table of the uid segment generator, for PostgreSQL 10+.
-- The store substitutes the configured table name for UID_SEGMENT.

-- One row per key (Leaf's biz_tag). max_id is the last number of the latest segment handed out to any instance;
-- the next claim of N numbers moves it to max_id + N and hands out max_id + 1 .. max_id + N. It only ever grows.
-- A key's row is inserted (with max_id 0) at its first claim; insert it by hand to start a key elsewhere.
CREATE TABLE IF NOT EXISTS UID_SEGMENT (
	segment_key VARCHAR(128) NOT NULL PRIMARY KEY,
	max_id      BIGINT       NOT NULL,
	created     TIMESTAMPTZ  NOT NULL,
	modified    TIMESTAMPTZ  NOT NULL
);
