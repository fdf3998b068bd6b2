package io.github.uidgen.worker.jdbc;

import java.util.List;
import java.util.function.Supplier;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.fleet.WorkerState;

/**
 * Reads the lease table and its claim history for {@link JdbcLeaseWorkerIdAssigner#fleet()}: plain reads in a
 * READ COMMITTED transaction of their own, which take no lock a claim or renewal waits for, each round trip bounded
 * as the assigner's are. States are judged by the database's clock, as claims judge them. The layout's row is not a
 * worker ID and is left out, and so are the rows of worker IDs never leased. Without a history table (an older
 * deployment that does not let uid create tables) {@link #history} is empty and the listing carries no claim times.
 */
final class JdbcLeaseFleet implements WorkerFleet {

	private final JdbcStore store;

	private final Supplier<LeaseTables> tables;

	JdbcLeaseFleet(JdbcStore store, Supplier<LeaseTables> tables) {
		this.store = store;
		this.tables = tables;
	}

	@Override
	public FleetSnapshot read(int maxWorkers) {
		LeaseTables prepared = this.tables.get();
		String table = prepared.lease().table();
		String now = prepared.dialect().now();
		String live = "lease_token IS NOT NULL AND lease_expires_at >= " + now;
		String workers = " FROM " + table + " l WHERE worker_id < " + LeaseTable.LAYOUT_ROW + " AND instance_id <> '"
				+ LeaseTable.NEVER_LEASED + "'";
		String countSql = "SELECT COUNT(*), COALESCE(SUM(CASE WHEN " + live + " THEN 1 ELSE 0 END), 0)" + workers;
		String claimedAt = (prepared.claims() != null) ? "(SELECT " + prepared.dialect().epochMillis("c.claimed_at")
				+ " FROM " + prepared.claims().table() + " c WHERE c.worker_id = l.worker_id AND c.instance_id = "
				+ "l.instance_id ORDER BY c.claim_no DESC LIMIT 1)" : "NULL";
		String listSql = "SELECT worker_id, instance_id, host_name, CASE WHEN lease_token IS NULL THEN 'RELEASED' "
				+ "WHEN lease_expires_at >= " + now + " THEN 'HELD' ELSE 'EXPIRED' END, "
				+ prepared.dialect().epochMillis("lease_expires_at") + ", high_water_mark, " + claimedAt + workers
				+ " ORDER BY worker_id LIMIT ?";
		return this.store.call((jdbc) -> {
			long[] counts = jdbc.sql(countSql)
				.query((row, number) -> new long[] { row.getLong(1), row.getLong(2) })
				.single();
			List<FleetWorker> listed = jdbc.sql(listSql).param(Math.max(0, maxWorkers)).query((row, number) -> {
				long mark = row.getLong(6);
				if (row.wasNull()) {
					mark = WorkerAssignment.NO_MARK;
				}
				return new FleetWorker(row.getLong(1), WorkerState.valueOf(row.getString(4)), row.getString(2),
						row.getString(3), ClaimTable.instant(row, 7), ClaimTable.instant(row, 5), mark);
			}).list();
			return new FleetSnapshot("db", table, counts[1], counts[0], listed);
		});
	}

	@Override
	public ClaimHistory history(long workerId) {
		ClaimTable claims = this.tables.get().claims();
		if (claims == null) {
			return new ClaimHistory(workerId, List.of());
		}
		return this.store.call((jdbc) -> claims.history(jdbc, workerId));
	}

}
