package io.github.uidgen.worker.zookeeper;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which instance claimed each worker ID last, told by the names of the empty znodes {@code owners/<id>-<instance>}
 * (the instance ID URL-encoded), so that one listing tells a claim its own previous worker IDs. Without it a claim
 * had to read every worker znode to find the one its instance held before: a fleet of 1,000 starting at once read
 * 206,000 znodes, and a rolling restart read the whole registry once per instance.
 *
 * <p>A claim's transaction, which writes the worker znode over the version read, deletes the previous owner's znode
 * and creates its own, so a worker ID has at most one, in step with the worker znode's record. It is a hint only: a
 * claim reads the worker znode it names and trusts the record, and a registry written before the owners existed has
 * none until each worker ID is claimed again.
 */
final class WorkerOwners {

	private final Map<Long, String> entries;

	private WorkerOwners(Map<Long, String> entries) {
		this.entries = entries;
	}

	/** No owner known for any worker ID. */
	static final WorkerOwners NONE = new WorkerOwners(Map.of());

	/**
	 * Reads the children of the owners znode; names that are not an owner's are left out.
	 * @param names the children's names
	 * @return the owners
	 */
	static WorkerOwners of(List<String> names) {
		Map<Long, String> entries = new HashMap<>();
		for (String name : names) {
			if (workerIdOf(name) >= 0) {
				entries.put(workerIdOf(name), name);
			}
		}
		return new WorkerOwners(entries);
	}

	/**
	 * Returns the name of the owner znode for a worker ID claimed by an instance.
	 * @param workerId the worker ID
	 * @param instanceId the instance ID
	 * @return {@code <workerId>-<URL-encoded instance ID>}
	 */
	static String entry(long workerId, String instanceId) {
		return workerId + "-" + URLEncoder.encode(instanceId, StandardCharsets.UTF_8);
	}

	/**
	 * Returns the name of the owner znode a worker ID has.
	 * @param workerId the worker ID
	 * @return the name, {@code null} when it has none
	 */
	String entryOf(long workerId) {
		return this.entries.get(workerId);
	}

	/**
	 * Returns the worker IDs an instance claimed last, lowest first.
	 * @param instanceId the instance ID
	 * @return the worker IDs
	 */
	Set<Long> claimedBy(String instanceId) {
		Set<Long> ids = new TreeSet<>();
		this.entries.forEach((workerId, name) -> {
			if (name.equals(entry(workerId, instanceId))) {
				ids.add(workerId);
			}
		});
		return ids;
	}

	private static long workerIdOf(String name) {
		int dash = name.indexOf('-');
		if (dash <= 0 || dash > 19) {
			return -1;
		}
		try {
			long id = Long.parseLong(name.substring(0, dash));
			return (id >= 0 && Long.toString(id).equals(name.substring(0, dash))) ? id : -1;
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

}
