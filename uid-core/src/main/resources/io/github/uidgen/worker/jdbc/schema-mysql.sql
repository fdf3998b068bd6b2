-- Tables of the uid db worker ID assigner, for MySQL 5.7+ and MariaDB 10.3+.
-- The assigner substitutes configured table names for UID_WORKER_LEASE, UID_WORKER_LEASE_CLAIM and WORKER_NODE.

-- Lease mode: one row per worker ID; a worker ID is free when its lease was released (lease_token is
-- NULL) or has expired by the database clock. The start that records the layout (worker_id 2^62) makes
-- the layout's first 4,096 worker IDs free rows never leased (instance_id ''); a claim beyond them
-- inserts its row. high_water_mark is the latest time, in epoch milliseconds, the worker may have issued
-- IDs for; it only ever grows.
CREATE TABLE IF NOT EXISTS UID_WORKER_LEASE (
	worker_id        BIGINT       NOT NULL,
	instance_id      VARCHAR(255) NOT NULL,
	lease_token      VARCHAR(64)  NULL,
	host_name        VARCHAR(255) NOT NULL,
	port             VARCHAR(64)  NULL,
	lease_expires_at DATETIME(3)  NOT NULL,
	high_water_mark  BIGINT       NULL,
	created          DATETIME(3)  NOT NULL,
	modified         DATETIME(3)  NOT NULL,
	PRIMARY KEY (worker_id)
) ENGINE = InnoDB;

-- Lease mode's claim history: one row per claim of a worker ID, the newest few hundred of each kept
-- (uid.worker.claim-history), so that an ID can be traced to the instance that issued it. Named after the
-- lease table with _CLAIM appended. Written in the claim's transaction, closed in the release's (end_kind
-- RELEASED) or by the claim that finds the lease expired (EXPIRED, ended_at = the lease's expiry).
-- after_mark is the high-water mark the claim found: its IDs all lie after it.
CREATE TABLE IF NOT EXISTS UID_WORKER_LEASE_CLAIM (
	worker_id   BIGINT       NOT NULL,
	claim_no    BIGINT       NOT NULL,
	instance_id VARCHAR(255) NOT NULL,
	host_name   VARCHAR(255) NOT NULL,
	claimed_at  DATETIME(3)  NOT NULL,
	ended_at    DATETIME(3)  NULL,
	after_mark  BIGINT       NULL,
	end_kind    VARCHAR(16)  NOT NULL,
	PRIMARY KEY (worker_id, claim_no)
) ENGINE = InnoDB;

-- Disposable mode: one row per start, the new ID is the worker ID; the columns match the reference
-- UidGenerator's table so an existing one keeps working. TYPE: 1 = container, 2 = actual machine.
CREATE TABLE IF NOT EXISTS WORKER_NODE (
	ID          BIGINT      NOT NULL AUTO_INCREMENT,
	HOST_NAME   VARCHAR(64) NOT NULL,
	PORT        VARCHAR(64) NOT NULL,
	TYPE        INT         NOT NULL,
	LAUNCH_DATE DATE        NOT NULL,
	MODIFIED    TIMESTAMP   NOT NULL,
	CREATED     TIMESTAMP   NOT NULL,
	PRIMARY KEY (ID)
) ENGINE = InnoDB;
