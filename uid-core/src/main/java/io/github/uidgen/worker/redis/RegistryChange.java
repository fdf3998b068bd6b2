package io.github.uidgen.worker.redis;

/**
 * What the registry script saw happen to the Redis that holds the registry since it was last written: another process
 * serves it now. The script tells the cases apart by what the new process says about itself: a replica promoted in its
 * master's place carries the master's replication ID as its previous one, a Cluster slot moved lands on a master with
 * another node ID, and anything else on the same node (or a standalone server) is a restart. Whether the data came
 * through intact, the script cannot tell; each holder checks its own record.
 *
 * @param kind {@code moved}, {@code failover}, {@code restarted}, {@code lost} (the registry was created anew) or
 * {@code unnamed} (no process was named)
 * @param before the {@code run_id} of the process that wrote the registry before, or {@code -}
 * @param beforeNode its Cluster node ID, or {@code -}
 * @param now the {@code run_id} of the process that serves it now
 * @param nowNode its Cluster node ID, or {@code -}
 */
record RegistryChange(String kind, String before, String beforeNode, String now, String nowNode) {

	/**
	 * Reads what the script reported.
	 * @param reported {@code <kind> <run_id before> <node before> <run_id now> <node now>}, or empty when nothing
	 * changed
	 * @return the change, or {@code null} when nothing changed
	 */
	static RegistryChange parse(String reported) {
		if (reported == null || reported.isBlank()) {
			return null;
		}
		String[] parts = reported.trim().split("\\s+");
		return new RegistryChange(parts[0], part(parts, 1), part(parts, 2), part(parts, 3), part(parts, 4));
	}

	private static String part(String[] parts, int index) {
		return (index < parts.length) ? parts[index] : "-";
	}

	/**
	 * Says what a kind of change is, in words, without the processes involved.
	 * @param kind {@code moved}, {@code failover}, {@code restarted}, {@code lost} or {@code unnamed}
	 * @return for example "Redis was restarted"
	 */
	static String kindInWords(String kind) {
		return switch (kind) {
			case "moved" -> "the registry's Cluster slot moved to another master";
			case "failover" -> "Redis failed over to a replica";
			case "restarted" -> "Redis was restarted";
			case "lost" -> "Redis lost the worker registry, which was created anew";
			default -> "the registry named no Redis process as its writer";
		};
	}

	/**
	 * Says what happened, in words.
	 * @return for example "the registry's Cluster slot moved to another master (node 5b0a… → 9c1d…)"
	 */
	String describe() {
		return switch (this.kind) {
			case "moved" -> "the registry's Cluster slot moved to another master (" + (this.beforeNode.equals("-")
					? "run_id " + this.before + " → " + this.now : "node " + this.beforeNode + " → " + this.nowNode)
					+ ")";
			case "failover" -> "Redis failed over to a replica (run_id " + this.before + " → " + this.now
					+ (this.nowNode.equals("-") ? "" : ", node " + this.nowNode) + ")";
			case "restarted" -> "Redis was restarted (run_id " + this.before + " → " + this.now + ")";
			case "lost" -> "Redis lost the worker registry, which was created anew (run_id " + this.before + " → "
					+ this.now + ")";
			default -> "the registry named no Redis process as its writer (restored from a snapshot taken before its "
					+ "first claim, or marked new by hand without naming the process)";
		};
	}

}
