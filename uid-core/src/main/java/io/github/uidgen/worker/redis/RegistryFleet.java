package io.github.uidgen.worker.redis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.worker.WorkerAssignment;
import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.fleet.ClaimEnd;
import io.github.uidgen.worker.fleet.ClaimHistory;
import io.github.uidgen.worker.fleet.FleetSnapshot;
import io.github.uidgen.worker.fleet.FleetWorker;
import io.github.uidgen.worker.fleet.WorkerClaim;
import io.github.uidgen.worker.fleet.WorkerFleet;
import io.github.uidgen.worker.fleet.WorkerState;
import io.github.uidgen.worker.support.LeaseSettings;

/**
 * Reads a namespace of the Redis registry for operators with {@code fleet.lua}, which reads only the registry's own
 * keys and caps the work of each run, through the assigner's connection factory and so within its command timeout.
 */
final class RegistryFleet implements WorkerFleet {

	/** Fields per worker ID in the read script's reply. */
	private static final int WORKER_FIELDS = 7;

	/** Fields per claim in the history script's reply. */
	private static final int CLAIM_FIELDS = 6;

	/** The read stops looking worker IDs up at this one. */
	private static final long MAX_LOOKED_UP = 65_536;

	private final RegistryNamespace registry;

	RegistryFleet(RegistryNamespace registry) {
		this.registry = registry;
	}

	/**
	 * Reads the fleet in runs of the read script that list up to 256 worker IDs each, so that claims and renewals get
	 * their turn in between; the counts are those of the first run. Worker IDs from {@value #MAX_LOOKED_UP} up are
	 * not listed: handed out lowest first, a namespace's worker IDs lie close to 0.
	 */
	@Override
	public FleetSnapshot read(int maxWorkers) {
		List<FleetWorker> workers = new ArrayList<>();
		List<String> first = null;
		String next = "0";
		while (!next.isEmpty() && (first == null || workers.size() < maxWorkers)
				&& Long.parseLong(next) < MAX_LOOKED_UP) {
			List<String> reply = expect("fleet", this.registry.scripts()
				.readFleet(Long.parseLong(next), workers.size(), Math.max(0, maxWorkers - workers.size())));
			if (first == null) {
				first = reply;
			}
			for (int i = 5; i + WORKER_FIELDS <= reply.size(); i += WORKER_FIELDS) {
				workers.add(new FleetWorker(Long.parseLong(reply.get(i)), state(reply.get(i + 1)),
						text(reply.get(i + 2)), text(reply.get(i + 3)), instant(reply.get(i + 4)),
						instant(reply.get(i + 5)), mark(reply.get(i + 6))));
			}
			next = reply.get(4);
		}
		return new FleetSnapshot("redis", this.registry.hashTag(), Long.parseLong(first.get(3)),
				Long.parseLong(first.get(2)), workers);
	}

	/**
	 * Reads every claim kept, up to the most any assigner may keep whatever this one keeps itself, in runs of the
	 * script that read up to 256 claims each.
	 */
	@Override
	public ClaimHistory history(long workerId) {
		List<WorkerClaim> claims = new ArrayList<>();
		String next = "";
		do {
			List<String> reply = expect("claims", this.registry.scripts().readHistory(workerId, next));
			for (int i = 2; i + CLAIM_FIELDS <= reply.size(); i += CLAIM_FIELDS) {
				claims.add(new WorkerClaim(workerId, text(reply.get(i)), text(reply.get(i + 1)),
						instant(reply.get(i + 2)), instant(reply.get(i + 3)), mark(reply.get(i + 4)),
						end(reply.get(i + 5))));
			}
			next = reply.get(1);
		}
		while (!next.isEmpty() && claims.size() < LeaseSettings.MAX_CLAIM_HISTORY);
		return new ClaimHistory(workerId, claims);
	}

	private List<String> expect(String first, List<String> reply) {
		if (!first.equals(reply.get(0))) {
			throw new WorkerAssignmentException("Unexpected reply from the uid fleet script under "
					+ this.registry.hashTag() + ": " + reply);
		}
		return reply;
	}

	private static WorkerState state(String state) {
		return switch (state) {
			case "held" -> WorkerState.HELD;
			case "expired" -> WorkerState.EXPIRED;
			default -> WorkerState.RELEASED;
		};
	}

	private static ClaimEnd end(String end) {
		return switch (end) {
			case "released" -> ClaimEnd.RELEASED;
			case "expired" -> ClaimEnd.EXPIRED;
			default -> ClaimEnd.OPEN;
		};
	}

	private static String text(String value) {
		return value.isEmpty() ? null : value;
	}

	private static Instant instant(String millis) {
		return millis.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(millis));
	}

	private static long mark(String millis) {
		return millis.isEmpty() ? WorkerAssignment.NO_MARK : Long.parseLong(millis);
	}

}
